#include "sema/spec_duck_resolve.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include "load/spec_reader.hpp"
#include "sema/builtin_kinds.hpp"
#include "sema/spec_resolve.hpp"

namespace rrgen {
namespace spec_duck_resolve {
namespace {

std::string quote(std::string_view s) { return "'" + std::string(s) + "'"; }

// A duck of the runtime (rr/client/duck.hpp) and the status members it reads.
struct KnownDuck {
  std::string name;
  std::string cpp_type;
  std::string header;
  std::string reads;  // for messages: what the duck holds
};

const std::vector<KnownDuck>& known_ducks() {
  static const std::vector<KnownDuck> ducks = {
      {"Conditions", "rr::ConditionsDuck", "rr/client/duck.hpp",
       "metadata, status.conditions and status.observedGeneration"},
  };
  return ducks;
}

const KnownDuck* known_duck(const SpecDuck& duck, Diagnostics& diags) {
  if (duck.name.empty()) return nullptr;  // reported by the loader
  for (const KnownDuck& d : known_ducks())
    if (d.name == duck.name) return &d;
  std::vector<std::string> names;
  for (const KnownDuck& d : known_ducks()) names.push_back(d.name);
  const std::string near = closest_match(duck.name, names);
  std::string list;
  for (std::size_t i = 0; i < names.size(); ++i) list += (i ? ", " : "") + names[i];
  diags.error(duck.name_location, "spec-unknown-duck",
              "unknown duck " + quote(duck.name) + (near.empty() ? "" : "; did you mean " + quote(near) + "?") +
                  " (rrgen knows the ducks " + list + ")");
  return nullptr;
}

const Unit* unit_of(const Model& model, const ResolvedKind& k) {
  for (const auto& u : model.units)
    if (u->kind && u->root && u->kind->group == k.group && u->kind->version == k.version && u->kind->kind == k.kind)
      return u.get();
  return nullptr;
}

const FieldDef* member(const StructDef& s, std::string_view json) {
  for (const FieldDef& f : s.fields)
    if (f.json_name == json) return &f;
  return nullptr;
}

// A condition the duck decodes as rr::Condition: metav1.Condition itself, or an object with string
// `type` and `status` (a Deployment's DeploymentCondition; its other members are kept).
bool condition_shaped(const TypeRef& item) {
  if (item.kind == TypeKind::External) return item.external == "rr::Condition" || item.external == "::rr::Condition";
  if (item.kind != TypeKind::Struct || !item.def) return false;
  const FieldDef* type = member(*item.def, "type");
  const FieldDef* status = member(*item.def, "status");
  auto stringish = [](const FieldDef* f) {
    return f && (f->type.kind == TypeKind::String || f->type.kind == TypeKind::Enum);
  };
  return stringish(type) && stringish(status);
}

// What the schema of `kind` lacks of status.conditions ("" when it has them).
std::string conditions_problem(const Unit& unit) {
  const FieldDef* status = member(*unit.root, "status");
  if (!status) return "has no status";
  const FieldDef* conditions = status->type.kind == TypeKind::Struct && status->type.def
                                   ? member(*status->type.def, "conditions")
                                   : nullptr;
  if (!conditions) return "has no status.conditions";
  if (conditions->type.kind != TypeKind::Array || !conditions->type.element ||
      !condition_shaped(*conditions->type.element))
    return "has a status.conditions that is not a list of conditions (objects with string type and status)";
  return "";
}

// The root writes the duck's status as a merge patch of the status subresource.
bool check_status_subresource(const KindRef& ref, const ResolvedKind& kind, Diagnostics& diags) {
  if (kind.has_status) return true;
  diags.error(ref.location, "spec-duck-kind",
              kind_ref_text(kind) + " has no status subresource, through which the duck's status is patched" +
                  (kind.builtin ? "" : " (add subresources: {status: {}} to its CRD version)"));
  return false;
}

bool check_duck_kind(const KnownDuck& duck, const KindRef& ref, const ResolvedKind& kind, const Model& crds,
                     Diagnostics& diags) {
  const Unit* unit = unit_of(kind.builtin ? builtin_model() : crds, kind);
  const std::string problem = unit ? conditions_problem(*unit) : "has no schema rrgen knows";
  if (!problem.empty()) {
    diags.error(ref.location, "spec-duck-kind",
                kind_ref_text(kind) + " " + problem + ", which the duck " + duck.name + " reads (" + duck.reads + ")");
    return false;
  }
  return check_status_subresource(ref, kind, diags);
}

}  // namespace
}  // namespace spec_duck_resolve

std::optional<ResolvedDuck> resolve_duck(const SpecDuck& duck, const Model& crds, const ResolveKindFn& resolve,
                                         Diagnostics& diags) {
  using namespace spec_duck_resolve;
  const std::size_t errors_before = diags.error_count();
  // Your own duck: rrgen cannot know what it reads, so it checks only that each kind exists and
  // has the status subresource the root patches.
  const bool own = !duck.cpp_type.empty();
  const KnownDuck* known = own ? nullptr : known_duck(duck, diags);
  ResolvedDuck out;
  out.location = duck.location;
  std::vector<const KindRef*> refs;  // parallel to out.kinds
  for (const KindRef& ref : duck.kinds) {
    std::optional<ResolvedKind> kind = resolve(ref);
    if (!kind) continue;
    // Two spellings of one kind would give it two controllers.
    const auto same = std::find_if(out.kinds.begin(), out.kinds.end(), [&](const ResolvedKind& k) {
      return k.group == kind->group && k.version == kind->version && k.kind == kind->kind;
    });
    if (same != out.kinds.end()) {
      const KindRef& first = *refs[static_cast<std::size_t>(same - out.kinds.begin())];
      diags.error(ref.location, "spec-duck-kinds",
                  quote(first.text) + " and " + quote(ref.text) + " are the same kind, " + kind_ref_text(*kind) +
                      "; list it once");
      diags.note(first.location, "first listed here");
      continue;
    }
    if (own ? check_status_subresource(ref, *kind, diags) : known && check_duck_kind(*known, ref, *kind, crds, diags)) {
      refs.push_back(&ref);
      out.kinds.push_back(std::move(*kind));
    }
  }
  if ((!own && !known) || diags.error_count() != errors_before) return std::nullopt;
  out.name = duck.name;
  out.cpp_type = own ? duck.cpp_type : known->cpp_type;
  out.header = own ? duck.header : known->header;
  return out;
}

ResolvedKind duck_resource(const ResolvedDuck& duck) {
  ResolvedKind k;
  const std::string& t = duck.cpp_type;
  // "ConditionsDuck": its alias in the spec's namespace (an alias of a type of that namespace to
  // itself, as your own duck's may be, is allowed).
  k.kind = t.substr(t.rfind("::") == std::string::npos ? 0 : t.rfind("::") + 2);
  k.namespaced = std::all_of(duck.kinds.begin(), duck.kinds.end(), [](const ResolvedKind& x) { return x.namespaced; });
  k.has_status = true;
  k.builtin = true;  // its type is the runtime's: nothing is generated for it
  k.cpp_type = duck.cpp_type;
  k.header = duck.header;
  return k;
}

void check_duck_spec(const ReconcilerSpec& spec, Diagnostics& diags) {
  for (const SpecStep& step : spec.steps) {
    if (step.type == StepType::Sync) continue;
    diags.error(step.location, "spec-duck-unsupported",
                std::string(step.type == StepType::Child ? "child" : "childSet") +
                    " steps are not supported on a duck resource: its kinds are chosen at run time, so the wiring "
                    "cannot own children for them; use sync steps");
  }
  if (spec.webhooks) {
    diags.error(spec.webhooks->location, "spec-duck-unsupported",
                "webhooks need a CRD of the resource, and a duck is not a kind (each kind it applies to has its own "
                "admission and conversion)");
  }
  if (spec.cpp_namespace.empty()) {
    diags.error(spec.duck->location, "spec-missing-namespace",
                "the resource is the duck " + spec.duck->name +
                    (spec.duck->cpp_type.empty() ? ", whose type lives in the runtime's namespace" : ", not a kind") +
                    "; say where the reconciler goes with 'namespace:'");
  }
}

}  // namespace rrgen
