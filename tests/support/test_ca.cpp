#include "test_ca.hpp"

#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include <fstream>
#include <stdexcept>
#include <string_view>
#include <utility>

namespace corocrawl::testing {

namespace {

template <auto Free>
struct openssl_deleter {
  template <class T>
  void operator()(T* p) const {
    Free(p);
  }
};

using pkey_ptr = std::unique_ptr<EVP_PKEY, openssl_deleter<EVP_PKEY_free>>;
using x509_ptr = std::unique_ptr<X509, openssl_deleter<X509_free>>;
using extension_ptr = std::unique_ptr<X509_EXTENSION, openssl_deleter<X509_EXTENSION_free>>;
using general_names_ptr = std::unique_ptr<GENERAL_NAMES, openssl_deleter<GENERAL_NAMES_free>>;
using general_name_ptr = std::unique_ptr<GENERAL_NAME, openssl_deleter<GENERAL_NAME_free>>;
using bignum_ptr = std::unique_ptr<BIGNUM, openssl_deleter<BN_free>>;
using bio_ptr = std::unique_ptr<BIO, openssl_deleter<BIO_free_all>>;

constexpr long one_hour = 60L * 60;
constexpr long one_day = 24 * one_hour;
// RFC 5280 upper bound for a CN; longer names live in the SAN only.
constexpr std::size_t max_common_name = 64;

/// Throws std::runtime_error naming `what` and the oldest queued OpenSSL error.
[[noreturn]] void fail(std::string_view what) {
  std::string message = "test_ca: " + std::string(what);
  if (const unsigned long code = ERR_get_error(); code != 0) {
    char text[256];
    ERR_error_string_n(code, text, sizeof text);
    message += ": ";
    message += text;
  }
  ERR_clear_error();
  throw std::runtime_error(message);
}

void check(int ok, std::string_view what) {
  if (ok <= 0) fail(what);
}

template <class T>
T* check(T* pointer, std::string_view what) {
  if (pointer == nullptr) fail(what);
  return pointer;
}

pkey_ptr make_key() {
  return pkey_ptr{check(EVP_PKEY_Q_keygen(nullptr, nullptr, "EC", "P-256"), "EC P-256 key")};
}

std::string to_pem(const auto& write, std::string_view what) {
  bio_ptr bio{check(BIO_new(BIO_s_mem()), "memory BIO")};
  check(write(bio.get()), what);
  BUF_MEM* memory = nullptr;
  check(static_cast<int>(BIO_get_mem_ptr(bio.get(), &memory)), what);
  return {memory->data, memory->length};
}

std::string certificate_to_pem(X509* certificate) {
  return to_pem([certificate](BIO* bio) { return PEM_write_bio_X509(bio, certificate); },
                "PEM certificate");
}

std::string key_to_pem(EVP_PKEY* key) {
  return to_pem(
      [key](BIO* bio) {
        return PEM_write_bio_PrivateKey(bio, key, nullptr, nullptr, 0, nullptr, nullptr);
      },
      "PEM private key");
}

/// A named v3 extension from OpenSSL's config syntax, e.g. "critical,CA:TRUE".
void add_extension(X509* certificate, X509V3_CTX& context, int nid, const char* value) {
  extension_ptr extension{
      check(X509V3_EXT_conf_nid(nullptr, &context, nid, value), OBJ_nid2sn(nid))};
  check(X509_add_ext(certificate, extension.get(), -1), OBJ_nid2sn(nid));
}

/// iPAddress for IP literals (IPv6 possibly in brackets), dNSName for everything else.
void add_subject_alt_names(X509* certificate, const std::vector<std::string>& names) {
  general_names_ptr entries{check(sk_GENERAL_NAME_new_null(), "subjectAltName")};
  for (const auto& name : names) {
    general_name_ptr entry{check(GENERAL_NAME_new(), "subjectAltName")};
    std::string literal = name;
    if (literal.size() > 2 && literal.front() == '[' && literal.back() == ']')
      literal = literal.substr(1, literal.size() - 2);
    if (ASN1_OCTET_STRING* address = a2i_IPADDRESS(literal.c_str())) {
      GENERAL_NAME_set0_value(entry.get(), GEN_IPADD, address);
    } else {
      ERR_clear_error();  // a2i_IPADDRESS queues an error for names that are no IP literal
      ASN1_IA5STRING* dns = check(ASN1_IA5STRING_new(), "dNSName");
      if (ASN1_STRING_set(dns, name.data(), static_cast<int>(name.size())) != 1) {
        ASN1_IA5STRING_free(dns);
        fail("dNSName " + name);
      }
      GENERAL_NAME_set0_value(entry.get(), GEN_DNS, dns);
    }
    check(sk_GENERAL_NAME_push(entries.get(), entry.get()), "subjectAltName");
    entry.release();  // now owned by `entries`
  }
  check(X509_add1_ext_i2d(certificate, NID_subject_alt_name, entries.get(), 0, X509V3_ADD_DEFAULT),
        "subjectAltName");
}

/// A v3 certificate for `subject_key` with CN `common_name`, valid from an hour ago to a day
/// ahead, with a random serial. Issuer name and extensions are the caller's.
x509_ptr new_certificate(EVP_PKEY* subject_key, const std::string& common_name) {
  x509_ptr certificate{check(X509_new(), "X509_new")};
  check(X509_set_version(certificate.get(), X509_VERSION_3), "version");

  bignum_ptr serial{check(BN_new(), "serial")};
  check(BN_rand(serial.get(), 63, BN_RAND_TOP_ANY, BN_RAND_BOTTOM_ANY), "serial");
  check(BN_to_ASN1_INTEGER(serial.get(), X509_get_serialNumber(certificate.get())) != nullptr,
        "serial");

  check(X509_gmtime_adj(X509_getm_notBefore(certificate.get()), -one_hour) != nullptr, "notBefore");
  check(X509_gmtime_adj(X509_getm_notAfter(certificate.get()), one_day) != nullptr, "notAfter");

  const std::string cn =
      common_name.size() <= max_common_name ? common_name : common_name.substr(0, max_common_name);
  X509_NAME* subject = X509_get_subject_name(certificate.get());
  check(X509_NAME_add_entry_by_txt(subject, "CN", MBSTRING_UTF8,
                                   reinterpret_cast<const unsigned char*>(cn.c_str()), -1, -1, 0),
        "subject CN");
  check(X509_set_pubkey(certificate.get(), subject_key), "public key");
  return certificate;
}

/// Signs `certificate` as issued by `issuer` (nullptr: by itself) with `issuer_key`, after
/// adding the extensions of a TLS server certificate for `names`.
void finish_leaf(X509* certificate, const std::vector<std::string>& names, X509* issuer,
                 EVP_PKEY* issuer_key) {
  X509* const signer = issuer != nullptr ? issuer : certificate;
  check(X509_set_issuer_name(certificate, X509_get_subject_name(signer)), "issuer name");
  X509V3_CTX context;
  X509V3_set_ctx(&context, signer, certificate, nullptr, nullptr, 0);
  add_extension(certificate, context, NID_basic_constraints, "critical,CA:FALSE");
  add_extension(certificate, context, NID_key_usage, "critical,digitalSignature");
  add_extension(certificate, context, NID_ext_key_usage, "serverAuth");
  add_extension(certificate, context, NID_subject_key_identifier, "hash");
  add_extension(certificate, context, NID_authority_key_identifier, "keyid:always");
  add_subject_alt_names(certificate, names);
  check(X509_sign(certificate, issuer_key, EVP_sha256()), "signing the leaf certificate");
}

void require_names(const std::vector<std::string>& names) {
  if (names.empty()) throw std::runtime_error("test_ca: a certificate needs at least one name");
}

}  // namespace

struct test_ca::impl {
  pkey_ptr key;
  x509_ptr certificate;
  std::string certificate_pem;
};

test_ca::test_ca(std::string name) : impl_(std::make_unique<impl>()) {
  impl_->key = make_key();
  impl_->certificate = new_certificate(impl_->key.get(), name);
  X509* certificate = impl_->certificate.get();
  check(X509_set_issuer_name(certificate, X509_get_subject_name(certificate)), "issuer name");
  X509V3_CTX context;
  X509V3_set_ctx(&context, certificate, certificate, nullptr, nullptr, 0);
  add_extension(certificate, context, NID_basic_constraints, "critical,CA:TRUE");
  add_extension(certificate, context, NID_key_usage, "critical,keyCertSign,cRLSign");
  add_extension(certificate, context, NID_subject_key_identifier, "hash");
  check(X509_sign(certificate, impl_->key.get(), EVP_sha256()), "signing the CA certificate");
  impl_->certificate_pem = certificate_to_pem(certificate);
}

test_ca::~test_ca() = default;
test_ca::test_ca(test_ca&&) noexcept = default;
test_ca& test_ca::operator=(test_ca&&) noexcept = default;

std::string test_ca::certificate_pem() const {
  return impl_->certificate_pem;
}

tls_identity test_ca::issue(const std::vector<std::string>& names) const {
  require_names(names);
  const pkey_ptr key = make_key();
  const x509_ptr leaf = new_certificate(key.get(), names.front());
  finish_leaf(leaf.get(), names, impl_->certificate.get(), impl_->key.get());
  return {certificate_to_pem(leaf.get()) + impl_->certificate_pem, key_to_pem(key.get())};
}

void test_ca::write_certificate(const std::filesystem::path& path) const {
  std::ofstream out{path, std::ios::binary | std::ios::trunc};
  out << impl_->certificate_pem;
  out.close();
  if (!out) throw std::runtime_error("test_ca: cannot write " + path.string());
}

tls_identity self_signed(const std::vector<std::string>& names) {
  require_names(names);
  const pkey_ptr key = make_key();
  const x509_ptr leaf = new_certificate(key.get(), names.front());
  finish_leaf(leaf.get(), names, nullptr, key.get());
  return {certificate_to_pem(leaf.get()), key_to_pem(key.get())};
}

}  // namespace corocrawl::testing
