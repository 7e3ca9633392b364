#include "backends/dies/emit_dies.hpp"

#include <set>
#include <string>
#include <vector>

#include "support/naming.hpp"
#include "model/type_spelling.hpp"
#include "support/printer.hpp"

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

constexpr std::string_view kDieClass = R"gen($doc$
class $die$ {
 public:
  using object_type = $type$;

  /// apiVersion and kind set, nothing else (reconciler.io's Blank die).
  $die$() = default;
  explicit $die$(object_type object) : object_(std::move(object)) {}
  [[nodiscard]] static $die$ blank() { return $die$(); }

  /// The object built so far.
  [[nodiscard]] const object_type& get() const noexcept { return object_; }
  /// A copy of the object (reconciler.io's DieRelease).
  [[nodiscard]] object_type die_release() const { return object_; }
  /// A die stands in for its object where one is expected (`.resource = die`).
  operator object_type() const { return object_; }  // NOLINT(google-explicit-constructor)
  bool operator==(const $die$&) const = default;
  bool operator==(const object_type& other) const { return object_ == other; }

  $methods$

 private:
  $accessors$
  object_type object_;
};)gen";

// Every method returns a changed copy: `d`.
constexpr std::string_view kChanger = R"gen(/// $doc$
template <class F>
[[nodiscard]] $die$ $method$(F&& change) const {
  $die$ d = *this;
  std::forward<F>(change)($target$);
  return d;
})gen";

constexpr std::string_view kSetter = R"gen($doc$
[[nodiscard]] $die$ $method$($param$ value) const {
  $die$ d = *this;
  $target$ = $value$;
  return d;
})gen";

constexpr std::string_view kMapEntrySetter = R"gen(/// Adds or replaces metadata.$map$[key].
[[nodiscard]] $die$ $method$(std::string key, std::string value) const {
  $die$ d = *this;
  d.object_.metadata.$map$.insert_or_assign(std::move(key), std::move(value));
  return d;
})gen";

constexpr std::string_view kControlledBy =
    R"gen(/// The owner references become one controller reference to `owner`, as a child reconciler sets it.
$any_owner$
[[nodiscard]] $die$ controlled_by(const $owner$& owner) const {
  $die$ d = *this;
  rr::OwnerReference ref;
  ref.api_version = std::string(rr::ResourceTraits<$owner$>::api_version);
  ref.kind = std::string(rr::ResourceTraits<$owner$>::kind);
  ref.name = owner.metadata.name;
  ref.uid = owner.metadata.uid;
  ref.controller = true;
  ref.block_owner_deletion = true;
  d.object_.metadata.owner_references = {std::move(ref)};
  return d;
})gen";
// Without a reconciled resource to name (the runtime's shared dies), any kind can own; a die
// stands for its object as the owner too (the typed form gets that by conversion).
constexpr std::string_view kAnyOwner = R"gen(template <class Owner>
[[nodiscard]] $die$ controlled_by(const Owner& owner) const
  requires requires { owner.die_release(); }
{
  return controlled_by(owner.get());
}
template <class Owner>)gen";

// spec or status, created when absent.
constexpr std::string_view kPartAccessor = R"gen(static $type$& $accessor$(object_type& o) {
  $create$
  return $member$;
})gen";

class DieWriter {
 public:
  DieWriter(const DiePlan& p, const std::string& owner_type) : p_(p), owner_(owner_type) {}

  void write(Printer& out) {
    Printer doc("dies"), accessors("dies");
    doc.doc("Test factory for " + p_.type + " (" + p_.gvk + ").");
    changer("Any change to the object (reconciler.io's DieStamp).", "with", "d.object_");
    metadata_api();
    for (const Part& part : p_.parts) {
      changer("Any change to " + part.field->json_name + " (created when absent).", part.method, part.accessor + "(d.object_)");
    }
    for (const Setter& s : p_.setters) setter(s);
    for (const Part& part : p_.parts) part_accessor(accessors, part);
    out.print(kDieClass, {{"doc", doc.take_block()},
                          {"die", p_.class_name},
                          {"type", p_.type},
                          {"methods", methods_.take_block()},
                          {"accessors", accessors.take_block()}});
  }

 private:
  // Methods are separated by a blank line.
  Printer& method() {
    if (!methods_.text().empty()) methods_.line();
    return methods_;
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
    for (auto [name, map] : {std::pair{"label", "labels"}, {"annotation", "annotations"}})
      method().print(kMapEntrySetter, {{"die", p_.class_name}, {"method", name}, {"map", map}});
    method().print(kControlledBy, {{"die", p_.class_name},
                                   {"owner", owner_.empty() ? "Owner" : owner_},
                                   {"any_owner", owner_.empty() ? methods_.fill(kAnyOwner, {{"die", p_.class_name}}) : ""}});
  }

  void part_accessor(Printer& out, const Part& part) {
    const FieldDef& f = *part.field;
    const TemplateVars member = {{"m", f.cpp_name}};
    std::string create;
    if (f.presence == Presence::Optional) create = out.fill("if (!o.$m$) o.$m$.emplace();", member);
    if (f.presence == Presence::Nullable) create = out.fill("if (!o.$m$.has_value()) o.$m$.emplace();", member);
    out.print(kPartAccessor, {{"type", value_type(f.type)},
                              {"accessor", part.accessor},
                              {"create", create},
                              {"member", (f.presence == Presence::Required ? "o." : "*o.") + f.cpp_name}});
  }

  void setter(const Setter& s) {
    Printer doc("dies");
    doc.doc("Sets " + s.doc + ".");  // doc(): a JSON name may hold a newline or a trailing backslash
    method().print(kSetter, {{"doc", doc.take_block()},
                             {"die", p_.class_name},
                             {"method", s.method},
                             {"param", s.param},
                             {"target", s.target},
                             {"value", s.arithmetic ? "value" : "std::move(value)"}});
  }

  void changer(const std::string& doc, const std::string& name, const std::string& target) {
    method().print(kChanger, {{"doc", doc}, {"die", p_.class_name}, {"method", name}, {"target", target}});
  }

  const DiePlan& p_;
  const std::string& owner_;
  Printer methods_{"dies"};
};

std::set<std::string> die_std_headers(const DiePlan& p) {
  std::set<std::string> h{"<chrono>", "<cstdint>", "<string>", "<utility>", "<vector>"};
  if (p.uses_map) h.insert("<map>");
  return h;
}

// The namespace of a kind unit's die: the unit's namespace with its root replaced by the dies' own
// (k8s::apps::v1 -> rr::testing::dies::apps::v1).
std::string die_namespace(const Unit& unit, const KindDiesOptions& options) {
  const std::size_t sep = unit.ns.find("::");
  return options.cpp_namespace + (sep == std::string::npos ? std::string() : unit.ns.substr(sep));
}

// `#include` lines, in the set's order.
std::string include_lines(const std::set<std::string>& headers) {
  Printer p("dies");
  for (const auto& h : headers) p.print("#include $header$", {{"header", h}});
  return p.take_block();
}

constexpr std::string_view kKindDieHeader = R"gen(// Code generated by rrgen $version$. DO NOT EDIT.
// Test factory ("die", after reconciler.io/dies) for $type$: an immutable fluent
// builder whose every method returns a changed copy. See docs/test-factories.md.
#pragma once

$std_includes$

$includes$

namespace $ns$ {

$die$

}  // namespace $ns$)gen";

// <prefix>.hpp includes every die: one fixed output for build systems, and a convenience.
constexpr std::string_view kAllDiesHeader = R"gen(// Code generated by rrgen $version$. DO NOT EDIT.
// Every die of $ns$; include a kind's own header to compile less.
#pragma once

$includes$)gen";

constexpr std::string_view kSpecDiesHeader = R"gen(// Code generated by rrgen $version$. DO NOT EDIT.
// Test factories ("dies", after reconciler.io/dies) for the kinds the $reconciler$ reconciler touches: immutable
// fluent builders whose every method returns a changed copy. See docs/test-factories.md.
#pragma once

$std_includes$

$includes$

namespace $ns$::dies {

/// A condition as tables write one. lastTransitionTime is the epoch: the cluster rejects a
/// condition without one, and the harness ignores it when comparing.
[[nodiscard]] inline rr::Condition condition(std::string type, std::string status, std::string reason = {},
                                             std::string message = {}) {
  rr::Condition c;
  c.type = std::move(type);
  c.status = std::move(status);
  c.last_transition_time = rr::Time::from(std::chrono::system_clock::time_point{});
  c.reason = std::move(reason);
  c.message = std::move(message);
  return c;
}
$dies$

}  // namespace $ns$::dies)gen";

}  // namespace

std::string kind_die_header(const Unit& unit, const KindDiesOptions& options) {
  return options.include_prefix + "/" + unit.path + ".hpp";
}

std::string kind_die_class(const Unit& unit, const KindDiesOptions& options) {
  return "::" + die_namespace(unit, options) + "::" + pascal_case(unit.kind->kind) + "Die";
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
    Printer die("dies"), w("dies");
    DieWriter(p, "").write(die);
    w.print(kKindDieHeader, {{"version", options.generator_version},
                             {"type", p.type},
                             {"std_includes", include_lines(die_std_headers(p))},
                             {"includes", include_lines({"\"rr/core/meta.hpp\"", "\"rr/core/resource_traits.hpp\"",
                                                         "\"rr/core/time.hpp\"", "\"" + p.header + "\""})},
                             {"ns", die_namespace(*u, options)},
                             {"die", die.take_block()}});
    out.files.push_back({kind_die_header(*u, options), w.take()});
  }
  Printer includes("dies"), all("dies");
  for (const auto& f : out.files) includes.print("#include \"$path$\"", {{"path", f.path}});
  all.print(kAllDiesHeader,
            {{"version", options.generator_version}, {"ns", options.cpp_namespace}, {"includes", includes.take_block()}});
  out.files.push_back({options.include_prefix + ".hpp", all.take()});
  return out;
}

OutputSet emit_dies(const ResolvedSpec& spec, const Model& crds, const Model& builtin, const GenerateOptions& options) {
  NameScope classes(true);
  classes.reserve("condition");
  std::vector<DiePlan> plans;
  std::vector<const ResolvedKind*> kinds;
  for (const ResolvedKind& k : spec.kinds) {
    // A duck (the resource of a duck spec) is no kind: tables build it from JSON or a kind's die.
    if (spec.duck && k.cpp_type == spec.duck->cpp_type) continue;
    kinds.push_back(&k);
    plans.push_back(plan_die(k, find_unit(k.builtin ? builtin : crds, k), classes));
  }
  const Unit* owner_unit = find_unit(spec.resource.builtin ? builtin : crds, spec.resource);
  // A duck owns nothing: controlled_by takes any owner.
  const std::string owner = spec.duck    ? std::string()
                            : owner_unit ? owner_unit->root->qualified
                                         : "::" + spec.resource.cpp_type;

  std::set<std::string> headers{"\"rr/core/meta.hpp\"", "\"rr/core/resource_traits.hpp\"", "\"rr/core/time.hpp\""};
  std::set<std::string> std_headers{"<chrono>", "<cstdint>", "<string>", "<utility>", "<vector>"};
  headers.insert("\"" + (spec.resource.header.empty() && owner_unit ? owner_unit->path + ".hpp" : spec.resource.header) + "\"");
  Printer dies("dies");
  for (std::size_t i = 0; i < plans.size(); ++i) {
    dies.line();
    // A built-in kind's die is the runtime's (rr::testing, generated once), under the name this
    // spec gives it.
    if (const Unit* unit = kinds[i]->builtin ? find_unit(builtin, *kinds[i]) : nullptr) {
      headers.insert("\"" + kind_die_header(*unit, runtime_dies()) + "\"");
      dies.print("using $die$ = $runtime_die$;",
                 {{"die", plans[i].class_name}, {"runtime_die", kind_die_class(*unit, runtime_dies())}});
      continue;
    }
    headers.insert("\"" + plans[i].header + "\"");
    if (plans[i].uses_map) std_headers.insert("<map>");
    DieWriter(plans[i], owner).write(dies);
  }

  Printer w("dies");
  w.print(kSpecDiesHeader, {{"version", options.generator_version},
                            {"reconciler", spec.name.empty() ? spec.file_stem : spec.name},
                            {"std_includes", include_lines(std_headers)},
                            {"includes", include_lines(headers)},
                            {"ns", spec.cpp_namespace},
                            {"dies", dies.take_block()}});
  OutputSet out;
  out.files.push_back({spec.file_stem + "_dies.hpp", w.take()});
  return out;
}

}  // namespace rrgen
