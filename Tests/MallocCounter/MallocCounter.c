// Counts heap allocations per thread by interposing malloc and friends in the test
// executable (ELF symbol interposition) and forwarding to glibc's own entry points.
// Counting costs one thread-local load per allocation and is off unless started.
#include "MallocCounter.h"
#include <stddef.h>
#include <errno.h>

#if defined(__linux__) && defined(__GLIBC__)
extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);
extern void __libc_free(void *);

static __thread int counting = 0;
static __thread long allocations = 0;

#define COUNT() do { if (counting) allocations += 1; } while (0)

void *malloc(size_t size) { COUNT(); return __libc_malloc(size); }
void *calloc(size_t count, size_t size) { COUNT(); return __libc_calloc(count, size); }
void *realloc(void *pointer, size_t size) { COUNT(); return __libc_realloc(pointer, size); }
void free(void *pointer) { __libc_free(pointer); }
void *memalign(size_t alignment, size_t size) { COUNT(); return __libc_memalign(alignment, size); }
void *aligned_alloc(size_t alignment, size_t size) { COUNT(); return __libc_memalign(alignment, size); }
int posix_memalign(void **result, size_t alignment, size_t size) {
  COUNT();
  void *pointer = __libc_memalign(alignment, size);
  if (pointer == NULL && size != 0) return ENOMEM;
  *result = pointer;
  return 0;
}

void malloc_counter_start(void) { allocations = 0; counting = 1; }
long malloc_counter_stop(void) { counting = 0; return allocations; }
int malloc_counter_available(void) { return 1; }
#else
void malloc_counter_start(void) {}
long malloc_counter_stop(void) { return -1; }
int malloc_counter_available(void) { return 0; }
#endif
