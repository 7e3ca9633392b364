#include "sema/builtin_kinds.hpp"

#include <stdexcept>
#include <string>

#include "support/embedded.hpp"
#include "load/inputs.hpp"
#include "sema/sema.hpp"
#include "load/yaml_load.hpp"

namespace rrgen {
namespace {

// The schemas rr::builtin is generated from (runtime/builtin/CMakeLists.txt), in the same order.
constexpr std::string_view kBuiltinSchemas[] = {
    "schemas/meta-v1.yaml",
    "schemas/core-v1.yaml",
    "schemas/apps-v1.yaml",
    "schemas/coordination-v1.yaml",
};

// The model owns what it needs, so the sources and inputs go once it is built.
struct BuiltinWorld {
  Model model;
  std::vector<ResolvedKind> kinds;

  BuiltinWorld() {
    Diagnostics diags;
    SourceSet sources;
    InputSet inputs;
    for (std::string_view path : kBuiltinSchemas) {
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

}  // namespace

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
