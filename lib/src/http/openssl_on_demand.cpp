// The OpenSSL functions the program calls (its own TLS code, and Asio's, compiled in
// asio_impl.cpp), each defined here to call the function of that name in the libssl or
// libcrypto that openssl_loader.hpp loads when the first one is called. The program is
// linked with --as-needed and without OpenSSL otherwise, so that it starts without them (see
// openssl_loader.hpp for why). Each definition has the signature of OpenSSL's own declaration:
// the compiler checks them against its headers. A function missing here is linked from
// OpenSSL directly, which brings both libraries back at start; the tls tests check that a
// plain-HTTP crawl maps neither. Linked into the program only, never into the library.

#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509_vfy.h>

#include <cstddef>
#include <cstdint>

#include "http/openssl_loader.hpp"

// X(return type, name, (parameters), (arguments))
#define COROCRAWL_OPENSSL_FUNCTIONS(X)                                                          \
  X(long, BIO_ctrl, (BIO * a0, int a1, long a2, void* a3), (a0, a1, a2, a3))                    \
  X(size_t, BIO_ctrl_pending, (BIO * a0), (a0))                                                 \
  X(int, BIO_free, (BIO * a0), (a0))                                                            \
  X(int, BIO_new_bio_pair, (BIO * *a0, size_t a1, BIO * *a2, size_t a3), (a0, a1, a2, a3))      \
  X(BIO*, BIO_new_file, (const char* a0, const char* a1), (a0, a1))                             \
  X(BIO*, BIO_new_mem_buf, (const void* a0, int a1), (a0, a1))                                  \
  X(int, BIO_read, (BIO * a0, void* a1, int a2), (a0, a1, a2))                                  \
  X(int, BIO_write, (BIO * a0, const void* a1, int a2), (a0, a1, a2))                           \
  X(void, CRYPTO_free, (void* a0, const char* a1, int a2), (a0, a1, a2))                        \
  X(void, ERR_clear_error, (), ())                                                              \
  X(unsigned long, ERR_get_error, (), ())                                                       \
  X(const char*, ERR_lib_error_string, (unsigned long a0), (a0))                                \
  X(unsigned long, ERR_peek_error, (), ())                                                      \
  X(unsigned long, ERR_peek_last_error, (), ())                                                 \
  X(const char*, ERR_reason_error_string, (unsigned long a0), (a0))                             \
  X(void, EVP_PKEY_free, (EVP_PKEY * a0), (a0))                                                 \
  X(int, EVP_PKEY_is_a, (const EVP_PKEY* a0, const char* a1), (a0, a1))                         \
  X(EVP_PKEY*, PEM_read_bio_Parameters, (BIO * a0, EVP_PKEY * *a1), (a0, a1))                   \
  X(EVP_PKEY*, PEM_read_bio_PrivateKey,                                                         \
    (BIO * a0, EVP_PKEY * *a1, pem_password_cb * a2, void* a3), (a0, a1, a2, a3))               \
  X(X509*, PEM_read_bio_X509, (BIO * a0, X509 * *a1, pem_password_cb * a2, void* a3),           \
    (a0, a1, a2, a3))                                                                           \
  X(X509*, PEM_read_bio_X509_AUX, (BIO * a0, X509 * *a1, pem_password_cb * a2, void* a3),       \
    (a0, a1, a2, a3))                                                                           \
  X(uint64_t, SSL_CTX_clear_options, (SSL_CTX * a0, uint64_t a1), (a0, a1))                     \
  X(long, SSL_CTX_ctrl, (SSL_CTX * a0, int a1, long a2, void* a3), (a0, a1, a2, a3))            \
  X(void, SSL_CTX_free, (SSL_CTX * a0), (a0))                                                   \
  X(X509_STORE*, SSL_CTX_get_cert_store, (const SSL_CTX* a0), (a0))                             \
  X(pem_password_cb*, SSL_CTX_get_default_passwd_cb, (SSL_CTX * a0), (a0))                      \
  X(void*, SSL_CTX_get_default_passwd_cb_userdata, (SSL_CTX * a0), (a0))                        \
  X(void*, SSL_CTX_get_ex_data, (const SSL_CTX* a0, int a1), (a0, a1))                          \
  X(SSL_verify_cb, SSL_CTX_get_verify_callback, (const SSL_CTX* a0), (a0))                      \
  X(int, SSL_CTX_get_verify_mode, (const SSL_CTX* a0), (a0))                                    \
  X(int, SSL_CTX_load_verify_locations, (SSL_CTX * a0, const char* a1, const char* a2),         \
    (a0, a1, a2))                                                                               \
  X(SSL_CTX*, SSL_CTX_new, (const SSL_METHOD* a0), (a0))                                        \
  X(int, SSL_CTX_set0_tmp_dh_pkey, (SSL_CTX * a0, EVP_PKEY * a1), (a0, a1))                     \
  X(void, SSL_CTX_set_default_passwd_cb, (SSL_CTX * a0, pem_password_cb * a1), (a0, a1))        \
  X(void, SSL_CTX_set_default_passwd_cb_userdata, (SSL_CTX * a0, void* a1), (a0, a1))           \
  X(int, SSL_CTX_set_default_verify_paths, (SSL_CTX * a0), (a0))                                \
  X(int, SSL_CTX_set_ex_data, (SSL_CTX * a0, int a1, void* a2), (a0, a1, a2))                   \
  X(uint64_t, SSL_CTX_set_options, (SSL_CTX * a0, uint64_t a1), (a0, a1))                       \
  X(void, SSL_CTX_set_verify, (SSL_CTX * a0, int a1, SSL_verify_cb a2), (a0, a1, a2))           \
  X(void, SSL_CTX_set_verify_depth, (SSL_CTX * a0, int a1), (a0, a1))                           \
  X(int, SSL_CTX_use_PrivateKey, (SSL_CTX * a0, EVP_PKEY * a1), (a0, a1))                       \
  X(int, SSL_CTX_use_PrivateKey_file, (SSL_CTX * a0, const char* a1, int a2), (a0, a1, a2))     \
  X(int, SSL_CTX_use_certificate, (SSL_CTX * a0, X509 * a1), (a0, a1))                          \
  X(int, SSL_CTX_use_certificate_ASN1, (SSL_CTX * a0, int a1, const unsigned char* a2),         \
    (a0, a1, a2))                                                                               \
  X(int, SSL_CTX_use_certificate_chain_file, (SSL_CTX * a0, const char* a1), (a0, a1))          \
  X(int, SSL_CTX_use_certificate_file, (SSL_CTX * a0, const char* a1, int a2), (a0, a1, a2))    \
  X(int, SSL_accept, (SSL * a0), (a0))                                                          \
  X(int, SSL_connect, (SSL * a0), (a0))                                                         \
  X(long, SSL_ctrl, (SSL * a0, int a1, long a2, void* a3), (a0, a1, a2, a3))                    \
  X(void, SSL_free, (SSL * a0), (a0))                                                           \
  X(X509_VERIFY_PARAM*, SSL_get0_param, (SSL * a0), (a0))                                       \
  X(SSL_CTX*, SSL_get_SSL_CTX, (const SSL* a0), (a0))                                           \
  X(int, SSL_get_error, (const SSL* a0, int a1), (a0, a1))                                      \
  X(void*, SSL_get_ex_data, (const SSL* a0, int a1), (a0, a1))                                  \
  X(int, SSL_get_ex_data_X509_STORE_CTX_idx, (), ())                                            \
  X(BIO*, SSL_get_rbio, (const SSL* a0), (a0))                                                  \
  X(int, SSL_get_shutdown, (const SSL* a0), (a0))                                               \
  X(SSL_verify_cb, SSL_get_verify_callback, (const SSL* a0), (a0))                              \
  X(int, SSL_get_verify_mode, (const SSL* a0), (a0))                                            \
  X(long, SSL_get_verify_result, (const SSL* a0), (a0))                                         \
  X(SSL*, SSL_new, (SSL_CTX * a0), (a0))                                                        \
  X(int, SSL_pending, (const SSL* a0), (a0))                                                    \
  X(int, SSL_read, (SSL * a0, void* a1, int a2), (a0, a1, a2))                                  \
  X(void, SSL_set_bio, (SSL * a0, BIO * a1, BIO * a2), (a0, a1, a2))                            \
  X(int, SSL_set_ex_data, (SSL * a0, int a1, void* a2), (a0, a1, a2))                           \
  X(void, SSL_set_verify, (SSL * a0, int a1, SSL_verify_cb a2), (a0, a1, a2))                   \
  X(void, SSL_set_verify_depth, (SSL * a0, int a1), (a0, a1))                                   \
  X(int, SSL_shutdown, (SSL * a0), (a0))                                                        \
  X(int, SSL_write, (SSL * a0, const void* a1, int a2), (a0, a1, a2))                           \
  X(const SSL_METHOD*, TLS_client_method, (), ())                                               \
  X(const SSL_METHOD*, TLS_method, (), ())                                                      \
  X(const SSL_METHOD*, TLS_server_method, (), ())                                               \
  X(X509*, X509_STORE_CTX_get_current_cert, (const X509_STORE_CTX* a0), (a0))                   \
  X(int, X509_STORE_CTX_get_error_depth, (const X509_STORE_CTX* a0), (a0))                      \
  X(void*, X509_STORE_CTX_get_ex_data, (const X509_STORE_CTX* a0, int a1), (a0, a1))            \
  X(int, X509_STORE_add_cert, (X509_STORE * a0, X509 * a1), (a0, a1))                           \
  X(int, X509_VERIFY_PARAM_set1_host, (X509_VERIFY_PARAM * a0, const char* a1, size_t a2),      \
    (a0, a1, a2))                                                                               \
  X(int, X509_VERIFY_PARAM_set1_ip_asc, (X509_VERIFY_PARAM * a0, const char* a1), (a0, a1))     \
  X(void, X509_VERIFY_PARAM_set_hostflags, (X509_VERIFY_PARAM * a0, unsigned int a1), (a0, a1)) \
  X(int, X509_check_host, (X509 * a0, const char* a1, size_t a2, unsigned int a3, char** a4),   \
    (a0, a1, a2, a3, a4))                                                                       \
  X(int, X509_check_ip_asc, (X509 * a0, const char* a1, unsigned int a2), (a0, a1, a2))         \
  X(void, X509_free, (X509 * a0), (a0))                                                         \
  X(const char*, X509_verify_cert_error_string, (long a0), (a0))                                \
  X(EVP_PKEY*, d2i_PrivateKey_bio, (BIO * a0, EVP_PKEY * *a1), (a0, a1))

// Each function looks its target up once; a function-local static is initialised once,
// whichever thread calls first.
#define COROCRAWL_FORWARD(result, name, parameters, arguments)                   \
  extern "C" result name parameters {                                            \
    static const auto target =                                                   \
        reinterpret_cast<decltype(&::name)>(corocrawl::openssl_function(#name)); \
    return target arguments;                                                     \
  }

COROCRAWL_OPENSSL_FUNCTIONS(COROCRAWL_FORWARD)
