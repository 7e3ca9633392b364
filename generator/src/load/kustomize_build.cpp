#include <algorithm>
#include <array>
#include <string_view>
#include <utility>
#include <vector>

#include "load/kustomize.hpp"
#include "load/kustomize_merge.hpp"
#include "load/kustomize_objects.hpp"
#include "load/yaml_copy.hpp"
#include "load/yaml_load.hpp"
#include "support/yaml_writer.hpp"

namespace rrgen {

namespace {
// Apart from the other files of rrgen_load's unity sources.
namespace build_detail {

// Declarations, not a using-directive: the unity sources' other anonymous helpers must not win.
using kustomize::child;
using kustomize::erase_key;
using kustomize::FieldSpec;
using kustomize::Gvk;
using kustomize::gvk_of;
using kustomize::ImageEntry;
using kustomize::meta;
using kustomize::same_id;
using kustomize::selects;
using kustomize::text_at;
using kustomize::update_images;

// "config/default" + "../crd" -> "config/crd"; "" when it leaves the tree or is absolute.
std::string join_path(const std::string& dir, const std::string& relative) {
  if (relative.empty() || relative.front() == '/' || relative.find("://") != std::string::npos) return "";
  std::vector<std::string> parts;
  for (const std::string& whole : {dir, relative}) {
    std::size_t start = 0;
    while (start <= whole.size()) {
      const std::size_t end = std::min(whole.find('/', start), whole.size());
      const std::string part = whole.substr(start, end - start);
      if (part == "..") {
        if (parts.empty()) return "";
        parts.pop_back();
      } else if (!part.empty() && part != ".") {
        parts.push_back(part);
      }
      start = end + 1;
    }
  }
  std::string out;
  for (const std::string& p : parts) out += (out.empty() ? "" : "/") + p;
  return out;
}

class Builder {
 public:
  Builder(const KustomizeFiles& files, Diagnostics& diags) : files_(files), diags_(diags) {}

  // The objects of the kustomization in `dir` and the namespace fieldSpecs its configurations
  // (and its resources') add to kustomize's.
  bool build(const std::string& dir, Location from, std::vector<Node>& objects, std::vector<FieldSpec>& specs) {
    const std::string path = dir + "/kustomization.yaml";
    if (std::find(stack_.begin(), stack_.end(), dir) != stack_.end())
      return error(from, "kustomize-cycle", "kustomization '" + dir + "' includes itself");
    std::vector<Node> docs;
    if (!load(path, from, docs)) return false;
    if (docs.size() != 1 || !docs[0].is_mapping())
      return error(located(docs, path), "kustomize-bad", "a kustomization must be one mapping");
    const Node& k = docs[0];
    for (std::size_t i = 0; i < k.keys.size(); ++i) {
      static constexpr std::array<std::string_view, 7> known = {
          "apiVersion", "kind", "resources", "namespace", "patches", "configurations", "images"};
      if (std::find(known.begin(), known.end(), k.keys[i]) == known.end())
        return error(k.key_locations[i], "kustomize-unsupported",
                     "'" + k.keys[i] + "' is a kustomize feature rrgen's install.yaml renderer does not implement");
    }
    if (const std::string kind = text_at(k, "kind"); !kind.empty() && kind != "Kustomization")
      return error(k.location, "kustomize-unsupported", "kind '" + kind + "' (only Kustomization)");
    stack_.push_back(dir);
    const bool ok = build_from(k, dir, objects, specs);
    stack_.pop_back();
    return ok;
  }

  // What the patches left: still objects with a kind and a name, still one of each.
  bool check(const std::vector<Node>& objects) {
    for (std::size_t i = 0; i < objects.size(); ++i) {
      if (text_at(objects[i], "kind").empty() || meta(objects[i], "name").empty())
        return error(objects[i].location, "kustomize-bad", "a patch left an object without a kind or a metadata.name");
      for (std::size_t j = 0; j < i; ++j) {
        if (same_id(objects[i], objects[j]))
          return error(objects[i].location, "kustomize-bad",
                       "two objects " + gvk_of(objects[i]).kind + " '" + meta(objects[i], "name") + "'");
      }
    }
    return true;
  }

 private:
  bool build_from(const Node& k, const std::string& dir, std::vector<Node>& objects, std::vector<FieldSpec>& specs) {
    if (const Node* list = child(k, "configurations")) {
      if (!each_string(*list, "configurations", [&](const Node& entry) { return configuration(dir, entry, specs); }))
        return false;
    }
    if (const Node* list = child(k, "resources")) {
      if (!each_string(*list, "resources", [&](const Node& entry) { return resource(dir, entry, objects, specs); }))
        return false;
    }
    if (!check(objects)) return false;
    // kustomize's transformer order: patches, namespace, images.
    if (const Node* list = child(k, "patches")) {
      if (!list->is_sequence()) return error(list->location, "kustomize-bad", "'patches' must be a sequence");
      for (const Node& entry : list->children) {
        if (!patch(dir, entry, objects)) return false;
      }
    }
    if (const Node* ns = child(k, "namespace")) {
      if (!ns->is_scalar() || ns->text.empty())
        return error(ns->location, "kustomize-bad", "'namespace' must be a namespace name");
      for (Node& object : objects) {
        if (!set_namespace(object, ns->text, specs, ns->location)) return false;
      }
    }
    if (const Node* list = child(k, "images")) {
      std::vector<ImageEntry> entries;
      if (!images(*list, entries)) return false;
      for (Node& object : objects) update_images(object, entries);
    }
    return true;
  }

  template <typename Fn>
  bool each_string(const Node& list, const char* what, Fn&& fn) {
    if (!list.is_sequence())
      return error(list.location, "kustomize-bad", std::string("'") + what + "' must be a sequence");
    for (const Node& entry : list.children) {
      if (!entry.is_scalar() || entry.is_null())
        return error(entry.location, "kustomize-bad", std::string("an entry of '") + what + "' must be a path");
      if (!fn(entry)) return false;
    }
    return true;
  }

  bool resource(const std::string& dir, const Node& entry, std::vector<Node>& objects, std::vector<FieldSpec>& specs) {
    const std::string path = join_path(dir, entry.text);
    if (path.empty())
      return error(entry.location, "kustomize-unsupported",
                   "resource '" + entry.text + "' is not a path inside the tree");
    if (files_(path + "/kustomization.yaml")) return build(path, entry.location, objects, specs);
    std::vector<Node> docs;
    if (!load(path, entry.location, docs)) return false;
    for (Node& doc : docs) {
      if (doc.is_scalar() && doc.is_null()) continue;
      if (!doc.is_mapping() || text_at(doc, "kind").empty() || meta(doc, "name").empty())
        return error(doc.location, "kustomize-bad", "a resource must be an object with a kind and metadata.name");
      if (text_at(doc, "kind").ends_with("List"))
        return error(doc.location, "kustomize-unsupported", "a List of objects (write the objects themselves)");
      objects.push_back(std::move(doc));
    }
    return true;
  }

  bool configuration(const std::string& dir, const Node& entry, std::vector<FieldSpec>& specs) {
    const std::string path = join_path(dir, entry.text);
    std::vector<Node> docs;
    if (path.empty() || !load(path, entry.location, docs)) {
      return path.empty() ? error(entry.location, "kustomize-unsupported",
                                  "configuration '" + entry.text + "' is outside the tree")
                          : false;
    }
    if (docs.size() != 1 || !docs[0].is_mapping())
      return error(located(docs, path), "kustomize-bad", "a configurations file must be one mapping");
    const Node& c = docs[0];
    for (std::size_t i = 0; i < c.keys.size(); ++i) {
      const Node& value = c.children[i];
      if (!value.is_sequence()) return error(value.location, "kustomize-bad", "'" + c.keys[i] + "' must be a sequence");
      if (c.keys[i] == "nameReference") continue;  // names never change here: nothing to update
      if (c.keys[i] != "namespace")
        return error(c.key_locations[i], "kustomize-unsupported",
                     "'" + c.keys[i] + "' configurations are not implemented by rrgen's install.yaml renderer");
      for (const Node& spec : value.children) {
        FieldSpec fs;
        if (!field_spec(spec, fs)) return false;
        specs.push_back(std::move(fs));
      }
    }
    return true;
  }

  bool field_spec(const Node& n, FieldSpec& fs) {
    if (!n.is_mapping()) return error(n.location, "kustomize-bad", "a fieldSpec must be a mapping");
    for (std::size_t i = 0; i < n.keys.size(); ++i) {
      const std::string& key = n.keys[i];
      if (key != "group" && key != "version" && key != "kind" && key != "path" && key != "create")
        return error(n.key_locations[i], "kustomize-unsupported", "fieldSpec key '" + key + "'");
    }
    fs.gvk = {text_at(n, "group"), text_at(n, "version"), text_at(n, "kind")};
    fs.create = text_at(n, "create") == "true";
    const std::string path = text_at(n, "path");
    if (path.empty() || path.find_first_of("\\=") != std::string::npos)
      return error(n.location, "kustomize-unsupported", "fieldSpec path '" + path + "'");
    std::size_t start = 0;
    while (start <= path.size()) {
      const std::size_t end = std::min(path.find('/', start), path.size());
      std::string part = path.substr(start, end - start);
      if (part.ends_with("[]")) part.resize(part.size() - 2);
      if (part.empty() || part.find_first_of("[]") != std::string::npos)
        return error(n.location, "kustomize-unsupported", "fieldSpec path '" + path + "'");
      fs.path.push_back(std::move(part));
      start = end + 1;
    }
    return true;
  }

  // kustomize's patch target: group, version, kind, namespace and name (a regular expression, of
  // which only '.' is taken as one; other operators are refused).
  struct Selector {
    Gvk gvk;
    std::string name, ns;
    bool matches(const Node& object) const {
      const std::string n = meta(object, "name"), o = meta(object, "namespace");
      const bool name_ok = name.empty() ||
                           (n.size() == name.size() && std::equal(name.begin(), name.end(), n.begin(),
                                                                  [](char p, char c) { return p == '.' || p == c; }));
      return selects(gvk, gvk_of(object)) && name_ok && (ns.empty() || ns == o);
    }
  };

  bool selector(const Node& target, Selector& sel) {
    if (!target.is_mapping()) return error(target.location, "kustomize-bad", "a patch target must be a mapping");
    for (std::size_t i = 0; i < target.keys.size(); ++i) {
      static constexpr std::array<std::string_view, 5> known = {"group", "version", "kind", "name", "namespace"};
      if (std::find(known.begin(), known.end(), target.keys[i]) == known.end())
        return error(target.key_locations[i], "kustomize-unsupported", "patch target key '" + target.keys[i] + "'");
    }
    sel = {{text_at(target, "group"), text_at(target, "version"), text_at(target, "kind")},
           text_at(target, "name"),
           text_at(target, "namespace")};
    if (sel.name.find_first_of("*+?[](){}|^$\\") != std::string::npos)
      return error(target.location, "kustomize-unsupported", "a patch target name with regular expression operators");
    return true;
  }

  bool patch(const std::string& dir, const Node& entry, std::vector<Node>& objects) {
    const Node* where = entry.is_mapping() ? entry.find("path") : nullptr;
    const Node* target = entry.is_mapping() ? entry.find("target") : nullptr;
    if (!where || !where->is_scalar() || entry.keys.size() != (target ? 2u : 1u))
      return error(entry.location, "kustomize-unsupported",
                   "a patch other than '- path: <file>' and an optional target (inline patch, options)");
    Selector sel;
    if (target && !selector(*target, sel)) return false;
    const std::string path = join_path(dir, where->text);
    if (path.empty())
      return error(where->location, "kustomize-unsupported", "patch '" + where->text + "' is outside the tree");
    std::vector<Node> docs;
    if (!load(path, where->location, docs)) return false;
    std::string why;
    if (docs.size() == 1 && docs[0].is_sequence()) {  // JSON 6902: every object the target selects
      if (!target) return error(docs[0].location, "kustomize-bad", "a JSON 6902 patch needs a target");
      for (Node& object : objects) {
        if (sel.matches(object) && !json6902_patch(object, docs[0], why))
          return error(docs[0].location, "kustomize-bad", why);
      }
      return true;
    }
    for (const Node& p : docs) {
      if (!p.is_mapping())
        return error(p.location, "kustomize-bad", "a patch must be a strategic merge patch or a JSON 6902 list");
      if (target) {  // the patch's own name, namespace and kind give way to each selected object's
        Node anonymous = p;
        for (const char* key : {"apiVersion", "kind"}) erase_key(anonymous, key);
        if (Node* m = child(anonymous, "metadata"); m && m->is_mapping()) {
          erase_key(*m, "name");
          erase_key(*m, "namespace");
        }
        for (Node& object : objects) {
          if (sel.matches(object) && !strategic_merge(object, anonymous, gvk_of(object).kind, why))
            return error(p.location, "kustomize-unsupported", why);
        }
        continue;
      }
      Node* only = nullptr;
      for (Node& object : objects) {
        if (!same_id(object, p)) continue;
        if (only) return error(p.location, "kustomize-bad", "the patch matches more than one object");
        only = &object;
      }
      if (!only)
        return error(p.location, "kustomize-bad",
                     "no object " + gvk_of(p).kind + " '" + meta(p, "name") + "' for this patch");
      if (!strategic_merge(*only, p, gvk_of(p).kind, why)) return error(p.location, "kustomize-unsupported", why);
    }
    return true;
  }

  bool set_namespace(Node& object, const std::string& ns, const std::vector<FieldSpec>& extra, Location at) {
    const std::string refusal = kustomize::set_namespace(object, ns, extra);
    return refusal.empty() || error(at, "kustomize-unsupported", refusal);
  }

  bool images(const Node& list, std::vector<ImageEntry>& entries) {
    if (!list.is_sequence()) return error(list.location, "kustomize-bad", "'images' must be a sequence");
    for (const Node& e : list.children) {
      if (!e.is_mapping()) return error(e.location, "kustomize-bad", "an image entry must be a mapping");
      for (std::size_t i = 0; i < e.keys.size(); ++i) {
        const std::string& key = e.keys[i];
        if (key != "name" && key != "newName" && key != "newTag" && key != "digest")
          return error(e.key_locations[i], "kustomize-unsupported", "image entry key '" + key + "'");
      }
      ImageEntry entry{text_at(e, "name"), text_at(e, "newName"), text_at(e, "newTag"), text_at(e, "digest")};
      if (entry.name.empty()) return error(e.location, "kustomize-bad", "an image entry needs a name");
      entries.push_back(std::move(entry));
    }
    return true;
  }

  bool load(const std::string& path, Location from, std::vector<Node>& docs) {
    const std::string* text = files_(path);
    if (!text) return error(from, "kustomize-missing", "no file '" + path + "'");
    const std::string* name = sources_.add(path, *text);
    const std::size_t errors = diags_.error_count();
    docs = load_yaml(name, sources_.content(name), diags_);
    return diags_.error_count() == errors;
  }

  static Location located(const std::vector<Node>& docs, const std::string& path) {
    return docs.empty() ? Location{intern_file_name(path), 0, 0} : docs[0].location;
  }

  bool error(Location at, const char* check, std::string message) {
    diags_.error(at, check, std::move(message));
    return false;
  }

  const KustomizeFiles& files_;
  Diagnostics& diags_;
  SourceSet sources_;
  std::vector<std::string> stack_;
};

}  // namespace build_detail
}  // namespace

std::optional<std::string> kustomize_build(const KustomizeFiles& files, const std::string& dir, Diagnostics& diags) {
  using build_detail::Builder;
  using build_detail::FieldSpec;
  Builder builder(files, diags);
  std::vector<Node> objects;
  std::vector<FieldSpec> specs;
  if (!builder.build(dir, Location{intern_file_name(dir), 0, 0}, objects, specs) || !builder.check(objects))
    return std::nullopt;
  kustomize::sort_legacy(objects);
  std::string out;
  for (const Node& object : objects) out += (out.empty() ? "" : "---\n") + yaml_copy(object, KeyOrder::Sorted).text();
  return out;
}

}  // namespace rrgen
