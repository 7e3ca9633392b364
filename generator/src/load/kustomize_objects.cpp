#include "load/kustomize_objects.hpp"

#include <algorithm>
#include <array>
#include <utility>

namespace rrgen::kustomize {

namespace {

// kustomize's resid.NotNamespaceableKinds plus the cluster-scoped kinds its OpenAPI data knows.
// Not the admission policies and their bindings: kubectl's kustomize (5.5) gives them the
// namespace (the API server drops it from a cluster-scoped object), and tests/kustomize compares
// dist/install.yaml with what it renders.
constexpr std::array<std::string_view, 27> kClusterScoped = {"APIService",
                                                             "CSIDriver",
                                                             "CSINode",
                                                             "CertificateSigningRequest",
                                                             "Cluster",
                                                             "ClusterRole",
                                                             "ClusterRoleBinding",
                                                             "ClusterTrustBundle",
                                                             "ComponentStatus",
                                                             "CustomResourceDefinition",
                                                             "FlowSchema",
                                                             "IngressClass",
                                                             "MutatingWebhookConfiguration",
                                                             "Namespace",
                                                             "Node",
                                                             "PersistentVolume",
                                                             "PodSecurityPolicy",
                                                             "PriorityClass",
                                                             "PriorityLevelConfiguration",
                                                             "RuntimeClass",
                                                             "SelfSubjectAccessReview",
                                                             "SelfSubjectRulesReview",
                                                             "StorageClass",
                                                             "SubjectAccessReview",
                                                             "TokenReview",
                                                             "ValidatingWebhookConfiguration",
                                                             "VolumeAttachment"};

// kustomize's legacy sort (SortOrderTransformer): these kinds first, in this order...
constexpr std::array<std::string_view, 22> kOrderFirst = {"Namespace",
                                                          "ResourceQuota",
                                                          "StorageClass",
                                                          "CustomResourceDefinition",
                                                          "ServiceAccount",
                                                          "PodSecurityPolicy",
                                                          "Role",
                                                          "ClusterRole",
                                                          "RoleBinding",
                                                          "ClusterRoleBinding",
                                                          "ConfigMap",
                                                          "Secret",
                                                          "Endpoints",
                                                          "Service",
                                                          "LimitRange",
                                                          "PriorityClass",
                                                          "PersistentVolume",
                                                          "PersistentVolumeClaim",
                                                          "Deployment",
                                                          "StatefulSet",
                                                          "CronJob",
                                                          "PodDisruptionBudget"};
// ... and these last.
constexpr std::array<std::string_view, 2> kOrderLast = {"MutatingWebhookConfiguration",
                                                        "ValidatingWebhookConfiguration"};

int type_order(const std::string& kind) {
  for (std::size_t i = 0; i < kOrderFirst.size(); ++i) {
    if (kOrderFirst[i] == kind) return static_cast<int>(i) - static_cast<int>(kOrderFirst.size());
  }
  for (std::size_t i = 0; i < kOrderLast.size(); ++i) {
    if (kOrderLast[i] == kind) return static_cast<int>(i) + 1;
  }
  return 0;
}

bool is_cluster_scoped(const std::string& kind) {
  return std::find(kClusterScoped.begin(), kClusterScoped.end(), kind) != kClusterScoped.end();
}

Node& add_child(Node& map, std::string key, Node value) {
  map.keys.push_back(std::move(key));
  map.key_locations.push_back({});
  map.children.push_back(std::move(value));
  return map.children.back();
}

bool same_namespace(const std::string& a, const std::string& b) {
  auto norm = [](const std::string& s) { return s.empty() ? std::string("default") : s; };
  return norm(a) == norm(b);
}

// Sets the scalar at `path` (from `at`), through every item of the sequences on the way, as
// kustomize's fsslice does; missing maps are created only when `create`.
void set_at(Node& at, const std::vector<std::string>& path, std::size_t i, const std::string& value, bool create) {
  if (at.is_sequence()) {
    for (Node& item : at.children) set_at(item, path, i, value, create);
    return;
  }
  if (!at.is_mapping()) return;
  Node* next = child(at, path[i]);
  if (i + 1 == path.size()) {
    if (next || create) set_string(at, path[i], value);
    return;
  }
  if (!next) {
    if (!create) return;
    next = &map_child(at, path[i]);
  }
  set_at(*next, path, i + 1, value, create);
}

// kustomize's image.Split: the name, then ":tag" after the last '/', then "@digest".
void split_image(const std::string& image, std::string& name, std::string& tag, std::string& digest) {
  std::string rest = image;
  digest.clear();
  tag.clear();
  if (const std::size_t at = rest.find('@'); at != std::string::npos) {
    digest = rest.substr(at + 1);
    rest.resize(at);
  }
  const std::size_t slash = rest.rfind('/');
  if (const std::size_t colon = rest.rfind(':');
      colon != std::string::npos && (slash == std::string::npos || colon > slash)) {
    tag = rest.substr(colon + 1);
    rest.resize(colon);
  }
  name = rest;
}

// The image transformer's update of one container image (kustomize's imagetag updater).
void update_image(Node& image, const std::vector<ImageEntry>& entries) {
  std::string name, tag, digest;
  split_image(image.text, name, tag, digest);
  for (const ImageEntry& e : entries) {
    if (e.name != name) continue;
    if (!e.new_name.empty()) name = e.new_name;
    if (!e.new_tag.empty() || !e.digest.empty()) {  // a new tag or digest replaces both
      tag = e.new_tag;
      digest = e.digest;
    }
    image = string_node(name + (tag.empty() ? "" : ":" + tag) + (digest.empty() ? "" : "@" + digest));
    return;
  }
}

}  // namespace

const Node* child(const Node& n, std::string_view key) { return n.is_mapping() ? n.find(key) : nullptr; }

Node* child(Node& n, std::string_view key) {
  for (std::size_t i = 0; i < n.keys.size(); ++i) {
    if (n.keys[i] == key) return &n.children[i];
  }
  return nullptr;
}

std::string text_at(const Node& n, std::string_view key) {
  const Node* c = child(n, key);
  return c && c->is_scalar() && !c->is_null() ? c->text : std::string();
}

Node string_node(std::string text) {
  Node n;
  n.plain = false;
  n.text = std::move(text);
  return n;
}

Node& map_child(Node& map, std::string key) {
  if (Node* c = child(map, key); c && c->is_mapping()) return *c;
  Node m;
  m.kind = Node::Kind::Mapping;
  if (Node* c = child(map, key)) return *c = std::move(m);
  return add_child(map, std::move(key), std::move(m));
}

void set_string(Node& map, const std::string& key, const std::string& value) {
  if (Node* c = child(map, key)) *c = string_node(value);
  else add_child(map, key, string_node(value));
}

Gvk gvk_of(const Node& doc) {
  const std::string api_version = text_at(doc, "apiVersion");
  const std::size_t slash = api_version.find('/');
  Gvk g;
  if (slash == std::string::npos) g.version = api_version;
  else g = {api_version.substr(0, slash), api_version.substr(slash + 1), {}};
  g.kind = text_at(doc, "kind");
  return g;
}

std::string meta(const Node& doc, std::string_view key) {
  const Node* m = child(doc, "metadata");
  return m ? text_at(*m, key) : std::string();
}

bool selects(const Gvk& spec, const Gvk& g) {
  return (spec.group.empty() || spec.group == g.group) && (spec.version.empty() || spec.version == g.version) &&
         (spec.kind.empty() || spec.kind == g.kind);
}

bool same_id(const Node& a, const Node& b) {
  const Gvk ga = gvk_of(a), gb = gvk_of(b);
  return ga.group == gb.group && ga.version == gb.version && ga.kind == gb.kind &&
         meta(a, "name") == meta(b, "name") && same_namespace(meta(a, "namespace"), meta(b, "namespace"));
}

void erase_key(Node& map, std::string_view key) {
  for (std::size_t i = 0; i < map.keys.size(); ++i) {
    if (map.keys[i] != key) continue;
    map.keys.erase(map.keys.begin() + static_cast<std::ptrdiff_t>(i));
    map.children.erase(map.children.begin() + static_cast<std::ptrdiff_t>(i));
    if (i < map.key_locations.size())
      map.key_locations.erase(map.key_locations.begin() + static_cast<std::ptrdiff_t>(i));
    return;
  }
}

void sort_legacy(std::vector<Node>& objects) {
  auto gvk_string = [](const Gvk& g) {
    return (g.group.empty() ? "~G" : g.group) + "_" + (g.version.empty() ? "~V" : g.version) + "_" +
           (g.kind.empty() ? "~K" : g.kind);
  };
  auto id_string = [&](const Node& doc) {
    const std::string ns = meta(doc, "namespace"), name = meta(doc, "name");
    return gvk_string(gvk_of(doc)) + "|" + (ns.empty() ? "~X" : ns) + "|" + (name.empty() ? "~N" : name);
  };
  std::stable_sort(objects.begin(), objects.end(), [&](const Node& a, const Node& b) {
    const Gvk ga = gvk_of(a), gb = gvk_of(b);
    if (gvk_string(ga) != gvk_string(gb)) {
      const int oa = type_order(ga.kind), ob = type_order(gb.kind);
      if (oa != ob) return oa < ob;
      return gvk_string(ga) < gvk_string(gb);
    }
    return id_string(a) < id_string(b);
  });
}

std::string set_namespace(Node& object, const std::string& ns, const std::vector<FieldSpec>& extra) {
  const Gvk g = gvk_of(object);
  Node& metadata = map_child(object, "metadata");
  // A namespace or Namespace name that changes would need kustomize's name-reference updates.
  auto refusal = [&](const char* field) {
    const std::string old = text_at(metadata, field);
    if (old.empty() || old == ns) return std::string();
    return g.kind + " '" + meta(object, "name") + "': moving it from '" + old + "' to '" + ns +
           "' needs kustomize's name-reference updates, which rrgen's renderer does not implement";
  };
  if (!is_cluster_scoped(g.kind)) {
    if (std::string why = refusal("namespace"); !why.empty()) return why;
    set_string(metadata, "namespace", ns);
  }
  if (g.kind == "Namespace") {
    if (std::string why = refusal("name"); !why.empty()) return why;
    set_string(metadata, "name", ns);
  }
  if (g.kind == "RoleBinding" || g.kind == "ClusterRoleBinding") {
    if (Node* subjects = child(object, "subjects"); subjects && subjects->is_sequence()) {
      for (Node& s : subjects->children) {
        if (s.is_mapping() && text_at(s, "name") == "default") set_string(s, "namespace", ns);
      }
    }
  }
  static const std::vector<FieldSpec> builtin = {
      {{"apiregistration.k8s.io", "", "APIService"}, {"spec", "service", "namespace"}, true},
      {{"apiextensions.k8s.io", "", "CustomResourceDefinition"},
       {"spec", "conversion", "webhook", "clientConfig", "service", "namespace"},
       false}};
  for (const std::vector<FieldSpec>* list : {&builtin, &extra}) {
    for (const FieldSpec& fs : *list) {
      if (selects(fs.gvk, g)) set_at(object, fs.path, 0, ns, fs.create);
    }
  }
  return "";
}

// Every containers[] and initContainers[] image in the object, wherever they are.
void update_images(Node& n, const std::vector<ImageEntry>& entries) {
  for (std::size_t i = 0; i < n.children.size(); ++i) {
    Node& c = n.children[i];
    if (n.is_mapping() && (n.keys[i] == "containers" || n.keys[i] == "initContainers") && c.is_sequence()) {
      for (Node& container : c.children) {
        if (Node* image = container.is_mapping() ? child(container, "image") : nullptr; image && image->is_scalar())
          update_image(*image, entries);
      }
    }
    update_images(c, entries);
  }
}

}  // namespace rrgen::kustomize
