/*
 * A site's own rules: a file in the format of data/ (--rules FILE, else
 * the file $SMTPCODE_RULES names), read at start and checked as the build
 * checks data/, applied before the built-in knowledge.  The library reads
 * and applies them (smtpcode_rules_parse(), src/core/rules.c); this layer
 * reads the file, says what is wrong on stderr and keeps the command's
 * one set of rules, which rules_loaded() gives.
 */
#ifndef SMTPCODE_CLI_RULES_H
#define SMTPCODE_CLI_RULES_H

#include <stdbool.h>
#include <stddef.h>

#include "smtpcode.h"
/* The library's matchers, by path: "rules.h" is this file here. */
#include "../core/rules.h"

/* Read the rules of path: 0, or -1 after one "FILE:LINE: message" line
 * on stderr per error found. */
int rules_load(const char *path);
void rules_free(void);

/* The rules rules_load() read; NULL when none were. */
const struct smtpcode_rules *rules_loaded(void);

/* Where the rule that holds s (a phrase or marker of the loaded rules)
 * is written, "FILE:LINE"; NULL for any other s (the built-in ones). */
const char *rules_origin(const char *s);
/* The name of the site's entry whose match fragment s is; NULL for any
 * other s. */
const char *rules_name(const char *s);

#endif
