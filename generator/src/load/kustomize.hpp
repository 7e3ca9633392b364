// `kustomize build <dir>` for the kustomize features rrgen's own config/ trees use, so that
// `rrgen generate` can write dist/install.yaml (kubebuilder's `make build-installer`) from the
// config/ files it has just generated, without kustomize. It works on the documents as written and
// writes them back (support/yaml_writer), as openapi_facts does: load-level code, not a backend.
//
// Implemented, exactly as kustomize v5 does them (docs/deploy-config.md#distinstallyaml):
//   resources        files and directories holding a kustomization.yaml
//   patches          `- path: <file>` with an optional `target:` (group, version, kind, name,
//                    namespace): a strategic merge patch, merged with the merge keys of a pod
//                    template's lists (containers, ports, env, volumes...), or a JSON 6902 patch
//                    (add, remove, replace)
//   namespace        metadata.namespace of namespaced kinds, the Namespace's name, subjects named
//                    "default", and the namespace fieldSpecs of kustomize and of `configurations`
//   configurations   files of `namespace:` fieldSpecs and `nameReference:` (a no-op: no name changes)
//   images           name -> newName / newTag / digest on every containers[] and initContainers[]
// and the output in kustomize's legacy order, map keys sorted as kustomize writes them.
// Anything else (namePrefix, labels, replacements, generators, inline patches...) is an error, never
// a guess; so is a namespace change that would need kustomize's name-reference updates.
#pragma once
#include <functional>
#include <optional>
#include <string>

#include "support/diagnostics.hpp"

namespace rrgen {

// The text of a file by its '/'-separated path ("config/default/kustomization.yaml"), or nullptr.
using KustomizeFiles = std::function<const std::string*(const std::string& path)>;

// Every object `kustomize build <dir>` renders, as one YAML stream ("---" between documents).
// nullopt with errors in diags (file:line:col: error: ... [kustomize-...]).
std::optional<std::string> kustomize_build(const KustomizeFiles& files, const std::string& dir, Diagnostics& diags);

}  // namespace rrgen
