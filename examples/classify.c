/*
 * classify: read SMTP reply lines on standard input and say, for each,
 * whether to retry, drop the address, or fix something first: the kind of
 * decision a bounce processor or a milter makes, through libsmtpcode.
 *
 *   $ echo '452 4.3.1 Insufficient system storage' | ./classify
 *   4.3.1 temporary: retry (Mail system full)
 */
#include <stdio.h>
#include <string.h>

#include <smtpcode.h>

int main(void)
{
	char line[4096];
	while (fgets(line, sizeof line, stdin)) {
		struct smtpcode_query q;
		struct smtpcode_result r;
		const struct smtpcode_entry *e;
		char code[16];
		size_t len = strcspn(line, "\r\n");

		if (smtpcode_parse(line, len, &q) != SMTPCODE_OK) {
			printf("not a reply: %.*s\n", (int)len, line);
			continue;
		}
		smtpcode_resolve(&q, line, len, NULL, &r);
		e = smtpcode_answer(&r);
		smtpcode_format(&q, code, sizeof code);
		if (!e) {
			printf("%s unknown\n", code);
			continue;
		}
		printf("%s %s: %s (%s)\n", code,
		       smtpcode_value_name(SMTPCODE_SEVERITY,
		                           smtpcode_value(e, SMTPCODE_SEVERITY)),
		       smtpcode_value(e, SMTPCODE_SUPPRESS) == 2 ? "drop the address"
		       : smtpcode_value(e, SMTPCODE_RETRY) == 1 ? "retry"
		       : "fix the cause, then resend",
		       smtpcode_text(e, SMTPCODE_NAME));
	}
	return 0;
}
