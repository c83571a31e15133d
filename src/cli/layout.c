/*
 * The layout of an entry: labelled lines ("  Scope      system (...)")
 * and section headings, written through output.c.
 */
#include <stdio.h>

#include "layout.h"
#include "output.h"

void value_line(const char *label, const struct smtpcode_entry *e,
                enum smtpcode_field f)
{
	char lead[32], body[512];
	int v = smtpcode_value(e, f);
	if (v == 0)
		return;
	snprintf(lead, sizeof lead, "  %-10.24s ", label);
	snprintf(body, sizeof body, "%s (%s)", smtpcode_value_name(f, v),
	         smtpcode_value_label(f, v));
	out_para(lead, LABEL_WIDTH, body);
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
	out_printf("\n%s\n", title);
}

