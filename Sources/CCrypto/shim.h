// OpenSSL's libcrypto for Swift: the EVP digest and HMAC interfaces, for the file store's MD5
// file names and `convert --anonymize`'s keyed hashes (swift-crypto would bring BoringSSL in
// and triple a fresh build's time).
#ifndef CACHELAB_CCRYPTO_SHIM_H
#define CACHELAB_CCRYPTO_SHIM_H
#include <openssl/evp.h>
#include <openssl/hmac.h>
#endif
