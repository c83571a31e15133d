/* Renderers of a resolved lookup; each writes through output.h. */
#ifndef SMTPCODE_RENDER_H
#define SMTPCODE_RENDER_H

#include "smtpcode.h"

/* The entry a person reads; input is the argument, for the reply text. */
void render_text(const struct smtpcode_result *r, const char *input);

/* A category row ("4.XXX.YYY", "x5z"): what a digit means. */
void render_category(const struct smtpcode_entry *e);

/* The providers, with how many entries each has. */
void render_providers(void);

#endif
