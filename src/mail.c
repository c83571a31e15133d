/* Bounce messages: being written (helper). */
#include <string.h>

#include "table.h"

int smtpcode_mail_parse(const char *msg, size_t len, char *work,
                        size_t worksize, struct smtpcode_mail *m)
{
	(void)msg;
	(void)len;
	(void)work;
	(void)worksize;
	m->kind = SMTPCODE_MAIL_OTHER;
	m->nrecipients = 0;
	memset(&m->from, 0, sizeof m->from);
	memset(&m->subject, 0, sizeof m->subject);
	memset(&m->reporting_mta, 0, sizeof m->reporting_mta);
	return 0;
}
