#include "backends/dies/emit_dies.hpp"

#include <fmt/format.h>

#include <set>
#include <string>
#include <vector>

#include "support/code_writer.hpp"
#include "support/naming.hpp"
#include "model/type_spelling.hpp"

namespace rrgen {
namespace {

// Fully qualified, because the dies live in another namespace than the types.
std::string value_type(const TypeRef& t) { return cpp_value_type(t); }

bool is_arithmetic(const TypeRef& t) {
  return t.kind == TypeKind::Bool || t.kind == TypeKind::Int32 || t.kind == TypeKind::Int64 || t.kind == TypeKind::Double;
}

bool uses_map(const TypeRef& t) { return t.kind == TypeKind::Map || (t.element && uses_map(*t.element)); }

// ---- What one die has --------------------------------------------------------------------------

// A struct-typed spec or status: `spec(F)` plus one prefixed setter per member.
struct Part {
  const FieldDef* field = nullptr;
  std::string method;    // "spec"
  std::string accessor;  // "spec_of_": the member, created when absent
};

// One setter: `<method>(<param> value)` assigns `<target> = value`.
struct Setter {
  std::string method;
  std::string param;
  std::string target;  // expression on `d.object_`
  std::string doc;     // JSON path it sets
  bool arithmetic = false;
};

struct DiePlan {
  std::string class_name;
  std::string type;  // ::ns::Kind
  std::string header;
  std::string gvk;   // "build.example.rrgen.dev/v1, Kind=Function"
  std::vector<Part> parts;
  std::vector<Setter> setters;
  bool uses_map = false;
};

// Names the class itself declares; a member setter that wants one is renamed by NameScope.
// Parameter and local names are included so that no parameter shadows a method.
constexpr const char* kFixedNames[] = {
    "blank", "get", "die_release", "with", "metadata", "name", "namespace_", "uid", "generation",
    "resource_version", "label", "annotation", "finalizers", "owner_references", "controlled_by",
    "creation_timestamp", "deletion_timestamp", "object_type", "object_", "object", "value", "key",
    "change", "d", "o", "ref", "owner", "spec_of_", "status_of_",
};

// "spec" + "image" -> "spec_image"; "spec" + "namespace_" -> "spec_namespace"; "spec" + "_2xx" ->
// "spec_2xx" (never a double underscore, which C++ reserves).
std::string prefixed(const std::string& prefix, const std::string& member) {
  std::size_t begin = member.find_first_not_of('_');
  std::size_t end = member.find_last_not_of('_');
  if (begin == std::string::npos) return prefix;
  return prefix + "_" + member.substr(begin, end - begin + 1);
}

const Unit* find_unit(const Model& model, const ResolvedKind& k) {
  for (const auto& u : model.units) {
    if (u->kind && u->root && u->kind->group == k.group && u->kind->version == k.version && u->kind->kind == k.kind)
      return u.get();
  }
  return nullptr;
}

const FieldDef* member(const StructDef& s, const char* json) {
  for (const auto& f : s.fields)
    if (f.json_name == json) return &f;
  return nullptr;
}

bool is_condition_list(const FieldDef& f) {
  return f.type.kind == TypeKind::Array && f.type.element && !f.type.element->nullable &&
         f.type.element->kind == TypeKind::External && f.type.element->external == "rr::Condition";
}

// The setters of one kind, named in a fixed order so that the first claimant keeps a name:
// the fixed API, spec(F)/status(F), top-level members, the conditions/observed_generation
// shortcuts, then spec_* and status_* members.
DiePlan plan_die(const ResolvedKind& kind, const Unit* unit, NameScope& classes) {
  DiePlan p;
  p.class_name = classes.claim(pascal_case(kind.kind) + "Die");
  p.type = unit ? unit->root->qualified : "::" + kind.cpp_type;
  p.header = kind.header.empty() && unit ? unit->path + ".hpp" : kind.header;
  p.gvk = (kind.group.empty() ? kind.version : kind.group + "/" + kind.version) + ", Kind=" + kind.kind;
  if (!unit) return p;
  NameScope names;
  names.reserve(p.class_name);
  for (const char* n : kFixedNames) names.reserve(n);

  const StructDef& root = *unit->root;
  std::vector<const FieldDef*> top;
  for (const auto& f : root.fields) {
    if (f.presence == Presence::Value) continue;  // apiVersion, kind, metadata
    const bool part = (f.json_name == "spec" || f.json_name == "status") && f.type.kind == TypeKind::Struct;
    if (part) p.parts.push_back({&f, names.claim(f.json_name), f.json_name + "_of_"});
    else top.push_back(&f);
  }
  for (const FieldDef* f : top) {
    p.setters.push_back({names.claim(f->cpp_name), value_type(f->type), "d.object_." + f->cpp_name, f->json_name,
                         is_arithmetic(f->type)});
    p.uses_map = p.uses_map || uses_map(f->type);
  }
  for (const Part& part : p.parts) {
    if (part.field->json_name != "status") continue;
    const StructDef& s = *part.field->type.def;
    const FieldDef* conditions = member(s, "conditions");
    if (conditions && is_condition_list(*conditions) && !names.taken("conditions")) {
      p.setters.push_back({names.claim("conditions"), value_type(conditions->type),
                           part.accessor + "(d.object_)." + conditions->cpp_name, "status.conditions", false});
    }
    const FieldDef* observed = member(s, "observedGeneration");
    if (observed && (observed->type.kind == TypeKind::Int64 || observed->type.kind == TypeKind::Int32) &&
        !names.taken("observed_generation")) {
      p.setters.push_back({names.claim("observed_generation"), value_type(observed->type),
                           part.accessor + "(d.object_)." + observed->cpp_name, "status.observedGeneration", true});
    }
  }
  for (const Part& part : p.parts) {
    for (const auto& f : part.field->type.def->fields) {
      p.setters.push_back({names.claim(prefixed(part.method, f.cpp_name)), value_type(f.type),
                           part.accessor + "(d.object_)." + f.cpp_name, part.field->json_name + "." + f.json_name,
                           is_arithmetic(f.type)});
      p.uses_map = p.uses_map || uses_map(f.type);
    }
  }
  return p;
}

// ---- Text -------------------------------------------------------------------------------------

class DieWriter {
 public:
  DieWriter(CodeWriter& w, const DiePlan& p, const std::string& owner_type) : w_(w), p_(p), owner_(owner_type) {}

  void write() {
    w_.doc(fmt::format("Test factory for {} ({}).", p_.type, p_.gvk));
    w_.line(fmt::format("class {} {{", p_.class_name));
    w_.line(" public:");
    w_.indent();
    w_.line(fmt::format("using object_type = {};", p_.type));
    w_.line();
    object_api();
    metadata_api();
    for (const Part& part : p_.parts) part_changer(part);
    for (const Setter& s : p_.setters) setter(s);
    w_.dedent();
    w_.line(" private:");
    w_.indent();
    for (const Part& part : p_.parts) part_accessor(part);
    w_.line("object_type object_;");
    w_.dedent();
    w_.line("};");
  }

 private:
  void object_api() {
    const std::string& c = p_.class_name;
    w_.line("/// apiVersion and kind set, nothing else (reconciler.io's Blank die).");
    w_.line(c + "() = default;");
    w_.line(fmt::format("explicit {}(object_type object) : object_(std::move(object)) {{}}", c));
    w_.line(fmt::format("[[nodiscard]] static {0} blank() {{ return {0}(); }}", c));
    w_.line();
    w_.line("/// The object built so far.");
    w_.line("[[nodiscard]] const object_type& get() const noexcept { return object_; }");
    w_.line("/// A copy of the object (reconciler.io's DieRelease).");
    w_.line("[[nodiscard]] object_type die_release() const { return object_; }");
    w_.line("/// A die stands in for its object where one is expected (`.resource = die`).");
    w_.line("operator object_type() const { return object_; }  // NOLINT(google-explicit-constructor)");
    w_.line(fmt::format("bool operator==(const {}&) const = default;", c));
    w_.line("bool operator==(const object_type& other) const { return object_ == other; }");
    w_.line();
    changer("Any change to the object (reconciler.io's DieStamp).", "with", "d.object_");
  }

  void metadata_api() {
    changer("Any change to metadata.", "metadata", "d.object_.metadata");
    const struct {
      const char *method, *param, *json;
      bool arithmetic;
    } fields[] = {
        {"name", "std::string", "name", false},
        {"namespace_", "std::string", "namespace", false},
        {"uid", "std::string", "uid", false},
        {"resource_version", "std::string", "resourceVersion", false},
        {"generation", "std::int64_t", "generation", true},
        {"creation_timestamp", "rr::Time", "creationTimestamp", false},
        {"deletion_timestamp", "rr::Time", "deletionTimestamp", false},
        {"finalizers", "std::vector<std::string>", "finalizers", false},
        {"owner_references", "std::vector<rr::OwnerReference>", "ownerReferences", false},
    };
    for (const auto& f : fields)
      setter({f.method, f.param, std::string("d.object_.metadata.") + f.method, std::string("metadata.") + f.json, f.arithmetic});
    for (auto [method, map] : {std::pair{"label", "labels"}, {"annotation", "annotations"}}) {
      w_.line(fmt::format("/// Adds or replaces metadata.{}[key].", map));
      body_open(fmt::format("{}(std::string key, std::string value)", method));
      w_.line(fmt::format("d.object_.metadata.{}.insert_or_assign(std::move(key), std::move(value));", map));
      body_close();
    }
    w_.line("/// The owner references become one controller reference to `owner`, as a child reconciler sets it.");
    // Without a reconciled resource to name (the runtime's shared dies), any kind can own.
    const std::string owner = owner_.empty() ? "Owner" : owner_;
    if (owner_.empty()) {
      // A die stands for its object as the owner too (the typed form gets that by conversion).
      w_.line("template <class Owner>");
      w_.line(fmt::format("[[nodiscard]] {} controlled_by(const Owner& owner) const", p_.class_name));
      w_.line("  requires requires { owner.die_release(); }");
      w_.line("{");
      w_.line("  return controlled_by(owner.get());");
      w_.line("}");
      w_.line("template <class Owner>");
    }
    body_open(fmt::format("controlled_by(const {}& owner)", owner));
    w_.line("rr::OwnerReference ref;");
    w_.line(fmt::format("ref.api_version = std::string(rr::ResourceTraits<{}>::api_version);", owner));
    w_.line(fmt::format("ref.kind = std::string(rr::ResourceTraits<{}>::kind);", owner));
    w_.line("ref.name = owner.metadata.name;");
    w_.line("ref.uid = owner.metadata.uid;");
    w_.line("ref.controller = true;");
    w_.line("ref.block_owner_deletion = true;");
    w_.line("d.object_.metadata.owner_references = {std::move(ref)};");
    body_close();
  }

  void part_changer(const Part& part) {
    changer(fmt::format("Any change to {} (created when absent).", part.field->json_name), part.method,
            part.accessor + "(d.object_)");
  }

  void part_accessor(const Part& part) {
    const FieldDef& f = *part.field;
    w_.line(fmt::format("static {}& {}(object_type& o) {{", value_type(f.type), part.accessor));
    w_.indent();
    if (f.presence == Presence::Optional) w_.line(fmt::format("if (!o.{0}) o.{0}.emplace();", f.cpp_name));
    if (f.presence == Presence::Nullable) w_.line(fmt::format("if (!o.{0}.has_value()) o.{0}.emplace();", f.cpp_name));
    w_.line((f.presence == Presence::Required ? "return o." : "return *o.") + f.cpp_name + ";");
    w_.dedent();
    w_.line("}");
  }

  void setter(const Setter& s) {
    w_.doc("Sets " + s.doc + ".");  // doc(): a JSON name may hold a newline or a trailing backslash
    body_open(fmt::format("{}({} value)", s.method, s.param));
    w_.line(s.target + (s.arithmetic ? " = value;" : " = std::move(value);"));
    body_close();
  }

  void changer(const std::string& doc, const std::string& method, const std::string& target) {
    w_.line("/// " + doc);
    w_.line("template <class F>");
    body_open(fmt::format("{}(F&& change)", method));
    w_.line(fmt::format("std::forward<F>(change)({});", target));
    body_close();
  }

  void body_open(const std::string& signature) {
    w_.line(fmt::format("[[nodiscard]] {} {} const {{", p_.class_name, signature));
    w_.indent();
    w_.line(fmt::format("{} d = *this;", p_.class_name));
  }
  void body_close() {
    w_.line("return d;");
    w_.dedent();
    w_.line("}");
    w_.line();
  }

  CodeWriter& w_;
  const DiePlan& p_;
  const std::string& owner_;
};

void condition_helper(CodeWriter& w) {
  w.line("/// A condition as tables write one. lastTransitionTime is the epoch: the cluster rejects a");
  w.line("/// condition without one, and the harness ignores it when comparing.");
  w.line("[[nodiscard]] inline rr::Condition condition(std::string type, std::string status, std::string reason = {},");
  w.line("                                             std::string message = {}) {");
  w.indent();
  w.line("rr::Condition c;");
  w.line("c.type = std::move(type);");
  w.line("c.status = std::move(status);");
  w.line("c.last_transition_time = rr::Time::from(std::chrono::system_clock::time_point{});");
  w.line("c.reason = std::move(reason);");
  w.line("c.message = std::move(message);");
  w.line("return c;");
  w.dedent();
  w.line("}");
}

std::set<std::string> die_std_headers(const DiePlan& p) {
  std::set<std::string> h{"<chrono>", "<cstdint>", "<string>", "<utility>", "<vector>"};
  if (p.uses_map) h.insert("<map>");
  return h;
}

// "k8s::apps::v1" -> "apps::v1": a unit's namespace below its root.
std::string ns_below_root(const std::string& ns) {
  const std::size_t sep = ns.find("::");
  return sep == std::string::npos ? std::string() : ns.substr(sep + 2);
}

}  // namespace

std::string kind_die_header(const Unit& unit, const KindDiesOptions& options) {
  return options.include_prefix + "/" + unit.path + ".hpp";
}

std::string kind_die_class(const Unit& unit, const KindDiesOptions& options) {
  const std::string below = ns_below_root(unit.ns);
  return "::" + options.cpp_namespace + (below.empty() ? "" : "::" + below) + "::" + pascal_case(unit.kind->kind) + "Die";
}

OutputSet emit_kind_dies(const Model& kinds, const KindDiesOptions& options) {
  OutputSet out;
  for (const auto& u : kinds.units) {
    if (!u->kind || !u->root) continue;
    NameScope classes(true);
    ResolvedKind kind;  // what plan_die reads of a kind that has its unit
    kind.group = u->kind->group;
    kind.version = u->kind->version;
    kind.kind = u->kind->kind;
    const DiePlan p = plan_die(kind, u.get(), classes);
    const std::string below = ns_below_root(u->ns);
    const std::string ns = options.cpp_namespace + (below.empty() ? "" : "::" + below);
    CodeWriter w;
    w.line("// Code generated by rrgen " + options.generator_version + ". DO NOT EDIT.");
    w.line("// Test factory (\"die\", after reconciler.io/dies) for " + p.type + ": an immutable fluent");
    w.line("// builder whose every method returns a changed copy. See docs/test-factories.md.");
    w.line("#pragma once");
    w.line();
    for (const auto& h : die_std_headers(p)) w.line("#include " + h);
    w.line();
    for (const auto& h : std::set<std::string>{"\"rr/core/meta.hpp\"", "\"rr/core/resource_traits.hpp\"",
                                               "\"rr/core/time.hpp\"", "\"" + p.header + "\""})
      w.line("#include " + h);
    w.line();
    w.line("namespace " + ns + " {");
    w.line();
    DieWriter(w, p, "").write();
    w.line();
    w.line("}  // namespace " + ns);
    out.files.push_back({kind_die_header(*u, options), w.take()});
  }
  // <prefix>.hpp includes every die: one fixed output for build systems, and a convenience.
  CodeWriter all;
  all.line("// Code generated by rrgen " + options.generator_version + ". DO NOT EDIT.");
  all.line("// Every die of " + options.cpp_namespace + "; include a kind's own header to compile less.");
  all.line("#pragma once");
  all.line();
  for (const auto& f : out.files) all.line("#include \"" + f.path + "\"");
  out.files.push_back({options.include_prefix + ".hpp", all.take()});
  return out;
}

OutputSet emit_dies(const ResolvedSpec& spec, const Model& crds, const Model& builtin, const GenerateOptions& options) {
  NameScope classes(true);
  classes.reserve("condition");
  std::vector<DiePlan> plans;
  for (const ResolvedKind& k : spec.kinds) plans.push_back(plan_die(k, find_unit(k.builtin ? builtin : crds, k), classes));
  const Unit* owner_unit = find_unit(spec.resource.builtin ? builtin : crds, spec.resource);
  const std::string owner = owner_unit ? owner_unit->root->qualified : "::" + spec.resource.cpp_type;

  std::set<std::string> headers{"\"rr/core/meta.hpp\"", "\"rr/core/resource_traits.hpp\"", "\"rr/core/time.hpp\""};
  std::set<std::string> std_headers{"<chrono>", "<cstdint>", "<string>", "<utility>", "<vector>"};
  headers.insert("\"" + (spec.resource.header.empty() && owner_unit ? owner_unit->path + ".hpp" : spec.resource.header) + "\"");
  for (std::size_t i = 0; i < plans.size(); ++i) {
    const Unit* unit = spec.kinds[i].builtin ? find_unit(builtin, spec.kinds[i]) : nullptr;
    if (unit) {
      headers.insert("\"" + kind_die_header(*unit, runtime_dies()) + "\"");
      continue;
    }
    headers.insert("\"" + plans[i].header + "\"");
    if (plans[i].uses_map) std_headers.insert("<map>");
  }

  CodeWriter w;
  w.line("// Code generated by rrgen " + options.generator_version + ". DO NOT EDIT.");
  w.line("// Test factories (\"dies\", after reconciler.io/dies) for the kinds the " +
         (spec.name.empty() ? spec.file_stem : spec.name) + " reconciler touches: immutable");
  w.line("// fluent builders whose every method returns a changed copy. See docs/test-factories.md.");
  w.line("#pragma once");
  w.line();
  for (const auto& h : std_headers) w.line("#include " + h);
  w.line();
  for (const auto& h : headers) w.line("#include " + h);
  w.line();
  w.line("namespace " + spec.cpp_namespace + "::dies {");
  w.line();
  condition_helper(w);
  for (std::size_t i = 0; i < plans.size(); ++i) {
    w.line();
    // A built-in kind's die is the runtime's (rr::testing, generated once), under the name this
    // spec gives it.
    if (const Unit* unit = spec.kinds[i].builtin ? find_unit(builtin, spec.kinds[i]) : nullptr) {
      w.line(fmt::format("using {} = {};", plans[i].class_name, kind_die_class(*unit, runtime_dies())));
      continue;
    }
    DieWriter(w, plans[i], owner).write();
  }
  w.line();
  w.line("}  // namespace " + spec.cpp_namespace + "::dies");

  OutputSet out;
  out.files.push_back({spec.file_stem + "_dies.hpp", w.take()});
  return out;
}

}  // namespace rrgen
