/* The messages of a file, one or an mbox: see mailbox.c. */
#ifndef SMTPCODE_MAILBOX_H
#define SMTPCODE_MAILBOX_H

#include <stddef.h>

/* Where a file's messages are read, kept from file to file (freed by the
 * caller): it grows to the largest message read, not the file. */
struct message_buffer {
	char *data;
	size_t size;
};

/* Called with each message, text[0..len), and its index in its mbox
 * (from 0), or -1 when the file is one message: 0, or -1 after reporting
 * an error (the next messages are still read). */
typedef int message_fn(void *ctx, const char *text, size_t len, long number);

/* Call fn for each message of path ("-": standard input), plain or gzip
 * data: the file is an mbox when it starts with "From ", else one
 * message.  Returns 0; -1 after reporting an error (a read error, bad
 * gzip data, a message over MAX_MESSAGE, fn's), the messages before it
 * given, and those after it when the error was the message's; or
 * STREAM_FOLDER, not reported, when path is a directory. */
int each_message(const char *path, struct message_buffer *b, message_fn *fn,
                 void *ctx);

#endif
