#include "exec_credential.hpp"

#include "rr/core/json.hpp"
#include "rr/core/time.hpp"

namespace rr::http_detail {
namespace {

[[noreturn]] void decoding_failed(const std::string& what) { throw ExecPluginError("decoding stdout: " + what); }

// A string field of `object`; absent and null read as "".
std::string string_field(const Json& object, const char* name, std::string_view path) {
  const auto it = object.find(name);
  if (it == object.end() || it->is_null()) return {};
  if (!it->is_string()) decoding_failed(std::string(path) + name + " must be a string");
  return it->get<std::string>();
}

// tls.X509KeyPair would refuse anything else; libcurl would only say so at the handshake.
void require_pem(const ExecCredential& credential) {
  if (credential.client_certificate_pem.find("-----BEGIN CERTIFICATE-----") == std::string::npos)
    throw ExecPluginError("failed parsing client key/certificate: clientCertificateData has no PEM CERTIFICATE block");
  const auto& key = credential.client_key_pem;
  if (key.find("-----BEGIN ") == std::string::npos || key.find("PRIVATE KEY-----") == std::string::npos)
    throw ExecPluginError("failed parsing client key/certificate: clientKeyData has no PEM PRIVATE KEY block");
}

}  // namespace

ExecCredential parse_exec_credential(std::string_view stdout_text, std::string_view api_version) {
  Json document;
  try {
    document = Json::parse(stdout_text);
  } catch (const Json::exception& e) {
    decoding_failed(std::string("not JSON: ") + e.what());
  }
  if (!document.is_object()) decoding_failed("not a JSON object");
  const std::string returned_version = string_field(document, "apiVersion", "");
  if (returned_version.empty()) decoding_failed("apiVersion is missing");
  if (returned_version != api_version) {
    throw ExecPluginError("exec plugin is configured to use API version " + std::string(api_version) +
                          ", plugin returned version " + returned_version);
  }
  const std::string kind = string_field(document, "kind", "");
  if (kind.empty()) decoding_failed("kind is missing");
  if (kind != "ExecCredential") decoding_failed("kind is \"" + kind + "\", not ExecCredential");

  const auto status = document.find("status");
  if (status == document.end() || status->is_null()) throw ExecPluginError("exec plugin didn't return a status field");
  if (!status->is_object()) decoding_failed("status must be an object");
  ExecCredential credential;
  credential.token = string_field(*status, "token", "status.");
  credential.client_certificate_pem = string_field(*status, "clientCertificateData", "status.");
  credential.client_key_pem = string_field(*status, "clientKeyData", "status.");
  if (const std::string expiry = string_field(*status, "expirationTimestamp", "status."); !expiry.empty()) {
    credential.expiration = Time(expiry).time_point();
    if (!credential.expiration)
      decoding_failed("status.expirationTimestamp \"" + expiry + "\" is not an RFC 3339 time");
  }
  const bool has_cert = !credential.client_certificate_pem.empty();
  const bool has_key = !credential.client_key_pem.empty();
  if (credential.token.empty() && !has_cert && !has_key)
    throw ExecPluginError("exec plugin didn't return a token or cert/key pair");
  if (has_cert != has_key) throw ExecPluginError("exec plugin returned only certificate or key, not both");
  if (has_cert) require_pem(credential);
  return credential;
}

std::string exec_info_json(const ExecConfig& exec, const RestConfig& cluster) {
  Json spec = Json::object();
  if (exec.provide_cluster_info) {
    // client-go's clientauthentication Cluster: omitempty everywhere but server.
    Json info = {{"server", cluster.host}};
    if (!cluster.tls_server_name.empty()) info["tls-server-name"] = cluster.tls_server_name;
    if (cluster.insecure_skip_tls_verify) info["insecure-skip-tls-verify"] = true;
    if (!cluster.ca_data.empty()) info["certificate-authority-data"] = Bytes::encode(cluster.ca_data).str();
    if (cluster.proxy_url && !cluster.proxy_url->empty()) info["proxy-url"] = *cluster.proxy_url;
    if (!exec.cluster_config_json.empty()) {
      Json config = Json::parse(exec.cluster_config_json, nullptr, /*allow_exceptions=*/false);
      if (!config.is_discarded() && !config.is_null()) info["config"] = std::move(config);
    }
    spec["cluster"] = std::move(info);
  }
  spec["interactive"] = false;
  const Json credential = {{"kind", "ExecCredential"}, {"apiVersion", exec.api_version}, {"spec", std::move(spec)}};
  return credential.dump(-1, ' ', false, Json::error_handler_t::replace);
}

}  // namespace rr::http_detail
