// <stem>_reconciler.cpp: a concept and a static_assert per hook the spec requires (so a missing or
// mistyped hook fails the build naming it), then the reconciler tree built from the runtime's
// vocabulary. Members of a reconciler are wrapped at the printer's column, wherever it is nested.
#include <stdexcept>
#include <string_view>

#include "backends/reconciler/wiring_text.hpp"
#include "support/naming.hpp"
#include "support/text_template.hpp"

namespace rrgen::wiring {
namespace {

// A watch hook may be overloaded for several kinds: each overload has its own concept (the one of
// a metadata-only watch's: ...ForMetadata).
std::string concept_name(const Hook& h) {
  if (h.kind_alias == watched_metadata_type()) return "Has" + pascal_case(h.name) + "ForMetadata";
  return "Has" + pascal_case(h.name) + (h.kind_alias.empty() ? "" : "For" + h.kind_alias);
}

}  // namespace

std::string hook_check(const Ctx& c, const Hook& h) {
  std::vector<std::string> params{"const H& hooks"};
  std::string args;
  for (const HookParam& p : h.params) {
    params.push_back(p.type + " " + p.name);
    args += (args.empty() ? "" : ", ") + p.name;
  }
  const std::string call = "hooks." + h.name + "(" + args + ")";
  std::string site;
  if (h.site.empty()) {
    const ResolvedStep& s = c.spec.steps[h.step];
    site = "step '" + s.name + "' (" + step_location(c.spec, s) + ")";
  } else {
    ResolvedStep at;  // for its location's text
    at.location = h.location;
    site = h.site + " (" + step_location(c.spec, at) + ")";
  }
  const std::string message = "rrgen: " + site + " needs hook '" + hook_signature(h, false) + "' in struct " +
                              c.names.hooks_struct + " (" + c.names.hooks_header + ")";
  Printer p("hook check");
  p.print(R"(template <class H>
$concept$
  $requirement$
};
static_assert($name$<$hooks$>,
              $message$);
)",
          {{"concept", wrap_parameters("concept " + concept_name(h) + " = requires", params, " {", 0)},
           {"requirement", h.return_type == "void" ? call + ";"
                                                   : "{ " + call + " } -> std::convertible_to<" + h.return_type + ">;"},
           {"name", concept_name(h)},
           {"hooks", c.names.hooks_struct},
           {"message", cpp_string_literal(message)}});
  return p.take();
}

namespace {

// A lambda forwarding to a hook, as the member `member` at the printer's column:
// `.sync = [hooks](rr::Context& ctx, T& t) -> rr::Error { return hooks->x(ctx, t); },`.
void forwarder(Printer& p, const std::string& member, const Hook& h) {
  std::vector<std::string> params;
  std::string args;
  for (const HookParam& param : h.params) {
    params.push_back(param.type + " " + param.name);
    args += (args.empty() ? "" : ", ") + param.name;
  }
  const std::string call = "hooks->" + h.name + "(" + args + ");";
  const bool returns = h.return_type != "void";
  p.print(R"($head$
  $body$
},)",
          {{"head", wrap_parameters("." + member + " = [hooks]", params, returns ? " -> " + h.return_type + " {" : " {",
                                    p.column())},
           {"body", returns ? "return " + call : call}});
}

const Hook& hook_for(const Ctx& c, std::size_t step, HookRole role) {
  for (const Hook& h : c.hooks) {
    if (h.step == step && h.role == role) return h;
  }
  throw std::logic_error("step " + std::to_string(step) + " has no hook of the role asked for");
}

// "deployment_merge" -> "deployment_sanitize": the optional hook beside a child step's merge hook.
std::string sanitize_hook_name(const Hook& merge) {
  const std::string& name = merge.name;
  return name.substr(0, name.size() - std::string_view("merge").size()) + "sanitize";
}

// The optional hook of a child step: what the object manager logs in place of the child (a
// Secret without its data). Wired when the hooks declare it, with no check when they do not.
std::string sanitizer(const Ctx& c, std::size_t step, const std::string& child) {
  const std::string hook = sanitize_hook_name(hook_for(c, step, HookRole::Merge));
  Printer p("sanitizer");
  p.print(R"(// Optional hook 'rr::Json $hook$(const $child$&) const':
// what the logs show in place of the child $child$ (a Secret without its data, say); without
// it, the whole object.
template <class H>
rr::Sanitizer<$child$> $hook$r(const std::shared_ptr<const H>& hooks) {
  // decltype: the hook is found even when the rr::Json it returns is only declared here.
  if constexpr (requires(const H& h, const $child$& child) { typename std::type_identity<decltype(h.$hook$(child))>::type; }) {
    static_assert(requires(const H& h, const $child$& child) { h.$hook$(child).dump(); },
                  "rrgen: hook '$hook$' must return an rr::Json, defined where the hooks are declared: include rr/core/json.hpp");
    return [hooks](const $child$& child) { return hooks->$hook$(child); };
  } else {
    return {};
  }
}
)",
          {{"hook", hook}, {"child", child}});
  return p.take();
}

std::string tracked_kind(const Ctx& c, const ResolvedKind& k) {
  return "rr::kind_info_of<" + alias_of(c.spec, c.names, k) + ">()";
}

void on_setup(Printer& p, const Ctx& c, const ResolvedStep& r) {
  if (r.tracks.empty()) return;
  p.print("// What the hooks read through the tracker re-runs the step when it changes.");
  if (r.tracks.size() == 1) {
    p.print(".on_setup = [](rr::Setup& setup) { setup.watches_tracked($kind$); },",
            {{"kind", tracked_kind(c, r.tracks.front())}});
    return;
  }
  Printer calls("tracked kinds");
  for (const ResolvedKind& k : r.tracks) calls.print("setup.watches_tracked($kind$);", {{"kind", tracked_kind(c, k)}});
  p.print(R"(.on_setup =
    [](rr::Setup& setup) {
      $calls$
    },)",
          {{"calls", calls.take_block()}});
}

// The reconciler's opening line (after `lead`) and members; the caller closes the brace.
void sync_reconciler(Printer& p, const Ctx& c, std::size_t i, const std::string& lead) {
  const ResolvedStep& s = c.spec.steps[i];
  p.print("$lead$rr::SyncReconciler<$t$>{", {{"lead", lead}, {"t", c.names.resource_alias}});
  auto members = p.indented(2);
  p.print(".name = $name$,", {{"name", cpp_string_literal(s.name)}});
  on_setup(p, c, s);
  if (s.during_finalization) p.print(".sync_during_finalization = true,");
  forwarder(p, s.with_result ? "sync_with_result" : "sync", hook_for(c, i, HookRole::Sync));
  if (has_finalize_hook(s)) {
    forwarder(p, s.with_result ? "finalize_with_result" : "finalize", hook_for(c, i, HookRole::Finalize));
  }
}

void object_manager(Printer& p, const Ctx& c, std::size_t i, const std::string& child) {
  const ResolvedStep& s = c.spec.steps[i];
  p.print(".child_object_manager =");
  auto value = p.indented(2);
  p.print("rr::UpdatingObjectManager<$child$>{", {{"child", child}});
  {
    auto members = p.indented(2);
    if (has_finalizer(s)) {
      if (s.type == StepKind::Child) {
        p.print(R"(// Kept on the $t$ while the child exists.
.finalizer = $finalizer$,)",
                {{"t", c.names.resource_alias}, {"finalizer", cpp_string_literal(s.finalizer)}});
      }
      p.print(R"(// No owner reference brings the child's changes back: the tracker does.
.track_desired = true,)");
    }
    forwarder(p, "merge_before_update", hook_for(c, i, HookRole::Merge));
    p.print(".sanitize = $hook$r(hooks),", {{"hook", sanitize_hook_name(hook_for(c, i, HookRole::Merge))}});
  }
  p.print("},");
}

// A `write: apply` child step: rr::ChildApplyReconciler over the child's apply configuration. Its
// field manager is the default, the reconciled kind in lower case (the controller's name).
void child_apply_reconciler(Printer& p, const Ctx& c, std::size_t i, const std::string& lead) {
  const ResolvedStep& s = c.spec.steps[i];
  p.print("$lead$rr::ChildApplyReconciler<$t$, $apply$>{",
          {{"lead", lead}, {"t", c.names.resource_alias}, {"apply", apply_alias_of(c.spec, c.names, *s.child)}});
  auto members = p.indented(2);
  p.print(".name = $name$,", {{"name", cpp_string_literal(s.name)}});
  on_setup(p, c, s);
  forwarder(p, "desired_child", hook_for(c, i, HookRole::Desired));
  forwarder(p, "reflect_child_status_on_parent", hook_for(c, i, HookRole::Reflect));
}

void child_reconciler(Printer& p, const Ctx& c, std::size_t i, const std::string& lead) {
  const ResolvedStep& s = c.spec.steps[i];
  if (s.apply) {
    child_apply_reconciler(p, c, i, lead);
    return;
  }
  const std::string& child = alias_of(c.spec, c.names, *s.child);
  const bool set = s.type == StepKind::ChildSet;
  p.print("$lead$rr::$reconciler$<$t$, $child$>{", {{"lead", lead},
                                                      {"reconciler", set ? "ChildSetReconciler" : "ChildReconciler"},
                                                      {"t", c.names.resource_alias},
                                                      {"child", child}});
  auto members = p.indented(2);
  p.print(".name = $name$,", {{"name", cpp_string_literal(s.name)}});
  on_setup(p, c, s);
  forwarder(p, set ? "desired_children" : "desired_child", hook_for(c, i, HookRole::Desired));
  object_manager(p, c, i, child);
  forwarder(p, set ? "reflect_children_status_on_parent" : "reflect_child_status_on_parent",
            hook_for(c, i, HookRole::Reflect));
  if (set) forwarder(p, "identify_child", hook_for(c, i, HookRole::Identify));
  if (has_finalizer(s)) {
    forwarder(p, "list_options", hook_for(c, i, HookRole::ListOptions));
    forwarder(p, "our_child", hook_for(c, i, HookRole::OurChild));
    if (set) {
      p.print(R"(// Kept on the $t$ while it has children; no owner references.
.finalizer = $finalizer$,)",
              {{"t", c.names.resource_alias}, {"finalizer", cpp_string_literal(s.finalizer)}});
    } else {
      p.print(".skip_owner_reference = true,");
    }
  }
}

std::string step_function(const Ctx& c, std::size_t i) {
  const ResolvedStep& s = c.spec.steps[i];
  const std::string& t = c.names.resource_alias;
  Printer p("step function");
  p.line(wrap_parameters("rr::SubReconciler<" + t + "> " + c.names.step_functions[i], {hooks_param(c)}, " {", 0));
  {
    auto body = p.indented();
    p.print("hooks = hooks_or_default(std::move(hooks));");
    if (s.type == StepKind::Sync && has_finalizer(s)) {
      p.print(R"(return rr::WithFinalizer<$t$>{
    .name = $name$,
    .finalizer = $finalizer$,
    .reconciler =)",
              {{"t", t}, {"name", cpp_string_literal(step_display_name(s))}, {"finalizer", cpp_string_literal(s.finalizer)}});
      {
        auto nested = p.indented(4);
        sync_reconciler(p, c, i, "");
        p.print("},");
      }
    } else if (s.type == StepKind::Sync) {
      sync_reconciler(p, c, i, "return ");
    } else {
      child_reconciler(p, c, i, "return ");
    }
    p.print("};");
  }
  p.print("}");
  return p.take_block();
}

std::string conditions_function(const Ctx& c) {
  const auto& conditions = c.conditions;
  if (conditions.empty()) return "";
  Printer members("condition members");
  for (const auto& [constant, type] : conditions) {
    members.print("std::string($struct$::$constant$),", {{"struct", c.names.condition_struct}, {"constant", constant}});
  }
  Printer p("conditions function");
  p.print(R"(const rr::ConditionSet& $function$() {
  static const rr::ConditionSet set = rr::ConditionSet::living({
      $members$
  });
  return set;
}

)",
          {{"function", c.names.conditions_function}, {"members", members.take_block()}});
  return p.take_block();
}

std::string root_function(const Ctx& c) {
  const WiringNames& n = c.names;
  const bool duck = c.spec.duck.has_value();
  Printer steps("steps");
  for (const std::string& f : n.step_functions) steps.print("$f$(hooks),", {{"f", f}});
  std::vector<std::string> params{"const rr::Config& config"};
  if (duck) params.emplace_back("const rr::KindInfo& kind");
  params.push_back(hooks_param(c));
  Printer p("root function");
  p.print(R"($signature$
  hooks = hooks_or_default(std::move(hooks));
  return rr::ResourceReconciler<$t$>{
      .name = $name$,
      $conditions$
      .reconciler =
          rr::Sequence<$t$>{
              $steps$
          },
      .config = config,
      $type$
  };
})",
          {{"signature", wrap_parameters("rr::Reconciler " + n.root_function, params, " {", 0)},
           {"t", n.resource_alias},
           // One root per kind: the kind in its name tells their logs apart.
           {"name", duck ? cpp_string_literal(n.name + " ") + " + kind.gvk.kind" : cpp_string_literal(n.name)},
           {"conditions", c.conditions.empty() ? "" : ".conditions = " + n.conditions_function + "(),"},
           {"steps", steps.take_block()},
           // A duck's kind, or `statusWrite: apply` (never both: a duck's status is a merge patch); the
           // status's field manager is the default, as the children's.
           {"type", duck                  ? "// The kind this root reconciles through the duck.\n.type = kind,"
                    : c.spec.status_apply ? "// statusWrite: apply (field manager: the kind, lower-cased).\n"
                                            ".status_write = rr::StatusWrite::Apply,"
                                          : ""}});
  return p.take_block();
}

// A duck spec's kinds: the arguments, else the environment variable, else the spec's defaults.
std::string kinds_function(const Ctx& c) {
  if (!c.spec.duck) return "";
  Printer p("kinds function");
  p.print(R"(
namespace {

// "apps/v1/Deployment" -> {"apps", "v1", "Deployment"}; "v1/Pod" is the core group.
rr::GroupVersionKind parse_kind(std::string_view text) {
  const std::size_t slash = text.rfind('/');
  if (slash == std::string_view::npos || slash == 0 || slash + 1 == text.size()) {
    throw std::invalid_argument("a kind is <apiVersion>/<Kind> (apps/v1/Deployment, v1/Pod), not \"" +
                                std::string(text) + "\"");
  }
  return rr::GroupVersionKind::from(text.substr(0, slash), text.substr(slash + 1));
}

}  // namespace

std::vector<rr::GroupVersionKind> $kinds$(const std::vector<std::string>& args) {
  std::vector<rr::GroupVersionKind> kinds;
  for (const std::string& text : args) kinds.push_back(parse_kind(text));
  if (!kinds.empty()) return kinds;
  if (const char* env = std::getenv($env$); env != nullptr && *env != '\0') {
    const std::string_view list(env);
    for (std::size_t start = 0; start <= list.size();) {
      const std::size_t comma = std::min(list.find(',', start), list.size());
      if (comma > start) kinds.push_back(parse_kind(list.substr(start, comma - start)));
      start = comma + 1;
    }
    if (!kinds.empty()) return kinds;
  }
  for (const auto& k : $watches$::resources) {
    kinds.push_back(rr::GroupVersionKind{std::string(k.group), std::string(k.version), std::string(k.kind)});
  }
  return kinds;
}
)",
          {{"kinds", c.names.name + "Kinds"},
           {"env", cpp_string_literal(duck_kinds_env(c))},
           {"watches", c.names.watches_struct}});
  return p.take_block();
}

}  // namespace

std::string hooks_or_default(const Ctx& c, const std::string& pass_to) {
  Printer p("hooks_or_default");
  p.print(R"(// nullptr: a default-constructed $hooks$.
template <class H>
std::shared_ptr<const H> hooks_or_default(std::shared_ptr<const H> hooks) {
  if (hooks) return hooks;
  if constexpr (std::is_default_constructible_v<H>) {
    return std::make_shared<const H>();
  } else {
    throw std::invalid_argument($no_default$);
  }
})",
          {{"hooks", c.names.hooks_struct},
           {"no_default",
            cpp_string_literal(c.names.hooks_struct + " has no default constructor: pass the hooks to " + pass_to)}});
  return p.take_block();
}

std::string emit_source(const Ctx& c) {
  const WiringNames& n = c.names;
  std::set<std::string> local{n.hooks_header, "rr/reconcilers/resource.hpp", "rr/reconcilers/sequence.hpp"};
  for (const ResolvedStep& s : c.spec.steps) {
    if (s.type == StepKind::Sync) local.insert("rr/reconcilers/sync.hpp");
    if (s.type == StepKind::Sync && has_finalizer(s)) local.insert("rr/reconcilers/with_finalizer.hpp");
    if (s.type == StepKind::Child)
      local.insert(s.apply ? "rr/reconcilers/child_apply.hpp" : "rr/reconcilers/child.hpp");
    if (s.type == StepKind::Child && s.apply) local.insert(apply_header(*s.child));
    if (s.type == StepKind::ChildSet) local.insert("rr/reconcilers/child_set.hpp");
  }
  std::set<std::string> standard_headers = {"concepts", "functional",  "memory", "stdexcept",
                                            "string",   "type_traits", "utility"};
  if (c.spec.duck) standard_headers.insert({"algorithm", "cstddef", "cstdlib", "string_view", "vector"});
  controller_options_includes(c, false, standard_headers, local);
  Printer checks("hook checks");
  for (const Hook& h : c.hooks) checks.line(hook_check(c, h));  // its lines, then a blank one
  if (has_controller_options(c.spec)) checks.line(controller_options_checks(c));
  for (std::size_t i = 0; i < c.spec.steps.size(); ++i) {
    const ResolvedStep& s = c.spec.steps[i];
    if ((s.type == StepKind::Child && !s.apply) || s.type == StepKind::ChildSet) {
      checks.line(sanitizer(c, i, alias_of(c.spec, c.names, *s.child)));
    }
  }
  Printer steps("step functions");
  for (std::size_t i = 0; i < c.spec.steps.size(); ++i) steps.print("\n$step$", {{"step", step_function(c, i)}});
  Printer p("reconciler source");
  p.print(
      R"($banner$
// The $name$ reconciler's wiring ($header$). Each hook it calls is checked
// below: one that $hooks_header$ lacks, or declares with another signature, fails the
// build with a message naming it.
#include "$header$"

$includes$

$namespace_open$
namespace {

// The hooks the spec requires, each as the wiring calls it: through a const $hooks$&
// (a const or static member function).
$checks$
$hooks_or_default$

}  // namespace

$conditions$
$root$
$kinds$
$steps$

$namespace_close$)",
      {{"banner", banner(c)},
       {"name", n.name},
       {"header", n.reconciler_header},
       {"hooks_header", n.hooks_header},
       {"includes", include_block(standard_headers, local)},
       {"namespace_open", namespace_open(c.spec.cpp_namespace)},
       {"hooks", n.hooks_struct},
       {"checks", checks.take_block()},
       {"hooks_or_default", hooks_or_default(c, n.root_function + " and the step reconcilers")},
       {"conditions", conditions_function(c)},
       {"root", root_function(c)},
       {"kinds", kinds_function(c)},
       {"steps", steps.take_block() + (has_controller_options(c.spec) ? "\n" + controller_options_definition(c) : "")},
       {"namespace_close", namespace_close(c.spec.cpp_namespace)}});
  return p.take();
}

}  // namespace rrgen::wiring
