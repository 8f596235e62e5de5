#include "CPhotosTLS.h"

#include <CPhotosLoader.h>
#include <pthread.h>
#include <stdio.h>

/// OpenSSL's functions as loaded: index 0 libssl, 1 libcrypto. The headers fix the major version
/// (the ABI, OPENSSL_VERSION_MAJOR: the soname's number) the code was compiled against.
#define TLS_FUNCTIONS(X)                                                                                   \
    X(0, TLS_client_method) X(0, SSL_CTX_new) X(0, SSL_CTX_free) X(0, SSL_CTX_ctrl) X(0, SSL_CTX_set_options) \
    X(0, SSL_CTX_set_verify) X(0, SSL_CTX_load_verify_locations) X(0, SSL_CTX_set_default_verify_paths)    \
    X(0, SSL_new) X(0, SSL_free) X(0, SSL_set_fd) X(0, SSL_get0_param) X(0, SSL_set1_host) X(0, SSL_ctrl) \
    X(0, SSL_connect) X(0, SSL_read) X(0, SSL_write) X(0, SSL_shutdown) X(0, SSL_get_error)               \
    X(0, SSL_get_verify_result) X(1, X509_VERIFY_PARAM_set_hostflags) X(1, X509_VERIFY_PARAM_set1_ip_asc) \
    X(1, X509_verify_cert_error_string) X(1, ERR_clear_error) X(1, ERR_get_error) X(1, ERR_peek_error)   \
    X(1, ERR_peek_last_error) X(1, ERR_reason_error_string) X(1, ERR_error_string_n)

static struct {
#define DECLARE(library, name) __typeof__(&name) name;
    TLS_FUNCTIONS(DECLARE)
#undef DECLARE
} tls;

#define STRINGIFY_(x) #x
#define STRINGIFY(x) STRINGIFY_(x)

static int load(char *error, size_t error_size) {
    static photos_library libraries[] = {
        {"libssl.so." STRINGIFY(OPENSSL_VERSION_MAJOR), "libssl" STRINGIFY(OPENSSL_VERSION_MAJOR), NULL},
        {"libcrypto.so." STRINGIFY(OPENSSL_VERSION_MAJOR), "libssl" STRINGIFY(OPENSSL_VERSION_MAJOR), NULL},
    };
    static const photos_symbol symbols[] = {
#define SYMBOL(library, name) {library, #name, (void **)&tls.name},
        TLS_FUNCTIONS(SYMBOL)
#undef SYMBOL
    };
    return photos_load("OpenSSL", libraries, 2, symbols, sizeof symbols / sizeof *symbols, error, error_size);
}

static photos_once loading = PHOTOS_ONCE_INIT;

int photos_tls_load(char *error, size_t error_size) { return photos_once_run(&loading, load, error, error_size); }

SSL_CTX *photos_SSL_CTX_new(void) { return tls.SSL_CTX_new(tls.TLS_client_method()); }
void photos_SSL_CTX_free(SSL_CTX *context) { tls.SSL_CTX_free(context); }

int photos_SSL_CTX_require_tls12(SSL_CTX *context) {
    return (int)tls.SSL_CTX_ctrl(context, SSL_CTRL_SET_MIN_PROTO_VERSION, TLS1_2_VERSION, NULL);
}

void photos_SSL_CTX_eof_ends_stream(SSL_CTX *context) {
#ifdef SSL_OP_IGNORE_UNEXPECTED_EOF
    tls.SSL_CTX_set_options(context, SSL_OP_IGNORE_UNEXPECTED_EOF);
#else
    (void)context;
#endif
}

void photos_SSL_CTX_verify_peer(SSL_CTX *context) { tls.SSL_CTX_set_verify(context, SSL_VERIFY_PEER, NULL); }

int photos_SSL_CTX_load_verify_file(SSL_CTX *context, const char *file) {
    return tls.SSL_CTX_load_verify_locations(context, file, NULL);
}

int photos_SSL_CTX_set_default_verify_paths(SSL_CTX *context) { return tls.SSL_CTX_set_default_verify_paths(context); }
SSL *photos_SSL_new(SSL_CTX *context) { return tls.SSL_new(context); }
void photos_SSL_free(SSL *ssl) { tls.SSL_free(ssl); }
int photos_SSL_set_fd(SSL *ssl, int descriptor) { return tls.SSL_set_fd(ssl, descriptor); }

int photos_SSL_expect_host(SSL *ssl, const char *host, int is_ip_literal) {
    X509_VERIFY_PARAM *parameters = tls.SSL_get0_param(ssl);
    tls.X509_VERIFY_PARAM_set_hostflags(parameters, X509_CHECK_FLAG_NO_PARTIAL_WILDCARDS);
    if (is_ip_literal) { return tls.X509_VERIFY_PARAM_set1_ip_asc(parameters, host); }
    // SSL_set_tlsext_host_name, a macro: the server name sent in the handshake (SNI).
    return tls.SSL_set1_host(ssl, host) == 1
        && tls.SSL_ctrl(ssl, SSL_CTRL_SET_TLSEXT_HOSTNAME, TLSEXT_NAMETYPE_host_name, (void *)host) == 1;
}

int photos_SSL_connect(SSL *ssl) { return tls.SSL_connect(ssl); }
int photos_SSL_read(SSL *ssl, void *buffer, int count) { return tls.SSL_read(ssl, buffer, count); }
int photos_SSL_write(SSL *ssl, const void *bytes, int count) { return tls.SSL_write(ssl, bytes, count); }
int photos_SSL_shutdown(SSL *ssl) { return tls.SSL_shutdown(ssl); }
int photos_SSL_get_error(const SSL *ssl, int result) { return tls.SSL_get_error(ssl, result); }
long photos_SSL_get_verify_result(const SSL *ssl) { return tls.SSL_get_verify_result(ssl); }
const char *photos_X509_verify_cert_error_string(long result) { return tls.X509_verify_cert_error_string(result); }
void photos_ERR_clear_error(void) { tls.ERR_clear_error(); }
unsigned long photos_ERR_get_error(void) { return tls.ERR_get_error(); }
unsigned long photos_ERR_peek_error(void) { return tls.ERR_peek_error(); }
unsigned long photos_ERR_peek_last_error(void) { return tls.ERR_peek_last_error(); }
const char *photos_ERR_reason_error_string(unsigned long error) { return tls.ERR_reason_error_string(error); }
void photos_ERR_error_string_n(unsigned long error, char *buffer, size_t size) {
    tls.ERR_error_string_n(error, buffer, size);
}
