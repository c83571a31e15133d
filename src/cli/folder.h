/* The message files of a folder, by name: see folder.c. */
#ifndef SMTPCODE_FOLDER_H
#define SMTPCODE_FOLDER_H

#include <stddef.h>

struct folder_text;

/* The paths of a folder's files, "DIR/NAME" ("DIR/cur/NAME" in a
 * Maildir), in the order to read them.  All zero at first. */
struct folder {
	char **paths;
	size_t n, room;
	struct folder_text *text; /* the paths' bytes */
};

/* List in f the message files of the directory path, f's paths from
 * before dropped: a Maildir's (path has cur/ and new/: the files of
 * cur/, then of new/), or else the directory's own; each folder's in
 * byte order of the names, hidden files (".NAME") and all but regular
 * files (or links to them) left out, subfolders not entered.  0, or -1
 * after reporting an error (the files listed are in f, to be read).  The
 * paths listed stay valid, at addresses no other path will have, until
 * folder_free(f). */
int folder_list(struct folder *f, const char *path);
void folder_free(struct folder *f);

#endif
