/*
 * JSON Lines: one object per result, every key of fields.h always present
 * and in that order, strict RFC 8259 (control characters escaped, invalid
 * UTF-8 replaced by U+FFFD), never coloured.
 */
#include <stdio.h>
#include <string.h>

#include "fields.h"
#include "output.h"
#include "render.h"
#include "utf8.h"

void json_plain(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = strlen(s), run = 0;
	out_str("\"");
	for (size_t i = 0; i < n;) {
		unsigned char c = p[i];
		size_t k;
		/* Plain printable ASCII is written in runs, not byte by byte. */
		if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\') {
			i++;
			run++;
			continue;
		}
		out_write(s + i - run, run);
		run = 0;
		k = c < 0x80 ? 1 : utf8_len(p + i, n - i);
		if (k == 0)
			out_str("\\ufffd");
		else if (c == '"')
			out_str("\\\"");
		else if (c == '\\')
			out_str("\\\\");
		else if (c == '\n')
			out_str("\\n");
		else if (c == '\t')
			out_str("\\t");
		else if (c == '\r')
			out_str("\\r");
		else if (c < 0x20 || c == 0x7f)
			out_printf("\\u%04x", c);
		else
			out_write(s + i, k);
		i += k ? k : 1;
	}
	out_write(s + n - run, run);
	out_str("\"");
}

static void json_string_or_null(const char *s)
{
	if (s && *s)
		json_plain(s);
	else
		out_str("null");
}

static void json_member(const char *key, const char *value, int first)
{
	out_str(first ? "{" : ",");
	json_plain(key);
	out_str(":");
	json_string_or_null(value);
}

static void json_list(const struct smtpcode_entry *e, const struct value *v)
{
	size_t n = e ? smtpcode_count(e, v->list) : 0;
	out_str("[");
	for (size_t i = 0; i < n; i++) {
		struct smtpcode_item it = smtpcode_item(e, v->list, i);
		if (i)
			out_str(",");
		if (v->type == V_LIST) {
			json_plain(v->list == SMTPCODE_BASIC ? it.key : it.text);
			continue;
		}
		json_member(v->type == V_FIXES ? "who" : "code", it.key, 1);
		json_member("text", it.text, 0);
		out_str("}");
	}
	out_str("]");
}

static void json_provider(const struct smtpcode_match *m)
{
	static const char *const how[] = {"none", "only", "phrase", "ambiguous"};
	const struct smtpcode_entry *p = m->provider;
	json_member("id", smtpcode_text(p, SMTPCODE_CODE), 1);
	json_member("name", smtpcode_text(p, SMTPCODE_NAME), 0);
	json_member("marker", m->marker, 0);
	json_member("rule", how[m->how], 0);
	json_member("phrase", m->phrase, 0);
	json_member("verified", m->entry ? smtpcode_text(m->entry,
	                                                 SMTPCODE_VERIFIED) : NULL, 0);
	out_printf(",\"given\":%s,\"differs\":%s}", m->given ? "true" : "false",
	           m->entry && smtpcode_value(m->entry, SMTPCODE_DIFFERS) == 2
	               ? "true" : "false");
}

/* A span of the input: a string, or null when absent. */
static void json_text(const char *key, struct smtpcode_text t)
{
	char buf[4096];
	size_t n = t.len < sizeof buf - 1 ? t.len : sizeof buf - 1;
	memcpy(buf, t.s ? t.s : "", n);
	buf[n] = '\0';
	/* A NUL inside the span would end the string early: show it. */
	for (size_t i = 0; i < n; i++)
		if (buf[i] == '\0')
			buf[i] = ' ';
	out_str(",");
	json_plain(key);
	out_str(":");
	json_string_or_null(t.len ? buf : NULL);
}

/* Where a record came from, and the codes exactly as seen. */
static void json_origin(const struct origin *o)
{
	out_str("{\"file\":");
	json_plain(o->file);
	if (o->index < 0)
		out_printf(",\"line\":%lu,\"index\":null", o->line);
	else
		out_printf(",\"line\":null,\"index\":%ld", o->index);
	json_text("recipient", o->recipient);
	json_text("domain", o->domain);
	json_text("relay", o->relay);
	json_text("stage", o->stage);
	json_text("status", o->status);
	json_text("seen_basic", o->seen_basic);
	json_text("seen_enhanced", o->seen_enhanced);
	json_text("dsn", o->dsn);
	json_text("reply", o->reply);
	out_str(",\"verdict_from\":");
	json_string_or_null(o->verdict_from);
}

/* A record's verdict: the lookup's keys but the long texts, which a
 * lookup of the code gives. */
static bool in_record(enum field_id f)
{
	return f != F_INPUT && f != F_BASIC && f != F_MEANING &&
	       f != F_CAUSES && f != F_FIXES && f != F_RELATED && f != F_SOURCES;
}

void render_json(const struct row *w)
{
	if (w->origin)
		json_origin(w->origin);
	for (int f = 0; f < NFIELDS; f++) {
		struct value v = field_value(w, (enum field_id)f);
		if (w->origin && !in_record((enum field_id)f))
			continue;
		out_str(f || w->origin ? "," : "{");
		json_plain(field_name((enum field_id)f));
		out_str(":");
		switch (v.type) {
		case V_NULL: out_str("null"); break;
		case V_STRING: json_plain(v.s); break;
		case V_BOOL: out_str(v.b ? "true" : "false"); break;
		case V_LIST:
		case V_FIXES:
		case V_RELATED: json_list(w->entry, &v); break;
		case V_PROVIDER: json_provider(&w->r->match); break;
		case V_WARNINGS:
			out_str("[");
			for (size_t i = 0; i < w->nwarnings; i++) {
				out_str(i ? "," : "");
				json_plain(w->warnings[i]);
			}
			out_str("]");
			break;
		}
	}
	out_str("}\n");
}
