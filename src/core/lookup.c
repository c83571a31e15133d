/*
 * Lookups in the generated table: a key's entries by its hash (a binary
 * search on the sort key for the kinds' runs), and the accessors that
 * turn pool offsets into strings.  No allocation, no I/O.
 */
#include <stdint.h>
#include <string.h>

#include "table.h"

/* The first index whose key is not below key.  Without a branch on the
 * comparison (it becomes a conditional move): where the search goes is
 * as good as random, and a mispredicted branch per step cost more than
 * the step; log reading looks up every new reply's codes. */
size_t table_lower_bound(uint32_t key)
{
	const uint32_t *base = table_keys;
	size_t n = table_size;
	if (n == 0)
		return 0;
	while (n > 1) {
		size_t half = n / 2;
		base = base[half] < key ? base + half : base;
		n -= half;
	}
	return (size_t)(base - table_keys) + (*base < key);
}

size_t table_first(uint32_t key)
{
	const uint32_t mask = (UINT32_C(1) << (32 - table_slot_shift)) - 1;
	for (uint32_t h = TABLE_SLOT(key, table_slot_shift);; h = (h + 1) & mask) {
		unsigned slot = table_slots[h];
		if (!slot)
			return table_size;
		if (table_keys[slot - 1] == key)
			return slot - 1;
	}
}

/* The standard entry of a key (a provider's entries share its key). */
static const struct smtpcode_entry *find_key(uint32_t key)
{
	size_t i = table_first(key);
	if (i < table_size && table_entries[i].provider == 0)
		return &table_entries[i];
	return NULL;
}

const struct smtpcode_entry *smtpcode_find_basic(unsigned basic)
{
	if (basic < 200 || basic > 599)
		return NULL;
	return find_key(KEY_BASIC(basic));
}

const struct smtpcode_entry *smtpcode_find_enhanced(unsigned cls,
                                                    unsigned subject,
                                                    unsigned detail)
{
	if ((cls != 0 && cls != 2 && cls != 4 && cls != 5) || subject > 999 ||
	    detail > 999)
		return NULL;
	return find_key(KEY_ENHANCED(cls, subject, detail));
}

const struct smtpcode_entry *smtpcode_find_class(unsigned cls)
{
	return cls > 9 ? NULL : find_key(KEY_CATEGORY(CAT_CLASS, cls));
}

const struct smtpcode_entry *smtpcode_find_subject(unsigned subject)
{
	return subject > 999 ? NULL : find_key(KEY_CATEGORY(CAT_SUBJECT, subject));
}

const struct smtpcode_entry *smtpcode_find_basic_digit(unsigned position,
                                                       unsigned digit)
{
	if ((position != 1 && position != 2) || digit > 9)
		return NULL;
	return find_key(KEY_CATEGORY(position == 1 ? CAT_BASIC_FIRST
	                                           : CAT_BASIC_SECOND, digit));
}

static int lower(int c)
{
	return c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c;
}

const struct smtpcode_entry *table_find_named(enum smtpcode_kind kind,
                                              const char *s, size_t len)
{
	while (len && (*s == ' ' || *s == '\t'))
		s++, len--;
	while (len && (s[len - 1] == ' ' || s[len - 1] == '\t' ||
	               s[len - 1] == '\n' || s[len - 1] == '\r'))
		len--;
	for (size_t i = table_lower_bound(KEY_KIND(kind));
	     i < table_size && smtpcode_kind(&table_entries[i]) == kind; i++) {
		const char *code = table_pool + table_entries[i].text[SMTPCODE_CODE];
		size_t k = 0;
		while (k < len && code[k] && lower(code[k]) == lower(s[k]))
			k++;
		if (k == len && code[k] == '\0')
			return &table_entries[i];
	}
	return NULL;
}

const struct smtpcode_entry *smtpcode_find_category(const char *s, size_t len)
{
	return table_find_named(SMTPCODE_KIND_CATEGORY, s, len);
}

enum smtpcode_pairing smtpcode_check_pair(unsigned basic, unsigned cls,
                                          const struct smtpcode_entry *e)
{
	char digit = (char)('0' + basic / 100);
	if (cls != 0 && basic / 100 != cls)
		return SMTPCODE_PAIR_MISMATCH;
	if (!e)
		return SMTPCODE_PAIR_UNUSUAL;
	/* The items' keys alone: their texts are prose, decoded on use
	 * (prose.c), and not wanted here. */
	for (size_t i = 0; i < e->count[SMTPCODE_BASIC]; i++) {
		const char *k = table_text(
		    table_list_items[e->first[SMTPCODE_BASIC] + i].key);
		if (k[0] == digit && (unsigned)(k[1] - '0') == basic / 10 % 10 &&
		    (unsigned)(k[2] - '0') == basic % 10)
			return SMTPCODE_PAIR_USUAL;
	}
	return SMTPCODE_PAIR_UNUSUAL;
}

enum smtpcode_kind smtpcode_kind(const struct smtpcode_entry *e)
{
	return (enum smtpcode_kind)(e->key >> KEY_KIND_SHIFT);
}

size_t smtpcode_code_range(const struct smtpcode_query *q, size_t *first)
{
	uint32_t key;
	size_t i;
	if (q->enhanced)
		key = KEY_ENHANCED(q->cls, q->subject, q->detail);
	else if (q->basic)
		key = KEY_BASIC(q->basic);
	else
		return *first = 0;
	if ((*first = i = table_first(key)) == table_size)
		return *first = 0;
	while (i < table_size && table_entries[i].key == key)
		i++;
	return i - *first;
}

const char *smtpcode_text(const struct smtpcode_entry *e,
                          enum smtpcode_text_field f)
{
	if ((unsigned)f >= SMTPCODE_NTEXTS)
		return "";
	return table_text(e->text[f]);
}

int smtpcode_value(const struct smtpcode_entry *e, enum smtpcode_field f)
{
	return (unsigned)f < SMTPCODE_NFIELDS ? e->value[f] : 0;
}

size_t smtpcode_count(const struct smtpcode_entry *e, enum smtpcode_list l)
{
	return (unsigned)l < SMTPCODE_NLISTS ? e->count[l] : 0;
}

/* Item i of e's list l (both in range): a match list's phrases and
 * markers are plain and have no key; the other lists' items name their
 * strings as entries do (table.h). */
static const char *item_key(const struct smtpcode_entry *e,
                            enum smtpcode_list l, size_t i)
{
	if (l == SMTPCODE_MATCHES)
		return "";
	return table_text(table_list_items[e->first[l] + i].key);
}

static const char *item_text(const struct smtpcode_entry *e,
                             enum smtpcode_list l, size_t i)
{
	if (l == SMTPCODE_MATCHES)
		return table_pool + table_items[e->first[l] + i].text;
	return table_text(table_list_items[e->first[l] + i].text);
}

struct smtpcode_item smtpcode_item(const struct smtpcode_entry *e,
                                   enum smtpcode_list l, size_t i)
{
	struct smtpcode_item it = {"", ""};
	if ((unsigned)l < SMTPCODE_NLISTS && i < e->count[l]) {
		it.key = item_key(e, l, i);
		it.text = item_text(e, l, i);
	}
	return it;
}

size_t smtpcode_text_into(const struct smtpcode_entry *e,
                          enum smtpcode_text_field f, char *buf, size_t size)
{
	if ((unsigned)f >= SMTPCODE_NTEXTS)
		return table_text_into(0, buf, size); /* the pool starts with "" */
	return table_text_into(e->text[f], buf, size);
}

const char *smtpcode_item_key(const struct smtpcode_entry *e,
                              enum smtpcode_list l, size_t i)
{
	if ((unsigned)l >= SMTPCODE_NLISTS || i >= e->count[l])
		return "";
	return item_key(e, l, i);
}

size_t smtpcode_item_text_into(const struct smtpcode_entry *e,
                               enum smtpcode_list l, size_t i, char *buf,
                               size_t size)
{
	if ((unsigned)l >= SMTPCODE_NLISTS || i >= e->count[l])
		return table_text_into(0, buf, size);
	if (l == SMTPCODE_MATCHES)
		return table_plain_into(item_text(e, l, i), buf, size);
	return table_text_into(table_list_items[e->first[l] + i].text, buf, size);
}

size_t smtpcode_table_size(void)
{
	return table_size;
}

const struct smtpcode_entry *smtpcode_table_entry(size_t i)
{
	return i < table_size ? &table_entries[i] : NULL;
}

size_t smtpcode_entry_index(const struct smtpcode_entry *e)
{
	/* Compared as addresses: e may be any pointer the caller has. */
	uintptr_t a = (uintptr_t)e, first = (uintptr_t)table_entries;
	if (a < first || (a - first) % sizeof *e ||
	    (a - first) / sizeof *e >= table_size)
		return table_size;
	return (a - first) / sizeof *e;
}

const char *smtpcode_version(void)
{
	return SMTPCODE_VERSION;
}

const char *smtpcode_data_date(void)
{
	return table_date;
}

void smtpcode_resolve(const struct smtpcode_query *q, const char *input,
                      size_t len, const struct smtpcode_entry *provider,
                      struct smtpcode_result *r)
{
	memset(r, 0, sizeof *r);
	r->query = *q;
	if (q->basic)
		r->basic = smtpcode_find_basic(q->basic);
	if (q->enhanced) {
		r->enhanced = smtpcode_find_enhanced(q->cls, q->subject, q->detail);
		r->topic = q->cls ? smtpcode_find_enhanced(0, q->subject, q->detail)
		                  : r->enhanced;
		r->cls = q->cls ? smtpcode_find_class(q->cls) : NULL;
		r->subject = smtpcode_find_subject(q->subject);
	}
	table_match(q, input, len, provider, &r->match);
	if (q->basic && q->enhanced)
		r->pairing = smtpcode_check_pair(q->basic, q->cls, r->enhanced
		                                     ? r->enhanced : r->match.entry);
	/* A code only a provider defines (5.7.708) is known through it. */
	r->known = (!q->basic || r->basic) &&
	           (!q->enhanced || r->enhanced || r->match.entry);
}

const struct smtpcode_entry *smtpcode_answer(const struct smtpcode_result *r)
{
	if (r->match.entry)
		return r->match.entry;
	return r->query.enhanced ? r->enhanced : r->basic;
}

void smtpcode_resolve_entry(const struct smtpcode_entry *e,
                            struct smtpcode_result *r)
{
	const char *code = table_pool + e->text[SMTPCODE_CODE];
	struct smtpcode_query q;
	if (smtpcode_parse(code, strlen(code), &q) != SMTPCODE_OK) {
		memset(r, 0, sizeof *r);
		return;
	}
	smtpcode_resolve(&q, NULL, 0, smtpcode_provider_of(e), r);
	/* A provider with several entries for the code: this one. */
	if (e->provider && r->match.entry != e) {
		r->match.entry = e;
		r->match.how = SMTPCODE_MATCH_ONLY;
	}
	r->known = true;
}
