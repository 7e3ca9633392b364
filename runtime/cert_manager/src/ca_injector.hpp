// cert-manager's cainjector over JSON: which CA an object asks for (its inject-ca-from or
// inject-ca-from-secret annotation) and the object with that CA put where the API server reads it.
#pragma once
#include <optional>
#include <string>

#include "rr/core/json.hpp"

namespace rr::cert_manager {

inline constexpr const char* inject_ca_from_annotation = "cert-manager.io/inject-ca-from";
inline constexpr const char* inject_ca_from_secret_annotation = "cert-manager.io/inject-ca-from-secret";
// A Secret injected through inject-ca-from-secret must allow it (cert-manager's rule).
inline constexpr const char* allow_direct_injection_annotation = "cert-manager.io/allow-direct-injection";

enum class InjectionTarget { MutatingWebhookConfiguration, ValidatingWebhookConfiguration, CustomResourceDefinition };

struct InjectionSource {
  bool from_secret = false;  // inject-ca-from-secret: a Secret; inject-ca-from: a Certificate
  std::string namespace_, name;
};

// The source the object's annotations name; nullopt without one or when it is not "<namespace>/<name>".
std::optional<InjectionSource> injection_source(const Json& object);

// The object with every caBundle set to `ca_bundle` (base64 of the PEM): each webhook's
// clientConfig, or a CRD's conversion webhook when its strategy is Webhook. Nullopt when nothing changes.
std::optional<Json> inject_ca_bundle(const Json& object, InjectionTarget target, const std::string& ca_bundle);

}  // namespace rr::cert_manager
