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
/*
 * The severity word in colour, the same in every text view (the entry's
 * Severity line, -b, --list, --search, the log and bounce records,
 * --summary): success green, temporary yellow, permanent red.
 */
/* The colour of severity value v; SGR_RESET for none (unset, unknown). */
enum sgr severity_color(int v);
/* The escape sequence that starts severity word word ("permanent"), or ""
 * when colour is off or word is no severity ("-"); out_sgr(SGR_RESET)
 * ends it. */
const char *severity_sgr(const char *word);
/* word, coloured so, then spaces up to pad columns (as printf's "%-*s"). */
void out_severity(const char *word, size_t pad);
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
