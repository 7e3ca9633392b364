// A self-signed serving certificate made in memory, for a server that has no certificate files
// (the manager's secure /metrics without --metrics-cert-path, as controller-runtime's metrics
// server generates one for "localhost" when it is given no CertDir).
#pragma once
#include <string>
#include <vector>

namespace rr::http_server {

struct CertificatePem {
  std::string cert_pem;
  std::string key_pem;
};

// An ECDSA P-256 certificate, valid one year, for `dns_names` (the first is its CN) and
// `ip_addresses` in subjectAltName. Throws std::runtime_error when OpenSSL fails.
CertificatePem make_self_signed_certificate(const std::vector<std::string>& dns_names,
                                            const std::vector<std::string>& ip_addresses);

}  // namespace rr::http_server
