// The webhook part of config/ for a spec with `webhooks:`, in kubebuilder's layout (names already
// carry the app prefix and the deploy namespace, as the rest of the tree does):
//   webhook/manifests.yaml            Mutating/ValidatingWebhookConfiguration from the spec, with
//                                     cert-manager's CA-injection annotation
//   webhook/service.yaml              <app>-webhook-service: 443 -> the manager's 9443
//   webhook/kustomization.yaml, webhook/kustomizeconfig.yaml
//   certmanager/certificate.yaml      a self-signed Issuer and the serving Certificate (its Secret
//                                     <app>-webhook-server-cert)
//   certmanager/kustomization.yaml, certmanager/kustomizeconfig.yaml
//   crd/patches/webhook_in_<plural>.yaml, crd/patches/cainjection_in_<plural>.yaml  (conversion)
//   default/manager_webhook_patch.yaml  the webhook port and the certificate volume on the manager
// emit_config lists them in the kustomizations.
#pragma once
#include <string>
#include <vector>

#include "model/reconciler.hpp"
#include "support/output.hpp"
#include "support/yaml_writer.hpp"

namespace rrgen {

inline constexpr int kWebhookPort = 9443;
inline constexpr std::string_view kWebhookCertDir = "/tmp/k8s-webhook-server/serving-certs";

// Adds the files above to `out` (nothing without webhooks).
void emit_webhook_config(const ResolvedSpec& spec, OutputSet& out);

// The CRD patches config/crd/kustomization.yaml applies ("patches/webhook_in_webapps.yaml" ...).
std::vector<std::string> webhook_crd_patches(const ResolvedSpec& spec);
// What config/default adds: resources ("../webhook", "../certmanager") and patches.
std::vector<std::string> webhook_default_resources(const ResolvedSpec& spec);
std::vector<std::string> webhook_default_patches(const ResolvedSpec& spec);

}  // namespace rrgen
