/*
 * Log events: the public, growable face of a parsed log line
 * (include/smtpcode.h, symbol version SMTPCODE_0.2).  An event is the
 * engine's own record of the line, struct smtpcode_logline, and the
 * dialect record that read it; callers see it only through the
 * accessors, so fields may be added here without an ABI break, within
 * the SMTPCODE_EVENT_SPACE bytes the header reserves.
 */
#include <stdalign.h>
#include <string.h>

#include "dialect.h"
#include "logvocab.h"
#include "smtpcode.h"

struct smtpcode_event {
	struct smtpcode_logline line;
	const struct log_dialect_rec *rec; /* a data dialect's, or NULL */
};

_Static_assert(sizeof(struct smtpcode_event) <= SMTPCODE_EVENT_SPACE,
               "an event outgrew the space the header reserves for it");
_Static_assert(alignof(struct smtpcode_event) <= alignof(max_align_t),
               "an event needs more alignment than the header promises");

size_t smtpcode_event_size(void)
{
	return sizeof(struct smtpcode_event);
}

const struct smtpcode_event *smtpcode_event_parse(const char *s, size_t len,
                                                  void *space, size_t size)
{
	struct smtpcode_event *e = space;

	if (!e || size < sizeof *e)
		return NULL;
	log_parse(s, len, &e->line, &e->rec);
	return e;
}

static const struct smtpcode_query *if_code(const struct smtpcode_query *q)
{
	return q->basic || q->enhanced ? q : NULL;
}

const struct smtpcode_query *smtpcode_event_code(const struct smtpcode_event *e)
{
	return if_code(&e->line.code);
}

const struct smtpcode_query *
smtpcode_event_dsn_code(const struct smtpcode_event *e)
{
	return if_code(&e->line.dsn_code);
}

struct smtpcode_text smtpcode_event_recipient(const struct smtpcode_event *e)
{
	return e->line.recipient;
}

struct smtpcode_text smtpcode_event_domain(const struct smtpcode_event *e)
{
	return e->line.domain;
}

struct smtpcode_text smtpcode_event_host(const struct smtpcode_event *e)
{
	return e->line.relay;
}

struct smtpcode_text smtpcode_event_status(const struct smtpcode_event *e)
{
	return e->line.status;
}

struct smtpcode_text smtpcode_event_stage(const struct smtpcode_event *e)
{
	return e->line.stage;
}

struct smtpcode_text smtpcode_event_reply(const struct smtpcode_event *e)
{
	return e->line.reply;
}

struct smtpcode_text smtpcode_event_dsn(const struct smtpcode_event *e)
{
	return e->line.dsn;
}

const char *smtpcode_event_dialect(const struct smtpcode_event *e)
{
	switch (e->line.format) {
	case SMTPCODE_LOG_POSTFIX:
	case SMTPCODE_LOG_SMTPD:
		return "postfix";
	case SMTPCODE_LOG_EXIM:
		return "exim";
	case SMTPCODE_LOG_SENDMAIL:
		return "sendmail";
	case SMTPCODE_LOG_FIELDS:
		return e->rec ? e->rec->dialect : NULL;
	case SMTPCODE_LOG_TEXT:
		return "text";
	case SMTPCODE_LOG_NONE:
		break;
	}
	return NULL;
}

enum smtpcode_log_format smtpcode_event_format(const struct smtpcode_event *e)
{
	return e->line.format;
}

/* Whether status, of w's length, is the word w: by its bytes, a constant
 * count, which the compiler compares in a load or two. */
#define IS_STATUS(status, w) (memcmp((status).s, (w), sizeof(w) - 1) == 0)

/* Called for every record of a log: by length first, then the bytes of
 * the one or two words of that length. */
enum smtpcode_log_side log_side_of(struct smtpcode_text status)
{
	switch (status.len) {
	case sizeof LOG_STATUS_SENT - 1:
		if (IS_STATUS(status, LOG_STATUS_SENT))
			return SMTPCODE_SIDE_DELIVERY;
		break;
	case sizeof LOG_STATUS_WARNED - 1:
		if (IS_STATUS(status, LOG_STATUS_WARNED))
			return SMTPCODE_SIDE_REJECT;
		break;
	case sizeof LOG_STATUS_BOUNCED - 1: /* and expired */
		if (IS_STATUS(status, LOG_STATUS_BOUNCED) ||
		    IS_STATUS(status, LOG_STATUS_EXPIRED))
			return SMTPCODE_SIDE_DELIVERY;
		break;
	case sizeof LOG_STATUS_DEFERRED - 1: /* and rejected */
		if (IS_STATUS(status, LOG_STATUS_DEFERRED))
			return SMTPCODE_SIDE_DELIVERY;
		if (IS_STATUS(status, LOG_STATUS_REJECTED))
			return SMTPCODE_SIDE_REJECT;
		break;
	case sizeof LOG_STATUS_DISCARDED - 1:
		if (IS_STATUS(status, LOG_STATUS_DISCARDED))
			return SMTPCODE_SIDE_REJECT;
		break;
	case sizeof LOG_STATUS_COMPLAINED - 1:
		if (IS_STATUS(status, LOG_STATUS_COMPLAINED))
			return SMTPCODE_SIDE_DELIVERY;
		break;
	case sizeof LOG_STATUS_AUTH_FAILED - 1:
		if (IS_STATUS(status, LOG_STATUS_AUTH_FAILED))
			return SMTPCODE_SIDE_AUTH;
		break;
	}
	return SMTPCODE_SIDE_UNKNOWN;
}

enum smtpcode_log_side smtpcode_event_side(const struct smtpcode_event *e)
{
	return log_side_of(e->line.status);
}

enum smtpcode_log_side smtpcode_status_side(const char *s, size_t len)
{
	return log_side_of((struct smtpcode_text){s, s ? len : 0});
}

const char *smtpcode_side_name(enum smtpcode_log_side side)
{
	switch (side) {
	case SMTPCODE_SIDE_DELIVERY:
		return "delivery";
	case SMTPCODE_SIDE_REJECT:
		return "reject";
	case SMTPCODE_SIDE_AUTH:
		return "auth";
	case SMTPCODE_SIDE_UNKNOWN:
		break;
	}
	return NULL;
}

size_t smtpcode_dialect_count(void)
{
	return table_ndialects;
}

const char *smtpcode_dialect_name(size_t i)
{
	return i < table_ndialects ? table_dialects[i].name : NULL;
}
