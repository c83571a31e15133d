/* Lists of the table: the providers and their number of entries. */
#include <string.h>

#include "output.h"
#include "render.h"

void render_providers(enum record_format format)
{
	size_t total = 0, providers = 0;
	for (size_t i = 0; i < smtpcode_table_size(); i++) {
		const struct smtpcode_entry *p = smtpcode_table_entry(i);
		size_t n = 0;
		if (smtpcode_kind(p) != SMTPCODE_KIND_PROVIDER)
			continue;
		for (size_t k = 0; k < smtpcode_table_size(); k++)
			n += smtpcode_provider_of(smtpcode_table_entry(k)) == p;
		if (format == RECORD_JSON) {
			out_str("{\"provider\":");
			json_plain(smtpcode_text(p, SMTPCODE_CODE));
			out_str(",\"name\":");
			json_plain(smtpcode_text(p, SMTPCODE_NAME));
			out_printf(",\"entries\":%zu}\n", n);
		} else {
			out_printf(format == RECORD_TSV ? "%s\t%zu\t%s\n"
			                                : "%-12s %4zu  %s\n",
			           smtpcode_text(p, SMTPCODE_CODE), n,
			           smtpcode_text(p, SMTPCODE_NAME));
		}
		total += n;
		providers++;
	}
	if (format == RECORD_TEXT)
		out_printf("%zu provider entries across %zu providers\n", total,
		           providers);
}
