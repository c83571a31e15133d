/*
 * The fixed vocabularies of the enumerated fields.  Scripts rely on these
 * names, so they only ever grow at the end.  The generator uses this same
 * file to refuse any other value in the data.
 */
#include <string.h>

#include "smtpcode.h"

struct value {
	const char *name;
	const char *label;
};

static const struct value severity[] = {
	{"", ""},
	{"success", "the server accepted or did what was asked"},
	{"temporary", "a transient failure: the sending server keeps the "
	              "message and retries"},
	{"permanent", "a final failure: this attempt is over and retrying "
	              "the same thing will not help"},
};

static const struct value scope[] = {
	{"", ""},
	{"mailbox", "one recipient's mailbox or address"},
	{"domain", "the recipient's domain: its DNS and MX records"},
	{"system", "the whole receiving mail system"},
	{"message", "this message: its size, content, format or recipients"},
	{"sender", "the sender's address, authentication or reputation"},
	{"network", "connections and routing between the servers"},
	{"session", "the SMTP dialogue itself"},
};

static const struct value acts[] = {
	{"", ""},
	{"none", "nobody yet: wait while the queue retries"},
	{"sender", "the sender"},
	{"sender-admin", "the sender's mail administrator"},
	{"recipient", "the recipient"},
	{"recipient-admin", "the recipient's mail administrator"},
};

static const struct value retry[] = {
	{"", ""},
	{"auto", "the sending server retries by itself"},
	{"after-fix", "send again once the cause is fixed"},
	{"never", "do not resend to this address"},
	{"none", "nothing to retry"},
};

static const struct value bounce[] = {
	{"", ""},
	{"none", "not a bounce"},
	{"soft", "a temporary or server-side failure"},
	{"hard", "the address itself is bad"},
	{"block", "refused by policy, reputation or authentication; the "
	          "address is fine"},
	{"unknown", "the code alone cannot tell a bad address from a refusal"},
};

/* Sisimai's reason names, so output joins existing bounce pipelines. */
static const struct value reason[] = {
	{"", ""},
	{"userunknown", "the recipient address does not exist"},
	{"mailboxfull", "the recipient's mailbox is full"},
	{"systemfull", "the receiving system is out of storage"},
	{"hostunknown", "the recipient domain does not exist or has no mail host"},
	{"hasmoved", "the recipient has moved"},
	{"mesgtoobig", "the message is too big"},
	{"exceedlimit", "the message exceeds a size or count limit"},
	{"securityerror", "a security or credentials failure"},
	{"policyviolation", "the message breaks the receiver's policy"},
	{"authfailure", "sender authentication (SPF, DKIM, DMARC) failed"},
	{"blocked", "the sending host or IP address is blocked"},
	{"rejected", "the sender address is rejected"},
	{"spamdetected", "the message was judged to be spam"},
	{"virusdetected", "the message carries malware"},
	{"networkerror", "a network or routing failure"},
	{"expired", "delivery time expired"},
	{"systemerror", "an error in the receiving system"},
	{"mailererror", "an error in the mailer program"},
	{"toomanyconn", "too many connections"},
	{"speeding", "sending too fast: rate limited"},
	{"suspend", "the recipient's mailbox is suspended or disabled"},
	{"syntaxerror", "an SMTP syntax or protocol error"},
	{"norelaying", "relaying is denied"},
	{"notaccept", "the host does not accept mail"},
	{"contenterror", "the message content or format is invalid"},
	{"failedstarttls", "STARTTLS or TLS failed or is required"},
	{"requireptr", "the sending IP address has no valid reverse DNS"},
	{"notcompliantrfc", "the message does not comply with the RFCs"},
	{"badreputation", "the sender's reputation is poor"},
	{"onhold", "delivery is on hold"},
	{"delivered", "the message was accepted or delivered"},
	{"undefined", "no specific reason"},
	{"vacation", "an automatic reply: the recipient is away or answers "
	             "by machine"},
	{"feedback", "a feedback report: the message was reported as abuse, "
	             "fraud or the like"},
	{"filtered", "the recipient's own filter refused the message: the "
	             "address exists"},
};

static const struct value suppress[] = {
	{"", ""},
	{"no", "keep the address on mailing lists: it is not the problem"},
	{"yes", "remove the address from mailing lists: it is bad"},
	{"unknown", "the code alone cannot tell whether the address is bad"},
};

static const struct value final[] = {
	{"", ""},
	{"no", "delivery is not over: the message is queued or was accepted"},
	{"yes", "this is the final bounce: delivery has ended and the message "
	        "went back to the sender"},
};

static const struct value differs[] = {
	{"", ""},
	{"no", "the provider uses the code as the registry defines it"},
	{"yes", "the provider gives this code a meaning of its own, unlike "
	        "the registry"},
};

static const struct value registered[] = {
	{"", ""},
	{"no", "not defined by an RFC or the IANA registry"},
	{"yes", "defined by an RFC or the IANA registry"},
};

static const struct value frequency[] = {
	{"", ""},
	{"common", "met often: most senders see it now and then"},
	{"occasional", "met now and then, from some servers more than others"},
	{"rare", "seldom met in practice"},
	{"obsolete", "hardly ever sent any more"},
};

#define N(a) (int)(sizeof(a) / sizeof(a[0]))

static const struct vocabulary {
	const char *field;
	const struct value *values;
	int n;
} vocabularies[SMTPCODE_NFIELDS] = {
	[SMTPCODE_SEVERITY] = {"severity", severity, N(severity)},
	[SMTPCODE_SCOPE] = {"scope", scope, N(scope)},
	[SMTPCODE_ACTS] = {"acts", acts, N(acts)},
	[SMTPCODE_RETRY] = {"retry", retry, N(retry)},
	[SMTPCODE_BOUNCE] = {"bounce", bounce, N(bounce)},
	[SMTPCODE_REASON] = {"reason", reason, N(reason)},
	[SMTPCODE_SUPPRESS] = {"suppress", suppress, N(suppress)},
	[SMTPCODE_REGISTERED] = {"registered", registered, N(registered)},
	[SMTPCODE_DIFFERS] = {"differs", differs, N(differs)},
	[SMTPCODE_FINAL] = {"final", final, N(final)},
	[SMTPCODE_FREQUENCY] = {"frequency", frequency, N(frequency)},
};

static const struct vocabulary *vocabulary(enum smtpcode_field f)
{
	if ((unsigned)f >= SMTPCODE_NFIELDS)
		return NULL;
	return &vocabularies[f];
}

const char *smtpcode_field_name(enum smtpcode_field f)
{
	const struct vocabulary *v = vocabulary(f);
	return v ? v->field : NULL;
}

int smtpcode_value_count(enum smtpcode_field f)
{
	const struct vocabulary *v = vocabulary(f);
	return v ? v->n : 0;
}

const char *smtpcode_value_name(enum smtpcode_field f, int i)
{
	const struct vocabulary *v = vocabulary(f);
	if (!v || i < 0 || i >= v->n)
		return NULL;
	return v->values[i].name;
}

const char *smtpcode_value_label(enum smtpcode_field f, int i)
{
	const struct vocabulary *v = vocabulary(f);
	if (!v || i < 0 || i >= v->n)
		return NULL;
	return v->values[i].label;
}

int smtpcode_value_parse(enum smtpcode_field f, const char *s, size_t len)
{
	const struct vocabulary *v = vocabulary(f);
	if (!v)
		return -1;
	for (int i = 1; i < v->n; i++)
		if (strlen(v->values[i].name) == len &&
		    memcmp(v->values[i].name, s, len) == 0)
			return i;
	return -1;
}
