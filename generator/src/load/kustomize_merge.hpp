// kustomize's `patches:`. The strategic merge patch for the lists rrgen's patches touch: a pod
// template's containers, initContainers, volumes and imagePullSecrets (by name) and a container's
// ports (containerPort), env (name) and volumeMounts (mountPath). Another list present on both
// sides, or a $patch-style directive, is refused: kustomize would need the kind's schema. And the
// JSON 6902 patches kubebuilder's config/default uses (a manager argument added by index).
#pragma once
#include <string>

#include "load/yaml_node.hpp"

namespace rrgen {

// Merges `patch` into `target` (an object of `kind`); false with the reason in `error`.
bool strategic_merge(Node& target, const Node& patch, const std::string& kind, std::string& error);

// Applies a JSON patch (RFC 6902: a sequence of operations) to `target`, as kustomize does for a
// patch file that is a list: add, remove and replace; move, copy and test are refused.
bool json6902_patch(Node& target, const Node& operations, std::string& error);

}  // namespace rrgen
