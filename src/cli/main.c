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
#include <sys/ioctl.h>
#include <unistd.h>

#include "fields.h"
#include "layout.h"
#include "logs.h"
#include "mails.h"
#include "output.h"
#include "render.h"

enum exit_status { EXIT_FOUND = 0, EXIT_UNKNOWN = 1, EXIT_ERROR = 2 };

enum mode { MODE_TEXT, MODE_JSON, MODE_TSV, MODE_FIELD, MODE_BRIEF,
            MODE_QUIET };
enum action { ACT_LOOKUP, ACT_LIST, ACT_SEARCH, ACT_PROVIDERS, ACT_ANNOTATE,
              ACT_EXTRACT, ACT_SUMMARY, ACT_MAIL };

struct options {
	enum mode mode;
	enum action action;
	enum field_id field;
	const struct smtpcode_entry *provider; /* --provider NAME */
	bool all_providers;                    /* --provider all */
};

/* The help is also the source of the man page's synopsis and options: a
 * test keeps the two in step. */
static const char usage_text[] =
    "usage: smtpcode [OPTIONS] CODE|REPLY...\n"
    "       smtpcode -l|--list [PATTERN]     every code, or those matching 5.7.*, 4xx\n"
    "       smtpcode -s|--search WORDS...    codes whose texts hold all WORDS\n"
    "       smtpcode --annotate|--extract|--summary [FILE...]   read mail logs\n"
    "       smtpcode --mail [FILE|DIR...]    explain bounces: messages, mbox, Maildir\n"
    "       smtpcode --providers             the providers and their entry counts\n"
    "Explain SMTP reply codes: basic (452), enhanced (4.3.1, X.3.1), a pasted\n"
    "reply (\"452 4.3.1 Insufficient system storage\"), or a pattern (5.7.*).\n"
    "\n"
    "  -j, --json            one JSON object per result (JSON Lines)\n"
    "  -t, --tsv             code, severity, scope, acts, reason, name\n"
    "  -f, --field NAME      one field per result: severity, scope, acts,\n"
    "                        retry, suppress, bounce, reason, name, basic, ...\n"
    "  -b, --brief           one line per result: code, severity, name\n"
    "  -q, --quiet           no output; only the exit status\n"
    "  -p, --provider NAME   codes as provider NAME uses them (gmail, yahoo,\n"
    "                        ...; 'all' with --list); replies name their own\n"
    "      --color=WHEN      auto (on a terminal, unless NO_COLOR is set),\n"
    "                        always or never\n"
    "  -w, --width COLUMNS   wrap text at COLUMNS, 0 for never\n"
    "  -h, --help            show this help and exit\n"
    "  -V, --version         show the version and the date of the data\n"
    "\n"
    "Exit status: 0 every code was found (list, search: something matched);\n"
    "1 a code is not in the table, or nothing matched; 2 usage, input or\n"
    "write error.  See smtpcode(1).\n";

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
	row_of_result(&w, &r, input, SMTPCODE_REPORT_UNSAID, NULL);
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

static int list(const struct options *o, const struct smtpcode_pattern *pat,
                const char *input)
{
	size_t n = 0;
	for (size_t i = 0; i < smtpcode_table_size(); i++) {
		const struct smtpcode_entry *e = smtpcode_table_entry(i);
		if (shown(o, e, false) && smtpcode_pattern_match(pat, e)) {
			emit_entry(o, e, input);
			n++;
		}
	}
	return n ? EXIT_FOUND : EXIT_UNKNOWN;
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
				emit_entry(o, smtpcode_table_entry(i), NULL);
				found++;
			}
	free(rank);
	return found ? EXIT_FOUND : EXIT_UNKNOWN;
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

/* Look up each argument; returns the exit status. */
static int lookup(const struct options *o, int argc, char **argv)
{
	int status = EXIT_FOUND;
	for (int i = 0; i < argc; i++) {
		struct smtpcode_query q, next;
		struct smtpcode_result r;
		struct smtpcode_pattern pat;
		const struct smtpcode_entry *cat;
		struct smtpcode_wording words;
		struct row w;
		size_t len = strlen(argv[i]);
		enum smtpcode_error err = smtpcode_parse(argv[i], len, &q);

		if (err && (cat = smtpcode_find_category(argv[i], len))) {
			row_of_category(&w, cat, argv[i]);
			emit(o, &w, NULL, argv[i]);
			continue;
		}
		if (err && smtpcode_pattern_parse(argv[i], len, &pat) == 0 &&
		    pat.wild) {
			if (list(o, &pat, argv[i]) != EXIT_FOUND && !status)
				status = EXIT_UNKNOWN;
			continue;
		}
		if (err) {
			complain_arg(argv[i], smtpcode_strerror(err));
			status = EXIT_ERROR;
			continue;
		}
		/* "452 4.3.1" as two arguments is one reply, as servers write
		 * it. */
		if (lone(&q, 0) && i + 1 < argc &&
		    smtpcode_parse(argv[i + 1], strlen(argv[i + 1]), &next) ==
		        SMTPCODE_OK &&
		    lone(&next, 1)) {
			q.enhanced = true;
			q.cls = next.cls;
			q.subject = next.subject;
			q.detail = next.detail;
			i++;
		}
		smtpcode_resolve(&q, argv[i], strlen(argv[i]), o->provider, &r);
		words_of(&r, argv[i], len, &words);
		row_of_result(&w, &r, argv[i], SMTPCODE_REPORT_UNSAID, &words);
		emit(o, &w, &r, argv[i]);
		if (!r.known && status == EXIT_FOUND)
			status = EXIT_UNKNOWN;
	}
	return status;
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
	bool takes_value;
	char id;          /* what main() acts on: --color and --colour alike */
};

static const struct option_spec option_specs[] = {
	{"json", 'j', false, 'j'},      {"tsv", 't', false, 't'},
	{"field", 'f', true, 'f'},      {"brief", 'b', false, 'b'},
	{"quiet", 'q', false, 'q'},     {"list", 'l', false, 'l'},
	{"search", 's', false, 's'},    {"provider", 'p', true, 'p'},
	{"providers", 0, false, 'P'},   {"annotate", 0, false, 'A'},
	{"extract", 0, false, 'E'},     {"summary", 0, false, 'S'},
	{"mail", 0, false, 'M'},        {"color", 0, true, 'C'},
	{"colour", 0, true, 'C'},       {"width", 'w', true, 'w'},
	{"help", 'h', false, 'h'},      {"version", 'V', false, 'V'},
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

/* An option without a value, id, into o: -1 to go on, else the exit
 * status to end with now (--help, --version). */
static int take_flag(struct options *o, char id)
{
	switch (id) {
	case 'j': o->mode = MODE_JSON; break;
	case 't': o->mode = MODE_TSV; break;
	case 'b': o->mode = MODE_BRIEF; break;
	case 'q': o->mode = MODE_QUIET; break;
	case 'l': o->action = ACT_LIST; break;
	case 's': o->action = ACT_SEARCH; break;
	case 'P': o->action = ACT_PROVIDERS; break;
	case 'A': o->action = ACT_ANNOTATE; break;
	case 'E': o->action = ACT_EXTRACT; break;
	case 'S': o->action = ACT_SUMMARY; break;
	case 'M': o->action = ACT_MAIL; break;
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
                      unsigned *width, bool *color)
{
	int f;

	switch (id) {
	case 'f':
		if ((f = field_parse(value)) < 0)
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
		break;
	case 'C':
		if (parse_color(value, color))
			return usage_error("invalid --color '%s' (expected auto, "
			                   "always or never)", escape_arg(value));
		break;
	case 'w':
	default:
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
	if (s->takes_value && value)
		return take_value(o, s->id, value, width, color);
	return take_flag(o, s->id);
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

int main(int argc, char **argv)
{
	struct options o = {MODE_TEXT, ACT_LOOKUP, F_CODE, NULL, false};
	unsigned width = terminal_width();
	bool color = false;
	int status;

	signal(SIGPIPE, SIG_DFL);
	parse_color("auto", &color);
	if ((status = read_options(argc, argv, &argc, &o, &width, &color)) >= 0)
		return status;
	out_set_width(width);
	out_set_color(color && o.mode == MODE_TEXT);

	switch (o.action) {
	case ACT_PROVIDERS:
		render_providers(o.mode == MODE_TSV);
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
	case ACT_ANNOTATE:
	case ACT_EXTRACT:
	case ACT_SUMMARY: {
		struct log_options lo = {
		    o.action == ACT_ANNOTATE ? LOG_ANNOTATE
		    : o.action == ACT_EXTRACT ? LOG_EXTRACT : LOG_SUMMARY,
		    record_format(&o), o.provider, workers_asked()};
		if (lo.workers < 0)
			return EXIT_ERROR;
		status = read_logs(&lo, argc, argv) ? EXIT_ERROR : EXIT_FOUND;
		break;
	}
	case ACT_MAIL: {
		struct mail_options mo = {record_format(&o), o.provider};
		status = read_mails(&mo, argc, argv) ? EXIT_ERROR : EXIT_FOUND;
		break;
	}
	case ACT_LOOKUP:
	default:
		if (argc == 0) {
			fputs(usage_text, stderr);
			return EXIT_ERROR;
		}
		status = lookup(&o, argc, argv);
		break;
	}
	return finish(status);
}
