/*
 * The layout of an entry: labelled lines ("  Scope      system (...)")
 * and section headings, written through output.c.
 */
#include <stdio.h>

#include "layout.h"
#include "output.h"

/* Severity in colour: green success, yellow temporary, red permanent. */
static enum sgr value_color(enum smtpcode_field f, int v)
{
	if (f != SMTPCODE_SEVERITY)
		return SGR_RESET;
	return v == SMTPCODE_SUCCESS ? SGR_GREEN
	     : v == SMTPCODE_TEMPORARY ? SGR_YELLOW : SGR_RED;
}

void flagged_line(const char *label, const char *flag, enum sgr color,
                  const char *rest)
{
	char lead[128];
	snprintf(lead, sizeof lead, "  %-10.24s %s%s%s ", label,
	         color == SGR_RESET ? "" : out_sgr(color), flag,
	         color == SGR_RESET ? "" : out_sgr(SGR_RESET));
	out_para(lead, LABEL_WIDTH, rest);
}

void value_line(const char *label, const struct smtpcode_entry *e,
                enum smtpcode_field f)
{
	char body[512];
	int v = smtpcode_value(e, f);
	if (v == 0)
		return;
	snprintf(body, sizeof body, "(%s)", smtpcode_value_label(f, v));
	flagged_line(label, smtpcode_value_name(f, v), value_color(f, v), body);
}

void text_line(const char *label, const char *s)
{
	char lead[32];
	if (!*s)
		return;
	snprintf(lead, sizeof lead, "  %-10.24s ", label);
	out_para(lead, LABEL_WIDTH, s);
}

void heading(const char *title)
{
	out_printf("\n%s%s%s\n", out_sgr(SGR_BOLD), title, out_sgr(SGR_RESET));
}

