// Zstandard (libzstd) for Swift: streaming decompression of .zst traces and compression of
// converted ones.
#ifndef CACHELAB_CZSTD_SHIM_H
#define CACHELAB_CZSTD_SHIM_H
#include <zstd.h>
#endif
