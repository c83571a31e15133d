/*
 * Memory of its own for the log and mail modes' buffers and caches.
 *
 * A page's first write is dear on a virtual machine: the host backs the
 * page then, whatever the guest did before (populating the pages in one
 * call only spares the guest's traps).  On the machines bench/run runs
 * on, it costs about 10 us a 4 KiB page, and a 20 MB log's run touches
 * a few hundred pages of buffers, captures and caches: a tenth of its
 * time.  Memory for large inputs is therefore asked for in huge pages
 * (2 MiB: the kernel gives them to those who ask for them, under
 * transparent_hugepage=madvise, its default), whose first write costs
 * about as much as that of one small page.  The price is memory: a huge
 * page counts whole once touched, so small inputs keep small pages.
 * Where the system has no huge pages, the advice is ignored.
 */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS, madvise() */
#include <stdint.h>
#include <sys/mman.h>

#include "pages.h"

#define HUGE_PAGE ((size_t)2 << 20)

/* The bytes mapped for size. */
static size_t mapped(size_t size, bool huge)
{
	return huge ? (size + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1) : size;
}

void *pages_get(size_t size, bool huge)
{
	size_t len = mapped(size, huge);
	char *m, *at;

	/* A huge page needs a mapping that holds it whole, aligned: more is
	 * mapped, then the ends are given back. */
	m = mmap(NULL, huge ? len + HUGE_PAGE : len, PROT_READ | PROT_WRITE,
	         MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED)
		return NULL;
	if (!huge)
		return m;
	at = (char *)(((uintptr_t)m + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1));
	if (at > m)
		munmap(m, (size_t)(at - m));
	munmap(at + len, (size_t)(m + HUGE_PAGE - at));
#ifdef MADV_HUGEPAGE
	(void)madvise(at, len, MADV_HUGEPAGE);
#endif
	return at;
}

void pages_put(void *p, size_t size, bool huge)
{
	munmap(p, mapped(size, huge));
}
