// zlib for Swift: streaming decompression of .gz traces. inflateInit2 and deflateInit2 are
// macros, which Swift cannot call: they are wrapped in static inline functions.
#ifndef CACHELAB_CZLIB_SHIM_H
#define CACHELAB_CZLIB_SHIM_H
#include <zlib.h>

/// Starts a gzip or zlib decoder (windowBits 15 + 32: either header, detected).
static inline int cachelab_inflate_init(z_streamp stream) {
  return inflateInit2(stream, 15 + 32);
}

/// Starts a gzip encoder (windowBits 15 + 16) at `level`.
static inline int cachelab_deflate_init_gzip(z_streamp stream, int level) {
  return deflateInit2(stream, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
}
#endif
