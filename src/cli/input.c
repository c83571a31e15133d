/*
 * Reading files and pipes, inflated when they are gzip data: in blocks of
 * whole lines through fixed buffers, so memory stays flat however large
 * the input (the log modes, --stdin), a pipe's lines handed on as they
 * come and a binary file skipped; or as it comes, for --mail's messages.
 * Every failure names the file and the system error.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gunzip.h"
#include "input.h"
#include "output.h"
#include "scan.h"

/* Standard output's status, asked once: NULL when it has none. */
static const struct stat *output_stat(void)
{
	static struct stat out;
	static int asked; /* 1: out holds it; -1: there is none */
	if (!asked)
		asked = fstat(STDOUT_FILENO, &out) == 0 ? 1 : -1;
	return asked > 0 ? &out : NULL;
}

/* Whether the regular file st is also standard output, as cat checks:
 * `smtpcode --annotate log >> log` would read its own output, and grow
 * the file until the disk is full. */
static bool is_output(const struct stat *st)
{
	const struct stat *out = output_stat();
	return S_ISREG(st->st_mode) && out && st->st_dev == out->st_dev &&
	       st->st_ino == out->st_ino;
}

/* Opens path for reading ("-": standard input); *regular tells whether it
 * is a regular file, where a short read means its end.  A directory is
 * refused, unless folders are read (folder_ok: its read fails). */
static int open_input(const char *path, bool *regular, bool folder_ok)
{
	int fd = strcmp(path, "-") == 0 ? STDIN_FILENO : open(path, O_RDONLY);
	const char *why = NULL;
	struct stat st;
	if (fd < 0) {
		input_error(path, strerror(errno));
		return -1;
	}
	*regular = false;
	if (fstat(fd, &st) == 0) {
		*regular = S_ISREG(st.st_mode);
		if (S_ISDIR(st.st_mode) && !folder_ok)
			why = strerror(EISDIR);
		else if (is_output(&st))
			why = "input file is output file (write the output to "
			      "another file)";
	}
	if (why) {
		input_error(path, why);
		if (fd != STDIN_FILENO)
			close(fd);
		return -1;
	}
	return fd;
}

/* "smtpcode: FILE" on stderr, the name escaped as any text from the user
 * is (it may hold control characters). */
static void name_file(const char *path)
{
	const char *name = strcmp(path, "-") == 0 ? "(standard input)" : path;
	fputs("smtpcode: ", stderr);
	out_escaped(stderr, name, strlen(name));
}

void input_error(const char *path, const char *why)
{
	name_file(path);
	fprintf(stderr, ": %s\n", why);
}

void message_error(const char *path, long number, const char *why)
{
	if (number < 0) {
		input_error(path, why);
		return;
	}
	name_file(path);
	fprintf(stderr, ", message %ld: %s\n", number + 1, why);
}

/* A file read in blocks of whole lines: see input.h. */
struct reader {
	const char *path;
	struct stream in;     /* its bytes, inflated when they are gzip data */
	int status;           /* -1 once a line was refused or a read failed */
	bool eof, done;
	bool live;            /* not a regular file: a pipe, a socket, a tty */
	bool looked;          /* its first bytes were looked at (binary()) */
	bool skipping;        /* inside a line longer than a block */
	unsigned long lineno; /* lines before the next block */
	const char *rest;     /* the line begun after the last block, in that */
	size_t nrest;         /* block's buffer: the next block starts so */
};

struct reader *reader_open(const char *path)
{
	struct reader *r = calloc(1, sizeof *r);
	bool regular;
	if (!r) {
		input_error(path, strerror(ENOMEM));
		return NULL;
	}
	r->path = path;
	/* Read as it comes, with read(): stream_read() inflates gzip data,
	 * for the logs as for --mail's messages. */
	r->in.path = path;
	if ((r->in.fd = open_input(path, &regular, false)) < 0) {
		free(r);
		return NULL;
	}
	r->live = !regular;
	return r;
}

bool reader_live(const struct reader *r)
{
	return r->live;
}

int reader_close(struct reader *r)
{
	int status = r->status;
	stream_close(&r->in);
	free(r);
	return status;
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <cpuid.h>
#include <immintrin.h>
#include <stdatomic.h>
#define INPUT_AVX2 1

/* Whether the processor and the system let this program use AVX2: CPUID
 * leaf 7's AVX2 bit, and the YMM state enabled (OSXSAVE, then XCR0 bits 1
 * and 2).  Asked of the processor directly, once: GCC's
 * __builtin_cpu_supports() links 4.5 KB of libgcc's processor tables into
 * the static command, a budget of 1 MiB. */
static bool has_avx2(void)
{
	/* 1: yes, -1: no, 0: not asked yet; workers ask too (CPUID may trap
	 * to a hypervisor: once, not per slice) */
	static _Atomic int known;
	int k = atomic_load_explicit(&known, memory_order_relaxed);
	unsigned a, b, c, d;
	if (!k) {
		k = -1;
		if (__get_cpuid(1, &a, &b, &c, &d) && (c & bit_OSXSAVE)) {
			unsigned lo, hi;
			__asm__("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
			(void)hi;
			if ((lo & 6) == 6 && __get_cpuid_count(7, 0, &a, &b, &c, &d) &&
			    (b & bit_AVX2))
				k = 1;
		}
		atomic_store_explicit(&known, k, memory_order_relaxed);
	}
	return k > 0;
}

/* The newlines in [p, end) with AVX2, 128 bytes a step into two
 * counters, as scan_count() does with sixteen-byte ones: every byte read
 * is counted here before a worker parses it (for the number of the next
 * block's first line), and this takes under half the instructions. */
__attribute__((target("avx2"))) static size_t
newlines_avx2(const char *p, const char *end)
{
	const __m256i nl = _mm256_set1_epi8('\n'), zero = _mm256_setzero_si256();
	size_t n = 0;
#define EQ(at) \
	_mm256_cmpeq_epi8(_mm256_loadu_si256((const __m256i *)(const void *)(at)), nl)
	while (end - p >= 128) {
		__m256i one = zero, two = zero, sums;
		/* 127 steps keep each byte of a counter under 256. */
		for (int k = 0; k < 127 && end - p >= 128; k++, p += 128) {
			one = _mm256_sub_epi8(one, EQ(p));
			two = _mm256_sub_epi8(two, EQ(p + 32));
			one = _mm256_sub_epi8(one, EQ(p + 64));
			two = _mm256_sub_epi8(two, EQ(p + 96));
		}
		sums = _mm256_add_epi64(_mm256_sad_epu8(one, zero),
		                        _mm256_sad_epu8(two, zero));
		n += (size_t)_mm256_extract_epi64(sums, 0) +
		     (size_t)_mm256_extract_epi64(sums, 1) +
		     (size_t)_mm256_extract_epi64(sums, 2) +
		     (size_t)_mm256_extract_epi64(sums, 3);
	}
#undef EQ
	return n + scan_count(p, end, '\n');
}
#endif

size_t count_newlines(const char *p, const char *end)
{
#ifdef INPUT_AVX2
	if (has_avx2())
		return newlines_avx2(p, end);
#endif
	return scan_count(p, end, '\n');
}

/* Hand out buf[0..len) as a block of lines; what follows it starts the
 * next block. */
static int give(struct reader *r, char *buf, size_t len, size_t have,
                struct block *b)
{
	b->text = buf;
	b->len = len;
	b->first = r->lineno + 1;
	r->lineno += count_newlines(buf, buf + len) + (buf[len - 1] != '\n');
	r->rest = buf + len;
	r->nrest = have - len;
	return 1;
}

/* "FILE:LINE: line too long": the line is refused whole, never cut. */
static void too_long(struct reader *r)
{
	name_file(r->path);
	fprintf(stderr, ":%lu: line too long (> %zu bytes)\n", r->lineno + 1,
	        MAX_LINE);
	r->status = -1;
	r->skipping = true;
}

/*
 * Whether the first bytes read of a file, p[0..n), make it binary, so
 * that it is skipped rather than shown as escapes: when, of the first
 * BINARY_LOOK, more than one in 64 and at least BINARY_MIN are NUL or
 * other control bytes that text does not hold (all below 0x20 but tab,
 * newline, vertical tab, form feed, CR, backspace and ESC).  Compressed
 * data, a program, an image, a binary journal or a log whose start a
 * crash filled with NULs have hundreds there.  Not any NUL byte, as
 * grep(1) decides: a log line may carry a few, written raw from a reply
 * (tests/catalogue/logs/hostile.log), and one NUL put into a reply by a
 * remote server would then hide the whole log.  Once per file, on its
 * first read alone.
 */
#define BINARY_LOOK 4096
#define BINARY_MIN 16
static bool binary(const char *p, size_t n)
{
	size_t odd = 0;
	if (n > BINARY_LOOK)
		n = BINARY_LOOK;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)p[i];
		odd += c < 0x20 && !(c >= '\b' && c <= '\r') && c != 0x1b;
	}
	return odd >= BINARY_MIN && odd > n / 64;
}

int reader_next(struct reader *r, char *buf, struct block *b)
{
	size_t have = r->nrest;

	if (have) /* buf may hold it already: memmove */
		memmove(buf, r->rest, have);
	r->nrest = 0;
	while (!r->done) {
		const char *nl;
		ssize_t got;
		if (r->skipping) { /* drop the long line, up to its end */
			nl = memchr(buf, '\n', have);
			if (nl) {
				r->lineno++;
				r->skipping = false;
				have -= (size_t)(nl + 1 - buf);
				memmove(buf, nl + 1, have);
			} else {
				have = 0;
			}
		}
		if (!r->skipping && (nl = scan_last(buf, buf + have, '\n')) != NULL)
			return give(r, buf, (size_t)(nl + 1 - buf), have, b);
		if (r->eof) { /* the last line may lack its newline */
			r->done = true;
			if (have && !r->skipping)
				return give(r, buf, have, have, b);
			break;
		}
		if (have == BLOCK_SIZE) { /* a line longer than MAX_LINE */
			too_long(r);
			have = 0;
		}
		/* (at least 2 bytes: stream_read() tells gzip by them) */
		got = stream_read(&r->in, buf + have,
		                  BLOCK_SIZE - have < READ_SIZE ? BLOCK_SIZE - have
		                                                : READ_SIZE);
		if (got < 0) { /* reported */
			r->status = -1;
			r->done = true;
			break;
		}
		if (!r->looked && got > 0) {
			r->looked = true;
			if (binary(buf, (size_t)got)) {
				input_error(r->path, "binary file, skipped");
				r->status = -1;
				r->done = true;
				break;
			}
		}
		r->eof = got == 0;
		have += (size_t)got;
	}
	return 0;
}

#ifdef SCAN_SSE2
/* Bit i set when at[i] is a newline, for the 64 bytes at at. */
static inline uint64_t newlines64(const char *at)
{
	const __m128i nl = _mm_set1_epi8('\n');
	return (uint64_t)scan_hits(at, nl) |
	       (uint64_t)scan_hits(at + 16, nl) << 16 |
	       (uint64_t)scan_hits(at + 32, nl) << 32 |
	       (uint64_t)scan_hits(at + 48, nl) << 48;
}
#define NEWLINES64 newlines64
#else
#define NEWLINES64 NULL
#endif

/* With SSE2, the line ends are found 64 bytes at a time (newlines), each
 * window once for all the lines ending in it, rather than by a search
 * from each line's start; the last bytes, fewer than 64, as elsewhere.
 * Written once for both ways of finding them: always inlined, so that
 * each way's newlines is inlined in it in turn. */
static ALWAYS_INLINE void
lines_in(const struct block *b, line_fn *fn, void *ctx,
         uint64_t (*newlines)(const char *))
{
	const char *p = b->text, *end = b->text + b->len;
	unsigned long lineno = b->first;

	for (const char *w = p; newlines && end - w >= 64; w += 64)
		for (uint64_t m = newlines(w); m; m &= m - 1) {
			const char *nl = w + __builtin_ctzll(m);
			fn(ctx, p, (size_t)(nl - p), lineno++);
			p = nl + 1;
		}
	while (p < end) {
		const char *nl = scan_byte(p, end, '\n');
		size_t len = (size_t)((nl ? nl : end) - p);
		fn(ctx, p, len, lineno++);
		p += len + 1;
	}
}

#ifdef INPUT_AVX2
/* newlines64() in two steps of 32 bytes. */
__attribute__((target("avx2"))) static inline uint64_t
newlines64_avx2(const char *at)
{
	const __m256i nl = _mm256_set1_epi8('\n');
	__m256i a = _mm256_loadu_si256((const __m256i *)(const void *)at);
	__m256i b = _mm256_loadu_si256((const __m256i *)(const void *)(at + 32));
	return (uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(a, nl)) |
	       (uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(b, nl))
	           << 32;
}

__attribute__((target("avx2"))) static void
lines_in_avx2(const struct block *b, line_fn *fn, void *ctx)
{
	lines_in(b, fn, ctx, newlines64_avx2);
}
#endif

void each_line_in(const struct block *b, line_fn *fn, void *ctx)
{
#ifdef INPUT_AVX2
	if (has_avx2()) {
		lines_in_avx2(b, fn, ctx);
		return;
	}
#endif
	lines_in(b, fn, ctx, NEWLINES64);
}

int each_line(const char *path, char *buf, line_fn *fn, void *ctx)
{
	struct reader *r = reader_open(path);
	struct block b;

	if (!r)
		return -1;
	while (reader_next(r, buf, &b) > 0) {
		each_line_in(&b, fn, ctx);
		/* What a pipe gave is answered before the wait for more. */
		if (r->live)
			out_flush();
	}
	return reader_close(r);
}

/*
 * --mail's input, read as it comes (see input.h).  A folder of bounces
 * is hundreds of small files, and a system call costs about a
 * microsecond here: a file is opened, read with pread() and closed,
 * without the fstat() of open_input() when standard output is not a
 * regular file (only then can an input be the output).  pread() then
 * tells a file that has an end (it can be read at an offset, a short read
 * is its end: positioned) from a pipe (ESPIPE), and a directory fails it
 * (EISDIR), which the caller reads as a folder.  Standard input, whose
 * offset may not be 0, is read as it comes.  Whether the bytes are gzip
 * data is told from the first ones read, in the caller's buffer.  The
 * stream itself is the caller's: with musl, a malloc() and free() of it
 * per file mapped and unmapped a page every few files.
 */
int stream_open(struct stream *s, const char *path)
{
	const struct stat *out = output_stat();
	bool regular;

	memset(s, 0, sizeof *s);
	s->path = path;
	s->positioned =
	    strcmp(path, "-") != 0 && !(out && S_ISREG(out->st_mode));
	if (s->positioned) {
		if ((s->fd = open(path, O_RDONLY)) < 0)
			input_error(path, strerror(errno));
	} else {
		s->fd = open_input(path, &regular, true);
		s->positioned = s->fd >= 0 && regular && s->fd != STDIN_FILENO;
	}
	return s->fd < 0 ? -1 : 0;
}

/* Up to n bytes of the file itself: as stream_read(). */
static long raw_read(struct stream *s, char *buf, size_t n)
{
	for (;;) {
		ssize_t got;
		if (s->ended)
			return 0;
		got = s->positioned ? pread(s->fd, buf, n, (off_t)s->at)
		                    : read(s->fd, buf, n);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0 && errno == ESPIPE && s->positioned && s->at == 0) {
			s->positioned = false; /* a pipe: read as it comes */
			continue;
		}
		if (got < 0 && errno == EISDIR && s->at == 0 &&
		    s->fd != STDIN_FILENO)
			return STREAM_FOLDER;
		if (got < 0) {
			input_error(s->path, strerror(errno));
			return -1;
		}
		s->at += (size_t)got;
		/* A file with an end gives all it has: a short read is its
		 * end, and a bounce folder's thousands of files save a read
		 * each. */
		if (s->positioned && (size_t)got < n)
			s->ended = true;
		return (long)got;
	}
}

static long more_compressed(void *s, char *buf, size_t n)
{
	return raw_read(s, buf, n);
}

long stream_read(struct stream *s, char *buf, size_t n)
{
	const char *why;
	long got;

	if (s->gz) {
		if ((got = gunzip_read(s->gz, buf, n, &why)) < 0 && why)
			input_error(s->path, why);
		return got;
	}
	got = raw_read(s, buf, n);
	if (s->looked || got <= 0)
		return got;
	s->looked = true;
	/* A pipe may give less than the two bytes that tell: one read more
	 * (a file gives all it has). */
	if (got == 1 && n > 1) {
		long more = raw_read(s, buf + 1, n - 1);
		if (more < 0)
			return more;
		got += more;
	}
	if (!gunzip_magic(buf, (size_t)got))
		return got;
	if (!(s->gz = gunzip_open(buf, (size_t)got, more_compressed, s))) {
		input_error(s->path, strerror(ENOMEM));
		return -1;
	}
	return stream_read(s, buf, n);
}

void stream_close(struct stream *s)
{
	gunzip_close(s->gz);
	if (s->fd != STDIN_FILENO)
		close(s->fd);
}
