// Certificates for development and tests: a self-signed CA, a server certificate for 127.0.0.1
// and localhost, and a client certificate, all signed by that CA (ECDSA P-256, valid one year).
#pragma once
#include <string>
#include <vector>

#include "rr/apiserver/api_server.hpp"

namespace rr {

struct DevCertificates {
  std::string ca_pem;
  std::string server_cert_pem;
  std::string server_key_pem;
  std::string client_cert_pem;
  std::string client_key_pem;
};

// `client_user` becomes the client certificate's CN (the Kubernetes user name); its O is
// "system:masters". The server certificate is for 127.0.0.1 and localhost, and the
// `server_dns_names` (e.g. "webhook-service.system.svc", the name the local cluster verifies
// when it calls a webhook through a Service). Throws std::runtime_error when OpenSSL fails.
DevCertificates make_dev_certificates(const std::string& client_user = "rrgen-admin",
                                      const std::vector<std::string>& server_dns_names = {});

// TLS options serving the server certificate and accepting client certificates of the CA.
TlsOptions tls_options(const DevCertificates& certs);
// A kubeconfig user authenticating with the client certificate.
KubeconfigUser kubeconfig_user(const DevCertificates& certs, std::string name = "rrgen-admin");

}  // namespace rr
