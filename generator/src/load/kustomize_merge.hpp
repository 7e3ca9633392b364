// The strategic merge patch of kustomize's `patches:` for the lists rrgen's patches touch: a pod
// template's containers, initContainers, volumes and imagePullSecrets (by name) and a container's
// ports (containerPort), env (name) and volumeMounts (mountPath). Another list present on both
// sides, or a $patch-style directive, is refused: kustomize would need the kind's schema.
#pragma once
#include <string>

#include "load/yaml_node.hpp"

namespace rrgen {

// Merges `patch` into `target` (an object of `kind`); false with the reason in `error`.
bool strategic_merge(Node& target, const Node& patch, const std::string& kind, std::string& error);

}  // namespace rrgen
