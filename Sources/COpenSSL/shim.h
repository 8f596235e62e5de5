#ifndef PHOTOSD_COPENSSL_SHIM_H
#define PHOTOSD_COPENSSL_SHIM_H
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509_vfy.h>
#include <openssl/x509v3.h>

/// `SSL_CTX_set_min_proto_version` is a macro, which Swift cannot import: TLS 1.2 at least.
static inline int copenssl_ctx_require_tls12(SSL_CTX *_Nonnull context) {
    return (int)SSL_CTX_set_min_proto_version(context, TLS1_2_VERSION);
}

/// A peer that closes without TLS's close_notify reads as the end of the stream (OpenSSL 3's
/// `SSL_OP_IGNORE_UNEXPECTED_EOF`, an expression macro; 1.1.1 reads it so already). A body cut
/// short is still caught by its Content-Length or chunking.
static inline void copenssl_ctx_eof_ends_stream(SSL_CTX *_Nonnull context) {
#ifdef SSL_OP_IGNORE_UNEXPECTED_EOF
    SSL_CTX_set_options(context, SSL_OP_IGNORE_UNEXPECTED_EOF);
#endif
}

/// `SSL_set_tlsext_host_name` is a macro: the server name sent in the handshake (SNI).
static inline int copenssl_set_server_name(SSL *_Nonnull ssl, const char *_Nonnull name) {
    return (int)SSL_set_tlsext_host_name(ssl, name);
}

#endif
