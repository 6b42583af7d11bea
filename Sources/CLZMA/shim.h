// liblzma for Swift: streaming decompression of .xz traces.
#ifndef CACHELAB_CLZMA_SHIM_H
#define CACHELAB_CLZMA_SHIM_H
#include <lzma.h>
#endif
