#include "load/inputs.hpp"

#include <algorithm>
#include <cctype>
#include <optional>
#include <set>

#include "load/schema_reader.hpp"

namespace rrgen {
namespace {

const Node* child(const Node& n, std::string_view key) { return n.is_mapping() ? n.find(key) : nullptr; }

std::string scalar(const Node* n) { return n && n->is_scalar() && !n->is_null() ? n->text : std::string(); }

bool flag(const Node* n, bool fallback) {
  if (!n || !n->is_scalar() || resolve_scalar(*n) != ScalarType::Bool) return fallback;
  return to_json_text(*n) == "true";
}

std::vector<std::string> strings(const Node* n) {
  std::vector<std::string> out;
  if (n && n->is_sequence())
    for (const auto& c : n->children)
      if (c.is_scalar()) out.push_back(c.text);
  return out;
}

void read_crd(const Node& doc, InputSet& out, Diagnostics& diags) {
  Crd crd;
  crd.location = doc.location;
  const Node* spec = child(doc, "spec");
  if (!spec || !spec->is_mapping()) {
    diags.error(doc.location, "crd-missing-field", "CustomResourceDefinition has no 'spec'");
    return;
  }
  crd.group = scalar(child(*spec, "group"));
  const Node* names = child(*spec, "names");
  if (names) {
    crd.kind = scalar(child(*names, "kind"));
    crd.plural = scalar(child(*names, "plural"));
    crd.singular = scalar(child(*names, "singular"));
    crd.list_kind = scalar(child(*names, "listKind"));
    crd.short_names = strings(child(*names, "shortNames"));
    crd.categories = strings(child(*names, "categories"));
  }
  if (crd.group.empty()) {
    // The API server rejects this, but the types are still well defined (controller-tools'
    // testdata has such CRDs); generate them under the namespace "core".
    diags.warning(spec->key_location("group"), "crd-empty-group", "CRD spec.group is empty; the API server would reject this CRD");
  }
  if (crd.kind.empty()) diags.error(names ? names->location : spec->location, "crd-missing-field", "CRD spec.names has no 'kind'");
  if (crd.plural.empty()) diags.error(names ? names->location : spec->location, "crd-missing-field", "CRD spec.names has no 'plural'");
  if (crd.singular.empty()) {
    crd.singular = crd.kind;
    for (auto& c : crd.singular) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  if (crd.list_kind.empty()) crd.list_kind = crd.kind + "List";
  const std::string scope = scalar(child(*spec, "scope"));
  if (scope == "Cluster") crd.namespaced = false;
  else if (scope != "Namespaced") {
    const Node* s = child(*spec, "scope");
    diags.error(s ? s->location : spec->location, "crd-bad-scope", "CRD scope must be 'Namespaced' or 'Cluster', found '" + scope + "'");
  }

  const Node* versions = child(*spec, "versions");
  if (!versions || !versions->is_sequence() || versions->children.empty()) {
    if (child(*spec, "validation") || child(*spec, "version")) {
      diags.error(spec->location, "crd-unsupported-version",
                  "this looks like an apiextensions.k8s.io/v1beta1 CRD; convert it to apiextensions.k8s.io/v1");
    } else {
      diags.error(spec->location, "crd-missing-field", "CRD spec has no 'versions'");
    }
    return;
  }
  // A v1 CRD may still carry a top-level schema shared by all versions only in v1beta1; reject it.
  std::set<std::string> seen;
  int storage = 0;
  for (const auto& v : versions->children) {
    CrdVersion ver;
    ver.location = v.location;
    ver.name = scalar(child(v, "name"));
    ver.served = flag(child(v, "served"), true);
    ver.storage = flag(child(v, "storage"), false);
    ver.deprecated = flag(child(v, "deprecated"), false);
    if (ver.name.empty()) {
      diags.error(v.location, "crd-missing-field", "CRD version has no 'name'");
      continue;
    }
    if (!seen.insert(ver.name).second) {
      diags.error(child(v, "name")->location, "crd-duplicate-version", "version '" + ver.name + "' is listed twice");
      continue;
    }
    if (ver.storage) ++storage;
    if (const Node* sub = child(v, "subresources")) {
      ver.status_subresource = child(*sub, "status") != nullptr;
      ver.scale_subresource = child(*sub, "scale") != nullptr;
    }
    const Node* schema = child(v, "schema");
    const Node* root = schema ? child(*schema, "openAPIV3Schema") : nullptr;
    if (!root) {
      diags.error(v.location, "crd-missing-schema", "version '" + ver.name + "' has no schema.openAPIV3Schema");
      continue;
    }
    ver.schema = read_schema(*root, SchemaDialect::Crd, diags);
    if (ver.schema && ver.schema->type != "object") {
      diags.error(root->location, "schema-root-not-object", "the root schema of version '" + ver.name + "' must have type: object");
    }
    crd.versions.push_back(std::move(ver));
  }
  if (storage != 1 && diags.error_count() == 0) {
    diags.error(versions->location, "crd-storage-version",
                "exactly one version must have storage: true (found " + std::to_string(storage) + ")");
  }
  for (const auto& other : out.crds) {
    if (other.group == crd.group && other.kind == crd.kind) {
      diags.error(doc.location, "crd-duplicate-kind", "kind " + crd.kind + "." + crd.group + " is defined twice");
      diags.note(other.location, "first defined here");
      return;
    }
  }
  out.crds.push_back(std::move(crd));
}

// Kubernetes' OpenAPI documents name no plural or scope in the schemas; the operations under
// `paths` do: /api/v1/namespaces/{namespace}/pods/{name}/status carries Pod's GVK. The scale
// subresource's operations carry autoscaling/v1 Scale's GVK instead, so /scale is matched to its
// kind through the collection path it hangs off.
// Discovery's verb for an operation's x-kubernetes-action ("connect" has none: it is a
// subresource's).
std::optional<std::string> verb_of(const std::string& action, bool watch_path) {
  if (watch_path || action == "watch" || action == "watchlist") return "watch";
  if (action == "post") return "create";
  if (action == "put") return "update";
  if (action == "get" || action == "list" || action == "patch" || action == "delete" || action == "deletecollection")
    return action;
  return std::nullopt;
}

void read_paths(const Node& doc, OpenApiDocument& d) {
  const Node* paths = child(doc, "paths");
  if (!paths || !paths->is_mapping()) return;
  std::map<std::string, std::string> by_gvk;  // "group/version/kind" -> definition name
  for (const auto& def : d.definitions)
    if (!def.kind.empty()) by_gvk[def.group + "/" + def.version + "/" + def.kind] = def.name;
  std::map<std::string, std::string> collection_owner;  // "/apis/apps/v1/namespaces/{namespace}/deployments" -> definition
  std::vector<std::string> scaled_collections;
  for (std::size_t i = 0; i < paths->keys.size(); ++i) {
    const Node& item = paths->children[i];
    if (!item.is_mapping()) continue;
    std::vector<std::string> seg;
    const std::string& path = paths->keys[i];
    for (std::size_t a = 1, b; a <= path.size(); a = b + 1) {
      b = path.find('/', a);
      if (b == std::string::npos) b = path.size();
      seg.push_back(path.substr(a, b - a));
    }
    // The deprecated /watch/ paths say the resource can be watched.
    const auto watch_seg = std::find(seg.begin(), seg.end(), "watch");
    const bool watch_path = watch_seg != seg.end();
    if (watch_path) seg.erase(watch_seg);
    // .../<plural>, .../<plural>/{name}, .../<plural>/{name}/<subresource>
    std::size_t p = seg.size();
    std::string sub;
    if (p >= 3 && seg[p - 2] == "{name}") sub = seg[p - 1], p -= 2;
    else if (p >= 2 && seg[p - 1] == "{name}") p -= 1;
    if (p == 0 || seg[p - 1].find('{') != std::string::npos) continue;
    std::string collection;
    for (std::size_t j = 0; j < p; ++j) collection += "/" + seg[j];
    for (std::size_t m = 0; m < item.keys.size(); ++m) {
      const Node* gvk = child(item.children[m], "x-kubernetes-group-version-kind");
      if (!gvk) continue;
      auto it = by_gvk.find(scalar(child(*gvk, "group")) + "/" + scalar(child(*gvk, "version")) + "/" + scalar(child(*gvk, "kind")));
      if (it == by_gvk.end()) {
        if (sub == "scale") scaled_collections.push_back(collection);
        continue;
      }
      OpenApiKindPaths& k = d.kinds[it->second];
      if (sub.empty()) {
        if (auto verb = verb_of(scalar(child(item.children[m], "x-kubernetes-action")), watch_path))
          k.verbs.insert(*verb);
        if (watch_path) continue;
        if (k.plural.empty()) k.plural = seg[p - 1];
        if (p >= 3 && seg[p - 3] == "namespaces" && seg[p - 2] == "{namespace}") k.namespaced = true;
        collection_owner.try_emplace(collection, it->second);
      } else if (sub == "status") {
        k.has_status = true;
      } else if (sub == "scale") {
        k.has_scale = true;
      }
    }
  }
  for (const auto& collection : scaled_collections)
    if (auto owner = collection_owner.find(collection); owner != collection_owner.end()) d.kinds[owner->second].has_scale = true;
}

void read_openapi(const Node& doc, InputSet& out, Diagnostics& diags) {
  OpenApiDocument d;
  d.location = doc.location;
  const Node* components = child(doc, "components");
  const Node* schemas = components ? child(*components, "schemas") : nullptr;
  if (!schemas || !schemas->is_mapping()) {
    diags.error(doc.location, "openapi-no-schemas", "OpenAPI document has no components.schemas");
    return;
  }
  for (std::size_t i = 0; i < schemas->keys.size(); ++i) {
    OpenApiDefinition def;
    def.name = schemas->keys[i];
    const Node& sn = schemas->children[i];
    def.schema = read_schema(sn, SchemaDialect::OpenApi, diags);
    if (!def.schema) continue;
    if (const Node* gvk = child(sn, "x-kubernetes-group-version-kind"); gvk && gvk->is_sequence() && !gvk->children.empty()) {
      const Node& g = gvk->children.front();
      def.group = scalar(child(g, "group"));
      def.version = scalar(child(g, "version"));
      def.kind = scalar(child(g, "kind"));
      for (const Node& e : gvk->children)
        def.gvks.push_back({scalar(child(e, "group")), scalar(child(e, "version")), scalar(child(e, "kind"))});
    }
    d.definitions.push_back(std::move(def));
  }
  read_paths(doc, d);
  out.documents.push_back(std::move(d));
}

}  // namespace

void read_document(const Node& doc, InputSet& out, Diagnostics& diags, bool& recognised) {
  if (!doc.is_mapping()) return;  // empty documents and stray scalars between '---'
  if (child(doc, "openapi") && child(doc, "components")) {
    recognised = true;
    read_openapi(doc, out, diags);
    return;
  }
  const std::string kind = scalar(child(doc, "kind"));
  const std::string api = scalar(child(doc, "apiVersion"));
  if (kind == "CustomResourceDefinition") {
    recognised = true;
    if (api == "apiextensions.k8s.io/v1beta1") {
      diags.error(doc.location, "crd-unsupported-version",
                  "apiextensions.k8s.io/v1beta1 CRDs are not supported (removed in Kubernetes 1.22); convert to apiextensions.k8s.io/v1");
      return;
    }
    read_crd(doc, out, diags);
  } else if (kind == "List" || kind == "CustomResourceDefinitionList") {
    if (const Node* items = child(doc, "items"); items && items->is_sequence())
      for (const auto& item : items->children) read_document(item, out, diags, recognised);
  }
}

namespace {

void read_source(const SourceSet& sources, const std::string* name, InputSet& out, Diagnostics& diags) {
  if (!name) return;
  std::vector<Node> docs = load_yaml(name, sources.content(name), diags);
  bool recognised = false;
  for (const auto& doc : docs) read_document(doc, out, diags, recognised);
  if (!recognised && !diags.has_errors()) {
    diags.error({name, 0, 0}, "input-no-definitions", "no CustomResourceDefinition or OpenAPI document found");
  }
}

}  // namespace

InputSet read_inputs(SourceSet& sources, const std::vector<std::string>& files, Diagnostics& diags) {
  InputSet out;
  for (const auto& path : files) read_source(sources, sources.read(path, diags), out, diags);
  return out;
}

InputSet read_sources(const SourceSet& sources, const std::vector<const std::string*>& files, Diagnostics& diags) {
  InputSet out;
  for (const std::string* name : files) read_source(sources, name, out, diags);
  return out;
}

}  // namespace rrgen
