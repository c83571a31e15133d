/* Lists of the table: the providers and their number of entries. */
#include <string.h>

#include "output.h"
#include "render.h"

void render_providers(bool tsv)
{
	size_t total = 0, providers = 0;
	for (size_t i = 0; i < smtpcode_table_size(); i++) {
		const struct smtpcode_entry *p = smtpcode_table_entry(i);
		size_t n = 0;
		if (smtpcode_kind(p) != SMTPCODE_KIND_PROVIDER)
			continue;
		for (size_t k = 0; k < smtpcode_table_size(); k++)
			n += smtpcode_provider_of(smtpcode_table_entry(k)) == p;
		out_printf(tsv ? "%s\t%zu\t%s\n" : "%-12s %4zu  %s\n",
		           smtpcode_text(p, SMTPCODE_CODE), n,
		           smtpcode_text(p, SMTPCODE_NAME));
		total += n;
		providers++;
	}
	if (!tsv)
		out_printf("%zu provider entries across %zu providers\n", total,
		           providers);
}
