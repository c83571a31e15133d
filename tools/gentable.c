/*
 * gentable: compile the data files under data/ into the static table the
 * library searches (see src/table.h for its layout and data/README.md for
 * the format).  It refuses anything inconsistent with one line per problem,
 * "data/FILE:LINE: message", and a non-zero exit, so bad data fails the
 * build.  Output goes to a temporary file that is renamed into place only
 * when everything was checked and written.
 *
 * usage: gentable OUTPUT.c DATEFILE DATAFILE...
 */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../src/table.h"

enum field_type { SCALAR_TEXT, SCALAR_VALUE, LIST };

/* Every key the data files may use. */
static const struct keydef {
	const char *name;
	enum field_type type;
	int index; /* text field, value field or list */
} keydefs[] = {
	{"code", SCALAR_TEXT, SMTPCODE_CODE},
	{"name", SCALAR_TEXT, SMTPCODE_NAME},
	{"meaning", SCALAR_TEXT, SMTPCODE_MEANING},
	{"now", SCALAR_TEXT, SMTPCODE_NOW},
	{"severity", SCALAR_VALUE, SMTPCODE_SEVERITY},
	{"scope", SCALAR_VALUE, SMTPCODE_SCOPE},
	{"acts", SCALAR_VALUE, SMTPCODE_ACTS},
	{"retry", SCALAR_VALUE, SMTPCODE_RETRY},
	{"bounce", SCALAR_VALUE, SMTPCODE_BOUNCE},
	{"reason", SCALAR_VALUE, SMTPCODE_REASON},
	{"suppress", SCALAR_VALUE, SMTPCODE_SUPPRESS},
	{"registered", SCALAR_VALUE, SMTPCODE_REGISTERED},
	{"cause", LIST, SMTPCODE_CAUSES},
	{"fix", LIST, SMTPCODE_FIXES},
	{"related", LIST, SMTPCODE_RELATED},
	{"basic", LIST, SMTPCODE_BASIC},
	{"with", LIST, SMTPCODE_WITH},
	{"source", LIST, SMTPCODE_SOURCES},
	{"note", LIST, SMTPCODE_NOTES},
};
#define NKEYS (sizeof keydefs / sizeof keydefs[0])

struct field {
	const struct keydef *def;
	char *value;
	const char *file;
	long line;
};

/* What a record describes, from the form of its code. */
enum record_kind {
	R_BASIC,    /* 452 */
	R_TOPIC,    /* X.3.1: shared by the class variants */
	R_VARIANT,  /* 4.3.1 */
	R_CATEGORY  /* 4.XXX.YYY, X.3.YYY, 4yz, x5z */
};

struct record {
	const char *file;
	long line;
	struct field *fields;
	size_t nfields, cap;
	enum record_kind kind;
	struct smtpcode_query code;
	uint32_t key;
	char codetext[16];
	struct record *topic; /* variants: their X.S.D record */
	int has_variant;      /* topics: whether any variant names them */
};

static struct record *records;
static size_t nrecords, caprecords;
static int errors;

static void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n);
	if (!p) {
		perror("gentable");
		exit(2);
	}
	return p;
}

static char *xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;
	return memcpy(xrealloc(NULL, n), s, n);
}

__attribute__((format(printf, 3, 4)))
static void fail(const char *file, long line, const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "%s:%ld: ", file, line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	errors++;
}

/* ---- Reading ---- */

/* Length of the valid UTF-8 sequence at s, or 0. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
	size_t len, i;
	uint32_t c;
	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		len = 2, c = s[0] & 0x1fu;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		len = 3, c = s[0] & 0x0fu;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		len = 4, c = s[0] & 0x07u;
	else
		return 0;
	if (n < len)
		return 0;
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (s[i] & 0x3fu);
	}
	if ((len == 3 && (c < 0x800 || (c >= 0xd800 && c <= 0xdfff))) ||
	    (len == 4 && (c < 0x10000 || c > 0x10ffff)))
		return 0;
	return len;
}

/* Refuse control characters (tabs included: they render unpredictably)
 * and invalid UTF-8. */
static int check_line_bytes(const char *file, long line, const char *s,
                            size_t n, size_t indent)
{
	for (size_t i = indent; i < n;) {
		unsigned char c = (unsigned char)s[i];
		size_t k;
		if (c < 0x20 || c == 0x7f) {
			fail(file, line, "control character 0x%02x in column %zu",
			     c, i + 1);
			return -1;
		}
		k = utf8_len((const unsigned char *)s + i, n - i);
		if (k == 0) {
			fail(file, line, "invalid UTF-8 in column %zu", i + 1);
			return -1;
		}
		i += k;
	}
	return 0;
}

static struct record *new_record(const char *file, long line)
{
	struct record *r;
	if (nrecords == caprecords) {
		caprecords = caprecords ? 2 * caprecords : 256;
		records = xrealloc(records, caprecords * sizeof *records);
	}
	r = &records[nrecords++];
	memset(r, 0, sizeof *r);
	r->file = file;
	r->line = line;
	return r;
}

static void add_field(struct record *r, const struct keydef *def,
                      const char *value, const char *file, long line)
{
	if (r->nfields == r->cap) {
		r->cap = r->cap ? 2 * r->cap : 16;
		r->fields = xrealloc(r->fields, r->cap * sizeof *r->fields);
	}
	r->fields[r->nfields++] =
	    (struct field){def, xstrdup(value), file, line};
}

static void append_value(struct field *f, const char *more)
{
	size_t a = strlen(f->value), b = strlen(more);
	int paragraph = strcmp(more, ".") == 0;
	f->value = xrealloc(f->value, a + b + 2);
	if (paragraph) {
		strcpy(f->value + a, "\n");
	} else {
		f->value[a] = a && f->value[a - 1] == '\n' ? '\0' : ' ';
		memcpy(f->value + a + (f->value[a] == ' '), more, b + 1);
	}
}

static const struct keydef *find_keydef(const char *name, size_t n)
{
	for (size_t i = 0; i < NKEYS; i++)
		if (strlen(keydefs[i].name) == n &&
		    memcmp(keydefs[i].name, name, n) == 0)
			return &keydefs[i];
	return NULL;
}

static void read_file(const char *file)
{
	FILE *fp = fopen(file, "r");
	char *buf = NULL;
	size_t cap = 0;
	ssize_t got;
	long line = 0;
	struct record *r = NULL;

	if (!fp) {
		fprintf(stderr, "%s: %s\n", file, strerror(errno));
		errors++;
		return;
	}
	while ((got = getline(&buf, &cap, fp)) != -1) {
		size_t n = (size_t)got, indent = 0;
		const char *colon, *value;
		const struct keydef *def;

		line++;
		if (n && buf[n - 1] == '\n')
			buf[--n] = '\0';
		if (memchr(buf, '\0', n)) {
			fail(file, line, "NUL byte");
			continue;
		}
		while (indent < n && buf[indent] == ' ')
			indent++;
		if (indent == n) { /* blank: ends the record */
			r = NULL;
			continue;
		}
		if (buf[0] == '#')
			continue;
		if (check_line_bytes(file, line, buf, n, indent))
			continue;
		if (indent) { /* continuation of the last field */
			if (!r) {
				fail(file, line, "continuation line outside a record");
				continue;
			}
			append_value(&r->fields[r->nfields - 1], buf + indent);
			continue;
		}
		colon = strchr(buf, ':');
		if (!colon) {
			fail(file, line, "expected 'key: value'");
			continue;
		}
		def = find_keydef(buf, (size_t)(colon - buf));
		if (!def) {
			fail(file, line, "unknown key '%.*s'", (int)(colon - buf), buf);
			continue;
		}
		value = colon + 1;
		while (*value == ' ')
			value++;
		if (*value == '\0') {
			fail(file, line, "empty value for '%s'", def->name);
			continue;
		}
		if (!r) {
			if (def->index != SMTPCODE_CODE || def->type != SCALAR_TEXT) {
				fail(file, line, "a record must start with 'code:'");
				continue;
			}
			r = new_record(file, line);
		}
		add_field(r, def, value, file, line);
	}
	if (ferror(fp)) {
		fprintf(stderr, "%s: %s\n", file, strerror(errno));
		errors++;
	}
	free(buf);
	fclose(fp);
}

/* ---- Checking ---- */

static struct field *get(struct record *r, const char *key)
{
	for (size_t i = 0; i < r->nfields; i++)
		if (strcmp(r->fields[i].def->name, key) == 0)
			return &r->fields[i];
	return NULL;
}

/* A field of a variant, or failing that of its topic. */
static struct field *lookup(struct record *r, const char *key)
{
	struct field *f = get(r, key);
	return !f && r->topic ? get(r->topic, key) : f;
}

static size_t count_list(struct record *r, const char *key)
{
	size_t n = 0;
	for (size_t i = 0; i < r->nfields; i++)
		n += strcmp(r->fields[i].def->name, key) == 0;
	return n;
}

/* Number of items of a list as the variant sees it: its own, or else its
 * topic's (a variant's list replaces the topic's whole). */
static size_t effective_count(struct record *r, const char *key)
{
	size_t n = count_list(r, key);
	return n || !r->topic ? n : count_list(r->topic, key);
}

static int all_digits(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (s[i] < '0' || s[i] > '9')
			return 0;
	return n > 0;
}

/* Codes of the category rows, written the way RFC 3463 and RFC 5321 do. */
static int parse_category(struct record *r, const char *s)
{
	size_t n = strlen(s);
	if (n == 9 && strchr("245", s[0]) && strcmp(s + 1, ".XXX.YYY") == 0) {
		r->key = KEY_CATEGORY(CAT_CLASS, s[0] - '0');
		return 0;
	}
	if (n >= 7 && n <= 9 && s[0] == 'X' && s[1] == '.' &&
	    strcmp(s + n - 4, ".YYY") == 0 && all_digits(s + 2, n - 6) &&
	    (n == 7 || s[2] != '0')) {
		r->key = KEY_CATEGORY(CAT_SUBJECT, atoi(s + 2));
		return 0;
	}
	if (n == 3 && s[0] >= '1' && s[0] <= '5' && strcmp(s + 1, "yz") == 0) {
		r->key = KEY_CATEGORY(CAT_BASIC_FIRST, s[0] - '0');
		return 0;
	}
	if (n == 3 && s[0] == 'x' && s[1] >= '0' && s[1] <= '9' && s[2] == 'z') {
		r->key = KEY_CATEGORY(CAT_BASIC_SECOND, s[1] - '0');
		return 0;
	}
	return -1;
}

/* Parse a code as the library does; refuse reply text after it. */
static int parse_code(const char *s, struct smtpcode_query *q)
{
	return smtpcode_parse(s, strlen(s), q) != SMTPCODE_OK || q->text_len ||
	       (q->basic && q->enhanced);
}

static void classify(struct record *r)
{
	struct field *f = get(r, "code");
	const char *s = f->value;

	if (parse_category(r, s) == 0) {
		r->kind = R_CATEGORY;
		snprintf(r->codetext, sizeof r->codetext, "%s", s);
		return;
	}
	if (parse_code(s, &r->code)) {
		fail(f->file, f->line, "'%s' is not a code (expected 452, "
		     "4.3.1, X.3.1, 4.XXX.YYY, X.3.YYY, 4yz or x5z)", s);
		r->kind = R_CATEGORY;
		r->key = UINT32_MAX;
		return;
	}
	smtpcode_format(&r->code, r->codetext, sizeof r->codetext);
	if (strcmp(r->codetext, s) != 0)
		fail(f->file, f->line, "write the code as '%s'", r->codetext);
	if (r->code.basic) {
		r->kind = R_BASIC;
		r->key = KEY_BASIC(r->code.basic);
	} else {
		r->kind = r->code.cls ? R_VARIANT : R_TOPIC;
		r->key = KEY_ENHANCED(r->code.cls, r->code.subject,
		                      r->code.detail);
	}
}

static struct record *find_record(uint32_t key)
{
	for (size_t i = 0; i < nrecords; i++)
		if (records[i].key == key)
			return &records[i];
	return NULL;
}

static struct record *find_code(const char *s)
{
	struct smtpcode_query q;
	char text[16];
	if (parse_code(s, &q))
		return NULL;
	smtpcode_format(&q, text, sizeof text);
	if (strcmp(text, s) != 0)
		return NULL;
	return find_record(q.basic ? KEY_BASIC(q.basic)
	                           : KEY_ENHANCED(q.cls, q.subject, q.detail));
}

/* Which keys each kind of record may carry. */
static int allowed(enum record_kind kind, const struct keydef *def)
{
	const char *k = def->name;
	switch (kind) {
	case R_BASIC:
		return strcmp(k, "basic") != 0;
	case R_TOPIC:
		return strcmp(k, "with") != 0 && strcmp(k, "severity") != 0;
	case R_VARIANT:
		return strcmp(k, "with") != 0 && strcmp(k, "basic") != 0;
	case R_CATEGORY:
		return strcmp(k, "code") == 0 || strcmp(k, "name") == 0 ||
		       strcmp(k, "meaning") == 0 || strcmp(k, "severity") == 0 ||
		       strcmp(k, "scope") == 0 || strcmp(k, "now") == 0 ||
		       strcmp(k, "source") == 0 || strcmp(k, "note") == 0;
	}
	return 0;
}

/* Split "KEY: text" items; returns the text, sets *keylen. */
static const char *split_item(const char *v, size_t *keylen)
{
	const char *colon = strstr(v, ": ");
	if (!colon) {
		*keylen = 0;
		return v;
	}
	*keylen = (size_t)(colon - v);
	return colon + 2;
}

static int value_of(struct record *r, const char *key)
{
	struct field *f = lookup(r, key);
	if (!f)
		return 0;
	return smtpcode_value_parse((enum smtpcode_field)f->def->index,
	                            f->value, strlen(f->value));
}

static void check_fields(struct record *r)
{
	for (size_t i = 0; i < r->nfields; i++) {
		struct field *f = &r->fields[i];
		const struct keydef *d = f->def;
		size_t keylen;
		const char *text;

		if (!allowed(r->kind, d)) {
			fail(f->file, f->line, "'%s' does not belong in a record "
			     "for %s", d->name, r->codetext);
			continue;
		}
		if (d->type != LIST && get(r, d->name) != f) {
			fail(f->file, f->line, "'%s' given twice", d->name);
			continue;
		}
		if (d->type == SCALAR_VALUE &&
		    smtpcode_value_parse((enum smtpcode_field)d->index,
		                         f->value, strlen(f->value)) < 0) {
			enum smtpcode_field vf = (enum smtpcode_field)d->index;
			char list[1024] = "";
			for (int v = 1; v < smtpcode_value_count(vf); v++) {
				strncat(list, v > 1 ? ", " : "",
				        sizeof list - strlen(list) - 1);
				strncat(list, smtpcode_value_name(vf, v),
				        sizeof list - strlen(list) - 1);
			}
			fail(f->file, f->line, "unknown %s '%s' (expected one of: "
			     "%s)", d->name, f->value, list);
			continue;
		}
		if (d->type != LIST)
			continue;
		text = split_item(f->value, &keylen);
		if (d->index == SMTPCODE_FIXES) {
			int who = smtpcode_value_parse(SMTPCODE_ACTS, f->value, keylen);
			if (who < 0 || strcmp(smtpcode_value_name(SMTPCODE_ACTS, who),
			                      "none") == 0)
				fail(f->file, f->line, "a fix starts with who does it: "
				     "'sender: ...', 'sender-admin: ...', "
				     "'recipient: ...' or 'recipient-admin: ...'");
		} else if (d->index == SMTPCODE_RELATED ||
		           d->index == SMTPCODE_WITH) {
			if (!keylen || !*text)
				fail(f->file, f->line, "expected '%s: CODE: how it "
				     "differs'", d->name);
		} else if (d->index == SMTPCODE_BASIC) {
			if (!keylen)
				keylen = strlen(f->value);
			if (keylen != 3 || !all_digits(f->value, 3) ||
			    f->value[0] < '2' || f->value[0] > '5')
				fail(f->file, f->line, "'%.*s' is not a basic code "
				     "(expected 'basic: 452' or 'basic: 452: remark')",
				     (int)keylen, f->value);
		}
	}
}

static void require(struct record *r, const char *key, size_t min)
{
	size_t n = r->kind == R_VARIANT ? effective_count(r, key)
	                                : count_list(r, key);
	if (n < min) {
		if (min == 1)
			fail(r->file, r->line, "%s: missing '%s'", r->codetext, key);
		else
			fail(r->file, r->line, "%s: needs at least %zu '%s' lines",
			     r->codetext, min, key);
	}
}

static int severity_of_digit(int digit)
{
	return digit == 4 ? SMTPCODE_TEMPORARY
	     : digit == 5 ? SMTPCODE_PERMANENT
	     : SMTPCODE_SUCCESS; /* 2yz and the positive intermediate 3yz */
}

/* The line to blame for a value: where the field was set. */
static struct field *blame(struct record *r, const char *key)
{
	struct field *f = lookup(r, key);
	static struct field none;
	if (!f) {
		none.file = r->file;
		none.line = r->line;
		return &none;
	}
	return f;
}

/* Severity, retry, bounce and suppress must tell one story. */
static void check_verdict(struct record *r)
{
	int sev = value_of(r, "severity"), retry = value_of(r, "retry");
	int bounce = value_of(r, "bounce"), suppress = value_of(r, "suppress");
	const char *rs = smtpcode_value_name(SMTPCODE_RETRY, retry);
	const char *bs = smtpcode_value_name(SMTPCODE_BOUNCE, bounce);
	const char *ss = smtpcode_value_name(SMTPCODE_SUPPRESS, suppress);
	int digit = r->kind == R_BASIC ? (int)(r->code.basic / 100) : r->code.cls;
	struct field *f;

	if (sev <= 0 || retry <= 0 || bounce <= 0 || suppress <= 0)
		return; /* missing or unknown: reported already */
	if (sev != severity_of_digit(digit)) {
		f = blame(r, "severity");
		fail(f->file, f->line, "%s: severity '%s' contradicts the class "
		     "digit %d (expected '%s')", r->codetext,
		     smtpcode_value_name(SMTPCODE_SEVERITY, sev), digit,
		     smtpcode_value_name(SMTPCODE_SEVERITY, severity_of_digit(digit)));
		return;
	}
	if (sev == SMTPCODE_SUCCESS &&
	    (strcmp(rs, "none") || strcmp(bs, "none") || strcmp(ss, "no"))) {
		f = blame(r, "retry");
		fail(f->file, f->line, "%s: a success takes 'retry: none', "
		     "'bounce: none' and 'suppress: no'", r->codetext);
	} else if (sev == SMTPCODE_TEMPORARY &&
	           (strcmp(rs, "auto") || strcmp(bs, "soft") || strcmp(ss, "no"))) {
		f = blame(r, "retry");
		fail(f->file, f->line, "%s: a temporary failure takes 'retry: "
		     "auto', 'bounce: soft' and 'suppress: no'", r->codetext);
	} else if (sev == SMTPCODE_PERMANENT &&
	           (!strcmp(rs, "none") || !strcmp(rs, "auto") ||
	            !strcmp(bs, "none"))) {
		f = blame(r, "retry");
		fail(f->file, f->line, "%s: a permanent failure takes 'retry: "
		     "after-fix' or 'never' and a bounce of soft, hard or block",
		     r->codetext);
	} else if (sev == SMTPCODE_PERMANENT &&
	           (!strcmp(bs, "hard") != !strcmp(rs, "never") ||
	            !strcmp(bs, "hard") != !strcmp(ss, "yes"))) {
		f = blame(r, "suppress");
		fail(f->file, f->line, "%s: 'bounce: hard', 'retry: never' and "
		     "'suppress: yes' go together: only a bad address is "
		     "suppressed", r->codetext);
	}
}

static void check_record(struct record *r)
{
	static const char *verdict[] = {"name", "registered", "severity",
	                                "scope", "acts", "retry", "suppress",
	                                "bounce", "reason", "meaning", "now",
	                                "source"};
	check_fields(r);
	switch (r->kind) {
	case R_CATEGORY:
		require(r, "name", 1);
		require(r, "meaning", 1);
		require(r, "source", 1);
		if ((r->key >> 8 & 0xff) == CAT_CLASS ||
		    (r->key >> 8 & 0xff) == CAT_BASIC_FIRST) {
			int digit = (int)(r->key & 0xff);
			int sev = value_of(r, "severity");
			require(r, "severity", 1);
			if (sev > 0 && sev != severity_of_digit(digit))
				fail(blame(r, "severity")->file,
				     blame(r, "severity")->line,
				     "%s: severity contradicts the class digit %d",
				     r->codetext, digit);
		}
		return;
	case R_TOPIC:
		require(r, "name", 1);
		require(r, "registered", 1);
		require(r, "meaning", 1);
		require(r, "source", 1);
		return;
	case R_BASIC:
	case R_VARIANT:
		if (r->kind == R_VARIANT && !get(r, "severity"))
			fail(r->file, r->line, "%s: missing 'severity' (each class "
			     "variant states its own)", r->codetext);
		for (size_t i = 0; i < sizeof verdict / sizeof *verdict; i++)
			if (strcmp(verdict[i], "severity") || r->kind == R_BASIC)
				require(r, verdict[i], 1);
		require(r, "cause", 2);
		require(r, "fix", 1);
		require(r, "related", 1);
		check_verdict(r);
		return;
	}
}

/* Codes named in related, with and basic lines must be entries of the
 * table. */
static void check_references(struct record *r)
{
	for (size_t i = 0; i < r->nfields; i++) {
		struct field *f = &r->fields[i];
		char code[32];
		size_t keylen;
		if (f->def->type != LIST || (f->def->index != SMTPCODE_RELATED &&
		                             f->def->index != SMTPCODE_WITH &&
		                             f->def->index != SMTPCODE_BASIC))
			continue;
		split_item(f->value, &keylen);
		if (f->def->index == SMTPCODE_BASIC && !keylen)
			keylen = strlen(f->value);
		if (!keylen || keylen >= sizeof code)
			continue;
		memcpy(code, f->value, keylen);
		code[keylen] = '\0';
		if (!find_code(code))
			fail(f->file, f->line, "%s names '%s', which is not in the "
			     "table", f->def->name, code);
		else if (strcmp(code, r->codetext) == 0)
			fail(f->file, f->line, "%s names the entry itself",
			     f->def->name);
	}
}

static void check_all(void)
{
	for (size_t i = 0; i < nrecords; i++)
		classify(&records[i]);
	for (size_t i = 0; i < nrecords; i++) {
		struct record *r = &records[i];
		struct record *first = find_record(r->key);
		if (r->key == UINT32_MAX)
			continue;
		if (first != r) {
			fail(r->file, r->line, "duplicate code %s (first at %s:%ld)",
			     r->codetext, first->file, first->line);
			continue;
		}
		if (r->kind == R_VARIANT) {
			r->topic = find_record(KEY_ENHANCED(0, r->code.subject,
			                                    r->code.detail));
			if (!r->topic)
				fail(r->file, r->line, "%s has no record for X.%u.%u "
				     "(the class-independent entry it belongs to)",
				     r->codetext, r->code.subject, r->code.detail);
			else
				r->topic->has_variant = 1;
		}
	}
	/* Go on after errors, so one run reports every problem; skip only
	 * records whose code is unusable. */
	for (size_t i = 0; i < nrecords; i++) {
		struct record *r = &records[i];
		if (r->key == UINT32_MAX || find_record(r->key) != r ||
		    (r->kind == R_VARIANT && !r->topic))
			continue;
		check_record(r);
		check_references(r);
	}
	for (size_t i = 0; i < nrecords; i++)
		if (records[i].kind == R_TOPIC && !records[i].has_variant)
			fail(records[i].file, records[i].line, "%s has no class "
			     "variant (add a record for 2.x.x, 4.x.x or 5.x.x)",
			     records[i].codetext);
}

/* ---- Writing ---- */

struct pool {
	char *s;
	size_t n, cap;
};

static struct pool pool;

/* Offset of s in the pool, adding it if new.  Offset 0 is "". */
static uint32_t intern(const char *s)
{
	size_t len = strlen(s);
	if (len == 0)
		return 0;
	for (size_t off = 1; off + len < pool.n + 1; off++)
		if (memcmp(pool.s + off, s, len + 1) == 0 &&
		    (pool.s[off - 1] == '\0'))
			return (uint32_t)off;
	if (pool.n + len + 1 > pool.cap) {
		pool.cap = 2 * (pool.n + len + 1);
		pool.s = xrealloc(pool.s, pool.cap);
	}
	memcpy(pool.s + pool.n, s, len + 1);
	pool.n += len + 1;
	return (uint32_t)(pool.n - len - 1);
}

static int by_key(const void *a, const void *b)
{
	const struct record *x = a, *y = b;
	return x->key < y->key ? -1 : x->key > y->key;
}

static struct table_item *items;
static size_t nitems, capitems;

static void add_item(const char *key, const char *text)
{
	if (nitems == capitems) {
		capitems = capitems ? 2 * capitems : 1024;
		items = xrealloc(items, capitems * sizeof *items);
	}
	items[nitems].key = intern(key);
	items[nitems].text = intern(text);
	nitems++;
}

/* Items of one list of a record, as the entry shows them. */
static void emit_list(struct record *r, const struct record *from,
                      int list, struct smtpcode_entry *e)
{
	size_t start = nitems;
	for (size_t i = 0; i < from->nfields; i++) {
		const struct field *f = &from->fields[i];
		size_t keylen;
		char key[64] = "";
		const char *text;
		if (f->def->type != LIST || f->def->index != list)
			continue;
		if (list == SMTPCODE_CAUSES || list == SMTPCODE_SOURCES ||
		    list == SMTPCODE_NOTES) {
			add_item("", f->value);
			continue;
		}
		text = split_item(f->value, &keylen);
		if (list == SMTPCODE_BASIC && !keylen) {
			keylen = strlen(f->value);
			text = "";
		}
		snprintf(key, sizeof key, "%.*s", (int)keylen, f->value);
		/* A variant is sent with the topic's basic codes of its class. */
		if (list == SMTPCODE_BASIC && r->kind == R_VARIANT &&
		    key[0] - '0' != r->code.cls)
			continue;
		add_item(key, text);
	}
	if (nitems - start > UINT8_MAX || start > UINT16_MAX) {
		fail(r->file, r->line, "%s: too many items", r->codetext);
		return;
	}
	e->first[list] = (uint16_t)start;
	e->count[list] = (uint8_t)(nitems - start);
}

static struct smtpcode_entry make_entry(struct record *r)
{
	struct smtpcode_entry e;
	memset(&e, 0, sizeof e);
	e.key = r->key;
	e.text[SMTPCODE_CODE] = intern(r->codetext);
	for (size_t k = 0; k < NKEYS; k++) {
		const struct keydef *d = &keydefs[k];
		struct field *f = lookup(r, d->name);
		if (d->type == SCALAR_TEXT && d->index != SMTPCODE_CODE && f)
			e.text[d->index] = intern(f->value);
		else if (d->type == SCALAR_VALUE)
			e.value[d->index] = (uint8_t)(f ? value_of(r, d->name) : 0);
		else if (d->type == LIST) {
			const struct record *from = r;
			if (r->topic && !count_list(r, d->name))
				from = r->topic;
			emit_list(r, from, d->index, &e);
		}
	}
	return e;
}

static void write_string(FILE *out, const char *s)
{
	fputc('"', out);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			fprintf(out, "\\%c", c);
		else if (c == '\n')
			fputs("\\n", out);
		else if (c == '?')
			fputs("\\?", out); /* no trigraphs */
		else if (c >= 0x80)
			fprintf(out, "\\%03o", c);
		else
			fputc(c, out);
	}
	fputc('"', out);
}

static int write_table(const char *path, const char *date)
{
	char tmp[4096];
	struct smtpcode_entry *entries;
	FILE *out;

	qsort(records, nrecords, sizeof *records, by_key);
	for (size_t i = 0; i < nrecords; i++)
		if (records[i].kind == R_VARIANT) /* re-find after sorting */
			records[i].topic = find_record(KEY_ENHANCED(
			    0, records[i].code.subject, records[i].code.detail));
	pool.s = xrealloc(NULL, 1);
	pool.s[0] = '\0';
	pool.n = pool.cap = 1;
	entries = xrealloc(NULL, (nrecords + 1) * sizeof *entries);
	for (size_t i = 0; i < nrecords; i++)
		entries[i] = make_entry(&records[i]);
	if (errors)
		return -1;

	snprintf(tmp, sizeof tmp, "%s.tmp", path);
	out = fopen(tmp, "w");
	if (!out) {
		fprintf(stderr, "gentable: %s: %s\n", tmp, strerror(errno));
		return -1;
	}
	fputs("/* Generated by tools/gentable.c from data/; do not edit. */\n"
	      "#include \"table.h\"\n\n", out);
	fprintf(out, "const char table_date[] = \"%s\";\n\n", date);
	fputs("const char table_pool[] =\n", out);
	for (size_t off = 0; off < pool.n; off += strlen(pool.s + off) + 1) {
		fprintf(out, "\t/* %zu */ ", off);
		write_string(out, pool.s + off);
		fputs(" \"\\0\"\n", out);
	}
	fputs(";\n\nconst struct table_item table_items[] = {\n", out);
	for (size_t i = 0; i < nitems; i++)
		fprintf(out, "\t{%lu, %lu},\n", (unsigned long)items[i].key,
		        (unsigned long)items[i].text);
	fputs("\t{0, 0}\n};\n\nconst struct smtpcode_entry table_entries[] = {\n",
	      out);
	for (size_t i = 0; i < nrecords; i++) {
		const struct smtpcode_entry *e = &entries[i];
		fprintf(out, "\t{0x%08lx, {", (unsigned long)e->key);
		for (int k = 0; k < SMTPCODE_NTEXTS; k++)
			fprintf(out, "%s%lu", k ? ", " : "", (unsigned long)e->text[k]);
		fputs("}, {", out);
		for (int k = 0; k < SMTPCODE_NLISTS; k++)
			fprintf(out, "%s%u", k ? ", " : "", e->first[k]);
		fputs("}, {", out);
		for (int k = 0; k < SMTPCODE_NLISTS; k++)
			fprintf(out, "%s%u", k ? ", " : "", e->count[k]);
		fputs("}, {", out);
		for (int k = 0; k < SMTPCODE_NFIELDS; k++)
			fprintf(out, "%s%u", k ? ", " : "", e->value[k]);
		fprintf(out, "}}, /* %s */\n", records[i].codetext);
	}
	fprintf(out, "};\n\nconst size_t table_size = %zu;\n", nrecords);
	free(entries);
	if (ferror(out) | fclose(out)) {
		fprintf(stderr, "gentable: %s: write error\n", tmp);
		remove(tmp);
		return -1;
	}
	if (rename(tmp, path) != 0) {
		fprintf(stderr, "gentable: %s: %s\n", path, strerror(errno));
		remove(tmp);
		return -1;
	}
	return 0;
}

static int read_date(const char *file, char date[11])
{
	FILE *fp = fopen(file, "r");
	char buf[64] = "";
	int ok;
	if (!fp) {
		fprintf(stderr, "%s: %s\n", file, strerror(errno));
		return -1;
	}
	ok = fgets(buf, sizeof buf, fp) != NULL;
	fclose(fp);
	buf[strcspn(buf, "\n")] = '\0';
	ok = ok && strlen(buf) == 10 && all_digits(buf, 4) && buf[4] == '-' &&
	     all_digits(buf + 5, 2) && buf[7] == '-' && all_digits(buf + 8, 2);
	if (!ok) {
		fprintf(stderr, "%s:1: expected the date of the data as "
		        "YYYY-MM-DD\n", file);
		return -1;
	}
	memcpy(date, buf, 11);
	return 0;
}

int main(int argc, char **argv)
{
	char date[11];
	if (argc < 4) {
		fputs("usage: gentable OUTPUT.c DATEFILE DATAFILE...\n", stderr);
		return 2;
	}
	if (read_date(argv[2], date))
		return 1;
	for (int i = 3; i < argc; i++)
		read_file(argv[i]);
	check_all();
	if (errors || write_table(argv[1], date)) {
		fprintf(stderr, "gentable: %d error%s; table not written\n",
		        errors, errors == 1 ? "" : "s");
		return 1;
	}
	return 0;
}
