/*
 * genlog: write a realistic mail log of about SIZE bytes to stdout, for
 * the benchmarks and the log tests.  Deterministic: the same SIZE and SEED
 * give the same log.
 *
 * By default, the generated Postfix log on which bench/run's log targets
 * were set: of ten lines, six Postfix deliveries (sent, deferred,
 * bounced, with the replies of Gmail, Microsoft, Yahoo and plain
 * servers), one smtpd reject and three of connection noise without codes.
 *
 * With --mixed, the log is no MTA's in particular: every family of lines
 * below (Exim, Sendmail, Courier and qmail deliveries, and the receiving
 * side's rejects and login failures of each MTA), comes as often as any
 * other, so that no one reader's speed stands for all (bench/run measures
 * both logs, the mixed one with figures of its own).
 *
 * usage: genlog [--mixed] SIZE[k|M|G] [SEED]
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t state = 88172645463325252u;

static uint32_t next(void)
{
	state ^= state << 13; /* xorshift64 */
	state ^= state >> 7;
	state ^= state << 17;
	return (uint32_t)(state >> 32);
}

static const char *pick(const char *const *v, size_t n)
{
	return v[next() % n];
}

#define COUNT(v) (sizeof v / sizeof *v)
#define PICK(v) pick(v, COUNT(v))

static const char *const domains[] = {
	"gmail.com", "outlook.com", "yahoo.com", "example.com", "example.net",
	"example.org", "corp.example", "mail.example.de", "hotmail.com",
	"icloud.com", "gmx.net", "shop.example", "lists.example.org",
};

static const char *const replies[] = {
	"dsn=4.3.1, status=deferred (host %s[192.0.2.%u] said: 452 4.3.1 Insufficient system storage (in reply to RCPT TO command))",
	"dsn=5.1.1, status=bounced (host %s[192.0.2.%u] said: 550 5.1.1 <%s>: Recipient address rejected: User unknown in virtual mailbox table (in reply to RCPT TO command))",
	"dsn=4.2.2, status=deferred (host %s[192.0.2.%u] said: 452 4.2.2 The recipient's inbox is out of storage space. Please direct the recipient to https://support.google.com/mail/?p=OverQuotaTemp - gsmtp (in reply to RCPT TO command))",
	"dsn=5.7.26, status=bounced (host %s[192.0.2.%u] said: 550-5.7.26 This mail has been blocked because the sender is unauthenticated. 550-5.7.26 Gmail requires all senders to authenticate with either SPF or DKIM. 550 5.7.26 For instructions see https://support.google.com/mail/answer/81126 - gsmtp (in reply to end of DATA command))",
	"dsn=4.7.0, status=deferred (host %s[192.0.2.%u] said: 421 4.7.0 [TSS04] Messages from 198.51.100.7 temporarily deferred due to unexpected volume or user complaints - 4.16.55.1; see https://postmaster.yahooinc.com/error-codes (in reply to MAIL FROM command))",
	"dsn=5.4.1, status=bounced (host %s[192.0.2.%u] said: 550 5.4.1 Recipient address rejected: Access denied. For more information see https://aka.ms/EXOSmtpErrors [DM6NAM11FT012.eop-nam11.prod.protection.outlook.com 2024-05-01T10:00:00.000Z] (in reply to RCPT TO command))",
	"dsn=2.0.0, status=sent (250 2.0.0 Ok: queued as 4VbNq91XyZz1x)",
	"dsn=2.0.0, status=sent (250 2.0.0 OK 1714557600 x12si123456qkl.123 - gsmtp)",
	"dsn=4.4.1, status=deferred (connect to %s[192.0.2.%u]:25: Connection timed out)",
	"dsn=5.2.2, status=bounced (host %s[192.0.2.%u] said: 552 5.2.2 <%s>: Mailbox full (in reply to end of DATA command))",
};

static const char *const noise[] = {
	"postfix/smtpd[%u]: connect from unknown[203.0.113.%u]",
	"postfix/smtpd[%u]: disconnect from unknown[203.0.113.%u] ehlo=1 mail=1 rcpt=1 data=1 quit=1 commands=5",
	"postfix/qmgr[%u]: 4VbNq91XyZz%u: from=<newsletter@shop.example>, size=48213, nrcpt=1 (queue active)",
	"postfix/cleanup[%u]: 4VbNq91XyZz%u: message-id=<20240501100000.12345@shop.example>",
	"dovecot: imap-login: Login: user=<someone@example.com>, method=PLAIN, rip=203.0.113.%u, lip=192.0.2.%u, TLS",
};

/* Exim: pid, the message ID's parts, recipient, host, ip, recipient. */
static const char *const exim[] = {
	"exim[%u]: 1s%04x-00%04x-%02x ** %s R=dnslookup T=remote_smtp H=%s [192.0.2.%u]: SMTP error from remote mail server after RCPT TO:<%s>: 550 5.1.1 User unknown",
	"exim[%u]: 1s%04x-00%04x-%02x == %s R=dnslookup T=remote_smtp defer (-44) H=%s [192.0.2.%u]: SMTP error from remote mail server after RCPT TO:<%s>: 452 4.2.2 Mailbox full",
};

/* Sendmail: pid, queue ID, recipient, host, ip. */
static const char *const sendmail[] = {
	"sm-mta[%u]: 4%07XA: to=<%s>, delay=00:00:01, xdelay=00:00:01, mailer=esmtp, pri=120, relay=%s. [192.0.2.%u], dsn=5.1.1, stat=User unknown",
	"sm-mta[%u]: 4%07XA: to=<%s>, delay=00:00:02, xdelay=00:00:02, mailer=esmtp, pri=120, relay=%s. [192.0.2.%u], dsn=4.2.2, stat=Deferred: 452 4.2.2 Mailbox full",
};

/* Courier: queue ID parts, pid, recipient (twice). */
static const char *const courier[] = {
	"courieresmtp: id=%06X.%08X.%08u,from=<newsletter@shop.example>,addr=<%s>: 550 5.1.1 <%s>... User unknown",
	"courieresmtp: id=%06X.%08X.%08u,from=<newsletter@shop.example>,addr=<%s>: 451 4.2.2 <%s>... Mailbox full, try again later",
};

/* qmail: seconds, microseconds, delivery number, ip, recipient, ip. */
static const char *const qmail[] = {
	"qmail: 1714%06u.%06u delivery %u: failure: 192.0.2.%u_does_not_like_recipient./Remote_host_said:_550_5.1.1_<%s>..._User_unknown/Giving_up_on_192.0.2.%u./",
	"qmail: 1714%06u.%06u delivery %u: deferral: Connected_to_192.0.2.%u_but_sender_was_rejected./Remote_host_said:_451_4.3.0_<%s>_temporary_failure_on_192.0.2.%u/",
};

/* The other families of --mixed, each with the same three arguments, in
 * this order: a pid, the last byte of an address, the recipient (those
 * that need fewer leave the last unused). */
static const char *const others[] = {
	"postfix/postscreen[%u]: NOQUEUE: reject: RCPT from [203.0.113.%u]:41234: 550 5.7.1 Service unavailable; client [203.0.113.9] blocked using zen.spamhaus.org; from=<a@example.org>, to=<%s>, proto=ESMTP, helo=<x>",
	"postfix/smtpd[%u]: warning: unknown[203.0.113.%u]: SASL LOGIN authentication failed: UGFzc3dvcmQ6 (%s)",
	"postfix/cleanup[%u]: 4VbNq91XyZz%u: milter-reject: END-OF-MESSAGE from unknown[203.0.113.7]: 5.7.1 Spam message rejected; from=<a@example.org> to=<%s> proto=ESMTP helo=<x>",
	"postfix/lmtp[%u]: 4VbNq91XyZz%u: to=<%s>, relay=mail.example.com[private/dovecot-lmtp], delay=0.1, delays=0/0/0/0.1, dsn=5.2.2, status=bounced (host mail.example.com[private/dovecot-lmtp] said: 552 5.2.2 Mailbox is full (in reply to end of DATA command))",
	"exim[%u]: H=(x) [203.0.113.%u] F=<a@example.org> rejected RCPT <%s>: Unrouteable address",
	"exim[%u]: dovecot_login authenticator failed for (x) [203.0.113.%u]: 535 Incorrect authentication data (set_id=%s)",
	"sendmail[%u]: 4%uA: ruleset=check_rcpt, arg1=<%s>, relay=[203.0.113.9], reject=550 5.7.1 <x@example.com>... Relaying denied",
	"courieresmtpd[%u]: error,relay=::ffff:203.0.113.%u,port=41234,msg=\"550 User unknown.\",cmd: RCPT TO:<%s>",
	"qmail-smtpd[%u]: 421 badiprbl: ip 203.0.113.%u rbl: zen.spamhaus.org",
	"rblsmtpd[%u]: 203.0.113.%u pid 4242: 451 Blocked, see http://www.spamhaus.org/query/bl?ip=203.0.113.9",
	"smtpd[%u]: 4f3a%u mta delivery evpid=4f3a0c2b1d9e8f7a from=<a@example.org> to=<%s> rcpt=<-> source=\"192.0.2.1\" relay=\"192.0.2.9 (mx.example.com)\" delay=2s result=\"TempFail\" stat=\"451 4.7.1 Greylisted, try again later\"",
	"haraka[%u]: [NOTICE] [B1C2%u] [outbound] recipient <%s> rejected: 550 5.1.1 Recipient address rejected: User unknown",
	"dovecot[%u]: lmtp(user%u)<4242><Bc2De3Fg4Hi5Jk6L>: msgid=<20240501100000.12345@shop.example>: save failed to INBOX: Quota exceeded (mailbox for user is full)",
};

/* The families of lines; others[] follow the last. */
enum { FAMILY_NOISE, FAMILY_REJECT, FAMILY_DELIVERY, FAMILY_EXIM,
       FAMILY_SENDMAIL, FAMILY_COURIER, FAMILY_QMAIL, FAMILY_OTHERS };

static bool mixed;

static void line(char *buf, size_t size, unsigned long n)
{
	char to[64], host[64];
	const char *d = PICK(domains);
	unsigned u = next() % 250;
	int len = snprintf(buf, size, "May  1 10:%02lu:%02lu mx1 ", n / 60 % 60,
	                   n % 60);
	snprintf(to, sizeof to, "user%u@%s", next() % 5000, d);
	snprintf(host, sizeof host, "mx%u.%s", u % 3, d);
	/* The Postfix log: of ten lines, three of noise, one reject, six
	 * deliveries.  --mixed: each family (noise, a reject, a Postfix
	 * delivery, Exim, Sendmail, Courier, qmail, and each of others[]) as
	 * often as any other. */
	unsigned family = mixed ? next() % (FAMILY_OTHERS + COUNT(others))
	                        : next() % 10;
	if (!mixed)
		family = family < 3 ? FAMILY_NOISE : family == 3 ? FAMILY_REJECT
		                                                 : FAMILY_DELIVERY;
	if (family >= FAMILY_OTHERS) {
		const char *f = others[family - FAMILY_OTHERS];
		unsigned pid = next() % 30000;
		len += snprintf(buf + len, size - (size_t)len, f, pid, u, to);
		(void)len;
		return;
	}
	switch (family) {
	case FAMILY_NOISE: { /* without a code; its draws in GCC's order */
		unsigned pid = next() % 30000;
		const char *f = PICK(noise);
		len += snprintf(buf + len, size - (size_t)len, f, pid, u);
		break;
	}
	case FAMILY_EXIM: { /* Exim: a bounce or a deferral, after a message ID */
		/* Each draw in a statement of its own: the order in which a
		 * call's arguments are evaluated is unspecified, and the log
		 * must not depend on the compiler. */
		const char *f = PICK(exim);
		unsigned pid = next() % 30000, id = next();
		len += snprintf(buf + len, size - (size_t)len, f, pid, id >> 16,
		                id & 0xffff, u % 256, to, host, u, to);
		break;
	}
	case FAMILY_SENDMAIL: {
		const char *f = PICK(sendmail);
		unsigned pid = next() % 30000, qid = next() & 0xfffffff;
		len += snprintf(buf + len, size - (size_t)len, f, pid, qid, to,
		                host, u);
		break;
	}
	case FAMILY_COURIER: {
		const char *f = PICK(courier);
		unsigned a = next() & 0xffffff, b = next();
		len += snprintf(buf + len, size - (size_t)len, f, a, b, u, to, to);
		break;
	}
	case FAMILY_QMAIL: {
		const char *f = PICK(qmail);
		unsigned sec = next() % 1000000, usec = next() % 1000000;
		unsigned num = next() % 100000;
		len += snprintf(buf + len, size - (size_t)len, f, sec, usec, num, u,
		                to, u);
		break;
	}
	case FAMILY_REJECT:
		len += snprintf(buf + len, size - (size_t)len,
		                "postfix/smtpd[%u]: NOQUEUE: reject: RCPT from "
		                "unknown[203.0.113.%u]: 554 5.7.1 <%s>: Relay access "
		                "denied; from=<a@example.org> to=<%s> proto=ESMTP "
		                "helo=<x>", next() % 30000, u, to, to);
		break;
	default: { /* FAMILY_DELIVERY */
		char reply[600];
		snprintf(reply, sizeof reply, PICK(replies), host, u, to);
		len += snprintf(buf + len, size - (size_t)len,
		                "postfix/smtp[%u]: 4VbNq91XyZz%u: to=<%s>, "
		                "relay=%s[192.0.2.%u]:25, delay=1.2, "
		                "delays=0.1/0/0.5/0.6, %s", next() % 30000, u, to,
		                host, u, reply);
	}
	}
	(void)len;
}

int main(int argc, char **argv)
{
	unsigned long long size, written = 0;
	unsigned long n = 0;
	char *end, buf[2048];

	if (argc > 1 && strcmp(argv[1], "--mixed") == 0) {
		mixed = true;
		argc--;
		argv++;
	}
	if (argc < 2) {
		fputs("usage: genlog [--mixed] SIZE[k|M|G] [SEED]\n", stderr);
		return 2;
	}
	size = strtoull(argv[1], &end, 10);
	size <<= *end == 'k' ? 10 : *end == 'M' ? 20 : *end == 'G' ? 30 : 0;
	if (argc > 2)
		state ^= strtoull(argv[2], NULL, 10) * 2654435761u;
	while (written < size) {
		size_t len;
		line(buf, sizeof buf - 1, n++);
		len = strlen(buf);
		buf[len++] = '\n';
		if (fwrite(buf, 1, len, stdout) != len)
			return 1;
		written += len;
	}
	return fclose(stdout) != 0;
}
