/*
 * --mail: explain bounce messages.  Each message of a file (one, or an
 * mbox's: mailbox.c), of a folder's files (folder.c), is parsed by the
 * library; each failed recipient gets its code, the reply that came with
 * it, and the full verdict, which rests on the DSN's Status: unless
 * that is generic (X.0.0) and the diagnostic is specific.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "explained.h"
#include "folder.h"
#include "input.h"
#include "logs.h"
#include "mailbox.h"
#include "mails.h"
#include "select.h"
#include "output.h"
#include "render.h"

/* Room for this many recipients at first: a DSN with more is parsed again
 * with an array for all of them. */
#define FIRST_RECIPIENTS 256

static const char *kind_name(enum smtpcode_mail_kind k)
{
	switch (k) {
	case SMTPCODE_MAIL_DSN: return "delivery status notification (RFC 3464)";
	case SMTPCODE_MAIL_BOUNCE: return "bounce (non-standard format)";
	case SMTPCODE_MAIL_AUTOREPLY: return "not a bounce: an automatic reply";
	case SMTPCODE_MAIL_FEEDBACK:
		return "not a bounce: a feedback report (RFC 5965)";
	case SMTPCODE_MAIL_OTHER: break;
	}
	return "not a bounce";
}

static const char *kind_id(enum smtpcode_mail_kind k)
{
	static const char *const ids[] = {"other", "dsn", "bounce", "autoreply",
	                                  "feedback"};
	return ids[k];
}

static void recipient_header(const struct origin *o,
                             const struct smtpcode_mail_recipient *m, long i)
{
	out_str("Recipient ");
	sink_number(NULL, (unsigned long)i + 1);
	out_str(": ");
	if (o->recipient.len)
		out_escaped(stdout, o->recipient.s, o->recipient.len);
	else
		out_str("(the report names no address)");
	out_str("\n");
	if (m->action.len) {
		out_str("  Action     ");
		out_escaped(stdout, m->action.s, m->action.len);
		out_str("\n");
	}
	if (m->status.len) {
		out_str("  Status     ");
		out_escaped(stdout, m->status.s, m->status.len);
		out_str("\n");
	}
	if (m->diagnostic.len)
		out_para_untrusted("  Reply      ", 13, m->diagnostic.s,
		                   m->diagnostic.len);
	if (m->remote_mta.len) {
		out_str("  Remote MTA ");
		out_escaped(stdout, m->remote_mta.s, m->remote_mta.len);
		out_str("\n");
	}
	out_str("  Verdict    rests on ");
	out_str(decided_by_words(o->verdict_from));
	out_str("\n\n");
}

static struct smtpcode_text domain_of(struct smtpcode_text addr)
{
	struct smtpcode_text d = {NULL, 0};
	const char *at = addr.len ? memchr(addr.s, '@', addr.len) : NULL;
	if (at) {
		d.s = at + 1;
		d.len = (size_t)(addr.s + addr.len - d.s);
	}
	return d;
}

/* The reason a kind of message gives whatever its codes: an auto-reply's
 * is vacation, a feedback report's feedback; 0 for the others. */
static int kind_reason(enum smtpcode_mail_kind k)
{
	const char *r = k == SMTPCODE_MAIL_AUTOREPLY ? "vacation"
	              : k == SMTPCODE_MAIL_FEEDBACK ? "feedback" : NULL;
	return r ? smtpcode_value_parse(SMTPCODE_REASON, r, strlen(r)) : 0;
}

/* Whether o writes a line a record, rather than the text view of each
 * message and recipient: -j, -t, -b, -f, and whenever records are
 * selected, counted or listed (only the records chosen show then). */
static bool one_line(const struct mail_options *o)
{
	return o->format != RECORD_TEXT || o->brief || o->record_key >= 0 ||
	       o->field >= 0 || choosing(&o->choice);
}

/* "LABEL value (what it means)" of field f of w's verdict, when set. */
static void value_line(const char *label, const struct row *w,
                       enum smtpcode_field f)
{
	int v = w->verdict.value[f];
	if (!v)
		return;
	out_str(label);
	out_str(smtpcode_value_name(f, v));
	out_str(" (");
	out_str(smtpcode_value_label(f, v));
	out_str(")\n");
}

/* The record of recipient m, the i-th of mail, the message msg, or the
 * message's own (i RECORD_MESSAGE_INDEX, m empty) when it names none;
 * number is the message's index in its mbox, or -1. */
static void explain(const char *file, long number,
                    struct mail_options *o, struct smtpcode_text msg,
                    const struct smtpcode_mail *mail,
                    const struct smtpcode_mail_recipient *m, long i)
{
	struct smtpcode_evidence ev = {
		.reply = m->diagnostic, .reply_code = &m->diagnostic_code,
		.status = &m->status_code, .message = msg,
		.recipient = m->recipient, .report = smtpcode_mail_report(mail, m),
		.reason = kind_reason(mail->kind), .provider = o->provider};
	struct smtpcode_judgement j;
	struct origin org;
	struct row w;
	bool rests;

	/* The record's keys (record_fields.def); those a message lacks
	 * (line) stay empty. */
	memset(&org, 0, sizeof org);
	org.file = file;
	org.index = i;
	org.recipient = m->recipient;
	org.domain = domain_of(m->recipient);
	org.relay = m->remote_mta;
	org.status = m->action;
	org.dsn = m->status;
	org.reply = m->diagnostic;
	org.report = ev.report;
	org.message_kind = kind_id(mail->kind);
	if (mail->kind == SMTPCODE_MAIL_FEEDBACK)
		org.feedback_type = m->action;
	org.message = number;
	judge(&ev, &j);
	org.stage = j.stage; /* (read where the verdict needed it) */
	if (o->format == RECORD_TEXT && !one_line(o))
		row_verdict(&w, &j, NULL);
	else
		row_of_judgement(&w, &j, NULL);
	org.verdict_from = w.verdict_from;
	org.reason_phrase = j.wording.phrase;
	rests = j.result.known || j.verdict_from;
	w.origin = &org;
	if (!record_chosen(&o->choice, &w, rests, &o->selected))
		return;
	if (one_line(o)) { /* the fields of a record */
		const struct smtpcode_query *d = &m->diagnostic_code;
		org.seen_basic = seen_code(m->diagnostic, d, 0);
		org.seen_enhanced = seen_code(m->diagnostic, d, 1);
		if (o->record_key >= 0 || o->field >= 0)
			render_record_value(&w, o->record_key, o->field);
		else
			render_record(o->format, &w);
		return;
	}
	recipient_header(&org, m, i);
	if (w.code_given) { /* (render_text() reads the text by its codes) */
		render_text(&w, m->diagnostic.s ? m->diagnostic.s : "");
	} else {
		int reason = w.verdict.value[SMTPCODE_REASON];
		out_str("  (no code for this recipient)\n");
		if (reason) {
			out_str("  Reason     ");
			out_str(smtpcode_value_name(SMTPCODE_REASON, reason));
			out_str(" (");
			out_str(smtpcode_value_label(SMTPCODE_REASON, reason));
			out_str(j.wording.phrase ? "), by the reply's words \"" : ")");
			out_str(j.wording.phrase ? j.wording.phrase : "");
			out_str(j.wording.phrase ? "\"\n" : "\n");
		}
		/* What the reason brings, when the report ended delivery. */
		value_line("  Suppress   ", &w, SMTPCODE_SUPPRESS);
		value_line("  Bounce     ", &w, SMTPCODE_BOUNCE);
	}
	out_str("\n");
}

/*
 * The library's working copy of a message and the recipients, in buffers
 * kept from message to message, as the message's own (a folder of
 * bounces is read in one run: memory given back and asked for again per
 * message costs more than reading).
 */
struct buffers {
	struct message_buffer message;
	char *work;
	size_t work_size;
	struct smtpcode_mail_recipient *recipients;
	size_t nrecipients; /* room for */
};

/* Room for n recipients in b; false when there is no memory for them. */
static bool recipients_room(struct buffers *b, size_t n)
{
	struct smtpcode_mail_recipient *more;
	if (n <= b->nrecipients)
		return true;
	if (n > SIZE_MAX / sizeof *more)
		return false;
	more = realloc(b->recipients, n * sizeof *more);
	if (!more)
		return false;
	b->recipients = more;
	b->nrecipients = n;
	return true;
}

/* Parse the message text[0..len) into *mail with every recipient
 * stored: a second time, into an array for all, when the first had too
 * little room (the library counts those it could not store).  0, or -1
 * when there is no memory for them. */
static int parse_mail(struct buffers *b, const char *text, size_t len,
                      struct smtpcode_mail *mail)
{
	if (!recipients_room(b, FIRST_RECIPIENTS))
		return -1;
	memset(mail, 0, sizeof *mail);
	mail->recipients = b->recipients;
	mail->max = b->nrecipients;
	smtpcode_mail_parse(text, len, b->work, len + 1, mail);
	if (mail->nrecipients <= mail->max)
		return 0;
	if (!recipients_room(b, mail->nrecipients))
		return -1;
	mail->recipients = b->recipients;
	mail->max = b->nrecipients;
	smtpcode_mail_parse(text, len, b->work, len + 1, mail);
	return 0;
}

/* A file being read: its path, and the name its records give. */
struct mail_file {
	const char *path, *name;
	struct mail_options *o;
	struct buffers *b;
};

/* Explain the message text[0..len) of a file (message_fn). */
static int read_message(void *ctx, const char *text, size_t len,
                        long number)
{
	const struct mail_file *f = ctx;
	struct mail_options *o = f->o;
	struct buffers *b = f->b;
	struct smtpcode_mail mail;

	if (b->work_size < len + 1) {
		/* As large as the message buffer (mailbox.c), which holds the
		 * message and grows by doubling: each new block is fresh
		 * pages to touch, so not one per larger message. */
		size_t size = b->message.size + 1;
		char *work;
		if (size < len + 1)
			size = len + 1;
		if (!(work = malloc(size))) {
			message_error(f->path, number, "out of memory");
			return -1;
		}
		free(b->work);
		b->work = work;
		b->work_size = size;
	}
	if (parse_mail(b, text, len, &mail) != 0) {
		message_error(f->path, number, "out of memory for its recipients");
		return -1;
	}
	if (one_line(o) && mail.nrecipients == 0) {
		static const struct smtpcode_mail_recipient none;
		explain(f->name, number, o, (struct smtpcode_text){text, len},
		        &mail, &none, RECORD_MESSAGE_INDEX);
	} else if (!one_line(o)) {
		/* An auto-reply's own record rests on what the message is. */
		if (mail.nrecipients == 0 && kind_reason(mail.kind))
			o->selected++;
		out_escaped(stdout, f->name, strlen(f->name));
		if (number >= 0) { /* counted from 1, as recipients are */
			out_str(", message ");
			sink_number(NULL, (unsigned long)number + 1);
		}
		out_str(": ");
		out_str(kind_name(mail.kind));
		out_str(", ");
		sink_number(NULL, mail.nrecipients);
		out_str(mail.nrecipients == 1 ? " recipient\n\n" : " recipients\n\n");
	}
	/* parse_mail() stored them all (max only keeps a broken library
	 * from sending this past the array). */
	for (size_t i = 0; i < mail.nrecipients && i < mail.max; i++)
		explain(f->name, number, o, (struct smtpcode_text){text, len},
		        &mail, &mail.recipients[i], (long)i);
	return 0;
}

/* Explain the messages of path, a file (one message or an mbox); when
 * it is a directory and folders are read (in, else NULL), those of its
 * files. */
static int read_file(const char *path, struct mail_file *f,
                     struct folder *in)
{
	int status;

	f->path = path;
	f->name = strcmp(path, "-") == 0 ? "(standard input)" : path;
	status = each_message(path, &f->b->message, read_message, f);
	if (status == STREAM_FOLDER && in) {
		status = folder_list(in, path);
		for (size_t i = 0; i < in->n; i++) /* (not folders: NULL) */
			if (read_file(in->paths[i], f, NULL) != 0)
				status = -1;
	} else if (status == STREAM_FOLDER) { /* a file turned folder */
		input_error(path, strerror(EISDIR));
		status = -1;
	}
	return status;
}

int read_mail_text(struct mail_options *o, const char *name,
                   const char *text, size_t len)
{
	struct buffers b = {{NULL, 0}, NULL, 0, NULL, 0};
	struct mail_file f = {name, name, o, &b};
	int status;

	explained_on();
	status = read_message(&f, text, len, -1);
	explained_off();
	free(b.work);
	free(b.recipients);
	return status;
}

int read_mails(struct mail_options *o, int nfiles, char **files)
{
	static char *stdin_only[] = {"-"};
	struct buffers b = {{NULL, 0}, NULL, 0, NULL, 0};
	struct mail_file f = {NULL, NULL, o, &b};
	struct folder in = {NULL, 0, 0, NULL};
	int status = 0;

	if (nfiles == 0) {
		nfiles = 1;
		files = stdin_only;
	}
	explained_on(); /* each code explained in full once */
	for (int i = 0; i < nfiles; i++)
		if (read_file(files[i], &f, &in) != 0)
			status = -1;
	explained_off();
	folder_free(&in);
	free(b.message.data);
	free(b.work);
	free(b.recipients);
	return status;
}
