#include "load/openapi_facts.hpp"

#include <algorithm>
#include <iterator>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "load/yaml_copy.hpp"
#include "support/ascii.hpp"
#include "support/yaml_writer.hpp"

namespace rrgen {
namespace {

// What a schema keeps, what it drops and what it is made of. A keyword on none of these lists is
// an error, so that nothing new is copied, or lost, unnoticed: add it to one of them.
constexpr std::string_view kProse[] = {"description", "title", "example", "externalDocs"};
constexpr std::string_view kFacts[] = {
    "type",    "format",           "required",         "enum",        "default",       "nullable",
    "$ref",    "readOnly",         "writeOnly",        "deprecated",  "discriminator", "minimum",
    "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf",  "minLength",     "maxLength",
    "pattern", "minItems",         "maxItems",         "uniqueItems", "minProperties", "maxProperties"};
constexpr std::string_view kSchemaLists[] = {"allOf", "anyOf", "oneOf"};
constexpr std::string_view kMethods[] = {"get", "put", "post", "delete", "options", "head", "patch", "trace"};
// Of an operation: what read_paths (load/inputs.cpp) derives plural, scope and subresources from,
// and the action, from which the verbs of each resource follow.
constexpr std::string_view kOperationFacts[] = {"x-kubernetes-action", "x-kubernetes-group-version-kind"};

template <std::size_t N>
bool among(const std::string_view (&list)[N], std::string_view s) {
  return std::find(std::begin(list), std::end(list), s) != std::end(list);
}

// Kept whole, whatever they hold: Kubernetes' extensions and rrgen's own.
bool is_extension(std::string_view key) { return key.starts_with("x-kubernetes-") || key.starts_with("x-rrgen-"); }

struct GroupVersion {
  std::string group, version;
  // The output file: "core-v1" for the core group (""), else "<group>-<version>".
  std::string stem() const { return (group.empty() ? "core" : group) + "-" + version; }
  std::string label() const { return (group.empty() ? "core" : group) + "/" + version; }
};

// "/api/v1/..." -> {"", v1}; "/apis/apps/v1/..." -> {apps, v1}; nothing for any other path.
std::optional<GroupVersion> path_group_version(std::string_view path) {
  auto segment = [&path]() {
    path.remove_prefix(std::min<std::size_t>(1, path.size()));  // the '/' before it
    const std::string_view s = path.substr(0, path.find('/'));
    path.remove_prefix(s.size());
    return std::string(s);
  };
  const std::string root = segment();
  GroupVersion gv;
  if (root == "apis") gv.group = segment();
  else if (root != "api") return std::nullopt;
  gv.version = segment();
  if (gv.version.empty() || (root == "apis" && gv.group.empty())) return std::nullopt;
  return gv;
}

// "io.k8s.api.apps.v1.Deployment" -> "io.k8s.api.apps.v1"
std::string package_of(const std::string& definition) {
  const std::size_t dot = definition.rfind('.');
  return dot == std::string::npos ? std::string() : definition.substr(0, dot);
}

std::string basename(const std::string* file) {
  if (!file) return "(input)";
  const std::size_t slash = file->find_last_of('/');
  return slash == std::string::npos ? *file : file->substr(slash + 1);
}

// Where two renderings first differ: the keys above the first differing line and that line in
// each ("at properties.replicas, 'format: int64' here, 'format: int32' there").
std::string first_difference(std::string_view first, std::string_view here) {
  auto lines = [](std::string_view text) {
    std::vector<std::string_view> out;
    for (std::size_t end; !text.empty(); text.remove_prefix(std::min(end + 1, text.size())))
      out.push_back(text.substr(0, end = text.find('\n')));
    return out;
  };
  auto indent = [](std::string_view line) { return std::min(line.find_first_not_of(' '), line.size()); };
  auto shown = [&](const std::vector<std::string_view>& text, std::size_t i) {
    return i < text.size() ? "'" + std::string(text[i].substr(indent(text[i]))) + "'" : std::string("nothing");
  };
  const std::vector<std::string_view> a = lines(first), b = lines(here);
  std::size_t i = 0;
  while (i < a.size() && i < b.size() && a[i] == b[i]) ++i;
  // The lines above, shared by both, that open a block less indented than the last one taken.
  std::string where;
  std::size_t depth = i < b.size() ? indent(b[i]) : i < a.size() ? indent(a[i]) : 0;
  for (std::size_t k = i; k-- > 0 && depth > 0;) {
    if (indent(b[k]) >= depth || !b[k].ends_with(':')) continue;
    depth = indent(b[k]);
    const std::string_view key = b[k].substr(depth, b[k].size() - depth - 1);
    where = std::string(key) + (where.empty() ? "" : "." + where);
  }
  return (where.empty() ? "" : "at " + where + ", ") + shown(b, i) + " here, " + shown(a, i) + " there";
}

// A definition or a path: written once, as its first occurrence says; the others must agree.
struct Entry {
  std::string name;
  Location at;  // the first occurrence's key
  Yaml facts = Yaml::map();
  std::string text;                 // facts.text(): what the other occurrences must render to
  std::string stem;                 // a path's output file (a definition's is its owner())
  std::vector<std::size_t> inputs;  // the documents it occurs in
};

struct Entries {
  std::vector<Entry> list;  // by first occurrence
  std::map<std::string, std::size_t> index;
};

// The proto message of a definition: "io.k8s.api.apps.v1.Deployment" is
// "k8s.io.api.apps.v1.Deployment", "io.k8s.apiextensions-apiserver.pkg..." is
// "k8s.io.apiextensions_apiserver.pkg..." (a Go package path's '-' is '_' in a proto package).
std::string proto_message_name(const std::string& definition) {
  if (!definition.starts_with("io.k8s.")) return {};
  std::string out = "k8s.io." + definition.substr(7);
  std::replace(out.begin(), out.end(), '-', '_');
  return out;
}

// The proto field of a JSON property: the same name, but for the ones no proto identifier can
// spell (JSONSchemaProps' "$ref", "x-kubernetes-list-type"): go-to-protobuf names the field after
// the Go member (Ref, XListType), lowerCamel; so drop '$' and camel-case at each '-'.
std::string proto_field_name(std::string_view property) {
  std::string out;
  bool upper = false;
  for (const char c : property) {
    if (c == '$') continue;
    if (c == '-') upper = true;
    else out += upper ? ascii::upper(c) : c, upper = false;
  }
  return out;
}

// A message of no definition that only wraps a list, `repeated T items = 1`: go-to-protobuf's
// message for a named Go slice type (authentication's ExtraValue, meta/v1's Verbs), which JSON
// writes as the list itself.
const ProtoField* list_wrapper(const std::map<std::string, ProtoMessage>& protos, const std::set<std::string>& defined,
                               const std::string& type) {
  const auto it = protos.find(type);
  if (defined.count(type)) return nullptr;
  if (it == protos.end() || it->second.fields.size() != 1) return nullptr;
  const ProtoField& f = it->second.fields.front();
  return f.name == "items" && f.number == 1 && f.repeated ? &f : nullptr;
}

// x-rrgen-protobuf: the field's number and type (a scalar's name, or the full name of a message:
// a name with a dot), `repeated: true` for a repeated field, a map's key type, the item type of a
// list_wrapper message (`items`), `empty: true` for a message without fields, and, for a member of an embedded Go
// struct, the numbers of the fields that hold it (`embedded`, outermost first).
Yaml protobuf_facts(const std::vector<const ProtoField*>& path, const std::map<std::string, ProtoMessage>& protos,
                    const std::set<std::string>& defined) {
  const ProtoField& f = *path.back();
  Yaml out = Yaml::map();
  out.set("number", Yaml::integer(f.number));
  out.set("type", f.type);
  if (f.repeated) out.set("repeated", Yaml::boolean(true));
  if (f.is_map()) out.set("map_key", f.map_key);
  if (const ProtoField* items = list_wrapper(protos, defined, f.type)) out.set("items", items->type);
  if (const auto m = protos.find(f.type); m != protos.end() && m->second.fields.empty())
    out.set("empty", Yaml::boolean(true));
  if (path.size() > 1) {
    Yaml embedded = Yaml::seq();
    for (std::size_t i = 0; i + 1 < path.size(); ++i) embedded.push(Yaml::integer(path[i]->number));
    out.set("embedded", std::move(embedded));
  }
  return out;
}

class Converter {
 public:
  Converter(Diagnostics& diags, const std::map<std::string, ProtoMessage>* protos) : diags_(diags), protos_(protos) {}

  // The proto message names of every definition of `doc` (before any read()).
  void note_definitions(const Node& doc) {
    const Node* components = doc.find("components");
    const Node* schemas = components ? components->find("schemas") : nullptr;
    for (std::size_t i = 0; schemas && schemas->is_mapping() && i < schemas->keys.size(); ++i)
      defined_messages_.insert(proto_message_name(schemas->keys[i]));
  }

  void read(const Node& doc, std::size_t input) {
    const Node* openapi = doc.find("openapi");
    const Node* components = doc.find("components");
    const Node* schemas = components ? components->find("schemas") : nullptr;
    if (!openapi || !openapi->is_scalar() || !openapi->text.starts_with("3.") || !schemas || !schemas->is_mapping()) {
      diags_.error(doc.location, "openapi-facts-not-openapi",
                   "not an OpenAPI v3 document (needs 'openapi: 3.x' and components.schemas)");
      return;
    }
    ++documents_;
    // The document's group-version is that of its paths: each must be under the first one's.
    std::optional<GroupVersion> served;
    const Node* paths = doc.find("paths");
    for (std::size_t i = 0; paths && i < paths->keys.size(); ++i) {
      const std::string& path = paths->keys[i];
      const std::optional<GroupVersion> gv = path_group_version(path);
      if (!gv || (served && gv->stem() != served->stem())) {
        diags_.error(paths->key_locations[i], "openapi-facts-path",
                     "path '" + path + "' is not under " +
                         (served ? "group-version " + served->label() + " like the paths before it"
                                 : std::string("/api/VERSION or /apis/GROUP/VERSION")));
        continue;
      }
      served = gv;
      served_.try_emplace(gv->stem(), gv->label());
      if (Yaml facts = path_item(paths->children[i]); !facts.empty())
        add(paths_, "path", path, paths->key_locations[i], std::move(facts), input, gv->stem());
    }
    for (std::size_t i = 0; i < schemas->keys.size(); ++i) {
      const std::string& name = schemas->keys[i];
      const bool first = !definitions_.index.count(name);
      if (first) note_kinds(name, schemas->children[i]);
      const ProtoMessage* message = message_of(name, schemas->children[i], first);
      Yaml facts = schema(schemas->children[i], message, first);
      add(definitions_, "definition", name, schemas->key_locations[i], std::move(facts), input, {});
    }
  }

  OpenApiFacts finish(const std::vector<const Node*>& documents) {
    struct File {
      Yaml paths = Yaml::map(), schemas = Yaml::map();
      std::set<std::size_t> inputs;
    };
    std::map<std::string, File> files;
    OpenApiFacts out;
    out.documents = documents_;
    out.definitions = definitions_.list.size();
    for (Entry& p : paths_.list) {
      File& f = files[p.stem];
      f.paths.set(p.name, std::move(p.facts));
      f.inputs.insert(p.inputs.begin(), p.inputs.end());
    }
    for (Entry& d : definitions_.list) {
      File& f = files[owner(d.name)];
      f.schemas.set(d.name, std::move(d.facts));
      f.inputs.insert(d.inputs.begin(), d.inputs.end());
      out.repeated += d.inputs.size() - 1;
    }
    for (auto& [stem, f] : files) {
      const auto gv = served_.find(stem);
      const std::string label = gv != served_.end() ? gv->second : stem;
      const std::string what = gv != served_.end() ? "group-version " + label : "definitions of no group-version given";
      Yaml doc = Yaml::map();
      doc.set("openapi", "3.0.0");
      // Only title and version are required; "unversioned" is what the API server writes.
      doc.set("info", Yaml::map().set("title", "Kubernetes " + label + " API facts").set("version", "unversioned"));
      doc.set("paths", std::move(f.paths));
      doc.set("components", Yaml::map().set("schemas", std::move(f.schemas)));
      out.files.files.push_back({stem + ".yaml", manifest_file({doc}, header(what, f.inputs, documents))});
    }
    return out;
  }

 private:
  // `message`: the definition's proto message, whose fields annotate its properties (reported, when
  // `report`, where they do not match).
  Yaml schema(const Node& n, const ProtoMessage* message = nullptr, bool report = false) {
    Yaml out = Yaml::map();
    if (!n.is_mapping()) {
      diags_.error(n.location, "openapi-facts-bad-schema", "a schema must be a mapping, found " + describe(n));
      return out;
    }
    for (std::size_t i = 0; i < n.keys.size(); ++i) {
      const std::string& key = n.keys[i];
      const Node& v = n.children[i];
      if (among(kProse, key)) continue;
      if (key == "properties") {
        Yaml properties = Yaml::map();
        if (!v.is_mapping())
          diags_.error(v.location, "openapi-facts-bad-schema", "'properties' must be a mapping, found " + describe(v));
        std::set<const ProtoField*> matched;
        for (std::size_t p = 0; v.is_mapping() && p < v.keys.size(); ++p) {
          Yaml property = schema(v.children[p]);
          const std::vector<const ProtoField*> path = message ? field_path(*message, v.keys[p], v.keys, 0)
                                                              : std::vector<const ProtoField*>{};
          if (!path.empty()) {
            Yaml facts = protobuf_facts(path, *protos_, defined_messages_);
            // Facts written by hand (schemas/meta-v1.yaml) are checked, not added twice.
            if (const Node* given = v.children[p].find("x-rrgen-protobuf")) {
              if (const std::string want = facts.text(); yaml_copy(*given).text() != want)
                diags_.error(given->location, "openapi-facts-protobuf",
                             "x-rrgen-protobuf of property '" + v.keys[p] + "' is not its field in proto message '" +
                                 message->full_name + "', which is:\n" + want);
            } else {
              property.set("x-rrgen-protobuf", std::move(facts));
            }
            matched.insert(path.begin(), path.end());
          } else if (message && report && v.keys[p] != "apiVersion" && v.keys[p] != "kind") {
            // (apiVersion and kind are Go's TypeMeta, which protobuf carries in the envelope.)
            diags_.warning(v.key_locations[p], "openapi-facts-protobuf",
                           "property '" + v.keys[p] + "' has no field in proto message '" + message->full_name + "'");
          }
          properties.set(v.keys[p], std::move(property));
        }
        for (std::size_t f = 0; message && report && f < message->fields.size(); ++f)
          if (!matched.count(&message->fields[f]))
            diags_.warning(v.location, "openapi-facts-protobuf",
                           "field '" + message->fields[f].name + "' of proto message '" + message->full_name +
                               "' has no property here");
        out.set(key, std::move(properties));
      } else if (key == "items" || key == "not" || (key == "additionalProperties" && !v.is_scalar())) {
        out.set(key, schema(v));
      } else if (among(kSchemaLists, key)) {
        Yaml list = Yaml::seq();
        if (!v.is_sequence())
          diags_.error(v.location, "openapi-facts-bad-schema", "'" + key + "' must be a list, found " + describe(v));
        for (const Node& c : v.children) list.push(schema(c));
        out.set(key, std::move(list));
      } else if (among(kFacts, key) || is_extension(key) || key == "additionalProperties") {
        out.set(key, yaml_copy(v));
      } else {
        diags_.error(n.key_locations[i], "openapi-facts-unknown-keyword",
                     "schema keyword '" + key +
                         "' is neither a fact the converter keeps nor prose it drops (load/openapi_facts.cpp)");
      }
    }
    return out;
  }

  // The proto message of a definition with properties; none, reported when `report`, if the
  // protos hold no such message.
  const ProtoMessage* message_of(const std::string& definition, const Node& schema, bool report) {
    if (!protos_ || !schema.find("properties") || !definition.starts_with("io.k8s.")) return nullptr;
    const auto it = protos_->find(proto_message_name(definition));
    if (it != protos_->end()) return &it->second;
    if (report)
      diags_.warning(schema.location, "openapi-facts-protobuf",
                     "definition '" + definition + "' has no proto message '" + proto_message_name(definition) + "'");
    return nullptr;
  }

  // The fields that hold `property` of a definition whose properties are `names`: its own field
  // in `m`, found by name, or one inside a Go struct that `m`'s Go type embeds (its fields are the
  // definition's properties in JSON, a message field of their own in protobuf: Volume's
  // volumeSource), outermost first. Empty when there is none.
  std::vector<const ProtoField*> field_path(const ProtoMessage& m, const std::string& property,
                                            const std::vector<std::string>& names, int depth) const {
    for (const ProtoField& f : m.fields)
      if (same_name(f.name, property)) return {&f};
    for (const ProtoField& f : m.fields) {
      const auto inner = protos_->find(f.type);
      if (depth > 4 || f.repeated || f.is_map() || inner == protos_->end() ||
          std::any_of(names.begin(), names.end(), [&](const std::string& n) { return same_name(f.name, n); }))
        continue;
      std::vector<const ProtoField*> path = field_path(inner->second, property, names, depth + 1);
      if (path.empty()) continue;
      path.insert(path.begin(), &f);
      return path;
    }
    return {};
  }

  // A field named as the property, as proto_field_name spells it, or so but for case:
  // go-to-protobuf names a field after its Go member where the JSON name differs only in case
  // (BoundObjectReference's "uid" is field "uID", Variable's "expression" is "Expression").
  static bool same_name(const std::string& field, const std::string& property) {
    if (field == property) return true;
    const std::string spelt = proto_field_name(property);
    return spelt.size() == field.size() && std::equal(spelt.begin(), spelt.end(), field.begin(), [](char a, char b) {
             return ascii::lower(a) == ascii::lower(b);
           });
  }

  // Each operation's facts (kOperationFacts); an operation without any, and a path without such
  // an operation, are left out, as are the parameters and everything else.
  static Yaml path_item(const Node& item) {
    Yaml out = Yaml::map();
    for (std::size_t i = 0; item.is_mapping() && i < item.keys.size(); ++i) {
      const Node& op = item.children[i];
      if (!among(kMethods, item.keys[i]) || !op.is_mapping()) continue;
      Yaml facts = Yaml::map();
      for (std::size_t k = 0; k < op.keys.size(); ++k)
        if (among(kOperationFacts, op.keys[k])) facts.set(op.keys[k], yaml_copy(op.children[k]));
      if (!facts.empty()) out.set(item.keys[i], std::move(facts));
    }
    return out;
  }

  void add(Entries& entries, std::string_view what, const std::string& name, Location at, Yaml facts, std::size_t input,
           std::string stem) {
    const auto [it, first] = entries.index.try_emplace(name, entries.list.size());
    if (first) {
      std::string text = facts.text();
      entries.list.push_back({name, at, std::move(facts), std::move(text), std::move(stem), {input}});
      return;
    }
    Entry& e = entries.list[it->second];
    if (std::find(e.inputs.begin(), e.inputs.end(), input) == e.inputs.end()) e.inputs.push_back(input);
    if (const std::string text = facts.text(); text != e.text) {
      diags_.error(
          at, "openapi-facts-conflict",
          std::string(what) + " '" + name + "' differs from its first occurrence: " + first_difference(e.text, text));
      diags_.note(e.at, "first occurrence of '" + name + "'");
    }
  }

  // A definition belongs to the group-version its package's kinds name ("io.k8s.api.apps.v1" ->
  // apps/v1), when they all name one and no kind names several: apimachinery's meta/v1 has kinds
  // that every group serves (WatchEvent, DeleteOptions), and intstr or resource have none.
  void note_kinds(const std::string& name, const Node& schema) {
    const Node* gvks = schema.find("x-kubernetes-group-version-kind");
    if (!gvks || !gvks->is_sequence() || gvks->children.empty()) return;
    const std::string package = package_of(name);
    const Node* group = gvks->children.front().find("group");
    const Node* version = gvks->children.front().find("version");
    if (gvks->children.size() > 1 || !group || !version) {
      shared_packages_.insert(package);
      return;
    }
    package_stems_[package].insert(GroupVersion{group->text, version->text}.stem());
  }

  // The file of a definition: its group-version's, when an input serves it; else the shared one.
  std::string owner(const std::string& definition) const {
    const std::string package = package_of(definition);
    const auto stems = package_stems_.find(package);
    if (shared_packages_.count(package) || stems == package_stems_.end() || stems->second.size() != 1 ||
        !served_.count(*stems->second.begin()))
      return kFactsSharedStem;
    return *stems->second.begin();
  }

  static std::string header(const std::string& what, const std::set<std::size_t>& inputs,
                            const std::vector<const Node*>& documents) {
    std::string text = "Kubernetes API facts, " + what +
                       ":\nthe names, types, formats, bounds, defaults, structure and x-kubernetes-* extensions of\n"
                       "the OpenAPI v3 documents below, without descriptions or other prose. Written by\n"
                       "`rrgen openapi-facts` (docs/kubernetes-api-facts.md): re-run it rather than edit. From:";
    std::string line;
    std::set<std::string> named;
    for (std::size_t i : inputs) {
      const std::string name = basename(documents[i]->location.file);
      if (!named.insert(name).second) continue;  // the same file given twice
      if (!line.empty() && line.size() + name.size() > 96) text += "\n" + std::exchange(line, {});
      line += "  " + name;
    }
    return text + "\n" + line;
  }

  Diagnostics& diags_;
  const std::map<std::string, ProtoMessage>* protos_;
  std::set<std::string> defined_messages_;  // proto_message_name of every definition
  std::size_t documents_ = 0;
  Entries definitions_, paths_;
  std::map<std::string, std::string> served_;                   // stem -> label ("core/v1"), of each document's paths
  std::map<std::string, std::set<std::string>> package_stems_;  // package -> the stems its kinds name
  std::set<std::string> shared_packages_;                       // packages with a kind of several group-versions
};

}  // namespace

OpenApiFacts openapi_facts(const std::vector<const Node*>& documents, Diagnostics& diags,
                           const std::map<std::string, ProtoMessage>* protos) {
  // Read in the byte order of the file names, not in the order given: a shell's glob sorts by
  // locale, and the output (which definition comes first, the inputs each header names) must not
  // depend on it.
  std::vector<const Node*> sorted = documents;
  std::stable_sort(sorted.begin(), sorted.end(), [](const Node* a, const Node* b) {
    return std::pair(basename(a->location.file), a->location.file ? *a->location.file : std::string()) <
           std::pair(basename(b->location.file), b->location.file ? *b->location.file : std::string());
  });
  Converter converter(diags, protos);
  for (const Node* doc : sorted) converter.note_definitions(*doc);
  for (std::size_t i = 0; i < sorted.size(); ++i) converter.read(*sorted[i], i);
  return converter.finish(sorted);
}

}  // namespace rrgen
