/* Memory of its own for the log and mail modes' buffers and caches: see
 * pages.c. */
#ifndef SMTPCODE_PAGES_H
#define SMTPCODE_PAGES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Inputs from this size on have their buffers in huge pages. */
#define HUGE_FROM ((uint64_t)8 << 20)

/* size bytes of zeroed memory, in huge pages when huge (where the system
 * gives them); NULL when there is none. */
void *pages_get(size_t size, bool huge);
/* Memory of pages_get(size, huge) given back. */
void pages_put(void *p, size_t size, bool huge);

#endif
