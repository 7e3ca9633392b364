// The CA injector's pass: every webhook configuration and CRD that asks for a CA gets it.
#include <array>
#include <utility>

#include "ca_injector.hpp"
#include "crds.hpp"
#include "rr/client/api_error.hpp"
#include "rr/cluster/cluster.hpp"
#include "rr/core/time.hpp"
#include "secret_data.hpp"
#include "sync.hpp"

namespace rr::cert_manager {
namespace {

const std::array<std::pair<GroupVersionKind, InjectionTarget>, 3> targets{{
    {{"admissionregistration.k8s.io", "v1", "MutatingWebhookConfiguration"},
     InjectionTarget::MutatingWebhookConfiguration},
    {{"admissionregistration.k8s.io", "v1", "ValidatingWebhookConfiguration"},
     InjectionTarget::ValidatingWebhookConfiguration},
    {{"apiextensions.k8s.io", "v1", "CustomResourceDefinition"}, InjectionTarget::CustomResourceDefinition},
}};

std::optional<Json> get(Cluster& cluster, const std::optional<KindInfo>& kind, const std::string& ns,
                        const std::string& name) {
  if (!kind) return std::nullopt;
  try {
    return cluster.get(*kind, ObjectKey{ns, name});
  } catch (const ApiError&) {
    return std::nullopt;
  }
}

// The PEM the source holds in ca.crt, or nullopt (not there yet: a later pass injects it).
std::optional<std::string> ca_of(Cluster& cluster, const InjectionSource& source) {
  const auto secrets = cluster.find_kind({"", "v1", "Secret"});
  std::optional<Json> secret;
  if (source.from_secret) {
    secret = get(cluster, secrets, source.namespace_, source.name);
    // cert-manager injects from a Secret only when the Secret says it may.
    if (!secret || secret->value("/metadata/annotations"_json_pointer / allow_direct_injection_annotation,
                                 std::string()) != "true") {
      return std::nullopt;
    }
  } else {
    auto certificate = get(cluster, cluster.find_kind(certificate_kind().gvk), source.namespace_, source.name);
    if (!certificate) return std::nullopt;
    const std::string secret_name = certificate->value("/spec/secretName"_json_pointer, std::string());
    if (secret_name.empty()) return std::nullopt;
    secret = get(cluster, secrets, source.namespace_, secret_name);
    // The Secret must be this Certificate's (cert-manager's check against a stale or foreign Secret).
    if (!secret || secret->value("/metadata/annotations"_json_pointer / "cert-manager.io/certificate-name",
                                 std::string()) != source.name) {
      return std::nullopt;
    }
  }
  return secret_value(*secret, "ca.crt");
}

}  // namespace

bool sync_ca_injection(Cluster& cluster, const Log& log) {
  bool retry = false;
  for (const auto& [gvk, target] : targets) {
    const auto kind = cluster.find_kind(gvk);
    if (!kind) continue;
    try {
      Json items = cluster.list(*kind, ListOptions{}).value("items", Json::array());
      for (const Json& object : items) {
        auto source = injection_source(object);
        if (!source) continue;
        auto ca = ca_of(cluster, *source);
        if (!ca) continue;
        auto updated = inject_ca_bundle(object, target, Bytes::encode(*ca).str());
        if (!updated) continue;
        try {
          cluster.update(*kind, *updated);
          log("cert-manager: injected the CA of " + source->namespace_ + "/" + source->name + " into " + gvk.kind +
              " " + object.value("/metadata/name"_json_pointer, std::string()));
        } catch (const ApiError& e) {
          if (!is_not_found(e.status())) retry = true;
        }
      }
    } catch (const ApiError& e) {
      log(std::string("cert-manager: CA injection: ") + e.what());
      retry = true;
    }
  }
  return retry;
}

}  // namespace rr::cert_manager
