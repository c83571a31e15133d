/*
 * The words of a bounce's text that every reader looks for: addresses as
 * bounces write them among other words, replies that start with a
 * failure code, hosts, and the indented lines that continue a text.
 * Shared by the message reader (mail.c) and the text-bounce reader
 * (textbounce.c).  Internal to the library.
 */
#ifndef SMTPCODE_WORDS_H
#define SMTPCODE_WORDS_H

#include <stdbool.h>
#include <stddef.h>

#include "mime.h"

struct span mail_no_span(void);
/* Whether a and b are the same text, ignoring ASCII case. */
bool mail_same_text(struct span a, struct span b);
/* s up to its first blank, ';' or '(' : a code, a host, an action. */
struct span mail_first_word(struct span s);
/* Whether s, after the punctuation that leads into a reply, starts with a
 * failure code (else holds an enhanced one); *reply gets it to s's end. */
bool mail_reply_in(struct span s, struct span *reply);
/* The address around the first '@' of s; empty when there is none. */
struct span mail_address_in(struct span s);
/* Whether s is an address and nothing else. */
bool mail_is_address(struct span s);
/* A line that holds only an address: the address. */
bool mail_lone_address(struct span line, struct span *addr);
/* Take the next word that holds an '@' off *words. */
bool mail_next_address(struct span *words, struct span *addr);
/* Leading blanks of a line, a tab counting as 8. */
size_t mail_indent(struct span line);
/* The host named after an MTA's greeting ("at host mail.example.net."). */
struct span mail_host_after(struct span s);
/* start, extended over the indented lines that follow it in *rest. */
struct span mail_continued(struct span start, struct span *rest);

#endif
