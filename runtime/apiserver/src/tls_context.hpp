// OpenSSL setup of the server's TLS context from PEM text, and the client-certificate check.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include <openssl/ssl.h>

namespace rr::apiserver_detail {

// PEM text, read from `file` when it is set; std::invalid_argument naming `what` when unreadable.
std::string pem_from(const std::string& pem, const std::string& file, const char* what);

// Serves `cert_pem` (the leaf first, then any chain) with `key_pem`; TLS 1.2 or newer. With a
// client CA, a client certificate is asked for (not required) and must verify when presented.
// Returns false when OpenSSL refuses the material.
bool configure_server_tls(SSL_CTX& ctx, const std::string& cert_pem, const std::string& key_pem,
                          const std::string& client_ca_pem);

// True when the peer presented a certificate that verified against the client CA.
bool client_certificate_verified(const SSL* ssl);

// The Kubernetes user of a verified client certificate: its subject's CN, its O entries as the
// groups. Nothing when there is no verified certificate.
struct CertificateIdentity {
  std::string user;
  std::vector<std::string> groups;
};
std::optional<CertificateIdentity> client_certificate_identity(const SSL* ssl);

}  // namespace rr::apiserver_detail
