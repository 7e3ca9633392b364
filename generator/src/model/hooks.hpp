// The names and hooks of a reconciler's generated wiring, computed once from the resolved spec:
// the wiring (emit_reconciler), the user-owned scaffolds (scaffold) and the docs all read them
// from here, so a hook is spelled the same everywhere.
//
// Hooks are member functions of the user's `struct <Name>Hooks` (<stem>_hooks.hpp), named
// `<snake(step)>_<hook>`. The wiring calls them through a `const <Name>Hooks&`, so a hook is a
// const member function (the scaffold writes them so) or a static one. T is the reconciled kind,
// C a step's child kind, each by its alias in the spec's namespace.
//
//   sync      rr::Error sync(rr::Context&, T&)                 withResult: rr::Outcome
//             rr::Error finalize(rr::Context&, T&)             with `finalize` or `finalizer`
//   child     rr::Desired<C> desired(rr::Context&, const T&)
//             void merge(C& current, const C& desired)
//             void reflect(rr::Context&, T&, const C* child, const rr::Error& err)
//   childSet  rr::DesiredChildren<C> desired(rr::Context&, const T&)
//             std::string identify(const C&)
//             void merge(C& current, const C& desired)
//             void reflect(rr::Context&, T&, const rr::ChildSetResult<C>&)
//   finalizer mode (child, childSet):
//             bool our_child(const T&, const C&)
//             rr::ListOptions list_options(rr::Context&, const T&)
//   watches (watch_hooks(), K the watched kind; named after the spec's `map:` and `hook:`):
//             std::vector<rr::ObjectKey> <snake(map)>_map(const K&)
//             bool <snake(hook)>_predicate(rr::EventType, const K* old_object, const K& object)
#pragma once
#include <cstddef>
#include <string>
#include <vector>

#include "model/reconciler.hpp"

namespace rrgen {

enum class HookRole { Sync, Finalize, Desired, Merge, Reflect, Identify, OurChild, ListOptions, Map, Predicate };

struct HookParam {
  std::string type;  // "rr::Context&"
  std::string name;  // "ctx"
};

struct Hook {
  std::size_t step = 0;  // index into ResolvedSpec::steps
  HookRole role = HookRole::Sync;
  std::string name;         // "target_image_sync"
  std::string return_type;  // "rr::Error"
  std::vector<HookParam> params;
  std::string doc;  // one sentence: what the hook decides
  // Map and Predicate hooks (watch_hooks) belong to no step: where they are asked for, for
  // messages ("the watch of ConfigMap"), and the spec's location of it.
  std::string site{};
  Location location{};
  std::string kind_alias{};  // Map, Predicate: the alias of the kind K the hook takes
};

// Every C++ name the wiring, the scaffolds and their tests use.
struct WiringNames {
  std::string name;                 // "Function": the spec's name
  std::string stem;                 // "function"
  std::string spec_file;            // "reconciler.yaml": base name, for messages and comments
  std::string reconciler_header;    // "function_reconciler.hpp"
  std::string reconciler_source;    // "function_reconciler.cpp"
  std::string wiring_test;          // "function_wiring_test.cpp"
  std::string hooks_struct;         // "FunctionHooks"
  std::string hooks_header;         // "function_hooks.hpp"
  std::string hooks_source;         // "function_hooks.cpp"
  std::string root_function;        // "FunctionReconciler"
  std::string conditions_function;  // "FunctionConditions"
  std::string condition_struct;     // "FunctionCondition": one constant per condition type
  std::string watches_struct;       // "FunctionWatches"
  std::string controller_options_function;  // "FunctionControllerOptions" (with predicates, watches or a timeout)
  std::vector<std::string> aliases;         // parallel to ResolvedSpec::kinds: "Function", "Image"
  std::vector<std::string> step_snake;      // parallel to steps: "target_image"
  std::vector<std::string> step_functions;  // parallel to steps: "FunctionTargetImageReconciler"
  std::string resource_alias;       // "Function"
  std::string resource_param;       // "function": the reconciled object's parameter name
};

WiringNames wiring_names(const ResolvedSpec& spec);

// The alias of a kind the spec touches; std::logic_error for a kind not in spec.kinds.
const std::string& alias_of(const ResolvedSpec& spec, const WiringNames& names, const ResolvedKind& kind);
// A `write: apply` child's apply configuration: its alias ("DeploymentApply"), its C++ type
// ("k8s::apps::v1::DeploymentApply") and its header ("k8s/apps/v1/deployment_apply.hpp").
std::string apply_alias_of(const ResolvedSpec& spec, const WiringNames& names, const ResolvedKind& kind);
std::string apply_cpp_type(const ResolvedKind& kind);
std::string apply_header(const ResolvedKind& kind);

// The hooks one step requires, in declaration order.
std::vector<Hook> step_hooks(const ResolvedSpec& spec, const WiringNames& names, std::size_t step);
// Every hook, step by step.
std::vector<Hook> required_hooks(const ResolvedSpec& spec, const WiringNames& names);

// The Map and Predicate hooks of `watches:` and of the `predicates:` lists, in spec order: a hook
// named in several places for one kind is listed once (a name used for two kinds is an overload).
std::vector<Hook> watch_hooks(const ResolvedSpec& spec, const WiringNames& names);
// The type the hooks of a metadata-only watch take: "rr::ObjectMeta".
const std::string& watched_metadata_type();

// The kinds each Predicate hook of a step's `predicates:` takes: the child (its Owns watch, or its
// Tracked one in finalizer mode) and every tracked kind.
std::vector<const ResolvedKind*> step_watched_kinds(const ResolvedStep& step);

// "rr::Error target_image_sync(rr::Context& ctx, Function& function) const" (with_names) or
// The Map and Predicate hooks of `watches:` and of the `predicates:` lists, in spec order: a hook
// named in several places for one kind is listed once (a name used for two kinds is an overload).
std::vector<Hook> watch_hooks(const ResolvedSpec& spec, const WiringNames& names);

// The kinds each Predicate hook of a step's `predicates:` takes: the child (its Owns watch, or its
// Tracked one in finalizer mode) and every tracked kind.
std::vector<const ResolvedKind*> step_watched_kinds(const ResolvedStep& step);

// "rr::Error target_image_sync(rr::Context&, Function&) const".
std::string hook_signature(const Hook& hook, bool with_names);

// The condition types Ready summarises: as listed, duplicates and "Ready" itself dropped (as
// rr::ConditionSet::living does).
std::vector<std::string> condition_types(const ResolvedSpec& spec);

// "sync", "child", "childSet".
std::string step_type_name(StepKind type);
// "reconciler.yaml:9:5": where a step is written, with the spec file's base name.
std::string step_location(const ResolvedSpec& spec, const ResolvedStep& step);

// Whether a step adds and clears a finalizer (sync: WithFinalizer; child / childSet: finalizer mode).
inline bool has_finalizer(const ResolvedStep& step) { return !step.finalizer.empty(); }
// Whether a sync step has a finalize hook.
inline bool has_finalize_hook(const ResolvedStep& step) {
  return step.type == StepKind::Sync && (step.finalize || has_finalizer(step));
}

}  // namespace rrgen
