// Reading a Certificate's spec: cert-manager's defaults and its checks (Go durations: rr::core).
#include <doctest/doctest.h>

#include "rr/cert_manager/certificate_spec.hpp"

using namespace std::chrono_literals;
using rr::Json;
using rr::cert_manager::read_certificate_spec;

namespace {

Json certificate(Json spec) {
  Json base{{"secretName", "tls"}, {"issuerRef", {{"name", "selfsigned"}}}, {"dnsNames", {"a.example"}}};
  base.update(spec);
  for (auto it = base.begin(); it != base.end();) {
    it = it.value().is_null() ? base.erase(it) : std::next(it);
  }
  return Json{{"apiVersion", "cert-manager.io/v1"}, {"kind", "Certificate"}, {"spec", base}};
}

std::string error_of(Json spec) { return read_certificate_spec(certificate(std::move(spec))).error; }

}  // namespace

TEST_CASE("a spec gets cert-manager's defaults") {
  auto result = read_certificate_spec(certificate(Json::object()));
  REQUIRE(result.spec);
  CHECK(result.spec->duration == 2160h);
  CHECK_FALSE(result.spec->renew_before);
  CHECK(result.spec->issuer_ref.kind == "Issuer");
  CHECK(result.spec->issuer_ref.group == "cert-manager.io");
  CHECK(result.spec->private_key.algorithm == rr::cert_manager::KeyAlgorithm::RSA);
  CHECK(result.spec->private_key.size == 2048);
  CHECK(result.spec->private_key.encoding == rr::cert_manager::KeyEncoding::PKCS1);
  CHECK(result.spec->usages == std::vector<std::string>{"digital signature", "key encipherment"});

  auto ecdsa = read_certificate_spec(certificate({{"privateKey", {{"algorithm", "ECDSA"}}}}));
  REQUIRE(ecdsa.spec);
  CHECK(ecdsa.spec->private_key.size == 256);
}

TEST_CASE("an invalid spec is an error with cert-manager's message, never an exception") {
  CHECK(error_of({{"duration", "abc"}}) == "spec.duration: Invalid value: \"abc\": time: invalid duration \"abc\"");
  CHECK(error_of({{"duration", "30m"}}) ==
        "spec.duration: Invalid value: \"30m0s\": certificate duration must be greater than 1h0m0s");
  CHECK(error_of({{"duration", "2h"}, {"renewBefore", "3h"}}) ==
        "spec.renewBefore: Invalid value: \"3h0m0s\": certificate duration 2h0m0s must be greater than renewBefore "
        "3h0m0s");
  CHECK(error_of({{"renewBefore", "1m"}}) ==
        "spec.renewBefore: Invalid value: \"1m0s\": certificate renewBefore must be greater than 5m0s");
  CHECK(error_of({{"dnsNames", nullptr}}).find("at least one of commonName") != std::string::npos);
  CHECK(error_of({{"secretName", nullptr}}) == "spec.secretName: Required value: must be specified");
  CHECK(error_of({{"issuerRef", nullptr}}) == "spec.issuerRef.name: Required value: must be specified");
  CHECK(error_of({{"privateKey", {{"algorithm", "DSA"}}}}) ==
        "spec.privateKey.algorithm: Unsupported value: \"DSA\": supported values: \"RSA\", \"ECDSA\", \"Ed25519\"");
  CHECK(error_of({{"privateKey", {{"size", 1024}}}}) ==
        "spec.privateKey.size: Invalid value: 1024: must be between 2048 & 8192 for rsa keyAlgorithm");
  CHECK(error_of({{"ipAddresses", {"10.0.0.300"}}}) ==
        "spec.ipAddresses[0]: Invalid value: \"10.0.0.300\": invalid IP address");
  CHECK(error_of({{"usages", {"server auth", "flying"}}}) ==
        "spec.usages[1]: Invalid value: \"flying\": unknown keyusage");
  CHECK(error_of({{"dnsNames", "a.example"}}) == "spec.dnsNames: Invalid value: must be a list of strings");
  CHECK(error_of({{"isCA", "yes"}}) == "spec.isCA: Invalid value: must be a boolean");
  CHECK(read_certificate_spec(Json::array()).error == "spec: Required value");
}
