#include "sema/builtin_kinds.hpp"

#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "support/embedded.hpp"
#include "load/inputs.hpp"
#include "sema/sema.hpp"
#include "load/yaml_load.hpp"

namespace rrgen {
namespace {

// The schemas rr::builtin is generated from (runtime/builtin/CMakeLists.txt), in the same order:
// the runtime's own apimachinery shapes first (they win over the API's definitions of the same
// names), then every file derived from the Kubernetes API (schemas/kubernetes-1.35/, by path).
constexpr std::string_view kRuntimeShapes = "schemas/meta-v1.yaml";
const std::string kApiFacts = "schemas/kubernetes-" + std::string(kBuiltinApiRelease) + "/";

std::vector<std::string_view> builtin_schema_paths() {
  std::vector<std::string_view> out = {kRuntimeShapes};
  for (const EmbeddedFile& f : embedded_files())  // sorted by path
    if (f.path.rfind(kApiFacts, 0) == 0 && f.path.size() > 5 && f.path.substr(f.path.size() - 5) == ".yaml")
      out.push_back(f.path);
  return out;
}

// The model owns what it needs, so the sources and inputs go once it is built.
struct BuiltinWorld {
  Model model;
  std::vector<ResolvedKind> kinds;

  BuiltinWorld() {
    Diagnostics diags;
    SourceSet sources;
    InputSet inputs;
    for (std::string_view path : builtin_schema_paths()) {
      const std::string_view text = embedded_file(path);
      if (text.empty()) throw std::logic_error("built-in schema " + std::string(path) + " is not embedded");
      const std::string* name = sources.add(std::string(path), std::string(text));
      for (const Node& doc : load_yaml(name, sources.content(name), diags)) {
        bool recognised = false;
        read_document(doc, inputs, diags, recognised);
      }
    }
    if (!diags.has_errors()) model = build_model(inputs, SemaOptions{"k8s"}, diags);
    // The same schemas build rr::builtin, so an error here is a bug in rrgen's own build.
    if (diags.has_errors()) throw std::logic_error("the built-in schemas do not build: " + format(diags.all().front()));
    for (const auto& unit : model.units) {
      if (unit->kind && !unit->kind->plural.empty()) kinds.push_back(resolved_kind_of(*unit, true));
    }
  }
};

const BuiltinWorld& world() {
  static const BuiltinWorld instance;
  return instance;
}

// Kubernetes' version order: v2 > v1 > v1beta2 > v1beta1 > v1alpha1 (a larger tuple is preferred).
std::tuple<int, int, int> version_priority(std::string_view v) {
  auto number = [](std::string_view s, std::size_t& i) {
    int n = 0;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') n = n * 10 + (s[i++] - '0');
    return n;
  };
  std::size_t i = 1;  // past the 'v'
  const int major = number(v, i);
  if (i == v.size()) return {2, major, 0};
  const int stability = v.substr(i).rfind("beta", 0) == 0 ? 1 : 0;
  i += stability == 1 ? 4 : 5;  // "beta" or "alpha"
  return {stability, major, number(v, i)};
}

}  // namespace

bool builtin_preferred(const ResolvedKind& kind) {
  for (const ResolvedKind& other : builtin_kinds()) {
    if (other.kind != kind.kind || (other.group == kind.group && other.version == kind.version)) continue;
    if (other.group.empty() && !kind.group.empty()) return false;  // the core group's wins
    if (other.group == kind.group && version_priority(other.version) > version_priority(kind.version)) return false;
  }
  return true;
}

const Model& builtin_model() { return world().model; }

const std::vector<ResolvedKind>& builtin_kinds() { return world().kinds; }

ResolvedKind resolved_kind_of(const Unit& unit, bool builtin) {
  ResolvedKind k;
  if (unit.kind) {
    k.group = unit.kind->group;
    k.version = unit.kind->version;
    k.kind = unit.kind->kind;
    k.plural = unit.kind->plural;
    k.namespaced = unit.kind->namespaced;
    k.has_status = unit.kind->has_status;
  }
  k.builtin = builtin;
  // What a merge hook copies by default: the members besides type, metadata and status.
  if (unit.root) {
    for (const FieldDef& f : unit.root->fields) {
      if (f.json_name != "apiVersion" && f.json_name != "kind" && f.json_name != "metadata" && f.json_name != "status")
        k.content_fields.push_back(f.cpp_name);
    }
  }
  k.cpp_type = unit.ns + "::" + (unit.root ? unit.root->name : k.kind);
  k.header = unit.path + ".hpp";
  return k;
}

}  // namespace rrgen
