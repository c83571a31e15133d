/*
 * smtpcode: parse SMTP reply codes and look them up in a built-in table.
 *
 * The table is compiled into the library from the data files under data/;
 * nothing is read from disk and nothing is allocated at run time.  Every
 * pointer the library returns points into that static table (or into the
 * caller's input, for spans), so it never needs freeing and stays valid for
 * the life of the process.  All functions are thread-safe.
 */
#ifndef SMTPCODE_H
#define SMTPCODE_H

#include <stdbool.h>
#include <stddef.h>

/* The version of this header; smtpcode_version() gives the library's,
 * which differs when a program runs against another libsmtpcode.so. */
#define SMTPCODE_VERSION "0.1.0"
#define SMTPCODE_VERSION_MAJOR 0
#define SMTPCODE_VERSION_MINOR 1
#define SMTPCODE_VERSION_PATCH 0

const char *smtpcode_version(void);

/* Why a string is not an SMTP code; see smtpcode_strerror(). */
enum smtpcode_error {
	SMTPCODE_OK = 0,
	SMTPCODE_EEMPTY,      /* nothing but white space */
	SMTPCODE_ESYNTAX,     /* does not start like a code at all */
	SMTPCODE_EINCOMPLETE, /* "4.3", "5.7." */
	SMTPCODE_ECLASS,      /* class digit other than 2, 4, 5 or X */
	SMTPCODE_EDIGITS,     /* subject or detail of more than 3 digits */
	SMTPCODE_EZERO,       /* leading zero in subject or detail */
	SMTPCODE_EBASIC,      /* basic code outside 200-599, or too many digits */
	SMTPCODE_ETRAILING    /* code glued to other characters: "5.7.1x" */
};

/*
 * One parsed query: a basic code, an enhanced code, or both, as a reply
 * line writes them ("452 4.3.1 Insufficient system storage").
 */
struct smtpcode_query {
	unsigned basic;      /* 200-599, or 0 when there is none */
	bool enhanced;       /* whether cls/subject/detail are set */
	unsigned char cls;   /* 2, 4, 5, or 0 for the class-independent X */
	unsigned subject;    /* 0-999 */
	unsigned detail;     /* 0-999 */
	size_t text_off;     /* reply text after the codes: offset into the */
	size_t text_len;     /* input and length; 0 when there is no text */
};

/*
 * Parse s[0..len) (need not be NUL-terminated) as a basic code ("452"), an
 * enhanced code ("4.3.1", "X.3.1"), or a reply line starting with either
 * ("452 4.3.1 text", "452-4.3.1 text", "5.1.1 text").  Surrounding white
 * space is ignored.  Returns SMTPCODE_OK and fills *q, or an error and
 * leaves *q zeroed.  Never reads past len.
 */
enum smtpcode_error smtpcode_parse(const char *s, size_t len,
                                   struct smtpcode_query *q);

/* A short lowercase phrase saying what is wrong, for error messages. */
const char *smtpcode_strerror(enum smtpcode_error err);

/*
 * Write the canonical text of the query's enhanced code ("4.3.1",
 * "X.3.1") or, without one, of its basic code, NUL-terminated, into
 * buf[0..size).  Returns the length it needs, like snprintf.
 */
size_t smtpcode_format(const struct smtpcode_query *q, char *buf,
                       size_t size);

/* ---- The table ---- */

/* An entry of the built-in table; opaque, static, never freed. */
struct smtpcode_entry;

/* Enumerated fields of an entry.  Their values are small integers: 0 means
 * "not set" (e.g. the severity of a class-independent X.S.D entry), and
 * smtpcode_value_name() gives the stable name scripts see. */
enum smtpcode_field {
	SMTPCODE_SEVERITY,   /* success | temporary | permanent */
	SMTPCODE_SCOPE,      /* mailbox | domain | system | message | ... */
	SMTPCODE_ACTS,       /* none | sender | sender-admin | recipient | ... */
	SMTPCODE_RETRY,      /* auto | after-fix | never | none */
	SMTPCODE_BOUNCE,     /* none | soft | hard | block | unknown (the
	                        code alone cannot tell a bad address from a
	                        refusal: SMTPCODE_DECIDES says what would) */
	SMTPCODE_REASON,     /* Sisimai-compatible reason: mailboxfull, ... */
	SMTPCODE_SUPPRESS,   /* no | yes | unknown (as for bounce) */
	SMTPCODE_REGISTERED, /* no | yes: defined by an RFC or the registry */
	SMTPCODE_DIFFERS,    /* no | yes: a provider's meaning differs from the
	                        registry's for the same code */
	SMTPCODE_FINAL,      /* no | yes: the report ends delivery (the
	                        message is returned) although the code is of
	                        class 4, as an expiry's is; unset for other
	                        entries (smtpcode_verdict() says for all) */
	SMTPCODE_FREQUENCY,  /* common | occasional | rare | obsolete: how
	                        often the code is met (SMTPCODE_FREQUENCY_NOTE
	                        says who usually sends it); unset when the
	                        data does not say */
	SMTPCODE_NFIELDS
};

/* Values of SMTPCODE_FREQUENCY, as smtpcode_value() gives them. */
enum smtpcode_frequency {
	SMTPCODE_FREQUENCY_UNSET = 0,
	SMTPCODE_COMMON,
	SMTPCODE_OCCASIONAL,
	SMTPCODE_RARE,
	SMTPCODE_OBSOLETE
};

enum smtpcode_severity {
	SMTPCODE_SEVERITY_UNSET = 0,
	SMTPCODE_SUCCESS,
	SMTPCODE_TEMPORARY,
	SMTPCODE_PERMANENT
};

/* Values of SMTPCODE_SUPPRESS, as smtpcode_value() gives them (the
 * command and JSON say false, true and unknown).  _TRUE and _FALSE name
 * the same values as _YES and _NO. */
enum smtpcode_suppress {
	SMTPCODE_SUPPRESS_UNSET = 0,
	SMTPCODE_SUPPRESS_NO,
	SMTPCODE_SUPPRESS_YES,
	SMTPCODE_SUPPRESS_UNKNOWN,
	SMTPCODE_SUPPRESS_FALSE = SMTPCODE_SUPPRESS_NO,
	SMTPCODE_SUPPRESS_TRUE = SMTPCODE_SUPPRESS_YES
};

/* Texts of an entry; smtpcode_text() returns "" for one that is absent. */
enum smtpcode_text_field {
	SMTPCODE_CODE,    /* "4.3.1", "X.3.1", "452", "4.XXX.YYY", "x5z" */
	SMTPCODE_NAME,    /* registered name, e.g. "Mail system full" */
	SMTPCODE_MEANING, /* a short paragraph */
	SMTPCODE_NOW,     /* what happens to the message now */
	SMTPCODE_GROUP,   /* id of the equivalence group ("mailbox-full"), or "" */
	SMTPCODE_VERIFIED, /* provider entries: date last checked, YYYY-MM-DD */
	SMTPCODE_THROUGH, /* provider entries for a range of codes (5.7.606
	                     through 5.7.649): the last code, or "" */
	SMTPCODE_DECIDES, /* entries whose suppress and bounce are unknown:
	                     what would decide them ("the enhanced code or
	                     the reply's words ...") */
	SMTPCODE_FREQUENCY_NOTE, /* who usually sends the code ("on-premises
	                            Exchange and small self-hosted servers") */
	SMTPCODE_DURATION, /* temporary codes: how long the condition usually
	                      lasts and what ends it */
	SMTPCODE_NTEXTS
};

/* Lists of an entry.  Each item has a text and, for some lists, a key:
 * the party that acts (fixes), a code (related, basic, with), or "". */
enum smtpcode_list {
	SMTPCODE_CAUSES,  /* likely causes */
	SMTPCODE_FIXES,   /* key: who does it (an "acts" value) */
	SMTPCODE_RELATED, /* key: a code it is confused with; text: the
	                     difference.  For a group: its members, standard
	                     codes first ("5.2.2"), then providers' entries
	                     ("gmail 4.2.2"), with an empty text */
	SMTPCODE_BASIC,   /* key: a basic code it is sent with; text: a remark */
	SMTPCODE_WITH,    /* basic entries: key: an enhanced code it comes with */
	SMTPCODE_SOURCES, /* RFC sections, the registry */
	SMTPCODE_NOTES,   /* remarks that qualify the entry */
	SMTPCODE_MATCHES, /* provider entries: phrases of the reply text that
	                     pick this entry; providers: markers that identify
	                     the provider in a reply */
	SMTPCODE_AVOID,   /* what not to do, one thing an item */
	SMTPCODE_FAQ,     /* a question the person who got the bounce asks,
	                     and its answer, in one text: the question ends
	                     at the first "? " and the answer follows
	                     ("Will mail be lost? No: ...") */
	SMTPCODE_NLISTS
};

struct smtpcode_item {
	const char *key;
	const char *text;
};

/* Kinds of entry, for iteration and rendering. */
enum smtpcode_kind {
	SMTPCODE_KIND_BASIC,    /* "452" */
	SMTPCODE_KIND_ENHANCED, /* "4.3.1", or class-independent "X.3.1" */
	SMTPCODE_KIND_CATEGORY, /* what a digit means: "4.XXX.YYY", "X.3.YYY",
	                           "4yz", "x5z" */
	SMTPCODE_KIND_PROVIDER, /* a provider or MTA: code "gmail", name
	                           "Gmail / Google Workspace", markers */
	SMTPCODE_KIND_GROUP     /* an equivalence group: code "mailbox-full" */
};

enum smtpcode_kind smtpcode_kind(const struct smtpcode_entry *e);
const char *smtpcode_text(const struct smtpcode_entry *e,
                          enum smtpcode_text_field f);
int smtpcode_value(const struct smtpcode_entry *e, enum smtpcode_field f);
size_t smtpcode_count(const struct smtpcode_entry *e, enum smtpcode_list l);
/* Item i of list l; i must be below smtpcode_count(e, l). */
struct smtpcode_item smtpcode_item(const struct smtpcode_entry *e,
                                   enum smtpcode_list l, size_t i);
/* The long texts (meanings, causes, fixes...) are kept packed and
 * decoded on first use into memory smtpcode_text() and smtpcode_item()
 * keep for the life of the program.  For a text written once, these copy
 * it into buf[0..size) instead, ended by a 0, and keep nothing; they
 * return the length of the whole text, so that a result of size or more
 * means buf holds only its first size - 1 bytes ("" for a field or item
 * out of range).  smtpcode_item_key() is an item's key alone. */
size_t smtpcode_text_into(const struct smtpcode_entry *e,
                          enum smtpcode_text_field f, char *buf, size_t size);
const char *smtpcode_item_key(const struct smtpcode_entry *e,
                              enum smtpcode_list l, size_t i);
size_t smtpcode_item_text_into(const struct smtpcode_entry *e,
                               enum smtpcode_list l, size_t i, char *buf,
                               size_t size);

/* Stable name of value v of field f ("temporary"), or NULL if v is out of
 * range; "" for 0 (unset).  smtpcode_value_label() gives a short human
 * description ("the whole receiving mail system"). */
const char *smtpcode_value_name(enum smtpcode_field f, int v);
const char *smtpcode_value_label(enum smtpcode_field f, int v);
/* Value whose name is s[0..len), or -1.  The field's name: "severity". */
int smtpcode_value_parse(enum smtpcode_field f, const char *s, size_t len);
const char *smtpcode_field_name(enum smtpcode_field f);
/* Number of values of field f, counting the unset 0. */
int smtpcode_value_count(enum smtpcode_field f);

/* ---- Lookup ---- */

/* The entry for basic code 200-599, or NULL. */
const struct smtpcode_entry *smtpcode_find_basic(unsigned basic);
/* The entry for an enhanced code (cls 2, 4, 5, or 0 for X), or NULL. */
const struct smtpcode_entry *smtpcode_find_enhanced(unsigned cls,
                                                    unsigned subject,
                                                    unsigned detail);
/* What a class digit (2, 4, 5) or a subject (0-7) means, or NULL. */
const struct smtpcode_entry *smtpcode_find_class(unsigned cls);
const struct smtpcode_entry *smtpcode_find_subject(unsigned subject);
/* The category row written s[0..len), ignoring case and surrounding
 * white space: "4.XXX.YYY", "X.3.YYY", "4yz", "x5z"; or NULL. */
const struct smtpcode_entry *smtpcode_find_category(const char *s,
                                                    size_t len);
/* What the first or second digit of a basic code means ("4yz", "x5z"). */
const struct smtpcode_entry *smtpcode_find_basic_digit(unsigned position,
                                                       unsigned digit);

/* How a basic code and an enhanced code sent together fit. */
enum smtpcode_pairing {
	SMTPCODE_PAIR_USUAL,    /* same class; the entry lists the basic code */
	SMTPCODE_PAIR_UNUSUAL,  /* same class, but not a listed pairing */
	SMTPCODE_PAIR_MISMATCH  /* the class digits differ: contradictory */
};
/* enhanced may be NULL (unknown code): then only the classes are compared. */
enum smtpcode_pairing smtpcode_check_pair(unsigned basic, unsigned cls,
                                          const struct smtpcode_entry *enhanced);

/* ---- Providers ---- */

/* The provider (a SMTPCODE_KIND_PROVIDER entry) or group (KIND_GROUP)
 * whose id is s[0..len), ignoring case; or NULL. */
const struct smtpcode_entry *smtpcode_find_provider(const char *s, size_t len);
const struct smtpcode_entry *smtpcode_find_group(const char *s, size_t len);
/* The provider a provider's entry belongs to; NULL for a standard entry. */
const struct smtpcode_entry *smtpcode_provider_of(const struct smtpcode_entry *e);

/* All entries for the query's code (its enhanced code if it has one, else
 * its basic code): the standard entry, if any, first, then the providers'
 * entries.  Returns how many; *first is the table index of the first. */
size_t smtpcode_code_range(const struct smtpcode_query *q, size_t *first);

/* How a provider's entry was picked for a reply. */
enum smtpcode_match_how {
	SMTPCODE_MATCH_NONE,     /* no provider entry applies: the standard
	                            entry stands */
	SMTPCODE_MATCH_ONLY,     /* the provider has one entry for the code */
	SMTPCODE_MATCH_PHRASE,   /* a phrase of the reply picked the entry */
	SMTPCODE_MATCH_AMBIGUOUS /* several entries, and no phrase picks one */
};

struct smtpcode_match {
	enum smtpcode_match_how how;
	const struct smtpcode_entry *provider; /* recognised or given, or NULL */
	bool given;          /* the caller gave the provider */
	const char *marker;  /* the marker that recognised it, or NULL */
	const struct smtpcode_entry *entry;    /* the entry picked, or NULL */
	const char *phrase;  /* the phrase that picked it, or NULL */
	size_t candidates;   /* provider entries that were considered */
};

/*
 * A query resolved against the table: the entries it names, the
 * provider's entry its reply text points to, and what can be inferred for
 * a code the table lacks.
 */
struct smtpcode_result {
	struct smtpcode_query query;
	const struct smtpcode_entry *basic;    /* the basic code's entry */
	const struct smtpcode_entry *enhanced; /* the enhanced code's entry */
	const struct smtpcode_entry *topic;    /* its class-independent X.S.D */
	const struct smtpcode_entry *cls;      /* what its class digit means */
	const struct smtpcode_entry *subject;  /* what its subject means */
	enum smtpcode_pairing pairing;         /* when both codes are given */
	struct smtpcode_match match;           /* a provider's entry */
	bool known; /* every code given is in the table, as a standard entry
	               or as a provider's */
};

/*
 * Resolve q, parsed from input[0..len) (the reply text and the provider's
 * markers are looked for there; input may be NULL when len is 0).  With
 * provider non-NULL, that provider's entries are used whatever the text
 * says.  Never fails: unknown codes leave their entries NULL.
 */
void smtpcode_resolve(const struct smtpcode_query *q, const char *input,
                      size_t len, const struct smtpcode_entry *provider,
                      struct smtpcode_result *r);

/*
 * A text without a code (smtpcode_find_pasted() found none): the entry
 * of a provider whose marker the text holds (or of provider, when given)
 * that the longest of that provider's phrases in the text picks, whatever
 * its code; the providers are tried by priority.  Returns true with *r as
 * smtpcode_resolve() would give it for that entry's code, how PHRASE and
 * the text as the reply text; false when no phrase picks an entry, with
 * r->match.provider and marker still naming the provider recognised, if
 * any.  Without a marker or a provider given nothing is picked: phrases
 * are a provider's words, and short ones mean little elsewhere.
 */
bool smtpcode_resolve_words(const char *input, size_t len,
                            const struct smtpcode_entry *provider,
                            struct smtpcode_result *r);

/*
 * Whether smtpcode_resolve() gives the same result for input[0..len)
 * with the bytes [from, to) left out: true when no provider's marker or
 * phrase can overlap them there.  It may answer false when they are in
 * fact harmless, never true when they are not.  For caches: a recipient's
 * address that a reply quotes ("550 5.1.1 <bob@example.com>: ...") need
 * not be part of the key when it is ignored so.
 */
bool smtpcode_reply_ignores(const char *input, size_t len, size_t from,
                            size_t to);

/* The entry that answers a result: the provider's entry picked, else the
 * enhanced code's, else the basic code's; NULL when the table has none. */
const struct smtpcode_entry *smtpcode_answer(const struct smtpcode_result *r);

/* A result for entry e itself, as if its code had been looked up (with
 * its provider given, for a provider's entry): for lists and searches. */
void smtpcode_resolve_entry(const struct smtpcode_entry *e,
                            struct smtpcode_result *r);

/* A piece of text: into the caller's input, or (for decoded mail parts)
 * into the caller's work buffer.  len 0: absent. */
struct smtpcode_text {
	const char *s;
	size_t len;
};

/* ---- Verdicts ---- */

/* What a report says of the message's fate beyond its codes: a DSN's
 * Action field, a log line's status word. */
enum smtpcode_report {
	SMTPCODE_REPORT_UNSAID,  /* nothing: the entry's own verdict stands */
	SMTPCODE_REPORT_DELAYED, /* the message is still queued ("Action:
	                            delayed", "status=deferred") */
	SMTPCODE_REPORT_FINAL    /* the sender's server has given up and
	                            returned the message ("Action: failed",
	                            "status=expired", "status=bounced") */
};

/*
 * The verdict scripts act on: the values of the enumerated fields
 * (smtpcode_value_name() names them), from the entry that answers a
 * result, except where more than that entry decides:
 *  - a basic code and an enhanced code of different classes ("550
 *    4.1.1"): the SMTP exchange acted on the basic code, so the verdict
 *    is that of the enhanced code's subject and detail in the basic
 *    code's class (5.1.1), else of the basic code;
 *  - a temporary code in a final report (a 4.x.x code with "Action:
 *    failed", or 4.4.7, which reports an expiry): the queue no longer
 *    retries, so retry is after-fix; a delay report of such a code: auto;
 *  - a provider's meaning taken on trust (see provider_guess).
 * value[SMTPCODE_FINAL] is set for every failure: yes when delivery has
 * ended (every permanent failure, and the temporary ones above).
 */
struct smtpcode_verdict {
	unsigned char value[SMTPCODE_NFIELDS];
	const struct smtpcode_entry *from; /* the entry the values come
	                                      from; NULL for a code the
	                                      table lacks (then only the
	                                      severity, from the class
	                                      digit, and final are set) */
	bool basic_decides;  /* the classes disagree; the basic code decides */
	bool report_decides; /* the report made final what the code does not,
	                        or the reverse */
	bool provider_guess; /* the answer is the one provider's entry for a
	                        code whose registered meaning differs, and
	                        nothing in the reply names that provider:
	                        suppress and bounce are unknown, the reason
	                        undefined */
};

void smtpcode_verdict(const struct smtpcode_result *r,
                      enum smtpcode_report report, struct smtpcode_verdict *v);

/*
 * The reason a reply's words give, for the codes that leave it to them
 * (550, 554, 5.0.0, 5.7.1 ...: the generic ones) and for a reply without
 * a code: the phrases of data/reasons/ ("mailbox full", "relay access
 * denied", "listed at spamhaus" ...), searched for ignoring ASCII case,
 * a space matching any run of blanks, passing over what <...> encloses
 * (an address or a host).  Of those found, the one whose reason has the
 * lowest priority wins.
 */
struct smtpcode_wording {
	int reason;         /* a SMTPCODE_REASON value; 0: no phrase found */
	const char *phrase; /* the phrase found, in lower case; NULL: none */
	size_t at;          /* where it starts in the text */
};

/* Search text[0..len) (text may be NULL when len is 0): whether a phrase
 * was found, and which in *w. */
bool smtpcode_wording(const char *text, size_t len,
                      struct smtpcode_wording *w);

/* Whether phrase (up to 127 bytes) is in text[0..len) as
 * smtpcode_wording() finds the phrases of data/reasons/: ASCII case
 * aside, a space matching any run of blanks, nothing of what <...>
 * encloses; *at is where it starts.  For phrases that are not in the
 * table (a site's rules, read at run time). */
bool smtpcode_wording_has(const char *text, size_t len, const char *phrase,
                          size_t *at);

/* Whether the verdict of r (smtpcode_verdict()) leaves its reason to the
 * reply's words: the entry it comes from says so (data: "reason-from:
 * words", not overridden by a reason of its own), or there is none; not a
 * provider's entry that its own phrases picked, unless that entry too
 * leaves the reason to the words.  smtpcode_judge() asks it. */
bool smtpcode_reason_from_words(const struct smtpcode_result *r);

/* What a status or action word s[0..len) says, ignoring case: "failed",
 * "bounced", "expired" (a DSN's Action, a log line's status) are final;
 * "delayed", "deferred" a delay; anything else says nothing. */
enum smtpcode_report smtpcode_report_of(const char *s, size_t len);

/* ---- Judgement (since 0.9, symbol version SMTPCODE_0.9) ----
 *
 * One verdict for one recipient or one reply, from all the evidence, the
 * same whichever mode reads it: a pasted reply, a bounce's recipient, a
 * log line, an event.  The order in which the evidence decides is the
 * data's (data/reasons/precedence.txt): the remote server's own specific
 * code before a DSN's Status:; for the reason, what the message is, the
 * site's rules, words more specific than any code, a provider's phrase,
 * the code's own reason, then any words; after DATA, a refusal of the
 * recipient that the words decided is the recipient's filter (filtered).
 * The reason brings its verdict (data/reasons/REASON.txt) to a failure
 * that ended delivery; nothing deciding leaves suppress and bounce
 * unknown, never no.
 */

/* What decided a part of a judgement; smtpcode_decider_name() gives the
 * word records show as verdict_from. */
enum smtpcode_decider {
	SMTPCODE_BY_NOTHING, /* NULL: nothing decided */
	SMTPCODE_BY_CODE,    /* "code": the reply's own code */
	SMTPCODE_BY_STATUS,  /* "dsn": a DSN's Status:, a log's dsn= */
	SMTPCODE_BY_PHRASE,  /* "phrase": a provider's entry its phrase picked */
	SMTPCODE_BY_WORDS,   /* "words": the reply's words (data/reasons/) */
	SMTPCODE_BY_RULES,   /* "rules": the site's rules */
	SMTPCODE_BY_STAGE,   /* "stage": the reply came after DATA */
	SMTPCODE_BY_MESSAGE  /* "message": what the message is (an auto-reply,
	                        a feedback report) */
};
const char *smtpcode_decider_name(enum smtpcode_decider d);

struct smtpcode_rules; /* a site's rules: smtpcode_rules_parse() */

/* All that is known of one recipient or reply.  Zero what is unknown. */
struct smtpcode_evidence {
	struct smtpcode_text reply;   /* the remote server's reply as written
	                                 (a pasted reply, a DSN's
	                                 Diagnostic-Code after "smtp;", a log
	                                 line's reply, a text bounce's quoted
	                                 line); its words are read here */
	const struct smtpcode_query *reply_code; /* its codes as the caller
	                                 parsed them, text_off relative to
	                                 reply.s; NULL: found in it
	                                 (smtpcode_find_pasted()) */
	const struct smtpcode_query *status; /* a DSN's Status:, a log's dsn=:
	                                 the reporting MTA's code; or NULL */
	struct smtpcode_text stage;   /* the step the reply answered, a stage
	                                 word of struct smtpcode_logline
	                                 ("rcpt", "end-of-data"); absent: read,
	                                 when the judgement needs it, from the
	                                 reply's "(in reply to ... command)",
	                                 else from message (below) */
	struct smtpcode_text message; /* the bounce the reply came in, whose
	                                 text may name the step for recipient
	                                 (smtpcode_mail_stage()); or absent */
	struct smtpcode_text recipient;
	enum smtpcode_report report;  /* a DSN's Action, a log's status */
	int reason;                   /* what the message is: vacation or
	                                 feedback (a SMTPCODE_REASON value);
	                                 0 for a bounce */
	const struct smtpcode_entry *provider; /* given by the user, or NULL */
	const struct smtpcode_rules *rules;    /* the site's, or NULL */
};

struct smtpcode_judgement {
	struct smtpcode_result result;   /* the code the verdict rests on,
	                                    resolved (no code: a provider's
	                                    entry its phrase picked, or none) */
	struct smtpcode_verdict verdict; /* reason included */
	struct smtpcode_wording wording; /* the phrase that decided the
	                                    reason; reason 0 when no words did */
	enum smtpcode_decider code_from;    /* code, status or nothing */
	enum smtpcode_decider verdict_from; /* what decided the reason, and
	                                       with it the verdict */
	struct smtpcode_text stage;         /* the step the judgement read:
	                                       the evidence's, else the one
	                                       the reply or message names
	                                       when it needed one; absent */
};

void smtpcode_judge(const struct smtpcode_evidence *ev,
                    struct smtpcode_judgement *j);

/* ---- A site's rules (since 0.9) ----
 * A file in the format of data/ (see smtpcode(1), --rules): reason-words
 * records (phrases that give a reason, tried before the built-in ones),
 * provider records (markers that recognise a provider the table knows)
 * and code records (a site's entry: a reply with that code holding one
 * of its match: fragments gets its reason).  Checked as the build checks
 * data/. */
struct smtpcode_rules;
/* Read rules from text[0..len), the contents of the file called name
 * (messages say "name:LINE: ...").  For each problem found, report(ctx,
 * message) is called with one line (no newline); then NULL is returned.
 * NULL too, reported, when memory runs out or the file holds more than
 * SMTPCODE_RULES_MAX rules. */
#define SMTPCODE_RULES_MAX 10000
struct smtpcode_rules *smtpcode_rules_parse(const char *name,
    const char *text, size_t len,
    void (*report)(void *ctx, const char *message), void *ctx);
void smtpcode_rules_free(struct smtpcode_rules *rules);
/* Where the rule holding s (a phrase, marker or fragment pointer that
 * these rules gave in a struct smtpcode_wording or smtpcode_match) is
 * written, "FILE:LINE", and the name of its site entry; NULL for any
 * other s (the built-in ones).  rules may be NULL. */
const char *smtpcode_rules_origin(const struct smtpcode_rules *rules, const char *s);
const char *smtpcode_rules_name(const struct smtpcode_rules *rules, const char *s);

/* ---- Lists and search ---- */

/*
 * A pattern of codes for listing: "5.7.*", "X.2.X", "5.*", "4xx", "55x",
 * "*".  In an enhanced pattern each part is digits or a wildcard ("*", or
 * "X"); a last part "*" also stands for the parts after it.  A basic
 * pattern is three digits or wildcards ("x", "*"), or digits and "*".
 */
struct smtpcode_pattern {
	enum { SMTPCODE_PATTERN_ALL, SMTPCODE_PATTERN_BASIC,
	       SMTPCODE_PATTERN_ENHANCED } kind;
	int part[3]; /* enhanced: class, subject, detail; basic: digits;
	                -1 for any */
	bool wild;   /* whether any part is a wildcard (X.3.1 alone is not) */
};

/* Parse s[0..len) as a pattern; SMTPCODE_OK, or SMTPCODE_ESYNTAX. */
enum smtpcode_error smtpcode_pattern_parse(const char *s, size_t len,
                                           struct smtpcode_pattern *p);
/* Whether entry e's code matches; categories, providers and groups never
 * do. */
bool smtpcode_pattern_match(const struct smtpcode_pattern *p,
                            const struct smtpcode_entry *e);

/*
 * Word search over e's name, meaning, (for a provider's entry) its
 * phrases, and the things not to do and questions and answers (for a
 * provider's entry, only those it does not take from the standard
 * entry), ignoring ASCII case.  words[0..n) are read as blank-separated
 * words, whichever string holds them ("mailbox full" as one string or
 * two).  Each word must occur, as typed (inside a longer word too), or as
 * a synonym of it (data/search/: "blacklisted" also finds "blocklist", as
 * whole words); words that together are a synonym ("over quota") may also
 * occur as that synonym's others ("mailbox full").
 */
bool smtpcode_search_match(const struct smtpcode_entry *e,
                           const char *const *words, size_t n);

/* How well e answers that search: 0 not at all (smtpcode_search_match()
 * is false); else 1 to SMTPCODE_SEARCH_RANKS, best first: 1 the words
 * occur as a phrase, in order, in one text, in a standard entry; 2 so in
 * a provider's entry; 3 apart, in a standard entry; 4 apart, in a
 * provider's.  Search results read best in that order, each rank in table
 * order. */
#define SMTPCODE_SEARCH_RANKS 4
unsigned smtpcode_search_rank(const struct smtpcode_entry *e,
                              const char *const *words, size_t n);

/* ---- Mail logs ---- */


enum smtpcode_log_format {
	SMTPCODE_LOG_NONE,      /* neither a known layout nor a code in free
	                           text */
	SMTPCODE_LOG_TEXT,      /* a code found in free text */
	SMTPCODE_LOG_POSTFIX,   /* postfix/smtp, lmtp, local, virtual, pipe
	                           ... to=<>, status= */
	SMTPCODE_LOG_SMTPD,     /* postfix/smtpd, postscreen, cleanup
	                           rejects (NOQUEUE: reject: ...), smtpd's
	                           SASL ... authentication failed */
	SMTPCODE_LOG_EXIM,      /* exim ** (bounce) and == (deferral) lines;
	                           rejected RCPT/MAIL/after DATA/EHLO/
	                           connection; authenticator failed */
	SMTPCODE_LOG_SENDMAIL,  /* sendmail to=<>, dsn=, stat=; ruleset=,
	                           reject= */
	SMTPCODE_LOG_FIELDS     /* a dialect read from its record in
	                           data/logs/ (Courier ...): which one,
	                           smtpcode_event_dialect() says */
};

/* What a delivery line of a mail log says.  Fields the line does not
 * have are absent (len 0). */
struct smtpcode_logline {
	enum smtpcode_log_format format; /* set for a known layout even when
	                                    it holds no code */
	struct smtpcode_text recipient; /* user@example.com, without <> */
	struct smtpcode_text domain;    /* its domain part */
	struct smtpcode_text relay;     /* relay=, H=: the remote host; smtpd:
	                                   the client ("unknown[192.0.2.7]") */
	struct smtpcode_text status;    /* since 0.7 a fixed word, a static
	                                   string (not inside the input), the
	                                   same in every built-in dialect:
	                                   sent, deferred, bounced, expired
	                                   (a delivery: Postfix's status=,
	                                   Sendmail's stat= "Sent",
	                                   "Deferred", else by its dsn= class,
	                                   Exim's ** and ==, "retry timeout
	                                   exceeded" expired); rejected,
	                                   warned, discarded (what this server
	                                   refused a client: reject and
	                                   milter-reject, reject_warning,
	                                   Sendmail's reject=, Exim's
	                                   rejected); auth-failed (a login);
	                                   absent when the line says none of
	                                   these.  smtpcode_event_side() gives
	                                   its side */
	struct smtpcode_text stage;     /* since 0.7 a fixed word, a static
	                                   string: the SMTP step answered
	                                   ("RCPT TO", smtpd's "RCPT" give
	                                   rcpt; "end of DATA",
	                                   "END-OF-MESSAGE" end-of-data; a
	                                   Sendmail ruleset check_rcpt rcpt,
	                                   check_relay connect): connect,
	                                   helo, starttls, auth, mail, rcpt,
	                                   data, end-of-data, header, body
	                                   (cleanup's checks), quit; absent
	                                   for any other */
	struct smtpcode_text reply;     /* the remote reply, from its code on.
	                                   A line whose text holds no code
	                                   keeps it, its quotes removed, with
	                                   code zeroed: the MTA's own words
	                                   ("Unrouteable address", "unknown
	                                   user: \"x\"", "connect to ...:
	                                   Connection timed out", Sendmail's
	                                   "User unknown"), for a caller to
	                                   classify by (smtpcode_wording());
	                                   absent when the line has no such
	                                   text.  For Postfix's "SASL ...
	                                   authentication failed", which logs
	                                   no reply, the reply smtpd sends
	                                   ("535 5.7.8 Error: authentication
	                                   failed", from the library's data),
	                                   a static string */
	struct smtpcode_text dsn;       /* the MTA's own dsn= field */
	struct smtpcode_query code;     /* codes of the reply (or, for free
	                                   text, the code found); its text_off
	                                   is relative to reply.s, so
	                                   smtpcode_resolve(&l.code, l.reply.s,
	                                   l.reply.len, ...) works */
	struct smtpcode_query dsn_code; /* dsn= parsed; zeroed if absent or
	                                   not a code; may differ from code */
};

/*
 * Parse one log line s[0..len) (its newline may be included; need not be
 * NUL-terminated; may hold any bytes).  Trailing white space, a CR
 * included, is part of no field.  Returns true when a code was found (in
 * the reply, the dsn= field or free text).  Every span lies inside s,
 * except status and stage, and a Postfix login failure's reply (see
 * above).  No allocation; cost linear in len.
 * Kept as it is for the programs built on it; smtpcode_event_parse()
 * (below) reads lines with the same engine, behind accessors that can
 * grow.  A line of a data/logs/ dialect has format SMTPCODE_LOG_FIELDS.
 */
bool smtpcode_log_parse(const char *s, size_t len, struct smtpcode_logline *l);

/* ---- Log events (since 0.2, symbol version SMTPCODE_0.2) ----
 *
 * What one log line says, read by the same engine as smtpcode_log_parse()
 * but behind accessors: the event's layout is the library's own, so new
 * fields and new dialects (data/logs/ in the sources) come without an
 * ABI break, which a fixed struct such as smtpcode_logline cannot.  The
 * library allocates nothing: the caller gives the space, of at least
 * smtpcode_event_size() bytes (which no 0.x library makes larger than
 * SMTPCODE_EVENT_SPACE), aligned for any object, e.g.
 *
 *     struct smtpcode_event_space space;
 *     const struct smtpcode_event *e =
 *         smtpcode_event_parse(line, len, &space, sizeof space);
 *     if (e && smtpcode_event_code(e))
 *         printf("%s\n", smtpcode_event_dialect(e));
 *
 * An event's texts point into the line, as smtpcode_logline's do (status
 * and stage excepted, which are static words); it stays valid while the line and the space do.
 */
struct smtpcode_event;

#define SMTPCODE_EVENT_SPACE 512
struct smtpcode_event_space {
	union {
		unsigned char bytes[SMTPCODE_EVENT_SPACE];
		max_align_t align; /* aligned for any object */
	} u;
};

/* The bytes an event needs in this library. */
size_t smtpcode_event_size(void);

/*
 * Parse one log line s[0..len) as smtpcode_log_parse() does, into
 * space[0..size).  Returns the event (at space), or NULL when space is
 * NULL or size below smtpcode_event_size().  A line with no code still
 * gives an event: smtpcode_event_code() says whether it holds one.
 */
const struct smtpcode_event *smtpcode_event_parse(const char *s, size_t len,
                                                  void *space, size_t size);

/* The codes of the reply (or of free text), NULL when the line has none;
 * their text_off is relative to smtpcode_event_reply().s. */
const struct smtpcode_query *smtpcode_event_code(const struct smtpcode_event *e);
/* The MTA's own dsn= code, NULL when absent or not a code. */
const struct smtpcode_query *smtpcode_event_dsn_code(const struct smtpcode_event *e);
/* Texts, absent (len 0) when the line does not say: as the fields of
 * struct smtpcode_logline of the same names (host is its relay). */
struct smtpcode_text smtpcode_event_recipient(const struct smtpcode_event *e);
struct smtpcode_text smtpcode_event_domain(const struct smtpcode_event *e);
struct smtpcode_text smtpcode_event_host(const struct smtpcode_event *e);
struct smtpcode_text smtpcode_event_status(const struct smtpcode_event *e);
struct smtpcode_text smtpcode_event_stage(const struct smtpcode_event *e);
struct smtpcode_text smtpcode_event_reply(const struct smtpcode_event *e);
struct smtpcode_text smtpcode_event_dsn(const struct smtpcode_event *e);
/* The dialect that read the line: "postfix", "exim", "sendmail", the id
 * of a data/logs/ record ("courier"), "text" for a code in free text;
 * NULL when the line is none of these. */
const char *smtpcode_event_dialect(const struct smtpcode_event *e);
/* The layout, as struct smtpcode_logline's format. */
enum smtpcode_log_format smtpcode_event_format(const struct smtpcode_event *e);

/* Since 0.7: which side of the mail the line is from.  Its status is one
 * of fixed words (since 0.7, in every dialect): the sending side's sent,
 * deferred, bounced, expired (a message this server could or could not
 * deliver); the receiving side's rejected, warned, discarded (what this
 * server did to a client's command); auth-failed (a client's login).  Its
 * stage is one of connect, helo, starttls, auth, mail, rcpt, data,
 * end-of-data, header, body, quit. */
enum smtpcode_log_side {
	SMTPCODE_SIDE_UNKNOWN,  /* free text, or a status that does not say */
	SMTPCODE_SIDE_DELIVERY, /* "delivery": we could (not) deliver */
	SMTPCODE_SIDE_REJECT,   /* "reject": we refused others */
	SMTPCODE_SIDE_AUTH      /* "auth": a login was refused */
};
enum smtpcode_log_side smtpcode_event_side(const struct smtpcode_event *e);
/* The same for a status s[0..len) as smtpcode_log_parse() gives it (a
 * struct smtpcode_logline's status), for callers that read lines so. */
enum smtpcode_log_side smtpcode_status_side(const char *s, size_t len);
/* "delivery", "reject", "auth", or NULL for SMTPCODE_SIDE_UNKNOWN. */
const char *smtpcode_side_name(enum smtpcode_log_side side);

/* The dialects the library reads, i from 0 to smtpcode_dialect_count() - 1,
 * by the id of their records in data/logs/ (sorted); NULL for i out of
 * range.  Several records may read one MTA's lines and report as it
 * ("courier-smtpd" and "courier-local" report "courier"). */
size_t smtpcode_dialect_count(void);
const char *smtpcode_dialect_name(size_t i);

/* ---- Event streams (since 0.8, symbol version SMTPCODE_0.8) ----
 *
 * The delivery events of mail services, one JSON value a line (JSON
 * Lines: an object, or an array of them on one line) -- Amazon SES
 * notifications ("ses"), the SendGrid event webhook ("sendgrid"),
 * Mailgun events ("mailgun"), the Postmark webhook ("postmark"),
 * SparkPost events ("sparkpost"), `journalctl -o json` of any MTA
 * ("journald", its MESSAGE read as the syslog line it was) -- and CSV
 * logs whose header line names their columns: Exchange message tracking
 * ("exchange-tracking"), PowerMTA accounting ("pmta-acct"), Microsoft 365
 * message trace ("m365-trace").  Each event gives records of the same
 * kind as a log line, one per recipient; their status is one of the
 * fixed words of a log line's, "complained" added for a complaint.
 */

/* A CSV file's layout, set by its header line (smtpcode_csv_header()),
 * kept by the caller for the lines that follow it; all zero: none.  Its
 * members are the library's. */
struct smtpcode_csv_layout {
	unsigned char kind;
	unsigned char column[7];
};

/* Whether line s[0..len) is the header of a CSV layout the library
 * reads (Exchange's "#Fields: ...", PowerMTA's "type,timeLogged,...",
 * the message trace's "Received,SenderAddress,..."); then *layout is
 * set, else left as it was. */
bool smtpcode_csv_header(const char *s, size_t len,
                         struct smtpcode_csv_layout *layout);

/* A record of an event: l's texts live until fn returns; dialect is one
 * of the names above. */
typedef void smtpcode_stream_fn(void *ctx, const struct smtpcode_logline *l,
                                const char *dialect);

/*
 * Read line s[0..len) as an event stream's: a JSON value when its first
 * non-blank byte is '{' or '[', a CSV line when layout (may be NULL) is
 * set.  Calls fn once per record and returns how many (0 for a comment,
 * a header, or an event that says nothing of a delivery, such as an
 * open); returns -1, fn not called, when the line is none of these:
 * JSON that does not parse or that no service writes, or neither JSON
 * nor CSV.  The caller then reads it as a log line.  The JSON is parsed
 * with jansson into memory freed before the return.
 */
int smtpcode_stream_parse(const char *s, size_t len,
                          const struct smtpcode_csv_layout *layout,
                          smtpcode_stream_fn *fn, void *ctx);

/*
 * Find the first enhanced status code in free text s[0..len), under the
 * policy against false positives (stated in full in src/logs/logline.c): the
 * code must be 2, 4 or 5, a subject of one digit 0-7 and a detail of 1 to
 * 3 digits, and stand alone: neither glued to letters, digits, '.', '/',
 * '@' or '-' before it (10.5.7.1, v4.3.1, ID4.2.2), nor followed by a
 * letter or digit, by '.', '-' or '/' and a letter or digit (5.7.1.2,
 * 4.2.2-1), or by ':' and a digit (4.3.1:25); bytes >= 0x80 count as
 * letters.  So IP addresses, version numbers, timestamps, queue IDs and
 * ports are not codes.  A basic code directly before it ("550 5.7.1",
 * "550-5.7.1") is taken with it.  Returns true and sets *q and the span *at, which starts at the
 * code (at its basic code, if taken) and runs to the end of its line,
 * trailing white space excluded; q's text_off is relative to at->s, and
 * at->s + q->text_off is where to look for the next code.  Returns false
 * with *q and *at zeroed when there is none.
 */
bool smtpcode_find_code(const char *s, size_t len, struct smtpcode_query *q,
                        struct smtpcode_text *at);

/*
 * The code of a text a person pasted (a line of a bounce, an NDR's
 * sentence): the first enhanced code as smtpcode_find_code() takes it;
 * failing that, a basic code 4xx or 5xx standing where a reply starts: at
 * a line's start, after a colon ("said: 550 ..."), or after a quote or
 * '#' ("returned '554 ...'").  Returns as smtpcode_find_code() does,
 * but a reply that a quote opens ends before the same quote at the end of
 * its line.
 */
bool smtpcode_find_pasted(const char *s, size_t len, struct smtpcode_query *q,
                          struct smtpcode_text *at);

/* ---- Bounce messages ---- */

enum smtpcode_mail_kind {
	SMTPCODE_MAIL_OTHER,     /* not a bounce, nor a known kind of report
	                            (never has recipients) */
	SMTPCODE_MAIL_DSN,       /* RFC 3464 delivery status notification: a
	                            message/delivery-status or
	                            message/global-delivery-status part, or a
	                            multipart/report saying so */
	SMTPCODE_MAIL_BOUNCE,    /* a non-standard bounce (Postfix, Exim,
	                            qmail, Sendmail text, Exchange NDR text,
	                            Gmail, Yahoo, X-Failed-Recipients), or a
	                            mailer daemon's delivery report in a form
	                            not read (then without recipients) */
	SMTPCODE_MAIL_AUTOREPLY, /* an out-of-office or other auto-reply */
	SMTPCODE_MAIL_FEEDBACK   /* an ARF feedback report (RFC 5965), or
	                            Microsoft's complaint (JMRP): one
	                            recipient (none when an ARF report lacks
	                            its report part), the reported message's, whose
	                            action is the Feedback-Type (JMRP states
	                            none) */
};

/* One recipient of a bounce.  Texts are trimmed, and folded or wrapped
 * lines are joined with single spaces. */
struct smtpcode_mail_recipient {
	struct smtpcode_text recipient;  /* Final-Recipient's address (else
	                                    Original-Recipient's), without
	                                    "rfc822;" and <>, or the address a
	                                    text bounce names */
	struct smtpcode_text action;     /* failed, delayed, delivered,
	                                    relayed, expanded; or absent (text
	                                    bounces); a feedback report's
	                                    Feedback-Type (abuse, fraud...) */
	struct smtpcode_text status;     /* the Status: code as written,
	                                    without a trailing comment */
	struct smtpcode_text diagnostic; /* Diagnostic-Code text after "smtp;",
	                                    else what Status: says after its
	                                    code ("5.0.0 (mailbox full)");
	                                    or the reply line a text bounce
	                                    quotes */
	struct smtpcode_text remote_mta; /* Remote-MTA, after "dns;", or the
	                                    host a text bounce names */
	struct smtpcode_query status_code;     /* Status: parsed; zeroed when
	                                          absent or not a code */
	struct smtpcode_query diagnostic_code; /* the diagnostic's codes: the
	                                          reply it starts with, else
	                                          the first code in it
	                                          (smtpcode_find_code()); its
	                                          text_off counts from
	                                          diagnostic.s.  The DSN's
	                                          Status may be generic (5.0.0)
	                                          where this is specific */
};

struct smtpcode_mail {
	enum smtpcode_mail_kind kind;
	struct smtpcode_text from, subject; /* the message's own, unfolded,
	                                       RFC 2047 encoded words decoded
	                                       (UTF-8, US-ASCII; ISO-8859-1
	                                       made UTF-8; words in other
	                                       charsets left encoded) */
	struct smtpcode_text reporting_mta; /* Reporting-MTA after "dns;", or
	                                       the host a text bounce names */
	struct smtpcode_mail_recipient *recipients; /* the caller's array */
	size_t max;         /* its size */
	size_t nrecipients; /* recipients found; those past max are counted
	                       but not stored */
};

/*
 * Parse an RFC 5322 message msg[0..len) (CRLF, LF or, given a work buffer
 * of len bytes, bare CR line ends; msg may be NULL when len is 0):
 * headers (folded ones too), MIME parts nested up to 8 multiparts deep
 * (deeper ones are not read; a missing close delimiter ends the part at
 * the end of the message), quoted-printable and base64 bodies decoded
 * into work[0..worksize), and the recipients of an RFC 3464 report or of
 * a non-standard bounce.  A returned original message is never read for
 * recipients; a report attached whole (message/rfc822) to a message from
 * the mail system, or one that calls itself a report, that has no report
 * part of its own is read (a relay's postmaster sending a report on).
 * Set m->recipients and m->max before the call (recipients
 * may be NULL when max is 0); m->nrecipients then counts every
 * recipient, so a caller whose array was too small can give one of
 * m->nrecipients and parse again, with the same result.
 *
 * work, which must not overlap msg, is needed only to decode, to join
 * folded lines and to read bare CR line ends; worksize >= len always
 * suffices, and work may be NULL with worksize 0.  Returns 0, or -1 when
 * the work buffer was too small: what fitted is still parsed, and text
 * that did not fit is left as it is in msg (folded, encoded words,
 * bare CR line ends) or left out (encoded bodies).  Spans point into msg
 * or work.  Never reads past len; no allocation; cost linear in len.
 */
int smtpcode_mail_parse(const char *msg, size_t len, char *work,
                        size_t worksize, struct smtpcode_mail *m);

/* Since 0.9: what bounce m says of recipient r's message, as
 * smtpcode_judge() takes it: the report of r's Action (a DSN's); for a
 * non-standard bounce, which has none, a delay when its Subject says so
 * ("Warning: message ... delayed"), else final (a bounce reports a
 * failure); unsaid for other messages. */
enum smtpcode_report smtpcode_mail_report(const struct smtpcode_mail *m,
                                   const struct smtpcode_mail_recipient *r);

/* Since 0.9: the SMTP step recipient's refusal answered, as the message
 * msg[0..len) says it in the recipient's paragraph of its human-readable
 * part ("(in reply to end of DATA command)", which a DSN's
 * Diagnostic-Code does not hold): a stage word of struct
 * smtpcode_logline ("rcpt", "end-of-data", ...), a static string;
 * absent when the message does not say.  Reads 16 KiB after the
 * message's header. */
struct smtpcode_text smtpcode_mail_stage(const char *msg, size_t len,
                                         struct smtpcode_text recipient);

/* Whether s[0..len) is a mail message rather than text from one: it
 * starts with an mbox "From " line, or with a header block (field lines
 * up to a blank line) holding a field only a message's header has
 * (From:, Received:, Date: ...).  For text a person pastes: a reply or a
 * DSN's fields alone are not a message. */
bool smtpcode_is_message(const char *s, size_t len);

/* Iterate the whole table in key order: basic codes, enhanced codes by
 * subject, detail and class (X first), then categories. */
size_t smtpcode_table_size(void);
const struct smtpcode_entry *smtpcode_table_entry(size_t i);
/* The i for which smtpcode_table_entry(i) is e; smtpcode_table_size()
 * when e is not an entry of the table. */
size_t smtpcode_entry_index(const struct smtpcode_entry *e);

/* Date of the data, "YYYY-MM-DD", from data/. */
const char *smtpcode_data_date(void);

#endif
