#ifndef CPHOTOS_TLS_H
#define CPHOTOS_TLS_H

// OpenSSL's types and constants; its functions are called through the photos_ ones below.
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509_vfy.h>
#include <openssl/x509v3.h>
#include <stddef.h>

/// The system's OpenSSL (libssl, libcrypto), opened on the first https connection (CPhotosLoader),
/// not when the program starts: every `photos` command would otherwise load and relocate both
/// libraries (about 3 ms) to talk to photosd on a Unix socket. 0 once loaded, or -1 with the reason
/// in `error` ("OpenSSL cannot be loaded (install libssl3): ..."). Call it before any function
/// below; it is cheap after the first time.
int photos_tls_load(char *_Nonnull error, size_t error_size);

// OpenSSL's functions of the same names, as loaded. Macros of OpenSSL's, which Swift cannot call,
// are functions here.
SSL_CTX *_Nullable photos_SSL_CTX_new(void);
void photos_SSL_CTX_free(SSL_CTX *_Nonnull context);
/// `SSL_CTX_set_min_proto_version(context, TLS1_2_VERSION)`: TLS 1.2 at least.
int photos_SSL_CTX_require_tls12(SSL_CTX *_Nonnull context);
/// A peer that closes without TLS's close_notify reads as the end of the stream (OpenSSL 3's
/// `SSL_OP_IGNORE_UNEXPECTED_EOF`; 1.1.1 reads it so already). A body cut short is still caught by
/// its Content-Length or chunking.
void photos_SSL_CTX_eof_ends_stream(SSL_CTX *_Nonnull context);
/// `SSL_CTX_set_verify(context, SSL_VERIFY_PEER, NULL)`.
void photos_SSL_CTX_verify_peer(SSL_CTX *_Nonnull context);
int photos_SSL_CTX_load_verify_file(SSL_CTX *_Nonnull context, const char *_Nonnull file);
int photos_SSL_CTX_set_default_verify_paths(SSL_CTX *_Nonnull context);
SSL *_Nullable photos_SSL_new(SSL_CTX *_Nonnull context);
void photos_SSL_free(SSL *_Nonnull ssl);
int photos_SSL_set_fd(SSL *_Nonnull ssl, int descriptor);
/// The certificate must name `host` (no partial wildcards), sent as SNI; for an IP literal, its
/// address (no SNI). 1 when set.
int photos_SSL_expect_host(SSL *_Nonnull ssl, const char *_Nonnull host, int is_ip_literal);
int photos_SSL_connect(SSL *_Nonnull ssl);
int photos_SSL_read(SSL *_Nonnull ssl, void *_Nullable buffer, int count);
int photos_SSL_write(SSL *_Nonnull ssl, const void *_Nullable bytes, int count);
int photos_SSL_shutdown(SSL *_Nonnull ssl);
int photos_SSL_get_error(const SSL *_Nonnull ssl, int result);
long photos_SSL_get_verify_result(const SSL *_Nonnull ssl);
const char *_Nonnull photos_X509_verify_cert_error_string(long result);
void photos_ERR_clear_error(void);
unsigned long photos_ERR_get_error(void);
unsigned long photos_ERR_peek_error(void);
unsigned long photos_ERR_peek_last_error(void);
const char *_Nullable photos_ERR_reason_error_string(unsigned long error);
void photos_ERR_error_string_n(unsigned long error, char *_Nonnull buffer, size_t size);

#endif
