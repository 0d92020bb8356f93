#pragma once
// A throwaway certificate authority for the HTTPS tests: it issues leaf certificates for
// 127.0.0.1 or made-up host names, so tests can trust it explicitly (--ca-file) and check
// that the crawler rejects anything else. Built with the OpenSSL 3 C API, in memory.

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

namespace corocrawl::testing {

/// What a TLS server presents: its certificate chain and the chain's private key, in PEM.
struct tls_identity {
  std::string certificate_chain_pem;  ///< the leaf first, then its issuers
  std::string private_key_pem;
};

class test_ca {
 public:
  /// Creates a CA (EC P-256 key, self-signed, CN = `name`). Throws std::runtime_error on failure.
  explicit test_ca(std::string name = "corocrawl test CA");
  ~test_ca();
  test_ca(test_ca&&) noexcept;
  test_ca& operator=(test_ca&&) noexcept;
  test_ca(const test_ca&) = delete;
  test_ca& operator=(const test_ca&) = delete;

  /// The CA certificate in PEM: what a client adds to its trust store.
  std::string certificate_pem() const;

  /// A leaf certificate for `names` signed by this CA: each name is an IP literal (IPv4 or
  /// IPv6, brackets allowed -> iPAddress SAN) or a DNS name (dNSName SAN); CN = first name;
  /// valid from 1 hour ago to 1 day ahead; serverAuth EKU; the chain PEM holds the leaf then
  /// the CA certificate. Throws std::runtime_error on failure or when `names` is empty.
  tls_identity issue(const std::vector<std::string>& names) const;

  /// Writes certificate_pem() to `path`. Throws std::runtime_error when it cannot.
  void write_certificate(const std::filesystem::path& path) const;

 private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

/// A leaf certificate for `names` (as test_ca::issue) that is its own issuer and not a CA:
/// no client trusts it unless told to, so it stands for "a certificate from an unknown CA".
tls_identity self_signed(const std::vector<std::string>& names);

}  // namespace corocrawl::testing
