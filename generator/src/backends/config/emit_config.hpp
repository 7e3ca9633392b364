// The deploy backend: the rest of kubebuilder's config/ layout around config/rbac (emit_rbac):
//   crd/bases/<file>            the given CRD files, copied byte for byte (built-in kinds have none)
//   crd/kustomization.yaml
//   manager/manager.yaml        the deploy Namespace and the controller manager's Deployment
//   manager/kustomization.yaml
//   default/kustomization.yaml  namespace + ../crd ../rbac ../manager, the metrics Service and
//                               patch (emit_metrics_config), ../policy with admissionPolicies
//                               (emit_policy_config): `kubectl kustomize config/default`
// docs/deploy-config.md describes the tree.
#pragma once
#include <string>
#include <vector>

#include "support/generate_options.hpp"
#include "support/output.hpp"
#include "model/reconciler.hpp"

namespace rrgen {

// One input CRD file: its base name and its text, verbatim.
struct ConfigCrdFile {
  std::string name;
  std::string content;
};

OutputSet emit_config(const ResolvedSpec& spec, const std::vector<ConfigCrdFile>& crds, const GenerateOptions& options);

}  // namespace rrgen
