/* Renderers of a resolved lookup; each writes through output.h. */
#ifndef SMTPCODE_RENDER_H
#define SMTPCODE_RENDER_H

#include "fields.h"
#include "logs.h"
#include "smtpcode.h"

/* The entry a person reads; input is the argument, for the reply text. */
void render_text(const struct smtpcode_result *r, const char *input);

/* One entry in full: the verdict, then the explanation. */
void render_entry(const struct smtpcode_entry *e);
/* A class-independent code (X.3.1): what each class of it means. */
void render_topic(const struct smtpcode_entry *e,
                  const struct smtpcode_query *q);
/* A code the table lacks: what its digits still tell. */
void render_inferred(const char *code, const struct smtpcode_result *r);
/* A category row ("4.XXX.YYY", "x5z"): what a digit means. */
void render_category(const struct smtpcode_entry *e);

/* s as a JSON string, escaped (RFC 8259; invalid UTF-8 as U+FFFD). */
void json_plain(const char *s);

/* One line or object per result, for scripts. */
void render_json(const struct row *w);
void render_tsv(const struct row *w);
void render_brief(const struct row *w);
void render_field(const struct row *w, enum field_id f);

/* A log line as read, then (w non-NULL) "  => " and its verdict. */
void render_annotation(const char *line, size_t len, const struct row *w);
/* A record from a log or a message, in the chosen format. */
void render_record(enum record_format format, const struct row *w);

/* The providers, with how many entries each has; tsv: "id\tcount\tname"
 * lines only. */
void render_providers(bool tsv);

#endif
