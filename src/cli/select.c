/*
 * The record filters of the log and bounce modes: --severity, --scope,
 * --reason and --suppress by the values of the verdict's fields (the
 * names -f prints), --provider by the provider the reply names, --domain
 * by the recipient's domain.  The values of one filter are alternatives;
 * the filters given must all hold.
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "logs.h"
#include "output.h"
#include "record.h"
#include "select.h"
#include "suppressions.h"

static const enum smtpcode_field table_field[SEL_NFIELDS] = {
	SMTPCODE_SEVERITY, SMTPCODE_SCOPE, SMTPCODE_REASON, SMTPCODE_SUPPRESS};

/* The value id of name for field f, or -1: the names are the table's
 * (those -f prints: yes, no, unknown), and for suppress also JSON's
 * (true, false). */
static int value_id(enum smtpcode_field f, const char *name)
{
	if (f == SMTPCODE_SUPPRESS && strcmp(name, "true") == 0)
		return SMTPCODE_SUPPRESS_TRUE;
	if (f == SMTPCODE_SUPPRESS && strcmp(name, "false") == 0)
		return SMTPCODE_SUPPRESS_FALSE;
	return *name ? smtpcode_value_parse(f, name, strlen(name)) : -1;
}

/* The names of field f's values, "a, b or c", into why[0..size). */
static void value_names(enum smtpcode_field f, char *why, size_t size)
{
	int n = smtpcode_value_count(f);
	size_t len = 0;

	why[0] = '\0';
	for (int v = 1; v < n && len < size; v++) {
		const char *name = smtpcode_value_name(f, v);
		int k = snprintf(why + len, size - len, "%s%s",
		                 v == 1 ? "" : v == n - 1 ? " or " : ", ", name);
		len += k > 0 ? (size_t)k : 0;
	}
}

const char *selection_take(struct selection *s, int f, const char *value,
                           char *why, size_t size)
{
	s->active = true;
	if (f == -1) {
		const struct smtpcode_entry *p =
		    smtpcode_find_provider(value, strlen(value));
		if (!p)
			return "unknown provider (see 'smtpcode --providers')";
		if (s->nproviders == SELECT_MAX)
			return "too many providers (at most 16)";
		s->providers[s->nproviders++] = p;
		return NULL;
	}
	if (f == -2) {
		if (!*value || strchr(value, '@'))
			return "not a domain (expected example.com)";
		if (s->ndomains == SELECT_MAX)
			return "too many domains (at most 16)";
		s->domains[s->ndomains++] = value;
		return NULL;
	}
	int v = value_id(table_field[f], value);
	if (v <= 0) {
		char names[1024];
		value_names(table_field[f], names, sizeof names);
		snprintf(why, size, "unknown %s (expected %s)",
		         smtpcode_field_name(table_field[f]), names);
		return why;
	}
	s->values[f][v / 64] |= (uint64_t)1 << (v % 64);
	s->given[f] = true;
	return NULL;
}

static bool has_value(const struct selection *s, int f, int v)
{
	return !s->given[f] ||
	       (v >= 0 && v < 256 && (s->values[f][v / 64] >> (v % 64) & 1));
}

bool selection_pass(const struct selection *s, const struct row *w,
                    struct smtpcode_text domain)
{
	size_t i;

	for (int f = 0; f < SEL_NFIELDS; f++)
		if (!has_value(s, f, w->verdict.value[table_field[f]]))
			return false;
	if (s->nproviders) {
		const struct smtpcode_entry *p = w->r ? w->r->match.provider : NULL;
		for (i = 0; i < s->nproviders && s->providers[i] != p; i++)
			;
		if (i == s->nproviders)
			return false;
	}
	if (s->ndomains) {
		for (i = 0; i < s->ndomains; i++)
			if (domain.len == strlen(s->domains[i]) &&
			    strncasecmp(domain.s, s->domains[i], domain.len) == 0)
				break;
		if (i == s->ndomains)
			return false;
	}
	return true;
}

/* The record of row w into the list of addresses s: its outcome from
 * its verdict (a feedback report's recipient complained); 0, or -1 when
 * memory ran out. */
static int list_address(struct suppressions *s, const struct row *w)
{
	const struct origin *o = w->origin;
	int severity = w->verdict.value[SMTPCODE_SEVERITY];
	int reason = w->verdict.value[SMTPCODE_REASON];
	struct supp_record r;

	/* A refusal of ours (the receiving side) or a failed login says
	 * nothing of the addresses we send to. */
	if (o->side == smtpcode_side_name(SMTPCODE_SIDE_REJECT) ||
	    o->side == smtpcode_side_name(SMTPCODE_SIDE_AUTH))
		return 0;
	r.address = o->recipient;
	r.outcome = o->message_kind && strcmp(o->message_kind, "feedback") == 0
	                ? SUPP_COMPLAINT
	          : severity == SMTPCODE_SUCCESS   ? SUPP_SUCCESS
	          : severity == SMTPCODE_PERMANENT ? SUPP_PERMANENT
	          /* no code, but a final report: its words' verdict */
	          : !severity && w->verdict.value[SMTPCODE_FINAL] == 2
	                ? SUPP_PERMANENT : SUPP_TEMPORARY;
	r.suppress = w->verdict.value[SMTPCODE_SUPPRESS] == SMTPCODE_SUPPRESS_YES;
	r.reason = reason ? smtpcode_value_name(SMTPCODE_REASON, reason) : NULL;
	r.code = w->code[0] ? w->code : NULL;
	r.file = o->file;
	r.line = record_mode(o) == REC_LOG ? o->line : 0;
	r.message = record_mode(o) == REC_LOG ? -1 : o->message;
	return suppressions_add(s, &r);
}

bool record_chosen(const struct choice *k, const struct row *w, bool rests,
                   unsigned long *selected)
{
	if (k->sel && !selection_pass(k->sel, w, w->origin->domain))
		return false;
	*selected += rests;
	if (k->quiet && rests)
		records_found_quietly();
	if (k->supp && list_address(k->supp, w) != 0)
		out_no_memory();
	return !k->quiet && !k->count && !k->supp;
}
