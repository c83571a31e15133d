/*
 * smtpcode: explain SMTP reply codes.  This file reads the command line,
 * hands each argument to the library and each result to the renderer of
 * the chosen output, and turns the outcome into the exit status.
 */
#include <stdarg.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fields.h"
#include "input.h"
#include "layout.h"
#include "logs.h"
#include "mailbox.h"
#include "mails.h"
#include "output.h"
#include "probe_exec.h"
#include "render.h"
#include "rules.h"
#include "select.h"
#include "suppressions.h"

enum exit_status { EXIT_FOUND = 0, EXIT_UNKNOWN = 1, EXIT_ERROR = 2 };

enum mode { MODE_TEXT, MODE_JSON, MODE_TSV, MODE_FIELD, MODE_BRIEF,
            MODE_QUIET };
enum action { ACT_LOOKUP, ACT_LIST, ACT_SEARCH, ACT_PROVIDERS, ACT_ANNOTATE,
              ACT_EXTRACT, ACT_SUMMARY, ACT_MAIL, ACT_STDIN,
              ACT_SUPPRESSIONS, ACT_NACTIONS };

/* The options a mode may be given beyond its own, as bits: any other is
 * refused (the man page's OPTIONS BY MODE is this table). */
enum { OPT_JSON = 1, OPT_TSV = 2, OPT_FIELD = 4, OPT_BRIEF = 8, OPT_QUIET = 16,
       OPT_COUNT = 32, OPT_WIDTH = 64, OPT_FILTER = 128 };
#define OPT_RECORDS (OPT_QUIET | OPT_FILTER)
#define OPT_FORMATS (OPT_JSON | OPT_TSV | OPT_FIELD | OPT_BRIEF)
static const struct {
	const char *name; /* as given */
	unsigned takes;
} modes[ACT_NACTIONS] = {
	[ACT_LOOKUP] = {"a lookup",
	                OPT_JSON | OPT_TSV | OPT_FIELD | OPT_BRIEF | OPT_QUIET |
	                    OPT_WIDTH},
	[ACT_STDIN] = {"--stdin", OPT_JSON | OPT_TSV | OPT_FIELD | OPT_BRIEF |
	                              OPT_QUIET | OPT_WIDTH},
	[ACT_LIST] = {"--list", OPT_JSON | OPT_TSV | OPT_FIELD | OPT_BRIEF |
	                            OPT_QUIET | OPT_COUNT},
	[ACT_SEARCH] = {"--search", OPT_JSON | OPT_TSV | OPT_FIELD | OPT_BRIEF |
	                                OPT_QUIET | OPT_COUNT},
	[ACT_PROVIDERS] = {"--providers", OPT_JSON | OPT_TSV | OPT_QUIET},
	[ACT_ANNOTATE] = {"--annotate", OPT_RECORDS | OPT_COUNT},
	[ACT_EXTRACT] = {"--extract", OPT_JSON | OPT_TSV | OPT_FIELD |
	                                  OPT_RECORDS | OPT_COUNT},
	[ACT_SUMMARY] = {"--summary", OPT_JSON | OPT_RECORDS},
	[ACT_MAIL] = {"--mail", OPT_JSON | OPT_TSV | OPT_FIELD | OPT_BRIEF |
	                            OPT_RECORDS | OPT_COUNT | OPT_WIDTH},
	[ACT_SUPPRESSIONS] = {"--suppressions", OPT_JSON | OPT_TSV | OPT_RECORDS},
};

struct options {
	enum mode mode;
	enum action action;
	enum field_id field;
	int record_key;       /* --field NAME of a log record's own, or -1 */
	const char *record_key_name; /* and that NAME */
	const struct smtpcode_entry *provider; /* --provider NAME */
	bool all_providers;                    /* --provider all */
	const char *rules;                     /* --rules FILE */
	bool count;                            /* -c */
	unsigned given;                        /* OPT_ bits of the options
	                                          given */
	const char *named[8];                  /* each OPT_ bit's option, as
	                                          named in messages */
	struct selection sel;                  /* the record filters */
};

/* The help is also the source of the man page's synopsis and options: a
 * test keeps the two in step. */
static const char usage_text[] =
    "usage: smtpcode [OPTIONS] CODE|REPLY|TEXT...   ('-': text or a message on stdin)\n"
    "       smtpcode -l|--list [PATTERN]     every code, or those matching 5.7.*, 4xx\n"
    "       smtpcode -s|--search WORDS...    codes whose texts hold all WORDS\n"
    "       smtpcode --annotate|--extract|--summary [FILE...]   read mail logs\n"
    "       smtpcode --mail [FILE|DIR...]    explain bounces: messages, mbox, Maildir\n"
    "       smtpcode --suppressions [FILE|DIR...]   addresses to drop, watch, keep\n"
    "       smtpcode --stdin                 one code, reply or text per input line\n"
    "       smtpcode --providers             the providers and their entry counts\n"
    "       smtpcode --probe DOMAIN|HOST[:PORT] [--rcpt ADDR]   ask its mail servers\n"
    "Explain SMTP reply codes: basic (452), enhanced (4.3.1, X.3.1), a pasted\n"
    "reply (\"452 4.3.1 Insufficient system storage\"), or a pattern (5.7.*).\n"
    "\n"
    "  -j, --json            one JSON object per result (JSON Lines)\n"
    "  -t, --tsv             code, severity, scope, acts, reason, name\n"
    "  -f, --field NAME      one field per result: severity, scope, acts,\n"
    "                        retry, suppress, bounce, reason, name, basic, ...;\n"
    "                        with --extract also a record's: side, recipient, ...\n"
    "  -b, --brief           one line per result: code, severity, name\n"
    "  -q, --quiet           no output; only the exit status\n"
    "  -c, --count           only the number of codes or records\n"
    "  -p, --provider NAME   codes as provider NAME uses them (gmail, yahoo,\n"
    "                        ...; 'all' with --list); replies name their own\n"
    "      --color=WHEN      auto (on a terminal, unless NO_COLOR is set),\n"
    "                        always or never\n"
    "  -w, --width COLUMNS   wrap text at COLUMNS, 0 for never\n"
    "      --rules FILE      a site's rules in the format of data/ (reason\n"
    "                        phrases, providers' markers, entries)\n"
    "Records of logs and bounces are selected by (repeatable, see smtpcode(1)):\n"
    "      --severity WHICH  success, temporary or permanent\n"
    "      --scope, --reason, --suppress VALUE   a value -f prints\n"
    "      --domain DOMAIN   the recipient's domain; -p NAME the provider's\n"
    "  -h, --help            show this help and exit\n"
    "  -V, --version         show the version and the date of the data\n"
    "\n"
    "Exit status: 0 every code was found (list, search: something matched);\n"
    "1 a code is not in the table, or nothing matched; 2 usage, input or\n"
    "write error.  --probe (its options: smtpcode --probe -h): 0 the server\n"
    "accepted every step, 1 it answered a failure code, 2 usage or local\n"
    "error, 3 no server could be reached.  See smtpcode(1).\n";

static void complain_arg(const char *arg, const char *why)
{
	size_t n = strlen(arg);
	fputs("smtpcode: '", stderr);
	out_escaped(stderr, arg, n > 60 ? 60 : n);
	fprintf(stderr, "%s' is not an SMTP code: %s (expected 452, 4.3.1, "
	        "\"452 4.3.1 text\" or a pattern such as 5.7.*)\n",
	        n > 60 ? "..." : "", why);
}

static unsigned terminal_width(void)
{
	struct winsize ws;
	if (!isatty(STDOUT_FILENO))
		return 0;
	if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 20)
		return ws.ws_col;
	return 80;
}

static int parse_width(const char *s, unsigned *w)
{
	char *end;
	long v;
	if (*s < '0' || *s > '9')
		return -1;
	v = strtol(s, &end, 10);
	if (*end || v > 1000)
		return -1;
	*w = (unsigned)v;
	return 0;
}

/* Whether the environment variable name is set and not empty. */
static bool env_set(const char *name)
{
	const char *v = getenv(name);
	return v && *v;
}

/* --color=WHEN.  auto: on a terminal that shows colour (not TERM=dumb)
 * unless NO_COLOR is set. */
static int parse_color(const char *s, bool *on)
{
	const char *term = getenv("TERM");
	if (strcmp(s, "always") == 0)
		*on = true;
	else if (strcmp(s, "never") == 0)
		*on = false;
	else if (strcmp(s, "auto") == 0)
		*on = isatty(STDOUT_FILENO) && !env_set("NO_COLOR") &&
		      !(term && strcmp(term, "dumb") == 0);
	else
		return -1;
	return 0;
}

static void emit(const struct options *o, const struct row *w,
                 const struct smtpcode_result *r, const char *input)
{
	static int printed;
	switch (o->mode) {
	case MODE_TEXT:
		if (printed++)
			out_str("\n");
		if (r)
			render_text(w, input);
		else
			render_category(w->entry);
		break;
	case MODE_JSON: render_json(w); break;
	case MODE_TSV: render_tsv(w); break;
	case MODE_FIELD: render_field(w, o->field); break;
	case MODE_BRIEF: render_brief(w); break;
	case MODE_QUIET: break;
	}
}

/* How records from logs and messages are written. */
static enum record_format record_format(const struct options *o)
{
	return o->mode == MODE_JSON ? RECORD_JSON
	     : o->mode == MODE_TSV ? RECORD_TSV : RECORD_TEXT;
}

/* An entry of a list or a search. */
static void emit_entry(const struct options *o, const struct smtpcode_entry *e,
                       const char *input)
{
	struct smtpcode_result r;
	struct row w;
	smtpcode_resolve_entry(e, &r);
	row_of_result(&w, &r, input);
	w.entry = e;
	if (o->mode == MODE_TEXT) { /* lists read best one line each */
		render_brief(&w);
		return;
	}
	emit(o, &w, &r, input);
}

/* Whether a list or search shows entry e, by its provider. */
static bool shown(const struct options *o, const struct smtpcode_entry *e,
                  bool search)
{
	const struct smtpcode_entry *p = smtpcode_provider_of(e);
	if (o->all_providers)
		return p != NULL;
	if (o->provider)
		return p == o->provider;
	return p == NULL || search;
}

/* The exit status of a list, a search or a mode of records that found n,
 * after their number for -c. */
static int counted(const struct options *o, size_t n)
{
	if (o->count && o->mode != MODE_QUIET)
		out_printf("%zu\n", n);
	return n ? EXIT_FOUND : EXIT_UNKNOWN;
}

static int list(const struct options *o, const struct smtpcode_pattern *pat,
                const char *input)
{
	size_t n = 0;
	for (size_t i = 0; i < smtpcode_table_size(); i++) {
		const struct smtpcode_entry *e = smtpcode_table_entry(i);
		if (shown(o, e, false) && smtpcode_pattern_match(pat, e)) {
			if (!o->count)
				emit_entry(o, e, input);
			n++;
		}
	}
	return counted(o, n);
}

/* The entries that hold the words, best rank first (the phrase in a
 * standard entry), each rank in table order: each entry's rank taken
 * once, then shown rank by rank. */
static int search(const struct options *o, char **words, int n)
{
	const char *const *w = (const char *const *)words;
	size_t found = 0, size = smtpcode_table_size();
	unsigned char *rank = malloc(size ? size : 1);

	if (!rank) {
		fputs("smtpcode: out of memory\n", stderr);
		return EXIT_ERROR;
	}
	for (size_t i = 0; i < size; i++) {
		const struct smtpcode_entry *e = smtpcode_table_entry(i);
		rank[i] = shown(o, e, true)
		        ? (unsigned char)smtpcode_search_rank(e, w, (size_t)n) : 0;
	}
	for (unsigned r = 1; r <= SMTPCODE_SEARCH_RANKS; r++)
		for (size_t i = 0; i < size; i++)
			if (rank[i] == r) {
				if (!o->count)
					emit_entry(o, smtpcode_table_entry(i), NULL);
				found++;
			}
	free(rank);
	return counted(o, found);
}

/* Whether the arguments hold a word: blanks alone would match anything. */
static bool has_words(char **argv, int argc)
{
	for (int i = 0; i < argc; i++)
		if (argv[i][strspn(argv[i], " \t\n\r")])
			return true;
	return false;
}

/* A lone code, without reply text: a candidate half of "452 4.3.1". */
static int lone(const struct smtpcode_query *q, int enhanced)
{
	return !q->text_len && (enhanced ? q->enhanced && !q->basic
	                                 : q->basic && !q->enhanced);
}

static const char *escape_text(const char *s, size_t n);

static bool blank(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* Whether s holds several words, blanks between them: text rather than a
 * code ("4.3\n" and " " are a malformed code and an empty one). */
static bool several_words(const char *s, size_t len)
{
	while (len && blank(s[len - 1]))
		len--;
	while (len && blank(*s))
		s++, len--;
	for (size_t i = 0; i < len; i++)
		if (blank(s[i]))
			return true;
	return false;
}

/*
 * An input that gives no result: with lined (--stdin), and in the formats
 * scripts read, it still gives a line, so that results line up with their
 * inputs: JSON's record with known false, TSV's empty columns, --field's
 * empty line; --stdin's text and brief formats say why in the line.
 */
static void emit_missing(const struct options *o, const char *input,
                         const char *why, bool lined)
{
	struct smtpcode_result r;
	struct row w;

	if (o->mode == MODE_FIELD) { /* an empty field */
		if (o->field == F_INPUT)
			out_escaped(stdout, input, strlen(input));
		out_str("\n");
		return;
	}
	if (o->mode == MODE_TEXT || o->mode == MODE_BRIEF) {
		if (!lined)
			return;
		out_str("'");
		out_escaped(stdout, input, strlen(input));
		out_printf("': not found: %s\n", why);
		return;
	}
	memset(&r, 0, sizeof r);
	row_of_result(&w, &r, input);
	emit(o, &w, &r, input);
}

/*
 * Judge text[0..len), a reply or any pasted text, with the codes q when
 * the caller parsed them (NULL: the code found in it, else the words),
 * and show the verdict.  Returns the exit status: 1, after saying so,
 * when it holds neither a code nor a wording smtpcode knows.
 */
static int answer(const struct options *o, const char *text, size_t len,
                  const struct smtpcode_query *q, bool lined)
{
	static const char none[] = "no SMTP code and no wording smtpcode knows";
	struct smtpcode_evidence ev = {.reply = {text, len}, .reply_code = q,
	                               .provider = o->provider};
	struct smtpcode_judgement j;
	struct row w;

	judge(&ev, &j);
	if (j.code_from || j.verdict_from) {
		row_of_judgement(&w, &j, text);
		emit(o, &w, &j.result, text);
		return !j.code_from || j.result.known ? EXIT_FOUND : EXIT_UNKNOWN;
	}
	if (!lined)
		fprintf(stderr, "smtpcode: '%s' holds %s (expected a code such as "
		        "4.3.1, or a reply's words)\n", escape_text(text, len), none);
	emit_missing(o, text, none, lined);
	return EXIT_UNKNOWN;
}

/*
 * Look up one operand or input line, arg[0..len) (NUL-terminated): a
 * category, a pattern, a code or reply, or any text.  next, when not
 * NULL, is the operand after it, which a lone basic code takes as its
 * enhanced code ("452" "4.3.1" is one reply, as servers write it); *took
 * says whether it did.  lined: every input gives one result (--stdin).
 * Returns the exit status.
 */
static int lookup_one(const struct options *o, const char *arg, size_t len,
                      const char *next, bool *took, bool lined)
{
	struct smtpcode_query q, q2;
	struct smtpcode_pattern pat;
	const struct smtpcode_entry *cat;
	struct row w;
	char pair[64];
	enum smtpcode_error err = smtpcode_parse(arg, len, &q);

	*took = false;
	if (err && (cat = smtpcode_find_category(arg, len))) {
		row_of_category(&w, cat, arg);
		emit(o, &w, NULL, arg);
		return EXIT_FOUND;
	}
	if (err && smtpcode_pattern_parse(arg, len, &pat) == 0 && pat.wild) {
		if (lined) { /* one result per line: a pattern has many */
			emit_missing(o, arg, "a pattern (use --list for its codes)",
			             lined);
			return EXIT_UNKNOWN;
		}
		if (list(o, &pat, arg) == EXIT_FOUND)
			return EXIT_FOUND;
		emit_missing(o, arg, "no code matches the pattern", lined);
		return EXIT_UNKNOWN;
	}
	if (err && several_words(arg, len))
		return answer(o, arg, len, NULL, lined);
	if (err) {
		if (lined) {
			emit_missing(o, arg, smtpcode_strerror(err), lined);
			return EXIT_UNKNOWN;
		}
		complain_arg(arg, smtpcode_strerror(err));
		emit_missing(o, arg, smtpcode_strerror(err), lined);
		return EXIT_ERROR;
	}
	if (next && lone(&q, 0) &&
	    smtpcode_parse(next, strlen(next), &q2) == SMTPCODE_OK && lone(&q2, 1)) {
		q.enhanced = true;
		q.cls = q2.cls;
		q.subject = q2.subject;
		q.detail = q2.detail;
		/* The input is the pair, as typed: "550 4.1.1". */
		if (snprintf(pair, sizeof pair, "%s %s", arg, next) <
		    (int)sizeof pair)
			arg = pair;
		else
			arg = next;
		len = strlen(arg);
		*took = true;
	}
	return answer(o, arg, len, &q, lined);
}

/* The worse of two exit statuses. */
static int worse(int a, int b)
{
	return a > b ? a : b;
}

/* "-": what standard input holds, pasted text or a whole message. */
struct pasted {
	const struct options *o;
	int status;
};

/* One message of standard input's (message_fn; an empty input is one
 * too, of length 0): a mail message is read as --mail reads it; anything
 * else is one text to look up, its blank ends left out. */
static int lookup_pasted(void *ctx, const char *text, size_t len,
                         long number)
{
	struct pasted *p = ctx;
	char *copy;
	bool took;

	(void)number;
	if (smtpcode_is_message(text, len)) {
		struct mail_options mo = {record_format(p->o), p->o->provider,
		                          false, -1, -1, {NULL, false, false, NULL},
		                          0};
		if (read_mail_text(&mo, "(standard input)", text, len) != 0)
			p->status = EXIT_ERROR;
		return 0;
	}
	while (len && blank(text[len - 1]))
		len--;
	while (len && blank(*text))
		text++, len--;
	if (len == 0 || memchr(text, '\0', len)) {
		fprintf(stderr, "smtpcode: (standard input): %s (expected a code, "
		        "a reply, text or a message)\n",
		        len ? "a NUL byte in the text" : "nothing but white space");
		p->status = EXIT_ERROR;
		return 0;
	}
	if (!(copy = malloc(len + 1))) {
		fputs("smtpcode: (standard input): out of memory\n", stderr);
		p->status = EXIT_ERROR;
		return -1;
	}
	memcpy(copy, text, len);
	copy[len] = '\0';
	p->status = worse(p->status, lookup_one(p->o, copy, len, NULL, &took,
	                                        false));
	free(copy);
	return 0;
}

static int lookup_stdin(const struct options *o)
{
	struct message_buffer b = {NULL, 0};
	struct pasted p = {o, EXIT_FOUND};
	int r = each_message("-", &b, lookup_pasted, &p);
	free(b.data);
	return r ? EXIT_ERROR : p.status;
}

/* Look up each argument; returns the exit status. */
static int lookup(const struct options *o, int argc, char **argv)
{
	int status = EXIT_FOUND;
	for (int i = 0; i < argc; i++) {
		bool took;
		if (strcmp(argv[i], "-") == 0) {
			status = worse(status, lookup_stdin(o));
			continue;
		}
		status = worse(status, lookup_one(o, argv[i], strlen(argv[i]),
		                                  i + 1 < argc ? argv[i + 1] : NULL,
		                                  &took, false));
		i += took;
	}
	return status;
}

/* --stdin: each input line, looked up alone (a line's reply is never
 * joined to the next line's code), a result each. */
struct lines {
	const struct options *o;
	char *copy; /* the line, NUL-terminated */
	int status;
};

static void lookup_line(void *ctx, const char *line, size_t len,
                        unsigned long lineno)
{
	struct lines *l = ctx;
	bool took;
	if (len && line[len - 1] == '\r')
		len--;
	memcpy(l->copy, line, len);
	l->copy[len] = '\0';
	if (memchr(line, '\0', len)) {
		fprintf(stderr, "smtpcode: (standard input):%lu: a NUL byte in "
		        "the line (expected text)\n", lineno);
		emit_missing(l->o, l->copy, "a NUL byte in the line", true);
		l->status = worse(l->status, EXIT_ERROR);
		return;
	}
	l->status = worse(l->status,
	                  lookup_one(l->o, l->copy, len, NULL, &took, true));
}

static int lookup_lines(const struct options *o)
{
	struct lines l = {o, malloc(MAX_LINE + 1), EXIT_FOUND};
	char *buf = malloc(BLOCK_SIZE);
	if (!l.copy || !buf) {
		free(l.copy);
		free(buf);
		fputs("smtpcode: out of memory\n", stderr);
		return EXIT_ERROR;
	}
	if (each_line("-", buf, lookup_line, &l) != 0)
		l.status = EXIT_ERROR;
	free(l.copy);
	free(buf);
	return l.status;
}

/* s[0..n) for an error message, escaped as out_escaped() escapes text
 * from the user: at most 60 bytes of it ("..." after). */
static const char *escape_text(const char *s, size_t n)
{
	static char buf[6 * 60 + 4];
	size_t len = 0, shown = n > 60 ? 60 : n;
	for (size_t i = 0, k; i < shown; i += k) {
		size_t e = out_escape_at(s, shown, i, buf + len, &k);
		if (e == 0)
			memcpy(buf + len, s + i, e = k);
		len += e;
	}
	memcpy(buf + len, n > 60 ? "..." : "", n > 60 ? 4 : 1);
	return buf;
}

static const char *escape_arg(const char *s)
{
	return escape_text(s, strlen(s));
}

/* Everything written reaches its file, or the exit status says so. */
static int finish(int status)
{
	switch (out_finish()) {
	case 0: return status;
	case 1: perror("smtpcode: write error"); break;
	default:
		fputs("smtpcode: out of memory: the output is incomplete\n", stderr);
		break;
	}
	return EXIT_ERROR;
}

__attribute__((format(printf, 1, 2)))
static int usage_error(const char *fmt, ...)
{
	va_list ap;
	fputs("smtpcode: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs("\nTry 'smtpcode --help' for more information.\n", stderr);
	return EXIT_ERROR;
}

/*
 * The options, read as GNU getopt_long() reads them but the same in every
 * build (musl's getopt_long() refuses an abbreviation that glibc's takes):
 * short options alone or clustered (-jt), a value attached or next (-w80,
 * -w 80); long options with a value after '=' or next; a long option
 * shortened to a start of its name that no other option shares (as grep
 * takes them); options and operands in any order; "--" ends the options,
 * and "-" is an operand.
 */
struct option_spec {
	const char *name; /* long name */
	char letter;      /* short letter, or 0 */
	char takes_value; /* 0 no, 1 yes, 2 only after '=' (--color) */
	char id;          /* what main() acts on: --color and --colour alike */
};

static const struct option_spec option_specs[] = {
	{"json", 'j', 0, 'j'},          {"tsv", 't', 0, 't'},
	{"field", 'f', 1, 'f'},         {"brief", 'b', 0, 'b'},
	{"quiet", 'q', 0, 'q'},         {"count", 'c', 0, 'c'},
	{"list", 'l', 0, 'l'},          {"search", 's', 0, 's'},
	{"provider", 'p', 1, 'p'},      {"providers", 0, 0, 'P'},
	{"annotate", 0, 0, 'A'},        {"extract", 0, 0, 'E'},
	{"summary", 0, 0, 'S'},         {"mail", 0, 0, 'M'},
	{"suppressions", 0, 0, 'U'},    {"stdin", 0, 0, 'I'},
	{"severity", 0, 1, '0'},        {"scope", 0, 1, '1'},
	{"reason", 0, 1, '2'},          {"suppress", 0, 1, '3'},
	{"domain", 0, 1, 'd'},          {"rules", 0, 1, 'R'},
	{"color", 0, 2, 'C'},           {"colour", 0, 2, 'C'},
	{"width", 'w', 1, 'w'},         {"help", 'h', 0, 'h'},
	{"version", 'V', 0, 'V'},
};
#define NSPECS (sizeof option_specs / sizeof *option_specs)

/* The option named name[0..len) (after "--"): by its whole name, or by a
 * start that only it has; NULL after a usage error when there is none, or
 * several. */
static const struct option_spec *long_option(const char *name, size_t len)
{
	const struct option_spec *found = NULL;
	char names[160] = "";
	bool several = false;

	for (size_t i = 0; len && i < NSPECS; i++) {
		const struct option_spec *o = &option_specs[i];
		if (strncmp(o->name, name, len) != 0)
			continue;
		if (o->name[len] == '\0')
			return o;
		several |= found && found->id != o->id;
		if (!found)
			found = o;
		str_cat(names + strlen(names), sizeof names - strlen(names),
		        *names ? ", --" : "--", o->name, (char *)NULL);
	}
	if (found && !several)
		return found;
	if (several)
		usage_error("option '--%s' is ambiguous (%s)",
		            escape_text(name, len), names);
	else /* "--=x" has no name: shown whole */
		usage_error("unknown option '--%s'",
		            escape_text(name, len ? len : strlen(name)));
	return NULL;
}

/* The option of short letter c, or NULL after a usage error. */
static const struct option_spec *short_option(char c)
{
	char one[2] = {c, '\0'};
	for (size_t i = 0; i < NSPECS; i++)
		if (c && option_specs[i].letter == c)
			return &option_specs[i];
	usage_error("unknown option '-%s'", escape_arg(one));
	return NULL;
}

/* Option bit b given, named as (for a message that refuses it). */
static void given(struct options *o, unsigned b, const char *as)
{
	o->given |= b;
	o->named[__builtin_ctz(b)] = as;
}

/* An option without a value, id, named as, into o: -1 to go on, else the
 * exit status to end with now (--help, --version, two modes). */
static int take_flag(struct options *o, char id, const char *as)
{
	static const char mode_ids[] = "lsPAESMIU";
	static const enum action mode_of[] = {
	    ACT_LIST, ACT_SEARCH, ACT_PROVIDERS, ACT_ANNOTATE, ACT_EXTRACT,
	    ACT_SUMMARY, ACT_MAIL, ACT_STDIN, ACT_SUPPRESSIONS};
	const char *m = strchr(mode_ids, id);

	if (id && m) {
		enum action a = mode_of[m - mode_ids];
		if (o->action != ACT_LOOKUP && o->action != a)
			return usage_error("%s and %s are two modes: give one",
			                   modes[o->action].name, modes[a].name);
		o->action = a;
		return -1;
	}
	switch (id) {
	case 'j': o->mode = MODE_JSON; given(o, OPT_JSON, as); break;
	case 't': o->mode = MODE_TSV; given(o, OPT_TSV, as); break;
	case 'b': o->mode = MODE_BRIEF; given(o, OPT_BRIEF, as); break;
	case 'q': o->mode = MODE_QUIET; given(o, OPT_QUIET, as); break;
	case 'c': o->count = true; given(o, OPT_COUNT, as); break;
	case 'h':
		out_str(usage_text);
		return finish(EXIT_FOUND);
	case 'V':
	default:
		out_printf("smtpcode %s (data of %s)\n", SMTPCODE_VERSION,
		           smtpcode_data_date());
		return finish(EXIT_FOUND);
	}
	return -1;
}

/* An option with a value, id, into o, width and color: -1 to go on, else
 * EXIT_ERROR after a usage error. */
static int take_value(struct options *o, char id, const char *value,
                      const char *as, unsigned *width, bool *color)
{
	char why[1200];
	const char *bad;
	int f;

	switch (id) {
	case '0': /* --severity, --scope, --reason, --suppress */
	case '1':
	case '2':
	case '3':
	case 'd':
		given(o, OPT_FILTER, as);
		if ((bad = selection_take(&o->sel, id == 'd' ? -2 : id - '0',
		                          value, why, sizeof why)) != NULL)
			return usage_error("%s '%s': %s", as, escape_arg(value), bad);
		break;
	case 'f':
		given(o, OPT_FIELD, as);
		o->record_key = -1;
		if ((f = field_parse(value)) < 0 &&
		    (o->record_key = record_key_parse(value)) >= 0) {
			o->mode = MODE_FIELD; /* a record's: --extract only */
			o->record_key_name = value;
			break;
		}
		if (f < 0)
			return usage_error("unknown field '%s' (expected a JSON "
			                   "key: severity, scope, acts, retry, "
			                   "suppress, bounce, reason, name, ...)",
			                   escape_arg(value));
		o->mode = MODE_FIELD;
		o->field = (enum field_id)f;
		break;
	case 'p':
		if (strcmp(value, "all") == 0) {
			o->all_providers = true;
			break;
		}
		o->provider = smtpcode_find_provider(value, strlen(value));
		if (!o->provider)
			return usage_error("unknown provider '%s' (see "
			                   "'smtpcode --providers')", escape_arg(value));
		/* In the modes of records, a filter too (main()). */
		if ((bad = selection_take(&o->sel, -1, value, why,
		                          sizeof why)) != NULL)
			return usage_error("%s '%s': %s", as, escape_arg(value), bad);
		break;
	case 'R':
		o->rules = value;
		break;
	case 'C':
		if (parse_color(value, color))
			return usage_error("invalid --color '%s' (expected auto, "
			                   "always or never)", escape_arg(value));
		break;
	case 'w':
	default:
		given(o, OPT_WIDTH, as);
		if (parse_width(value, width))
			return usage_error("invalid width '%s' (expected a number "
			                   "of columns, 0 to 1000)", escape_arg(value));
		break;
	}
	return -1;
}

/* Option s, with its value when it takes one (the caller made sure it is
 * there): -1 to go on, else the exit status to end with now. */
static int take_option(struct options *o, const struct option_spec *s,
                       const char *value, unsigned *width, bool *color)
{
	static char names[NSPECS][20]; /* "--name" or "-x", for messages */
	char *as = names[s - option_specs];

	if (s->letter)
		snprintf(as, sizeof names[0], "-%c", s->letter);
	else
		snprintf(as, sizeof names[0], "--%s", s->name);
	if (s->takes_value && value)
		return take_value(o, s->id, value, as, width, color);
	return take_flag(o, s->id, as);
}

/* The options of argv[1..argc) taken into o, width and color, and the
 * operands moved to the front of argv, in order: -1 and *noperands their
 * number, else the exit status to end with now. */
static int read_options(int argc, char **argv, int *noperands,
                        struct options *o, unsigned *width, bool *color)
{
	bool only_operands = false;
	int n = 0, status;

	for (int i = 1; i < argc; i++) {
		const char *arg = argv[i], *value;
		if (only_operands || arg[0] != '-' || arg[1] == '\0') {
			argv[n++] = argv[i];
		} else if (strcmp(arg, "--") == 0) {
			only_operands = true;
		} else if (arg[1] == '-') { /* --name, --name=value */
			const char *eq = strchr(arg + 2, '=');
			const struct option_spec *s = long_option(
			    arg + 2, eq ? (size_t)(eq - arg - 2) : strlen(arg + 2));
			if (!s)
				return EXIT_ERROR;
			value = eq ? eq + 1 : NULL;
			if (value && !s->takes_value)
				return usage_error("option '--%s' takes no value", s->name);
			if (!value && s->takes_value == 2) /* bare --color */
				value = "always";
			if (!value && s->takes_value && (value = argv[++i]) == NULL)
				return usage_error("option '--%s' needs a value", s->name);
			if ((status = take_option(o, s, value, width, color)) >= 0)
				return status;
		} else { /* -x, -xyz, -xVALUE, -x VALUE */
			for (const char *c = arg + 1; *c; c++) {
				const struct option_spec *s = short_option(*c);
				if (!s)
					return EXIT_ERROR;
				value = NULL;
				if (s->takes_value && (value = c[1] ? c + 1 : argv[++i]) == NULL)
					return usage_error("option '-%c' needs a value", *c);
				if ((status = take_option(o, s, value, width, color)) >= 0)
					return status;
				if (value)
					break;
			}
		}
	}
	*noperands = n;
	return -1;
}

/* SMTPCODE_WORKERS: how many threads read logs (0: one per core); -1
 * after a message when it is not 1 to LOG_MAX_WORKERS. */
static int workers_asked(void)
{
	const char *v = getenv("SMTPCODE_WORKERS");
	if (!v || !*v)
		return 0;
	if (v[0] >= '1' && v[0] <= '0' + LOG_MAX_WORKERS && !v[1])
		return v[0] - '0';
	fprintf(stderr, "smtpcode: SMTPCODE_WORKERS is '%s': expected 1 to %d "
	        "(threads to read logs with)\n", escape_arg(v), LOG_MAX_WORKERS);
	return -1;
}

/* The options o was given that its mode does not take: the usage error
 * naming the first, or -1 when there is none. */
static int refused(const struct options *o)
{
	unsigned extra = o->given & ~modes[o->action].takes;
	const char *as;

	if (o->provider && o->action == ACT_PROVIDERS)
		return usage_error("-p does not go with --providers (it lists "
		                   "them all)");
	if (!extra && o->count && (o->given & OPT_FORMATS))
		return usage_error("%s does not go with -c (which writes only "
		                   "the number)",
		                   o->named[__builtin_ctz(o->given & OPT_FORMATS)]);
	if (!extra)
		return -1;
	as = o->named[__builtin_ctz(extra)];
	if (extra & OPT_FILTER)
		return usage_error("%s selects records: it goes with --annotate, "
		                   "--extract, --summary, --mail or "
		                   "--suppressions", as);
	return usage_error("%s does not go with %s (see OPTIONS BY MODE in "
	                   "smtpcode(1))", as, modes[o->action].name);
}

/* Whether o's mode writes records of logs or messages. */
static bool of_records(const struct options *o)
{
	return modes[o->action].takes & OPT_FILTER;
}

/* The exit status of a mode of records that read (0, or -1 when an
 * input could not be read) and selected n, after n for -c. */
static int records_status(const struct options *o, int read, unsigned long n)
{
	int status = counted(o, n);
	return read ? EXIT_ERROR : status;
}

/* Whether path is read as bounces by --suppressions: a folder, an mbox
 * or a message (its first bytes say), rather than a log. */
static bool bounces_in(const char *path)
{
	struct stat st;
	char head[64];
	ssize_t n;
	int fd;

	if (strcmp(path, "-") == 0 || stat(path, &st) != 0)
		return false;
	if (S_ISDIR(st.st_mode))
		return true;
	if ((fd = open(path, O_RDONLY)) < 0)
		return false;
	n = read(fd, head, sizeof head);
	close(fd);
	return n > 0 && smtpcode_is_message(head, (size_t)n);
}

/* The records of a log or bounce mode, each file read as its mode reads
 * it (--suppressions: as bounces or as a log, by what it holds). */
static int read_records(struct options *o, int argc, char **argv)
{
	struct choice k = {o->sel.active ? &o->sel : NULL, o->mode == MODE_QUIET,
	                   o->count, NULL};
	struct mail_options mo = {record_format(o), NULL, o->mode == MODE_BRIEF,
	                          -1, -1, k, 0};
	struct log_options lo = {
	    o->action == ACT_ANNOTATE ? LOG_ANNOTATE
	    : o->action == ACT_SUMMARY ? LOG_SUMMARY : LOG_EXTRACT,
	    record_format(o), NULL, workers_asked(), -1, -1, k};
	unsigned long n = 0, in_logs;
	int read = 0;

	if (lo.workers < 0)
		return EXIT_ERROR;
	if (o->mode == MODE_FIELD) {
		lo.record_key = mo.record_key = o->record_key;
		lo.field = mo.field = o->record_key < 0 ? (int)o->field : -1;
	}
	if (o->action == ACT_MAIL) {
		read = read_mails(&mo, argc, argv);
		return records_status(o, read, mo.selected);
	}
	if (o->action != ACT_SUPPRESSIONS) {
		read = read_logs(&lo, argc, argv, &n);
		return records_status(o, read, n);
	}
	if (!(k.supp = suppressions_new())) {
		fputs("smtpcode: out of memory\n", stderr);
		return EXIT_ERROR;
	}
	lo.choice.supp = mo.choice.supp = k.supp;
	if (argc == 0)
		read = read_logs(&lo, 0, argv, &in_logs);
	for (int i = 0; i < argc; i++)
		if (bounces_in(argv[i]) ? read_mails(&mo, 1, &argv[i]) != 0
		                        : read_logs(&lo, 1, &argv[i], &in_logs) != 0)
			read = -1;
	n = o->mode == MODE_QUIET ? suppressions_count(k.supp)
	                          : suppressions_write(k.supp, record_format(o));
	suppressions_free(k.supp);
	return read ? EXIT_ERROR : n ? EXIT_FOUND : EXIT_UNKNOWN;
}

int main(int argc, char **argv)
{
	struct options o = {MODE_TEXT, ACT_LOOKUP, F_CODE, -1, NULL, NULL, false,
	                    NULL, false, 0, {NULL}, {0}};

	unsigned width = terminal_width();
	bool color = false;
	int status;

	signal(SIGPIPE, SIG_DFL);
	if ((status = probe_dispatch(argc, argv)) >= 0)
		return status;
	if (argc < 2) {
		fputs("usage: smtpcode [OPTIONS] CODE|REPLY|TEXT...  (smtpcode "
		      "--help for more)\n", stderr);
		return EXIT_ERROR;
	}
	parse_color("auto", &color);
	if ((status = read_options(argc, argv, &argc, &o, &width, &color)) >= 0)
		return status;
	if ((status = refused(&o)) >= 0)
		return status;
	if (o.mode == MODE_FIELD && o.record_key >= 0 &&
	    o.action != ACT_EXTRACT && o.action != ACT_MAIL)
		return usage_error("field '%s' is a record's: it goes with "
		                   "--extract or --mail",
		                   escape_arg(o.record_key_name));
	out_set_width(width);
	/* Colour in the text views only (the entry, -b, the lists, the log
	 * and bounce modes' text): never in JSON, TSV, a field, a count or
	 * -q. */
	out_set_color(color && (o.mode == MODE_TEXT || o.mode == MODE_BRIEF) &&
	              !o.count);
	/* A site's rules, read only when asked for: a lookup without them
	 * pays nothing. */
	if (!o.rules && env_set("SMTPCODE_RULES"))
		o.rules = getenv("SMTPCODE_RULES");
	if (o.rules && rules_load(o.rules) != 0) {
		rules_free();
		return EXIT_ERROR;
	}

	if (of_records(&o)) {
		status = read_records(&o, argc, argv);
		rules_free();
		return finish(status);
	}
	switch (o.action) {
	case ACT_PROVIDERS:
		if (o.mode != MODE_QUIET)
			render_providers(record_format(&o));
		status = EXIT_FOUND;
		break;
	case ACT_LIST: {
		struct smtpcode_pattern pat;
		const char *p = argc ? argv[0] : "*";
		if (argc > 1)
			return usage_error("--list takes one pattern, not '%s' too",
			                   escape_arg(argv[1]));
		if (smtpcode_pattern_parse(p, strlen(p), &pat))
			return usage_error("'%s' is not a pattern (expected 5.7.*, "
			                   "X.2.X, 4xx, 55x or *)", escape_arg(p));
		status = list(&o, &pat, argc ? argv[0] : NULL);
		break;
	}
	case ACT_SEARCH:
		if (!has_words(argv, argc))
			return usage_error("%s", "--search needs words to look for");
		status = search(&o, argv, argc);
		break;
	case ACT_STDIN:
		if (argc)
			return usage_error("--stdin reads standard input, not '%s'",
			                   escape_arg(argv[0]));
		status = lookup_lines(&o);
		break;
	case ACT_LOOKUP:
	default:
		if (argc == 0)
			return usage_error("%s", "nothing to look up (expected a "
			                         "code, a reply or text)");
		status = lookup(&o, argc, argv);
		break;
	}
	rules_free();
	return finish(status);
}
