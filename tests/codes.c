/* A query's codes as a reply writes them: see codes.h. */
#include <stdio.h>
#include <string.h>

#include "codes.h"

const char *codes_text(const struct smtpcode_query *q, char *buf,
                       size_t size)
{
	char enh[32] = "";
	if (q->enhanced) /* smtpcode_format() writes the enhanced code alone */
		smtpcode_format(q, enh, sizeof enh);
	if (q->basic && q->enhanced)
		snprintf(buf, size, "%u %s", q->basic, enh);
	else if (q->basic)
		snprintf(buf, size, "%u", q->basic);
	else
		snprintf(buf, size, "%s", enh);
	return buf;
}

bool text_is(struct smtpcode_text t, const char *want)
{
	size_t n = want ? strlen(want) : 0;
	return t.len == n && (!n || memcmp(t.s, want, n) == 0);
}
