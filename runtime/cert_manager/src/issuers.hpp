// Whether an Issuer or ClusterIssuer can sign, and its Ready condition as cert-manager writes it:
// selfSigned is always ready; ca is ready once its Secret holds a CA key pair; other types are
// not implemented by the local cluster.
#pragma once
#include <functional>
#include <optional>
#include <string>

#include "rr/core/json.hpp"
#include "x509_issue.hpp"

namespace rr::cert_manager {

struct IssuerState {
  bool ready = false;
  std::string reason, message;  // the Ready condition
  bool self_signed = false;
  std::optional<KeyPairPem> ca;  // a ready ca issuer's signing key pair
};

// (namespace, name) -> the Secret, or nullopt when there is none.
using SecretGetter = std::function<std::optional<Json>(const std::string&, const std::string&)>;

// `secret_namespace`: where a ca issuer's Secret is (the Issuer's namespace; for a ClusterIssuer
// the cluster resource namespace).
IssuerState evaluate_issuer(const Json& issuer, const std::string& secret_namespace, const SecretGetter& get_secret);

}  // namespace rr::cert_manager
