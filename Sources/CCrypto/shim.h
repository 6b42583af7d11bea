// OpenSSL's libcrypto for Swift: only the EVP digest interface, for the file store's MD5 file
// names (swift-crypto would bring BoringSSL in and triple a fresh build's time).
#ifndef CACHELAB_CCRYPTO_SHIM_H
#define CACHELAB_CCRYPTO_SHIM_H
#include <openssl/evp.h>
#endif
