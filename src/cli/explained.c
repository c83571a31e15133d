/*
 * Which codes a run of --mail has explained in full.  A folder of bounces
 * meets the same few codes again and again, and the longest part of a
 * code's explanation (its meaning, causes, fixes, related codes and
 * sources) is wanted once, not once per recipient: later recipients with
 * the code get its verdict and a line that points back.
 *
 * A bit per entry of the table, never dropped: which records are
 * explained in full depends on the input alone.
 */
#include <stdlib.h>

#include "explained.h"

static bool on;
static unsigned char *bits; /* a bit per entry, or NULL before the first */

void explained_on(void)
{
	on = true;
}

void explained_off(void)
{
	free(bits);
	bits = NULL;
	on = false;
}

bool explained_before(const struct smtpcode_entry *e)
{
	size_t n = smtpcode_table_size(), i = smtpcode_entry_index(e);
	if (!on || i >= n || (!bits && !(bits = calloc(n / 8 + 1, 1))))
		return false;
	if (bits[i / 8] >> (i % 8) & 1)
		return true;
	bits[i / 8] |= (unsigned char)(1u << (i % 8));
	return false;
}
