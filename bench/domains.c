/*
 * domains: write N Postfix reject lines to stdout, each to a recipient at
 * a domain of its own, for bench/run's --summary measurements:
 *
 *   crafted  domains that all have one hash under the summary's domain
 *            hash before issue 17 (mix(hash_bytes(...)) of src/cli/hash.h,
 *            unkeyed): there each new domain was compared with all those
 *            before it
 *   random   domains of the same length and kinds of bytes, at random
 *
 * Deterministic: the same arguments give the same lines.  A domain is 24
 * bytes: 16 that count up, then 8 that finish it.  The old hash of 24
 * bytes ends with (h ^ w) * C, then h ^= h >> 32, then mix(), where w is
 * the last eight bytes: each step can be undone, so for any first sixteen
 * bytes there is one w that gives the hash wanted.  Those w that hold a
 * byte the log line cannot carry in a domain (an upper-case letter, which
 * the summary lowers, or one of NUL, LF, CR, space, '<', '>', '@', ',')
 * are skipped.
 *
 * usage: domains crafted|random N
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define C1 0xff51afd7ed558ccdu
#define C2 0xc4ceb9fe1a85ec53u
#define K 0x9e3779b97f4a7c15u

/* The inverse of an odd number modulo 2^64, by Newton's iteration. */
static uint64_t inverse(uint64_t a)
{
	uint64_t x = a; /* right to 3 bits */
	for (int i = 0; i < 5; i++)
		x *= 2 - a * x;
	return x;
}

/* The old hash_bytes() of 24 bytes up to its last step: h before the
 * last eight bytes w go in. */
static uint64_t before_last(const unsigned char *d)
{
	uint64_t h = K ^ 24, g = ~h, w = 0, v = 0;
	for (int i = 7; i >= 0; i--) {
		w = w << 8 | d[i];
		v = v << 8 | d[8 + i];
	}
	h = (h ^ w) * C1;
	g = (g ^ v) * C2;
	h ^= h >> 32;
	return h ^ (g ^ g >> 29) * K;
}

static int carried(unsigned char c)
{
	return !(c >= 'A' && c <= 'Z') && !strchr(" <>@,\r\n", c) && c != 0;
}

static uint64_t state = 0x2545f4914f6cdd1du;

static uint64_t next(void)
{
	state ^= state << 13; /* xorshift64 */
	state ^= state >> 7;
	state ^= state << 17;
	return state;
}

int main(int argc, char **argv)
{
	/* The value every crafted domain's old hash has before its final
	 * h ^= h >> 32 (which is its own inverse) and mix(): any will do. */
	const uint64_t wanted = 0x0123456789abcdefu, inv = inverse(C1);
	int crafted;
	long n;

	if (argc != 3 || (strcmp(argv[1], "crafted") != 0 &&
	                  strcmp(argv[1], "random") != 0) ||
	    (n = strtol(argv[2], NULL, 10)) <= 0) {
		fputs("usage: domains crafted|random N\n", stderr);
		return 2;
	}
	crafted = strcmp(argv[1], "crafted") == 0;
	for (unsigned long tried = 0; n > 0; tried++) {
		unsigned char d[25];
		uint64_t w;
		int ok = 1;

		snprintf((char *)d, 17, "c%015lu", tried);
		w = crafted ? (wanted * inv) ^ before_last(d) : next();
		for (int i = 0; i < 8; i++) {
			d[16 + i] = (unsigned char)(w >> 8 * i);
			ok &= carried(d[16 + i]);
		}
		if (!ok)
			continue;
		d[24] = '\0';
		printf("May  1 10:00:00 mx postfix/smtpd[1]: NOQUEUE: reject: RCPT "
		       "from unknown[203.0.113.1]: 452 4.3.1 <u@%s>: Insufficient "
		       "system storage; from=<a@example.org> to=<u@%s> proto=ESMTP "
		       "helo=<x>\n", (char *)d, (char *)d);
		n--;
	}
	return ferror(stdout) || fclose(stdout) ? 2 : 0;
}
