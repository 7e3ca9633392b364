// Strategic merge patch (application/strategic-merge-patch+json), the patch `kubectl apply`
// (client-side) and `kubectl patch` send for built-in kinds. Like a JSON merge patch, except that
// per-field metadata (upstream's `patchStrategy` / `patchMergeKey` struct tags) lets lists merge
// item by item, and that directives ($patch, $retainKeys, $setElementOrder/<f>,
// $deleteFromPrimitiveList/<f>) delete, replace, prune and reorder. docs/runtime/24-strategic-merge-patch.md.
#pragma once
#include <map>
#include <memory>
#include <string>
#include <string_view>

#include "rr/core/fwd.hpp"

namespace rr {

// How a field's value is patched (upstream's patchStrategy tag).
enum class PatchStrategy {
  Default,  // no tag: objects merge recursively, lists are replaced whole (as in a merge patch)
  Merge,    // lists merge: objects item by item on the merge key, primitives as a set
  Replace   // the value is replaced whole, even an object
};

struct FieldPatch {
  PatchStrategy strategy = PatchStrategy::Default;
  std::string merge_key{};  // Merge lists of objects: the item field that identifies an item
};

// One field of the schema tree. List items are transparent: the children of a list's node are
// the fields of its items.
class StrategicNode {
 public:
  const FieldPatch& patch() const noexcept { return patch_; }
  // The child named `name`, or an empty node (default strategy, no children).
  const StrategicNode& field(std::string_view name) const;

 private:
  friend class StrategicSchema;
  FieldPatch patch_{};
  std::map<std::string, std::unique_ptr<StrategicNode>, std::less<>> fields_{};
};

// Patch metadata by kind: a tree of field names per (API group, kind), and a fallback tree for
// objects whose kind has none (or that carry no apiVersion/kind).
class StrategicSchema {
 public:
  // Declares how the field at `path` is patched in objects of `kind` in API `group` ("" = core).
  // `path` is field names joined by '.', list items transparent: in kind Deployment,
  // "spec.template.spec.containers.ports" is the `ports` of every container.
  StrategicSchema& add(std::string_view group, std::string_view kind, std::string_view path, FieldPatch patch);
  // The same, in the fallback tree.
  StrategicSchema& add_fallback(std::string_view path, FieldPatch patch);

  // Whether `kind` of `api_version` ("v1", "apps/v1") has a tree of its own. The server answers
  // 415 to a strategic merge patch for kinds not covered (custom resources).
  bool covers(std::string_view api_version, std::string_view kind) const;
  // The tree for `object`, chosen by its apiVersion and kind; the fallback tree otherwise.
  const StrategicNode& root_for(const Json& object) const;

 private:
  static void add_path(StrategicNode& root, std::string_view path, FieldPatch patch);
  std::map<std::string, StrategicNode, std::less<>> kinds_{};  // key "<group>/<kind>"
  StrategicNode fallback_{};
};

// The patch metadata of the Kubernetes built-in kinds this project serves (core, apps, batch,
// rbac, coordination, admissionregistration, discovery); the list is in the doc page. Every
// built-in kind is covered, even those without tagged fields (ConfigMap, Role...). The fallback
// tree holds the ObjectMeta rules (finalizers, ownerReferences).
const StrategicSchema& builtin_strategic_schema();

// Applies `patch` (a JSON object) to `original` (a JSON object), using the tree of the original's
// kind (the patch's when the original has no apiVersion/kind). Throws rr::PatchError
// (rr/client/patch.hpp) on a malformed patch: a non-object patch or original, an unknown or
// misplaced $patch value, a malformed directive list, a merge-list item without its merge key,
// a $setElementOrder list that contradicts the patch list, mixed item kinds in a merge list.
// Directive keys never appear in the result; unknown "$..." keys are dropped, as the API server's
// decoder would.
Json apply_strategic_merge_patch(const Json& original, const Json& patch, const StrategicSchema& schema);

}  // namespace rr
