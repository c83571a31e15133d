/*
 * The judgement's steps: the records of data/reasons/precedence.txt
 * ("judge: code", "judge: reason"), each an ordered list of "step: NAME:
 * why" lines.  Checked here (a known part, known step names, each once,
 * every step there) and written into table.c as table_code_steps[] and
 * table_reason_steps[] (src/core/table.h), which src/core/judge.c follows
 * in that order.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gentable.h"

struct part {
	const char *name;              /* judge: NAME */
	const char *const *steps;      /* its step names, by enum table_step */
	const enum table_step *values;
	size_t nsteps;
	const struct record *record;   /* the one that gives it */
};

static const char *const code_names[] = {"reply", "dsn"};
static const enum table_step code_values[] = {TABLE_STEP_REPLY,
                                              TABLE_STEP_STATUS};
static const char *const reason_names[] = {"message", "rules",
    "own-meaning", "phrase", "specific-words", "code", "words"};
static const enum table_step reason_values[] = {TABLE_STEP_MESSAGE,
    TABLE_STEP_RULES, TABLE_STEP_OWN_MEANING, TABLE_STEP_PHRASE,
    TABLE_STEP_SPECIFIC_WORDS, TABLE_STEP_CODE, TABLE_STEP_WORDS};

static struct part parts[] = {
	{"code", code_names, code_values, 2, NULL},
	{"reason", reason_names, reason_values, 7, NULL},
};
#define NPARTS (sizeof parts / sizeof *parts)

static struct part *part_named(const char *s)
{
	for (size_t i = 0; i < NPARTS; i++)
		if (strcmp(parts[i].name, s) == 0)
			return &parts[i];
	return NULL;
}

/* The index of the step that item v ("NAME: why") names in p, or -1. */
static int step_of(const struct part *p, const char *v)
{
	size_t len;
	const char *why = strstr(v, ": ");
	if (!why)
		return -1;
	len = (size_t)(why - v);
	for (size_t i = 0; i < p->nsteps; i++)
		if (strlen(p->steps[i]) == len && memcmp(p->steps[i], v, len) == 0)
			return (int)i;
	return -1;
}

void check_judge(const struct record *r)
{
	struct part *p = part_named(r->codetext);
	int seen[8] = {0};
	if (!p) {
		fail(r->file, r->line, "judge: '%s' is not a part of a verdict "
		     "(code, reason)", r->codetext);
		return;
	}
	if (p->record) {
		fail(r->file, r->line, "judge %s is given twice (%s:%ld)",
		     r->codetext, p->record->file, p->record->line);
		return;
	}
	p->record = r;
	for (size_t i = 0; i < r->nfields; i++) {
		const struct field *f = &r->fields[i];
		int s;
		if (strcmp(f->def->name, "step"))
			continue;
		s = step_of(p, f->value);
		if (s < 0)
			fail(f->file, f->line, "judge %s: a step is 'NAME: why', NAME "
			     "one of the part's steps (src/core/judge.c): '%s'",
			     p->name, f->value);
		else if (seen[s]++)
			fail(f->file, f->line, "judge %s: step %s is given twice",
			     p->name, p->steps[s]);
	}
	for (size_t s = 0; s < p->nsteps; s++)
		if (!seen[s])
			fail(r->file, r->line, "judge %s has no step %s", p->name,
			     p->steps[s]);
}

void check_judges(void)
{
	for (size_t i = 0; i < NPARTS; i++)
		if (!parts[i].record)
			fail("data/reasons", 0, "no 'judge: %s' record (the order in "
			     "which its evidence decides)", parts[i].name);
}

/* The steps as written: a copy, made before write_table() drops the
 * records. */
static enum table_step order[NPARTS][8];

void keep_judges(void)
{
	for (size_t i = 0; i < NPARTS; i++) {
		size_t n = 0;
		const struct record *r = parts[i].record;
		for (size_t k = 0; r && k < r->nfields; k++) {
			int s = strcmp(r->fields[k].def->name, "step") ? -1
			      : step_of(&parts[i], r->fields[k].value);
			if (s >= 0 && n < 7)
				order[i][n++] = parts[i].values[s];
		}
		order[i][n] = TABLE_STEP_END;
		parts[i].record = NULL; /* (its record is freed with the others) */
	}
}

static void write_steps(FILE *out, const char *name, const enum table_step *s)
{
	fprintf(out, "\nconst uint8_t %s[] = {", name);
	for (; *s != TABLE_STEP_END; s++)
		fprintf(out, "%d, ", (int)*s);
	fputs("0};\n", out);
}

void write_judges(FILE *out)
{
	fputs("\n/* The judgement's steps (data/reasons/precedence.txt). */", out);
	write_steps(out, "table_code_steps", order[0]);
	write_steps(out, "table_reason_steps", order[1]);
}
