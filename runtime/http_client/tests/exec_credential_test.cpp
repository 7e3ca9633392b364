// The ExecCredential a plugin prints, read strictly, and the one it is given in
// $KUBERNETES_EXEC_INFO.
#include <doctest/doctest.h>

#include "exec_credential.hpp"
#include "rr/core/json.hpp"

using rr::http_detail::exec_info_json;
using rr::http_detail::ExecPluginError;
using rr::http_detail::parse_exec_credential;

namespace {

constexpr const char* kCredentialV1 = "client.authentication.k8s.io/v1";
const std::string kCert = "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n";
const std::string kKey = "-----BEGIN EC PRIVATE KEY-----\nMHc\n-----END EC PRIVATE KEY-----\n";

std::string credential(const rr::Json& status, const std::string& api_version = kCredentialV1) {
  return rr::Json{{"apiVersion", api_version}, {"kind", "ExecCredential"}, {"status", status}}.dump();
}

std::string credential_error_of(std::string_view text, std::string_view api_version = kCredentialV1) {
  try {
    parse_exec_credential(text, api_version);
  } catch (const ExecPluginError& e) {
    return e.what();
  }
  return "(no error)";
}

}  // namespace

TEST_CASE("ExecCredential: a token, a certificate pair, an expiry") {
  const auto token = parse_exec_credential(credential({{"token", "t0k"}}), kCredentialV1);
  CHECK(token.token == "t0k");
  CHECK(token.client_certificate_pem.empty());
  CHECK_FALSE(token.expiration.has_value());

  const auto pair = parse_exec_credential(
      credential(
          {{"clientCertificateData", kCert}, {"clientKeyData", kKey}, {"expirationTimestamp", "2030-01-02T03:04:05Z"}},
          "client.authentication.k8s.io/v1beta1"),
      "client.authentication.k8s.io/v1beta1");
  CHECK(pair.token.empty());
  CHECK(pair.client_certificate_pem == kCert);
  CHECK(pair.client_key_pem == kKey);
  REQUIRE(pair.expiration.has_value());
  CHECK(std::chrono::duration_cast<std::chrono::seconds>(pair.expiration->time_since_epoch()).count() == 1893553445);

  // Unknown fields are ignored, as client-go's decoder does; null reads as absent.
  CHECK(parse_exec_credential(R"({"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential",
      "spec":{"interactive":false},"status":{"token":"x","clientKeyData":null,"extra":1}})",
                              kCredentialV1)
            .token == "x");
}

TEST_CASE("ExecCredential: what is not one is refused with client-go's words") {
  CHECK(credential_error_of("").rfind("decoding stdout: not JSON: ", 0) == 0);
  CHECK(credential_error_of("Please log in at https://example.com").rfind("decoding stdout: not JSON: ", 0) == 0);
  CHECK(credential_error_of("[1]") == "decoding stdout: not a JSON object");
  CHECK(credential_error_of(R"({"kind":"ExecCredential","status":{"token":"t"}})") ==
        "decoding stdout: apiVersion is missing");
  CHECK(credential_error_of(R"({"apiVersion":5})") == "decoding stdout: apiVersion must be a string");
  CHECK(credential_error_of(credential({{"token", "t"}}, "client.authentication.k8s.io/v1beta1")) ==
        "exec plugin is configured to use API version client.authentication.k8s.io/v1, plugin returned version "
        "client.authentication.k8s.io/v1beta1");
  CHECK(credential_error_of(R"({"apiVersion":"client.authentication.k8s.io/v1","status":{"token":"t"}})") ==
        "decoding stdout: kind is missing");
  CHECK(
      credential_error_of(R"({"apiVersion":"client.authentication.k8s.io/v1","kind":"Pod","status":{"token":"t"}})") ==
      "decoding stdout: kind is \"Pod\", not ExecCredential");
  CHECK(credential_error_of(R"({"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential"})") ==
        "exec plugin didn't return a status field");
  CHECK(
      credential_error_of(R"({"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":"t"})") ==
      "decoding stdout: status must be an object");
  CHECK(credential_error_of(credential(rr::Json::object())) == "exec plugin didn't return a token or cert/key pair");
  CHECK(credential_error_of(credential({{"token", 42}})) == "decoding stdout: status.token must be a string");
  CHECK(credential_error_of(credential({{"token", "t"}, {"clientCertificateData", kCert}})) ==
        "exec plugin returned only certificate or key, not both");
  CHECK(credential_error_of(credential({{"clientKeyData", kKey}})) ==
        "exec plugin returned only certificate or key, not both");
  CHECK(credential_error_of(credential({{"clientCertificateData", "abc"}, {"clientKeyData", kKey}})) ==
        "failed parsing client key/certificate: clientCertificateData has no PEM CERTIFICATE block");
  CHECK(credential_error_of(credential({{"clientCertificateData", kCert}, {"clientKeyData", kCert}})) ==
        "failed parsing client key/certificate: clientKeyData has no PEM PRIVATE KEY block");
  CHECK(credential_error_of(credential({{"token", "t"}, {"expirationTimestamp", "tomorrow"}})) ==
        "decoding stdout: status.expirationTimestamp \"tomorrow\" is not an RFC 3339 time");
}

TEST_CASE("KUBERNETES_EXEC_INFO: spec.interactive always, spec.cluster with provideClusterInfo") {
  rr::ExecConfig exec;
  exec.api_version = kCredentialV1;
  rr::RestConfig cluster;
  cluster.host = "https://k:6443";
  CHECK(rr::Json::parse(exec_info_json(exec, cluster)) ==
        rr::Json::parse(R"({"kind":"ExecCredential","apiVersion":"client.authentication.k8s.io/v1",
                            "spec":{"interactive":false}})"));

  exec.provide_cluster_info = true;
  CHECK(rr::Json::parse(exec_info_json(exec, cluster))["spec"]["cluster"] ==
        rr::Json::parse(R"({"server":"https://k:6443"})"));
  cluster.ca_data = "PEM";
  cluster.tls_server_name = "k.internal";
  cluster.proxy_url = "http://proxy:3128";
  exec.cluster_config_json = R"({"audience":"a"})";
  CHECK(rr::Json::parse(exec_info_json(exec, cluster))["spec"]["cluster"] ==
        rr::Json::parse(R"({"server":"https://k:6443","certificate-authority-data":"UEVN",
                            "tls-server-name":"k.internal","proxy-url":"http://proxy:3128",
                            "config":{"audience":"a"}})"));
  cluster.ca_data.clear();
  cluster.insecure_skip_tls_verify = true;
  CHECK(rr::Json::parse(exec_info_json(exec, cluster))["spec"]["cluster"]["insecure-skip-tls-verify"] == true);
}
