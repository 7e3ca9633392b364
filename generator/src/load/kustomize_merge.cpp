#include "load/kustomize_merge.hpp"

#include <array>
#include <string_view>
#include <utility>
#include <vector>

namespace rrgen {

namespace {
// Apart from the other files of rrgen_load's unity sources.
namespace merge_detail {

// Where a kind keeps its pod spec, as map keys from the object's root.
std::vector<std::string> pod_spec_path(const std::string& kind) {
  if (kind == "Pod") return {"spec"};
  if (kind == "CronJob") return {"spec", "jobTemplate", "spec", "template", "spec"};
  static constexpr std::array<std::string_view, 6> templated = {"Deployment", "StatefulSet", "DaemonSet",
                                                                "ReplicaSet", "Job",         "ReplicationController"};
  for (std::string_view k : templated) {
    if (kind == k) return {"spec", "template", "spec"};
  }
  return {};
}

bool is_container_list(std::string_view key) {
  return key == "containers" || key == "initContainers" || key == "ephemeralContainers";
}

// The patchMergeKey of the list at `path` (map keys from the root), or "" when it has none here.
std::string merge_key(const std::vector<std::string>& path, const std::string& kind) {
  const std::vector<std::string> pod = pod_spec_path(kind);
  if (pod.empty() || path.size() <= pod.size() || !std::equal(pod.begin(), pod.end(), path.begin())) return "";
  const std::vector<std::string> rest(path.begin() + static_cast<std::ptrdiff_t>(pod.size()), path.end());
  if (rest.size() == 1) {
    if (is_container_list(rest[0]) || rest[0] == "volumes" || rest[0] == "imagePullSecrets") return "name";
  } else if (rest.size() == 2 && is_container_list(rest[0])) {
    if (rest[1] == "ports") return "containerPort";
    if (rest[1] == "env") return "name";
    if (rest[1] == "volumeMounts") return "mountPath";
    if (rest[1] == "volumeDevices") return "devicePath";
  }
  return "";
}

std::string joined(const std::vector<std::string>& path) {
  std::string out;
  for (const std::string& p : path) out += (out.empty() ? "" : ".") + p;
  return out;
}

bool holds_null(const Node& n) {
  if (n.is_scalar()) return n.is_null();
  for (const Node& c : n.children) {
    if (holds_null(c)) return true;
  }
  return false;
}

// The merge key's value of a list item, or nullptr when the item has none.
const Node* key_of(const Node& item, const std::string& key) {
  if (!item.is_mapping()) return nullptr;
  const Node* k = item.find(key);
  return k && k->is_scalar() && !k->is_null() ? k : nullptr;
}

class Merger {
 public:
  Merger(const std::string& kind, std::string& error) : kind_(kind), error_(error) {}

  bool map(Node& target, const Node& patch, std::vector<std::string>& path) {
    for (std::size_t i = 0; i < patch.keys.size(); ++i) {
      const std::string& key = patch.keys[i];
      const Node& value = patch.children[i];
      if (key.starts_with("$")) return fail("the directive '" + key + "' at " + joined(path));
      std::size_t at = 0;
      while (at < target.keys.size() && target.keys[at] != key) ++at;
      const bool present = at < target.keys.size();
      if (value.is_scalar() && value.is_null()) {  // null deletes
        if (present) {
          target.keys.erase(target.keys.begin() + static_cast<std::ptrdiff_t>(at));
          target.children.erase(target.children.begin() + static_cast<std::ptrdiff_t>(at));
          if (at < target.key_locations.size())
            target.key_locations.erase(target.key_locations.begin() + static_cast<std::ptrdiff_t>(at));
        }
        continue;
      }
      if (!present) {
        if (holds_null(value))
          return fail("a new field " + key + " holding a null (what kustomize keeps of it is not pinned)");
        target.keys.push_back(key);
        target.key_locations.push_back(i < patch.key_locations.size() ? patch.key_locations[i] : Location{});
        target.children.push_back(value);
        continue;
      }
      Node& existing = target.children[at];
      path.push_back(key);
      bool ok = true;
      if (existing.is_mapping() && value.is_mapping()) ok = map(existing, value, path);
      else if (existing.is_sequence() && value.is_sequence()) ok = list(existing, value, path);
      else existing = value;
      path.pop_back();
      if (!ok) return false;
    }
    return true;
  }

 private:
  // As kustomize merges a keyed list: the patch's items in the patch's order (each merged into
  // the item with its key, if any), then the target's items the patch does not name.
  bool list(Node& target, const Node& patch, std::vector<std::string>& path) {
    const std::string key = merge_key(path, kind_);
    if (key.empty()) return fail("the list " + joined(path) + " (merging it needs the kind's schema)");
    std::vector<Node> merged;
    std::vector<bool> used(target.children.size(), false);
    for (const Node& item : patch.children) {
      const Node* k = key_of(item, key);
      if (!k) return fail("an item of " + joined(path) + " without its merge key '" + key + "'");
      std::size_t match = 0;
      while (match < target.children.size() &&
             !(key_of(target.children[match], key) && key_of(target.children[match], key)->text == k->text))
        ++match;
      if (match == target.children.size()) {
        merged.push_back(item);
        continue;
      }
      if (used[match]) return fail("two items of " + joined(path) + " with " + key + " " + k->text);
      used[match] = true;
      Node both = target.children[match];
      if (!map(both, item, path)) return false;
      merged.push_back(std::move(both));
    }
    for (std::size_t i = 0; i < target.children.size(); ++i) {
      if (!used[i]) merged.push_back(std::move(target.children[i]));
    }
    target.children = std::move(merged);
    return true;
  }

  bool fail(std::string what) {
    error_ = "cannot merge " + std::move(what);
    return false;
  }

  const std::string& kind_;
  std::string& error_;
};

}  // namespace merge_detail
}  // namespace

bool strategic_merge(Node& target, const Node& patch, const std::string& kind, std::string& error) {
  if (!target.is_mapping() || !patch.is_mapping()) {
    error = "a strategic merge patch and its target must be mappings";
    return false;
  }
  std::vector<std::string> path;
  return merge_detail::Merger(kind, error).map(target, patch, path);
}

}  // namespace rrgen
