#include "sema/spec_resolve.hpp"

#include <algorithm>
#include <set>
#include <utility>
#include <vector>

#include "load/spec_reader.hpp"
#include "sema/builtin_kinds.hpp"
#include "sema/spec_duck_resolve.hpp"
#include "sema/spec_policies_resolve.hpp"
#include "sema/spec_webhooks_resolve.hpp"
#include "support/naming.hpp"

namespace rrgen {
namespace {

std::string quoted(std::string_view s) { return "'" + std::string(s) + "'"; }

// "a, b and c"
std::string join_and(const std::vector<std::string>& items) {
  std::string out;
  for (std::size_t i = 0; i < items.size(); ++i) out += (i == 0 ? "" : i + 1 == items.size() ? " and " : ", ") + items[i];
  return out;
}

bool same_kind(const ResolvedKind& a, const ResolvedKind& b) {
  return a.group == b.group && a.version == b.version && a.kind == b.kind;
}

// Every kind a spec may name: the given CRDs' (every served version) and the built-in ones.
class KindTable {
 public:
  explicit KindTable(const Model& crds) {
    for (const auto& unit : crds.units) {
      if (!unit->kind) continue;
      entries_.push_back({resolved_kind_of(*unit, false), unit->kind->storage});
      crd_kind_names_.push_back(unit->kind->kind);
    }
    for (const auto& builtin : builtin_kinds()) {
      // A kind the inputs define too (an OpenAPI document with ConfigMap) is the inputs' one.
      const bool shadowed = std::any_of(entries_.begin(), entries_.end(), [&](const Entry& e) {
        return !e.kind.builtin && e.kind.group == builtin.group && e.kind.kind == builtin.kind;
      });
      // Of several versions or groups of one built-in kind, a bare name means the one kubectl picks.
      if (!shadowed) entries_.push_back({builtin, builtin_preferred(builtin)});
    }
    std::sort(crd_kind_names_.begin(), crd_kind_names_.end());
    crd_kind_names_.erase(std::unique(crd_kind_names_.begin(), crd_kind_names_.end()), crd_kind_names_.end());
  }

  std::optional<ResolvedKind> resolve(const KindRef& ref, Diagnostics& diags) const {
    std::vector<const Entry*> matches;
    for (const auto& e : entries_)
      if (e.kind.kind == ref.kind && (!ref.group_given || e.kind.group == ref.group) && (ref.version.empty() || e.kind.version == ref.version))
        matches.push_back(&e);
    if (matches.empty()) {
      unknown(ref, diags);
      return std::nullopt;
    }
    if (ref.version.empty() && matches.size() > 1) {
      // Several versions of one kind: the storage version is the kind's canonical form.
      std::vector<const Entry*> storage;
      for (const Entry* e : matches)
        if (e->storage) storage.push_back(e);
      if (!storage.empty()) matches = storage;
    }
    if (matches.size() > 1) {
      std::vector<std::string> names;
      for (const Entry* e : matches) names.push_back(kind_ref_text(e->kind));
      diags.error(ref.location, "spec-ambiguous-kind", quoted(ref.text) + " matches " + join_and(names) + "; write group/version/Kind");
      return std::nullopt;
    }
    return matches.front()->kind;
  }

 private:
  struct Entry {
    ResolvedKind kind;
    bool storage = true;
  };
  std::vector<Entry> entries_;  // CRD kinds in model order, then the built-in kinds
  std::vector<std::string> crd_kind_names_;

  // The entry to suggest for a kind name: its storage version, else its first; nullptr if none.
  const Entry* preferred(std::string_view kind) const {
    const Entry* first = nullptr;
    for (const auto& e : entries_) {
      if (e.kind.kind != kind) continue;
      if (e.storage) return &e;
      if (!first) first = &e;
    }
    return first;
  }

  void unknown(const KindRef& ref, Diagnostics& diags) const {
    // The kind exists under another group or version: name its full form.
    if (const Entry* e = preferred(ref.kind)) {
      diags.error(ref.location, "spec-unknown-kind",
                  "unknown kind " + quoted(ref.text) + "; did you mean " + quoted(kind_ref_text(e->kind)) + "?");
      return;
    }
    std::vector<std::string> names;
    for (const auto& e : entries_)
      if (std::find(names.begin(), names.end(), e.kind.kind) == names.end()) names.push_back(e.kind.kind);
    const std::string near = closest_match(ref.kind, names);
    if (!near.empty()) {
      // In the form the spec used: "Image" for "Imag", a full reference for "apps/v1/Deploymnet".
      const std::string text = ref.version.empty() ? near : kind_ref_text(preferred(near)->kind);
      diags.error(ref.location, "spec-unknown-kind", "unknown kind " + quoted(ref.text) + "; did you mean " + quoted(text) + "?");
      return;
    }
    diags.error(ref.location, "spec-unknown-kind", "unknown kind " + quoted(ref.text));
    std::set<std::string> builtin;
    for (const auto& b : builtin_kinds()) builtin.insert(b.kind);
    diags.note(ref.location, (crd_kind_names_.empty() ? std::string("no CRD given with the spec defines a kind")
                                                      : "the CRDs given with the spec define " + join_and(crd_kind_names_)) +
                                 "; the runtime has the " + std::to_string(builtin.size()) + " kinds of Kubernetes " +
                                 std::string(kBuiltinApiRelease) + " (docs/builtin-kinds.md)");
  }
};

// The C++ namespace of a kind's types without the version: "fnsample::v1::Function" -> "fnsample".
std::string types_namespace(const ResolvedKind& kind) {
  std::string t = kind.cpp_type.rfind("::", 0) == 0 ? kind.cpp_type.substr(2) : kind.cpp_type;
  std::size_t cut = t.rfind("::");
  if (cut != std::string::npos) cut = t.rfind("::", cut - 1);
  return cut == std::string::npos ? std::string() : t.substr(0, cut);
}

// The written spec's enums and rules in the model's own types (load/ and model/ do not share them).
StepKind step_kind(StepType type) {
  switch (type) {
    case StepType::Sync: return StepKind::Sync;
    case StepType::Child: return StepKind::Child;
    case StepType::ChildSet: return StepKind::ChildSet;
  }
  return StepKind::Sync;
}

ReconcilerScope reconciler_scope(Scope scope) {
  return scope == Scope::Namespace ? ReconcilerScope::Namespace : ReconcilerScope::Cluster;
}

PolicyRule policy_rule(const SpecRule& s) {
  PolicyRule r;
  r.api_groups = s.api_groups;
  r.resources = s.resources;
  r.resource_names = s.resource_names;
  r.verbs = s.verbs;
  r.non_resource_urls = s.non_resource_urls;
  return r;
}

// A step as written, without its kinds (resolve_spec resolves those).
ResolvedStep step_of(const SpecStep& step) {
  ResolvedStep out;
  out.type = step_kind(step.type);
  out.name = step.name;
  out.location = step.location;
  out.name_location = step.name_location;
  out.finalize = step.finalize;
  out.with_result = step.with_result;
  out.during_finalization = step.during_finalization;
  out.finalizer = step.finalizer;
  out.finalizer_location = step.finalizer_location;
  out.apply = step.apply;
  return out;
}

// The spec's own facts, without its kinds and steps.
ResolvedSpec spec_facts(const ReconcilerSpec& spec) {
  ResolvedSpec out;
  out.file = spec.file ? *spec.file : std::string();
  out.location = spec.location;
  out.name = spec.name;
  out.file_stem = file_stem(spec.name);
  out.scope = reconciler_scope(spec.scope);
  out.namespaces = spec.namespaces;
  out.namespace_selector = spec.namespace_selector;
  out.core_v1_events = spec.core_v1_events;
  out.status_apply = spec.status_apply;
  out.conditions = spec.conditions;
  out.conditions_location = spec.conditions_location;
  out.leader_election_id = spec.leader_election_id;
  for (const SpecRule& rule : spec.rbac) out.rbac.push_back(policy_rule(rule));
  out.image = spec.image;
  out.replicas = spec.replicas;
  out.deploy_namespace = spec.deploy_namespace;
  out.metrics = {spec.metrics.secure, spec.metrics.service_monitor, spec.metrics.network_policy};
  return out;
}

std::vector<ResolvedPredicate> watch_predicates_of(const std::vector<SpecPredicate>& written) {
  std::vector<ResolvedPredicate> out;
  for (const SpecPredicate& p : written) {
    // The two enums list the same predicates in the same order.
    out.push_back(ResolvedPredicate{static_cast<PredicateKind>(p.type), p.selector, p.hook, p.location});
  }
  return out;
}

bool watch_same_predicates(const std::vector<ResolvedPredicate>& a, const std::vector<ResolvedPredicate>& b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](const ResolvedPredicate& x, const ResolvedPredicate& y) {
    return x.type == y.type && x.selector == y.selector && x.hook == y.hook;
  });
}

// A metadata-only watch of a kind the controller watches whole anyway (the resource, a child, a
// tracked kind) would list and watch it twice, once for each informer: the map hook gets the
// whole object without it.
void watch_check_metadata_only(const ResolvedSpec& out, const SpecWatch& w, Diagnostics& diags) {
  const ResolvedKind& kind = out.watches.back().kind;
  std::string whole;
  if (same_kind(out.resource, kind)) whole = "it is the resource";
  for (std::size_t i = 0; i < out.steps.size() && whole.empty(); ++i) {
    const ResolvedStep& st = out.steps[i];
    if (st.child && same_kind(*st.child, kind)) whole = "step " + quoted(st.name) + " owns it";
    for (const ResolvedKind& t : st.tracks)
      if (whole.empty() && same_kind(t, kind)) whole = "step " + quoted(st.name) + " tracks it";
  }
  if (whole.empty()) return;
  diags.error(w.metadata_only_location, "spec-metadata-only-watched-whole",
              kind_ref_text(kind) + " is watched whole already (" + whole +
                  "), so 'metadataOnly' would list and watch it a second time; drop it (the map hook then gets "
                  "the whole object)");
}

// The steps share one watch per kind and mode (one Tracked watch of ConfigMaps for every step that
// tracks them), so the predicates of two steps on one watch must be the same.
void watch_check_shared_watches(const ReconcilerSpec& spec, const ResolvedSpec& out, Diagnostics& diags) {
  struct Use {
    bool owns;
    const ResolvedKind* kind;
    std::size_t step;
  };
  std::vector<Use> uses;
  for (std::size_t i = 0; i < out.steps.size(); ++i) {
    const ResolvedStep& st = out.steps[i];
    if (st.child) {
      if (st.finalizer.empty()) uses.push_back({true, &*st.child, i});
      uses.push_back({false, &*st.child, i});
    }
    for (const ResolvedKind& k : st.tracks) uses.push_back({false, &k, i});
  }
  // The predicates a step puts on a watch: none on the Tracked watch of an owned child (it finds
  // a squatter holding the child's name).
  auto predicates = [&](const Use& u) -> const std::vector<ResolvedPredicate>& {
    static const std::vector<ResolvedPredicate> none;
    const ResolvedStep& st = out.steps[u.step];
    const bool squatter = !u.owns && st.child && st.finalizer.empty() && same_kind(*st.child, *u.kind) &&
                          std::none_of(st.tracks.begin(), st.tracks.end(),
                                       [&](const ResolvedKind& k) { return same_kind(k, *u.kind); });
    return squatter ? none : st.predicates;
  };
  for (std::size_t a = 0; a < uses.size(); ++a) {
    for (std::size_t b = 0; b < a; ++b) {
      if (uses[a].owns != uses[b].owns || uses[a].step == uses[b].step || !same_kind(*uses[a].kind, *uses[b].kind))
        continue;
      if (watch_same_predicates(predicates(uses[a]), predicates(uses[b]))) continue;
      const SpecStep& first = spec.steps[uses[b].step];
      const SpecStep& second = spec.steps[uses[a].step];
      diags.error(second.predicates.empty() ? second.location : second.predicates_location,
                  "spec-predicates-shared-watch",
                  "steps " + quoted(first.name) + " and " + quoted(second.name) + " share the " +
                      (uses[a].owns ? "Owns" : "Tracked") + " watch of " + uses[a].kind->kind +
                      " but give it different predicates; give both steps the same ones");
      return;
    }
  }
}

// The built-in kinds whose apply configurations the runtime compiles (rr::builtin_apply,
// runtime/builtin/CMakeLists.txt); a CRD kind's are generated with its types.
bool has_apply_configuration(const ResolvedKind& kind) {
  if (!kind.builtin) return true;
  static const std::set<std::string> builtin_apply = {"apps/v1/Deployment", "v1/Service", "v1/ConfigMap", "v1/Secret",
                                                      "v1/ServiceAccount"};
  return builtin_apply.count(kind_ref_text(kind)) != 0;
}

// `write: apply`: the child kind has an apply configuration, and the step keeps owner references.
void check_apply_step(const SpecStep& step, const ResolvedKind& child, Diagnostics& diags) {
  if (!has_apply_configuration(child)) {
    diags.error(step.write_location, "spec-apply-configuration",
                "'write: apply' needs the apply configuration of " + kind_ref_text(child) +
                    ", which rr::builtin_apply does not compile (it has apps/v1/Deployment, v1/Service, v1/ConfigMap, "
                    "v1/Secret and v1/ServiceAccount); use 'write: update'");
  }
  if (!step.finalizer.empty()) {
    diags.error(step.write_location, "spec-step-option",
                "'write: apply' sets an owner reference on the child; it cannot be combined with a 'finalizer' "
                "(finalizer mode manages the child without one)");
  }
}

void add_kind(std::vector<ResolvedKind>& kinds, const ResolvedKind& k) {
  if (std::none_of(kinds.begin(), kinds.end(), [&](const ResolvedKind& x) { return same_kind(x, k); })) kinds.push_back(k);
}

}  // namespace

std::string kind_ref_text(const ResolvedKind& kind) {
  return (kind.group.empty() ? "" : kind.group + "/") + kind.version + "/" + kind.kind;
}

std::optional<ResolvedSpec> resolve_spec(const ReconcilerSpec& spec, const Model& crds, Diagnostics& diags) {
  const std::size_t errors_before = diags.error_count();
  const KindTable table(crds);
  ResolvedSpec out = spec_facts(spec);

  std::vector<std::pair<const KindRef*, ResolvedKind>> touched;  // for the scope check
  std::optional<ResolvedKind> resource;
  if (spec.duck) {
    // One ResourceReconciler over the duck per kind: the kinds are checked, the duck is the type.
    check_duck_spec(spec, diags);
    out.duck = resolve_duck(
        *spec.duck, crds, [&](const KindRef& ref) { return table.resolve(ref, diags); }, diags);
    if (out.duck) {
      resource = duck_resource(*out.duck);
      for (std::size_t i = 0; i < out.duck->kinds.size(); ++i)
        touched.emplace_back(&spec.duck->kinds[i], out.duck->kinds[i]);
    }
  } else {
    resource = table.resolve(spec.resource, diags);
    if (resource) touched.emplace_back(&spec.resource, *resource);
  }
  if (resource) {
    out.resource = *resource;
    if (!resource->has_status && !spec.conditions.empty()) {
      diags.error(spec.conditions_location, "spec-no-status",
                  "conditions live in the status, and " + kind_ref_text(*resource) + " has no status subresource" +
                      (resource->builtin ? "" : " (add subresources: {status: {}} to its CRD version)"));
    }
    // The status apply goes to the status subresource, of a kind with a C++ type.
    if (spec.status_apply && spec.duck) {
      diags.error(spec.status_write_location, "spec-bad-value",
                  "'statusWrite: apply' needs a kind; a duck's status is written as a merge patch");
    } else if (spec.status_apply && !resource->has_status) {
      diags.error(spec.status_write_location, "spec-no-status",
                  "'statusWrite: apply' applies the status subresource, and " + kind_ref_text(*resource) + " has none" +
                      (resource->builtin ? "" : " (add subresources: {status: {}} to its CRD version)"));
    }
  }

  if (resource && spec.webhooks && !spec.duck) out.webhooks = resolve_webhooks(*spec.webhooks, *resource, crds, diags);
  if (resource) out.policies = resolve_policies(spec.policies, spec.duck ? nullptr : &*resource, diags);

  for (const auto& step : spec.steps) {
    ResolvedStep rs = step_of(step);
    if (step.child_kind) {
      rs.child = table.resolve(*step.child_kind, diags);
      if (rs.child) touched.emplace_back(&*step.child_kind, *rs.child);
      // Kubernetes rejects an owner reference from a cluster-scoped object to a namespaced one.
      if (rs.child && resource && resource->namespaced && !rs.child->namespaced && step.finalizer.empty()) {
        diags.error(step.child_kind->location, "spec-child-scope",
                    kind_ref_text(*rs.child) + " is cluster-scoped and cannot have the namespaced " + resource->kind +
                        " as its owner; give the step a 'finalizer' to manage the child without an owner reference");
      }
    }
    if (step.apply && rs.child) check_apply_step(step, *rs.child, diags);
    for (const auto& ref : step.tracks) {
      if (auto k = table.resolve(ref, diags)) {
        touched.emplace_back(&ref, *k);
        rs.tracks.push_back(std::move(*k));
      }
    }
    rs.predicates = watch_predicates_of(step.predicates);
    if (!step.predicates.empty() && step.type == StepType::Sync && step.tracks.empty()) {
      diags.error(step.predicates_location, "spec-predicates-no-watch",
                  "sync step " + quoted(step.name) +
                      " watches nothing its predicates could filter; they apply to the kinds it 'tracks'");
    }
    out.steps.push_back(std::move(rs));
  }

  watch_check_shared_watches(spec, out, diags);

  // `predicates:` (For), `watches:` and `reconcileTimeout:`.
  out.predicates = watch_predicates_of(spec.predicates);
  out.reconcile_timeout_ns = spec.reconcile_timeout_ns;
  out.reconcile_timeout = spec.reconcile_timeout;
  for (const SpecWatch& w : spec.watches) {
    auto kind = table.resolve(w.kind, diags);
    if (!kind) continue;
    touched.emplace_back(&w.kind, *kind);
    const auto same = std::find_if(out.watches.begin(), out.watches.end(),
                                   [&](const ResolvedWatch& x) { return same_kind(x.kind, *kind); });
    if (same != out.watches.end()) {
      diags.error(w.kind.location, "spec-duplicate-watch",
                  kind_ref_text(*kind) + " is watched twice; map its events with one hook");
      diags.note(same->location, "first watched here");
      continue;
    }
    out.watches.push_back(ResolvedWatch{*kind, w.map, w.location, watch_predicates_of(w.predicates), w.metadata_only});
    if (w.metadata_only) watch_check_metadata_only(out, w, diags);
  }
  if (spec.duck &&
      (!spec.predicates.empty() || !spec.watches.empty() || !spec.reconcile_timeout.empty() ||
       std::any_of(spec.steps.begin(), spec.steps.end(), [](const SpecStep& st) { return !st.predicates.empty(); }))) {
    diags.error(
        spec.duck->location, "spec-duck-watches",
        "predicates, watches and reconcileTimeout are not supported with a duck resource (one controller per kind); "
        "set them in the controllers' rr::ControllerOptions");
  }

  // Two owner-reference children of one kind would each take the other's child for a surplus
  // one and delete it (a ChildReconciler keeps exactly one child of its kind). out.steps is
  // parallel to spec.steps, whose kind references carry the locations.
  for (std::size_t i = 0; i < out.steps.size(); ++i) {
    const ResolvedStep& a = out.steps[i];
    if (!a.child || !a.finalizer.empty()) continue;
    for (std::size_t j = 0; j < i; ++j) {
      const ResolvedStep& b = out.steps[j];
      if (!b.child || !b.finalizer.empty() || b.child->group != a.child->group || b.child->kind != a.child->kind) continue;
      diags.error(spec.steps[i].child_kind->location, "spec-duplicate-child",
                  "steps " + quoted(b.name) + " and " + quoted(a.name) + " both own " + a.child->kind +
                      " children through owner references, so each would delete the other's; give one of them a 'finalizer'");
      diags.note(spec.steps[j].child_kind->location, quoted(b.name) + " owns " + a.child->kind + " children here");
      break;
    }
  }

  // A Role grants nothing on cluster-scoped kinds.
  if (spec.scope == Scope::Namespace) {
    for (const auto& [ref, kind] : touched) {
      if (!kind.namespaced)
        diags.error(ref->location, "spec-namespace-scope",
                    kind_ref_text(kind) + " is cluster-scoped, which scope: Namespace (a Role) cannot grant; use scope: Cluster");
    }
  }

  // The default namespace is the resource's types' namespace: for a built-in kind that is the
  // runtime's own (k8s::core), where user hooks must not go.
  if (out.resource.builtin && spec.cpp_namespace.empty() && !spec.duck) {
    diags.error(spec.resource.location, "spec-missing-namespace",
                "the resource " + kind_ref_text(out.resource) +
                    " is a built-in kind, whose types live in the runtime's namespace; say where the reconciler goes with 'namespace:'");
  }

  if (diags.error_count() != errors_before) return std::nullopt;
  out.cpp_namespace = spec.cpp_namespace.empty() ? types_namespace(out.resource) : spec.cpp_namespace;
  add_kind(out.kinds, out.resource);
  for (const auto& rs : out.steps) {
    if (rs.child) add_kind(out.kinds, *rs.child);
    for (const auto& k : rs.tracks) add_kind(out.kinds, k);
  }
  // A metadata-only watch needs no C++ type of its kind (its hooks take rr::ObjectMeta).
  for (const auto& w : out.watches)
    if (!w.metadata_only) add_kind(out.kinds, w.kind);
  return out;
}

}  // namespace rrgen
