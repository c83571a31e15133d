/* The layout of an entry: labelled lines and headings; see layout.c. */
#ifndef SMTPCODE_LAYOUT_H
#define SMTPCODE_LAYOUT_H

#include "output.h"
#include "smtpcode.h"

#define LABEL_WIDTH 13 /* "  Sent with  " */

/* "  Scope      system (the whole receiving mail system)"; nothing when
 * the value is unset. */
void value_line(const char *label, const struct smtpcode_entry *e,
                enum smtpcode_field f);
/* The same for value v of field f. */
void verdict_line(const char *label, enum smtpcode_field f, int v);
/* "  Pairing    WARNING: rest...", the flag in colour. */
void flagged_line(const char *label, const char *flag, enum sgr color,
                  const char *rest);
/* "  Message    text..."; nothing when s is empty. */
void text_line(const char *label, const char *s);
/* The strings given, up to a NULL, joined into buf[0..size); returns the
 * length.  Cheaper than snprintf where it runs for every line. */
size_t str_cat(char *buf, size_t size, ...);
/* "  Label      " into lead[0..size), size at least 40: the label (ASCII,
 * at most 24 bytes kept) padded to 10 columns, then a space; returns the
 * length. */
size_t label_lead(char *lead, size_t size, const char *label);
/* A blank line, then the title of a section. */
void heading(const char *title);

#endif
