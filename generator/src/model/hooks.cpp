#include "model/hooks.hpp"

#include <algorithm>
#include <filesystem>
#include <stdexcept>

#include "support/naming.hpp"

namespace rrgen {
namespace {

// Parameter names the hooks use besides the reconciled object's.
constexpr std::string_view kFixedParams[] = {"ctx", "hooks", "current", "desired", "child", "err", "result",
                                             "parent", "setup"};

std::string base_name(const std::string& file) {
  if (file.empty()) return "reconciler.yaml";
  return std::filesystem::path(file).filename().string();
}

// The reconciled object's parameter: the kind in snake_case, unless that is another parameter's
// name or a segment of the spec's namespace (which the parameter would hide).
std::string parameter_name_for(const std::string& kind, const std::string& cpp_namespace) {
  std::string name = field_name(kind);
  if (std::find(std::begin(kFixedParams), std::end(kFixedParams), name) != std::end(kFixedParams)) return "resource";
  for (std::size_t start = 0; start <= cpp_namespace.size();) {
    std::size_t end = cpp_namespace.find("::", start);
    if (end == std::string::npos) end = cpp_namespace.size();
    if (cpp_namespace.compare(start, end - start, name) == 0) return "resource";
    start = end + 2;
  }
  return name;
}

// What a step reads through the tracker, for the docs.
std::string tracks_note(const ResolvedSpec& spec, const WiringNames& names, const ResolvedStep& step) {
  if (step.tracks.empty()) return {};
  std::string out = " Read ";
  for (std::size_t i = 0; i < step.tracks.size(); ++i) {
    if (i > 0) out += i + 1 == step.tracks.size() ? " and " : ", ";
    out += alias_of(spec, names, step.tracks[i]) + "s";
  }
  return out + " through rr::track_and_get (or track_and_try_get, track_and_list): a change re-runs the step.";
}

Hook make_hook(std::size_t step, HookRole role, const std::string& prefix, std::string suffix, std::string ret,
               std::vector<HookParam> params, std::string doc) {
  return Hook{step, role, prefix + "_" + suffix, std::move(ret), std::move(params), std::move(doc)};
}

}  // namespace

std::string step_type_name(StepKind type) {
  switch (type) {
    case StepKind::Sync: return "sync";
    case StepKind::Child: return "child";
    case StepKind::ChildSet: return "childSet";
  }
  return "sync";
}

std::string step_location(const ResolvedSpec& spec, const ResolvedStep& step) {
  std::string out = base_name(step.location.file ? *step.location.file : spec.file);
  if (step.location.line > 0) {
    out += ":" + std::to_string(step.location.line) + ":" + std::to_string(step.location.column);
  }
  return out;
}

WiringNames wiring_names(const ResolvedSpec& spec) {
  WiringNames n;
  n.name = !spec.name.empty() ? spec.name : spec.resource.kind;
  n.stem = spec.file_stem.empty() ? file_stem(n.name) : spec.file_stem;
  n.spec_file = base_name(spec.file);
  n.reconciler_header = n.stem + "_reconciler.hpp";
  n.reconciler_source = n.stem + "_reconciler.cpp";
  n.wiring_test = n.stem + "_wiring_test.cpp";
  n.hooks_struct = n.name + "Hooks";
  n.hooks_header = n.stem + "_hooks.hpp";
  n.hooks_source = n.stem + "_hooks.cpp";
  n.root_function = n.name + "Reconciler";
  n.conditions_function = n.name + "Conditions";
  n.condition_struct = n.name + "Condition";
  n.watches_struct = n.name + "Watches";
  n.controller_options_function = n.name + "ControllerOptions";

  // Aliases share the namespace with the wiring's own names; a clash (two kinds of one name in
  // different groups, say) gets a numbered alias, first use first.
  NameScope scope(true);
  for (const std::string* taken : {&n.hooks_struct, &n.root_function, &n.conditions_function, &n.condition_struct,
                                   &n.watches_struct, &n.controller_options_function}) {
    scope.reserve(*taken);
  }
  for (const ResolvedStep& step : spec.steps) {
    n.step_snake.push_back(file_stem(step.name));
    n.step_functions.push_back(n.name + step.name + "Reconciler");
    scope.reserve(n.step_functions.back());
  }
  for (const ResolvedKind& kind : spec.kinds) {
    std::string wanted = pascal_case(kind.kind);
    if (is_reserved_identifier(wanted)) wanted += "Kind";
    n.aliases.push_back(scope.claim(wanted));
  }
  n.resource_alias = alias_of(spec, n, spec.resource);
  n.resource_param = parameter_name_for(spec.resource.kind, spec.cpp_namespace);
  return n;
}

const std::string& alias_of(const ResolvedSpec& spec, const WiringNames& names, const ResolvedKind& kind) {
  for (std::size_t i = 0; i < spec.kinds.size() && i < names.aliases.size(); ++i) {
    if (spec.kinds[i].cpp_type == kind.cpp_type) return names.aliases[i];
  }
  throw std::logic_error("kind " + kind.cpp_type + " is not among the kinds of the resolved spec");
}

std::string apply_alias_of(const ResolvedSpec& spec, const WiringNames& names, const ResolvedKind& kind) {
  return alias_of(spec, names, kind) + "Apply";
}

std::string apply_cpp_type(const ResolvedKind& kind) { return kind.cpp_type + "Apply"; }

std::string apply_header(const ResolvedKind& kind) {
  const std::string suffix = ".hpp";
  const std::string& h = kind.header;
  const std::size_t stem = h.size() >= suffix.size() && h.compare(h.size() - suffix.size(), suffix.size(), suffix) == 0
                               ? h.size() - suffix.size()
                               : h.size();
  return h.substr(0, stem) + "_apply.hpp";
}

std::vector<Hook> step_hooks(const ResolvedSpec& spec, const WiringNames& names, std::size_t index) {
  const ResolvedStep& step = spec.steps.at(index);
  const std::string& prefix = names.step_snake.at(index);
  const std::string& t = names.resource_alias;
  const std::string& r = names.resource_param;
  const HookParam ctx{"rr::Context&", "ctx"};
  std::vector<Hook> out;

  if (step.type == StepKind::Sync) {
    const std::string ret = step.with_result ? "rr::Outcome" : "rr::Error";
    const std::string returns = step.with_result
                                    ? " Return a Result (requeue_after: run again later) and/or an error."
                                    : " An error stops the steps after it and is retried with backoff.";
    out.push_back(make_hook(index, HookRole::Sync, prefix, "sync", ret, {ctx, {t + "&", r}},
                            "Step " + step.name + "'s work on the " + t +
                                ": read what it needs, compute, call outside the cluster, and write the outcome "
                                "to its status." + returns +
                                tracks_note(spec, names, step)));
    if (has_finalize_hook(step)) {
      std::string doc = "Cleans up what sync allocated outside the cluster while the " + t + " is being deleted.";
      if (has_finalizer(step)) {
        doc += " The finalizer " + step.finalizer + " keeps the " + t + " until this succeeds.";
      }
      out.push_back(make_hook(index, HookRole::Finalize, prefix, "finalize", ret, {ctx, {t + "&", r}}, doc + returns));
    }
    return out;
  }

  const std::string& c = alias_of(spec, names, *step.child);
  const bool set = step.type == StepKind::ChildSet;
  if (set) {
    out.push_back(make_hook(index, HookRole::Desired, prefix, "desired", "rr::DesiredChildren<" + c + ">",
                            {ctx, {"const " + t + "&", r}},
                            "The " + c + "s that should exist for the " + t +
                                ", each with its own ID (identify); the step's other children are deleted. "
                                "An rr::Error fails the step (rr::err_only_reconcile_child_status(): leave the "
                                "children as they are, still reflect them)."));
    out.push_back(make_hook(index, HookRole::Identify, prefix, "identify", "std::string", {{"const " + c + "&", "child"}},
                            "The stable ID of a " + c +
                                ": the same for the desired child and for it once created (a label, or its name)."));
  } else if (step.apply) {
    const std::string a = apply_alias_of(spec, names, *step.child);
    out.push_back(make_hook(index, HookRole::Desired, prefix, "desired", "rr::Desired<" + a + ">",
                            {ctx, {"const " + t + "&", r}},
                            "The " + a + " (the fields of the " + c +
                                " this step owns; it must set metadata.name) "
                                "for the " +
                                t +
                                ", applied by server-side apply with force when it differs from what "
                                "the step applied last: a configuration, std::nullopt (none: an existing child is "
                                "deleted) or an rr::Error (rr::err_only_reconcile_child_status(): leave the child as "
                                "it is, still reflect it)."));
  } else {
    out.push_back(make_hook(index, HookRole::Desired, prefix, "desired", "rr::Desired<" + c + ">",
                            {ctx, {"const " + t + "&", r}},
                            "The " + c + " that should exist for the " + t +
                                ": a child, std::nullopt (none: an existing one is deleted) or an rr::Error "
                                "(rr::err_only_reconcile_child_status(): leave the child as it is, still reflect it)."));
  }
  if (!step.apply) {
    out.push_back(make_hook(index, HookRole::Merge, prefix, "merge", "void",
                            {{c + "&", "current"}, {"const " + c + "&", "desired"}},
                            "Copies what this step owns from desired onto current before an update (labels, spec "
                            "...); what it leaves alone (server defaults, other controllers' fields) is kept."));
  }
  if (set) {
    out.push_back(make_hook(index, HookRole::Reflect, prefix, "reflect", "void",
                            {ctx, {t + "&", r}, {"const rr::ChildSetResult<" + c + ">&", "result"}},
                            "Reflects every child's outcome (result.children: id, the " + c +
                                " as persisted or nothing, a reflected error) onto the " + t + "'s status."));
  } else {
    out.push_back(make_hook(index, HookRole::Reflect, prefix, "reflect", "void",
                            {ctx, {t + "&", r}, {"const " + c + "*", "child"}, {"const rr::Error&", "err"}},
                            "Reflects the " + c + " as persisted (nullptr: none) or the error that kept it from "
                                "being written (AlreadyExists, Forbidden, Invalid) onto the " + t + "'s status."));
  }
  if (has_finalizer(step)) {
    out.push_back(make_hook(index, HookRole::OurChild, prefix, "our_child", "bool",
                            {{"const " + t + "&", r}, {"const " + c + "&", "child"}},
                            "Whether a listed " + c + " belongs to this step and this " + t +
                                " (finalizer mode: children carry no owner reference), e.g. by a label."));
    out.push_back(make_hook(index, HookRole::ListOptions, prefix, "list_options", "rr::ListOptions",
                            {ctx, {"const " + t + "&", r}},
                            "Where this step's " + c + "s are listed (namespace, label selector) before our_child "
                                "picks its own."));
  }
  return out;
}

std::vector<Hook> required_hooks(const ResolvedSpec& spec, const WiringNames& names) {
  std::vector<Hook> out;
  for (std::size_t i = 0; i < spec.steps.size(); ++i) {
    for (Hook& h : step_hooks(spec, names, i)) out.push_back(std::move(h));
  }
  return out;
}

std::vector<const ResolvedKind*> step_watched_kinds(const ResolvedStep& step) {
  std::vector<const ResolvedKind*> out;
  auto add = [&](const ResolvedKind& k) {
    if (std::none_of(out.begin(), out.end(), [&](const ResolvedKind* x) { return x->cpp_type == k.cpp_type; }))
      out.push_back(&k);
  };
  if (step.child) add(*step.child);
  for (const ResolvedKind& k : step.tracks) add(k);
  return out;
}

const std::string& watched_metadata_type() {
  static const std::string type = "rr::ObjectMeta";
  return type;
}

std::vector<Hook> watch_hooks(const ResolvedSpec& spec, const WiringNames& names) {
  std::vector<Hook> out;
  auto add = [&](Hook h) {
    const bool seen = std::any_of(out.begin(), out.end(),
                                  [&](const Hook& x) { return x.name == h.name && x.kind_alias == h.kind_alias; });
    if (!seen) out.push_back(std::move(h));
  };
  auto predicate_hooks = [&](const std::vector<ResolvedPredicate>& predicates, const std::string& k,
                             const std::string& site) {
    for (const ResolvedPredicate& p : predicates) {
      if (p.type != PredicateKind::Hook) continue;
      Hook h{static_cast<std::size_t>(-1),
             HookRole::Predicate,
             file_stem(p.hook) + "_predicate",
             "bool",
             {{"rr::EventType", "type"},
              {"const " + k + "*", k == watched_metadata_type() ? "old_metadata" : "old_object"},
              {"const " + k + "&", k == watched_metadata_type() ? "metadata" : "object"}},
             k == watched_metadata_type() ? "Whether an event (" + site +
                                                ") reaches the reconciler, given the object's metadata: old_metadata "
                                                "is set on updates only."
                                          : "Whether an event of a " + k + " (" + site +
                                                ") reaches the reconciler: old_object is set on updates only."};
      h.site = site;
      h.location = p.location;
      h.kind_alias = k;
      add(std::move(h));
    }
  };
  if (!spec.duck)
    predicate_hooks(spec.predicates, alias_of(spec, names, spec.resource), "the predicates of the resource");
  for (const ResolvedStep& step : spec.steps) {
    for (const ResolvedKind* k : step_watched_kinds(step))
      predicate_hooks(step.predicates, alias_of(spec, names, *k), "the predicates of step " + step.name);
  }
  for (const ResolvedWatch& w : spec.watches) {
    // A metadata-only watch's hooks take the objects' metadata (rr::ObjectMeta).
    const std::string& k = w.metadata_only ? watched_metadata_type() : alias_of(spec, names, w.kind);
    const std::string site = std::string(w.metadata_only ? "the metadata-only watch of " : "the watch of ") +
                             w.kind.kind;
    Hook h{static_cast<std::size_t>(-1),
           HookRole::Map,
           file_stem(w.map) + "_map",
           "std::vector<rr::ObjectKey>",
           {{"const " + k + "&", w.metadata_only ? "metadata" : "object"}},
           "The " + names.resource_alias + "s to reconcile when a " +
               (w.metadata_only ? w.kind.kind + "'s metadata" : k) + " changes (its keys: namespace and name)."};
    h.site = site;
    h.location = w.location;
    h.kind_alias = k;
    add(std::move(h));
    if (w.metadata_only) predicate_hooks(w.predicates, k, site);
    else predicate_hooks(w.predicates, alias_of(spec, names, w.kind), site);
  }
  return out;
}

std::string hook_signature(const Hook& hook, bool with_names) {
  std::string out = hook.return_type + " " + hook.name + "(";
  for (std::size_t i = 0; i < hook.params.size(); ++i) {
    if (i > 0) out += ", ";
    out += hook.params[i].type;
    if (with_names) out += " " + hook.params[i].name;
  }
  return out + ") const";
}

std::vector<std::string> condition_types(const ResolvedSpec& spec) {
  std::vector<std::string> out;
  for (const std::string& type : spec.conditions) {
    if (type == "Ready" || std::find(out.begin(), out.end(), type) != out.end()) continue;
    out.push_back(type);
  }
  return out;
}

}  // namespace rrgen
