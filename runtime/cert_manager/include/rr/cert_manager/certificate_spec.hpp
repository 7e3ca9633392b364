// A cert-manager.io/v1 Certificate's spec as the local cluster's cert-manager subset reads it:
// the fields it honours, typed and defaulted as cert-manager does, and the checks cert-manager's
// webhook makes (here they become the Certificate's Ready=False message instead of a refused
// write). Pure functions over outside input (fuzzed: fuzz_certificate_spec).
#pragma once
#include <chrono>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "rr/core/json.hpp"

namespace rr::cert_manager {

enum class KeyAlgorithm { RSA, ECDSA, Ed25519 };
enum class KeyEncoding { PKCS1, PKCS8 };

struct PrivateKeySpec {
  KeyAlgorithm algorithm = KeyAlgorithm::RSA;
  int size = 2048;  // RSA: bits (2048 default); ECDSA: 256 (default) or 384
  KeyEncoding encoding = KeyEncoding::PKCS1;
  bool rotate = true;  // rotationPolicy Always (cert-manager's default since 1.18); Never keeps the key
};

struct IssuerRef {
  std::string name;
  std::string kind = "Issuer";  // or ClusterIssuer
  std::string group = "cert-manager.io";
};

struct CertificateSpec {
  std::string secret_name;
  std::string common_name;
  std::vector<std::string> dns_names, ip_addresses, uris;
  std::vector<std::string> organizations, organizational_units;
  std::chrono::seconds duration{std::chrono::hours(2160)};
  std::optional<std::chrono::seconds> renew_before;  // unset: a third of the certificate's lifetime
  bool is_ca = false;
  std::vector<std::string> usages;  // defaulted: "digital signature", "key encipherment"
  PrivateKeySpec private_key;
  IssuerRef issuer_ref;
  std::map<std::string, std::string> secret_labels, secret_annotations;  // spec.secretTemplate
};

struct CertificateSpecResult {
  std::optional<CertificateSpec> spec;
  std::string error;  // why not, when spec is empty: "spec.duration: Invalid value: ..."
};

// Reads a Certificate object's spec (the whole object is passed); never throws.
CertificateSpecResult read_certificate_spec(const Json& certificate);

}  // namespace rr::cert_manager
