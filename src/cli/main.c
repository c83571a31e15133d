/*
 * smtpcode: explain SMTP reply codes.  This file reads the command line,
 * hands each argument to the library and each result to a renderer, and
 * turns the outcome into the exit status.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "output.h"
#include "render.h"

enum exit_status { EXIT_FOUND = 0, EXIT_UNKNOWN = 1, EXIT_ERROR = 2 };

static const char usage_text[] =
    "usage: smtpcode [-w COLUMNS] [-p PROVIDER] CODE|REPLY...\n"
    "       smtpcode --providers\n"
    "Explain SMTP reply codes: basic (452), enhanced (4.3.1, X.3.1), or a\n"
    "whole reply line (\"452 4.3.1 Insufficient system storage\").\n"
    "\n"
    "  smtpcode 4.3.1              an enhanced code; X.3.1 for every class\n"
    "  smtpcode 452                a basic code, and the codes it comes with\n"
    "  smtpcode 452 4.3.1          a basic code then an enhanced code: a pair\n"
    "  smtpcode \"550 5.1.1 text\"   a pasted reply line\n"
    "\n"
    "Options:\n"
    "  -p, --provider NAME  read codes as provider NAME uses them (gmail,\n"
    "                       microsoft, yahoo, ...); a pasted reply names its\n"
    "                       provider itself, by markers such as \"gsmtp\"\n"
    "      --providers      list the providers and their number of entries\n"
    "  -w, --width COLUMNS  wrap text at COLUMNS, 0 for never (default: the\n"
    "                       terminal's width; no wrapping when not a terminal)\n"
    "  -h, --help           show this help and exit\n"
    "  -V, --version        show the version and the date of the data\n"
    "\n"
    "Exit status: 0 every code was found; 1 at least one code is not in the\n"
    "table (the others are still shown); 2 usage or input error.\n";

static void complain_arg(const char *arg, const char *why)
{
	size_t n = strlen(arg);
	fputs("smtpcode: '", stderr);
	out_escaped(stderr, arg, n > 60 ? 60 : n);
	fprintf(stderr, "%s' is not an SMTP code: %s (expected 452, 4.3.1 or "
	        "\"452 4.3.1 text\")\n", n > 60 ? "..." : "", why);
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

/* A lone code, without reply text: a candidate half of "452 4.3.1". */
static int lone(const struct smtpcode_query *q, int enhanced)
{
	return !q->text_len && (enhanced ? q->enhanced && !q->basic
	                                 : q->basic && !q->enhanced);
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
	    {"help", no_argument, NULL, 'h'},
	    {"version", no_argument, NULL, 'V'},
	    {"width", required_argument, NULL, 'w'},
	    {"provider", required_argument, NULL, 'p'},
	    {"providers", no_argument, NULL, 'P'},
	    {NULL, 0, NULL, 0},
	};
	unsigned width = terminal_width();
	const struct smtpcode_entry *provider = NULL;
	int status = EXIT_FOUND, c, printed = 0;

	opterr = 0;
	while ((c = getopt_long(argc, argv, "+hVw:p:", longopts, NULL)) != -1) {
		switch (c) {
		case 'h':
			fputs(usage_text, stdout);
			return out_finish() ? EXIT_ERROR : EXIT_FOUND;
		case 'V':
			printf("smtpcode %s (data of %s)\n", SMTPCODE_VERSION,
			       smtpcode_data_date());
			return out_finish() ? EXIT_ERROR : EXIT_FOUND;
		case 'w':
			if (parse_width(optarg, &width) == 0)
				break;
			fprintf(stderr, "smtpcode: invalid width '%s' (expected a "
			        "number of columns, 0 to 1000)\n", optarg);
			return EXIT_ERROR;
		case 'p':
			provider = smtpcode_find_provider(optarg, strlen(optarg));
			if (provider)
				break;
			fprintf(stderr, "smtpcode: unknown provider '%s' (see "
			        "'smtpcode --providers')\n", optarg);
			return EXIT_ERROR;
		case 'P':
			render_providers();
			return out_finish() ? EXIT_ERROR : EXIT_FOUND;
		default:
			if (optopt == 'w' || optopt == 'p')
				fprintf(stderr, "smtpcode: option '-%c' needs a value\n",
				        optopt);
			else if (optopt)
				fprintf(stderr, "smtpcode: unknown option '-%c'\n", optopt);
			else
				fprintf(stderr, "smtpcode: unknown option '%s'\n",
				        argv[optind - 1]);
			fputs("Try 'smtpcode --help' for more information.\n", stderr);
			return EXIT_ERROR;
		}
	}
	if (optind == argc) {
		fputs(usage_text, stderr);
		return EXIT_ERROR;
	}
	out_set_width(width);

	for (int i = optind; i < argc; i++) {
		struct smtpcode_query q, next;
		struct smtpcode_result r;
		const struct smtpcode_entry *cat;
		enum smtpcode_error err = smtpcode_parse(argv[i], strlen(argv[i]), &q);

		if (err && (cat = smtpcode_find_category(argv[i],
		                                         strlen(argv[i])))) {
			if (printed++)
				out_str("\n");
			render_category(cat);
			continue;
		}
		if (err) {
			complain_arg(argv[i], smtpcode_strerror(err));
			status = EXIT_ERROR;
			continue;
		}
		/* "452 4.3.1" as two arguments is one reply, as servers write it. */
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
		smtpcode_resolve(&q, argv[i], strlen(argv[i]), provider, &r);
		if (printed++)
			out_str("\n");
		render_text(&r, argv[i]);
		if (!r.known && status == EXIT_FOUND)
			status = EXIT_UNKNOWN;
	}
	if (out_finish()) {
		perror("smtpcode: write error");
		return EXIT_ERROR;
	}
	return status;
}
