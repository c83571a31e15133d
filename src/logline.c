/* Mail log lines: being written (helper). */
#include <string.h>

#include "table.h"

bool smtpcode_log_parse(const char *s, size_t len, struct smtpcode_logline *l)
{
	memset(l, 0, sizeof *l);
	if (smtpcode_find_code(s, len, &l->code, &l->reply)) {
		l->format = SMTPCODE_LOG_TEXT;
		return true;
	}
	return false;
}

bool smtpcode_find_code(const char *s, size_t len, struct smtpcode_query *q,
                        struct smtpcode_text *at)
{
	(void)s;
	(void)len;
	memset(q, 0, sizeof *q);
	memset(at, 0, sizeof *at);
	return false;
}
