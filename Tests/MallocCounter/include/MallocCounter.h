#ifndef CACHELAB_MALLOC_COUNTER_H
#define CACHELAB_MALLOC_COUNTER_H
/// Starts counting heap allocations made by the calling thread.
void malloc_counter_start(void);
/// Stops counting and returns the number of allocations since the matching start.
long malloc_counter_stop(void);
/// Whether this build interposes the allocator (glibc only).
int malloc_counter_available(void);
#endif
