/*
 * The layout of an entry: labelled lines ("  Scope      system (...)")
 * and section headings, written through output.c.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "layout.h"
#include "output.h"

/* Severity in colour: green success, yellow temporary, red permanent. */
enum sgr severity_color(int v)
{
	return v == SMTPCODE_SUCCESS ? SGR_GREEN
	     : v == SMTPCODE_TEMPORARY ? SGR_YELLOW
	     : v == SMTPCODE_PERMANENT ? SGR_RED : SGR_RESET;
}

static enum sgr value_color(enum smtpcode_field f, int v)
{
	return f == SMTPCODE_SEVERITY ? severity_color(v) : SGR_RESET;
}

const char *severity_sgr(const char *word)
{
	enum sgr c;
	if (!*out_sgr(SGR_RESET)) /* colour off: nothing to look up */
		return "";
	c = severity_color(smtpcode_value_parse(SMTPCODE_SEVERITY, word,
	                                        strlen(word)));
	return c == SGR_RESET ? "" : out_sgr(c);
}

void out_severity(const char *word, size_t pad)
{
	const char *on = severity_sgr(word);
	size_t n = strlen(word);
	out_str(on);
	out_write(word, n);
	if (*on)
		out_str(out_sgr(SGR_RESET));
	for (; n < pad; n++)
		out_write(" ", 1);
}

size_t str_cat(char *buf, size_t size, ...)
{
	va_list ap;
	const char *s;
	size_t len = 0;
	va_start(ap, size);
	while ((s = va_arg(ap, const char *)) != NULL && len + 1 < size) {
		size_t n = strlen(s);
		if (n > size - 1 - len)
			n = size - 1 - len;
		memcpy(buf + len, s, n);
		len += n;
	}
	va_end(ap);
	if (size)
		buf[len] = '\0';
	return len;
}

/* Built by hand: this runs for every line of every entry. */
size_t label_lead(char *lead, size_t size, const char *label)
{
	size_t n = strlen(label);
	if (n > 24)
		n = 24;
	if (size < 40)
		return 0;
	lead[0] = lead[1] = ' ';
	memcpy(lead + 2, label, n);
	while (n < 10)
		lead[2 + n++] = ' ';
	lead[2 + n] = ' ';
	lead[3 + n] = '\0';
	return 3 + n;
}

void flagged_line(const char *label, const char *flag, enum sgr color,
                  const char *rest)
{
	char lead[160];
	size_t n = label_lead(lead, sizeof lead, label);
	if (color != SGR_RESET)
		str_cat(lead + n, sizeof lead - n, out_sgr(color), flag,
		        out_sgr(SGR_RESET), " ", (char *)NULL);
	else
		str_cat(lead + n, sizeof lead - n, flag, " ", (char *)NULL);
	out_para(lead, LABEL_WIDTH, rest);
}

void value_line(const char *label, const struct smtpcode_entry *e,
                enum smtpcode_field f)
{
	verdict_line(label, f, smtpcode_value(e, f));
}

void verdict_line(const char *label, enum smtpcode_field f, int v)
{
	char body[512];
	if (v == 0)
		return;
	if (!out_wrapping()) { /* in pieces: a folder's report is mostly
	                          these lines, and the vocabulary's labels
	                          hold no newline for out_para() to indent */
		enum sgr color = value_color(f, v);
		size_t n = label_lead(body, sizeof body, label);
		out_write(body, n);
		if (color != SGR_RESET)
			out_str(out_sgr(color));
		out_str(smtpcode_value_name(f, v));
		if (color != SGR_RESET)
			out_str(out_sgr(SGR_RESET));
		out_write(" (", 2);
		out_str(smtpcode_value_label(f, v));
		out_write(")\n", 2);
		return;
	}
	str_cat(body, sizeof body, "(", smtpcode_value_label(f, v), ")",
	        (char *)NULL);
	flagged_line(label, smtpcode_value_name(f, v), value_color(f, v), body);
}

void text_line(const char *label, const char *s)
{
	char lead[40];
	if (!*s)
		return;
	label_lead(lead, sizeof lead, label);
	out_para(lead, LABEL_WIDTH, s);
}

void heading(const char *title)
{
	out_str("\n");
	out_str(out_sgr(SGR_BOLD));
	out_str(title);
	out_str(out_sgr(SGR_RESET));
	out_str("\n");
}

