// Issuer readiness, with cert-manager's reasons and messages.
#include "issuers.hpp"

#include "rr/core/go_quote.hpp"
#include "secret_data.hpp"

namespace rr::cert_manager {
namespace {

IssuerState not_ready(std::string reason, std::string message) {
  IssuerState state;
  state.reason = std::move(reason);
  state.message = std::move(message);
  return state;
}

IssuerState evaluate_ca(const Json& ca, const std::string& secret_namespace, const SecretGetter& get_secret) {
  const std::string secret_name = ca.is_object() ? ca.value("secretName", std::string()) : std::string();
  const std::string prefix = "Error getting keypair for CA issuer: ";
  if (secret_name.empty()) return not_ready("ErrGetKeyPair", prefix + "spec.ca.secretName: Required value");
  auto secret = get_secret(secret_namespace, secret_name);
  if (!secret) return not_ready("ErrGetKeyPair", prefix + "secrets " + go_quote(secret_name) + " not found");
  auto certificate = secret_value(*secret, "tls.crt");
  auto key = secret_value(*secret, "tls.key");
  if (!certificate || !key) {
    return not_ready("ErrGetKeyPair",
                     prefix + "secret " + go_quote(secret_name) + " has no " + (certificate ? "tls.key" : "tls.crt"));
  }
  std::string error;
  auto facts = read_certificate(*certificate, error);
  if (!facts) return not_ready("ErrInvalidKeyPair", prefix + error);
  if (!key_pair_matches(*certificate, *key, error)) return not_ready("ErrInvalidKeyPair", prefix + error);
  if (!facts->is_ca) return not_ready("ErrInvalidKeyPair", prefix + "certificate is not a CA");
  IssuerState state;
  state.ready = true;
  state.reason = "KeyPairVerified";
  state.message = "Signing CA verified";
  state.ca = KeyPairPem{*certificate, *key};
  return state;
}

}  // namespace

IssuerState evaluate_issuer(const Json& issuer, const std::string& secret_namespace, const SecretGetter& get_secret) {
  const Json* spec = issuer.is_object() && issuer.contains("spec") && issuer["spec"].is_object() ? &issuer["spec"]
                                                                                                 : nullptr;
  if (spec != nullptr && spec->contains("selfSigned")) {
    IssuerState state;
    state.ready = true;
    state.reason = "IsReady";
    state.self_signed = true;
    return state;
  }
  if (spec != nullptr && spec->contains("ca")) return evaluate_ca((*spec)["ca"], secret_namespace, get_secret);
  for (const char* type : {"acme", "vault", "venafi"}) {
    if (spec != nullptr && spec->contains(type)) {
      return not_ready("NotImplemented",
                       std::string("the local cluster's cert-manager implements the selfSigned and ca "
                                   "issuers only, not ") +
                           type);
    }
  }
  return not_ready("NotImplemented", "no issuer type specified: the local cluster's cert-manager implements selfSigned "
                                     "and ca");
}

}  // namespace rr::cert_manager
