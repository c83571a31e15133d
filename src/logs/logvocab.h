/*
 * The fixed words of a log record's status and stage, the same in every
 * dialect, so that a script can test `status == "deferred"` or `stage ==
 * "rcpt"` without knowing which MTA wrote the line (Sendmail's "stat=User
 * unknown" and Postfix's "status=bounced" both give "bounced"; smtpd's
 * "RCPT" and a delivery's "RCPT TO" both give "rcpt").  A reader sets
 * status and stage to these static strings, never to a span of the line
 * (the line's own words stay in the reply); include/smtpcode.h lists
 * them for callers, doc/smtpcode.1 for users.
 *
 * status, the sending side (side delivery): what became of the message
 *   sent       delivered to the next hop or the mailbox
 *   deferred   a temporary failure: the queue keeps the message
 *   bounced    a permanent failure: the message is returned
 *   expired    given up after its time in the queue
 *   complained the recipient reported the message as spam (a mail
 *              service's complaint event: SES, SendGrid, Postmark ...)
 * status, the receiving side (side reject): what this server did
 *   rejected   refused a command of a client (a 4xx or 5xx it sent)
 *   warned     would have refused (Postfix's reject_warning)
 *   discarded  accepted and dropped (a filter's discard)
 * status, authentication (side auth)
 *   auth-failed  a client's login was refused
 *
 * stage: the SMTP step the reply answered
 *   connect, helo, starttls, auth, mail, rcpt, data, end-of-data,
 *   header, body (a content filter's checks), quit
 */
#ifndef SMTPCODE_LOGVOCAB_H
#define SMTPCODE_LOGVOCAB_H

#define LOG_STATUS_SENT "sent"
#define LOG_STATUS_DEFERRED "deferred"
#define LOG_STATUS_BOUNCED "bounced"
#define LOG_STATUS_EXPIRED "expired"
#define LOG_STATUS_COMPLAINED "complained"
#define LOG_STATUS_REJECTED "rejected"
#define LOG_STATUS_WARNED "warned"
#define LOG_STATUS_DISCARDED "discarded"
#define LOG_STATUS_AUTH_FAILED "auth-failed"

#define LOG_STAGE_CONNECT "connect"
#define LOG_STAGE_HELO "helo"
#define LOG_STAGE_STARTTLS "starttls"
#define LOG_STAGE_AUTH "auth"
#define LOG_STAGE_MAIL "mail"
#define LOG_STAGE_RCPT "rcpt"
#define LOG_STAGE_DATA "data"
#define LOG_STAGE_END_OF_DATA "end-of-data"
#define LOG_STAGE_HEADER "header"
#define LOG_STAGE_BODY "body"
#define LOG_STAGE_QUIT "quit"

#include "smtpcode.h"

/* A static word as a span: status and stage are set so. */
#define LOG_WORD(w) ((struct smtpcode_text){(w), sizeof(w) - 1})

/* The side a status belongs to (above); SMTPCODE_SIDE_UNKNOWN for none. */
enum smtpcode_log_side log_side_of(struct smtpcode_text status);

#endif
