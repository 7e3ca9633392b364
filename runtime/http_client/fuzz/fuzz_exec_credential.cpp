// What a kubeconfig exec credential plugin prints on stdout, read as an ExecCredential of
// client.authentication.k8s.io/v1 or v1beta1 (the first byte picks). The property: the reader
// returns usable credentials (a token, or a certificate and key both in PEM) or throws
// ExecPluginError, nothing else; and the KUBERNETES_EXEC_INFO written for a cluster described by
// the same bytes is always JSON.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "exec_credential.hpp"
#include "rr/core/json.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::string_view api_version = (data[0] & 1) != 0 ? "client.authentication.k8s.io/v1"
                                                          : "client.authentication.k8s.io/v1beta1";
  const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
  try {
    const auto credential = rr::http_detail::parse_exec_credential(text, api_version);
    const bool has_cert = !credential.client_certificate_pem.empty();
    if (has_cert != !credential.client_key_pem.empty()) std::abort();
    if (credential.token.empty() && !has_cert) std::abort();
    if (has_cert && credential.client_certificate_pem.find("-----BEGIN CERTIFICATE-----") == std::string::npos)
      std::abort();
  } catch (const rr::http_detail::ExecPluginError&) {
  }

  rr::ExecConfig exec;
  exec.api_version = std::string(api_version);
  exec.provide_cluster_info = (data[0] & 2) != 0;
  exec.cluster_config_json = std::string(text);  // not necessarily JSON: dropped when it is not
  rr::RestConfig cluster;
  cluster.host = std::string(text.substr(0, 64));
  cluster.ca_data = std::string(text);
  cluster.tls_server_name = std::string(text.substr(0, 16));
  const rr::Json info = rr::Json::parse(rr::http_detail::exec_info_json(exec, cluster), nullptr, false);
  if (info.is_discarded() || info["spec"]["interactive"] != false) std::abort();
  return 0;
}
