// The objects of a kustomize build (load/kustomize) and what kustomize's builtin transformers do to
// them: ids, the namespace and image transformers, the legacy output order. Node helpers that
// read and edit a document in place go with them.
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "load/yaml_node.hpp"

namespace rrgen::kustomize {

struct Gvk {
  std::string group, version, kind;
};

// A kustomize FieldSpec: which objects (empty = any) and the '/'-separated path in them.
struct FieldSpec {
  Gvk gvk;
  std::vector<std::string> path;
  bool create = false;
};

// One `images:` entry.
struct ImageEntry {
  std::string name, new_name, new_tag, digest;
};

const Node* child(const Node& n, std::string_view key);
Node* child(Node& n, std::string_view key);
// A scalar's text ("" when absent, null or not a scalar).
std::string text_at(const Node& n, std::string_view key);
Node string_node(std::string text);
// The mapping under `key`, made one (replacing what is there) when it is not.
Node& map_child(Node& map, std::string key);
void set_string(Node& map, const std::string& key, const std::string& value);
void erase_key(Node& map, std::string_view key);

Gvk gvk_of(const Node& doc);
std::string meta(const Node& doc, std::string_view key);  // metadata.<key>
// Whether `spec` (empty fields match anything) selects `g`.
bool selects(const Gvk& spec, const Gvk& g);
// The same group, version, kind, name and namespace ("" and "default" being one), as kustomize's ids.
bool same_id(const Node& a, const Node& b);

// kustomize's legacy order: Namespace, ResourceQuota, ..., CRDs, ServiceAccount, roles, ...,
// the webhook configurations last; by group/version/kind, then namespace and name.
void sort_legacy(std::vector<Node>& objects);

// The namespace transformer on one object with kustomize's fieldSpecs and `extra` (from
// configurations); "" or why it refuses.
std::string set_namespace(Node& object, const std::string& ns, const std::vector<FieldSpec>& extra);

// The image transformer: every containers[] and initContainers[] image in the object.
void update_images(Node& object, const std::vector<ImageEntry>& entries);

}  // namespace rrgen::kustomize
