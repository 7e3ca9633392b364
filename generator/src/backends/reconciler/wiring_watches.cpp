// <Name>ControllerOptions: the spec's `predicates:`, `watches:` and `reconcileTimeout:` as the
// rr::ControllerOptions of the reconciler's controller (rr/controller/sources.hpp), declared in
// <stem>_reconciler.hpp and defined in <stem>_reconciler.cpp with the checks of the hooks they call.
#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "backends/reconciler/wiring_text.hpp"
#include "support/naming.hpp"
#include "support/text_template.hpp"

namespace rrgen::wiring {
namespace {

bool watch_any_hook(const std::vector<Hook>& hooks, HookRole role) {
  for (const Hook& h : hooks)
    if (h.role == role) return true;
  return false;
}

const Hook& watch_predicate_hook(const std::vector<Hook>& hooks, const std::string& hook,
                                 const std::string& kind_alias) {
  const std::string name = file_stem(hook) + "_predicate";
  for (const Hook& h : hooks)
    if (h.role == HookRole::Predicate && h.name == name && h.kind_alias == kind_alias) return h;
  throw std::logic_error("no predicate hook " + name + " for " + kind_alias);
}

// The C++ expression of one predicate on a watch of `kind` (of its metadata only: `metadata_only`).
std::string watch_predicate_expression(const Ctx& c, const std::vector<Hook>& hooks, const ResolvedPredicate& p,
                                       const ResolvedKind& kind, bool metadata_only) {
  switch (p.type) {
    case PredicateKind::GenerationChanged: return "rr::predicates::generation_changed()";
    case PredicateKind::LabelChanged: return "rr::predicates::label_changed()";
    case PredicateKind::AnnotationChanged: return "rr::predicates::annotation_changed()";
    case PredicateKind::ResourceVersionChanged: return "rr::predicates::resource_version_changed()";
    case PredicateKind::LabelSelector: return "rr::predicates::label_selector(" + cpp_string_literal(p.selector) + ")";
    case PredicateKind::Hook: {
      const std::string& k = metadata_only ? watched_metadata_type() : alias_of(c.spec, c.names, kind);
      const Hook& h = watch_predicate_hook(hooks, p.hook, k);
      if (metadata_only) {
        return "metadata_predicate([hooks](rr::EventType type, const " + k + "* old_metadata, const " + k +
               "& metadata) { return hooks->" + h.name + "(type, old_metadata, metadata); })";
      }
      return "typed_predicate<" + k + ">([hooks](rr::EventType type, const " + k + "* old_object, const " + k +
             "& object) { return hooks->" + h.name + "(type, old_object, object); })";
    }
  }
  return "";
}

// `{a, b}` as the members of a braced list at the printer's column, one a line.
void watch_predicate_list(Printer& p, const Ctx& c, const std::vector<Hook>& hooks,
                          const std::vector<ResolvedPredicate>& predicates, const ResolvedKind& kind,
                          bool metadata_only = false) {
  auto items = p.indented(2);
  for (const ResolvedPredicate& pred : predicates)
    p.print("$e$,", {{"e", watch_predicate_expression(c, hooks, pred, kind, metadata_only)}});
}

bool watch_any_metadata_only(const ResolvedSpec& spec) {
  return std::any_of(spec.watches.begin(), spec.watches.end(), [](const ResolvedWatch& w) { return w.metadata_only; });
}

std::string watch_kind_info(const Ctx& c, const ResolvedKind& k) {
  return "rr::kind_info_of<" + alias_of(c.spec, c.names, k) + ">()";
}

// The KindInfo of a kind watched metadata-only, spelled out: the wiring has no C++ type for it.
std::string watch_kind_literal(const ResolvedKind& k) {
  return "rr::KindInfo{.gvk = {" + cpp_string_literal(k.group) + ", " + cpp_string_literal(k.version) + ", " +
         cpp_string_literal(k.kind) + "}, .plural = " + cpp_string_literal(k.plural) +
         ", .list_kind = " + cpp_string_literal(k.kind + "List") +
         ", .scope = " + (k.namespaced ? "rr::Scope::Namespaced" : "rr::Scope::Cluster") + "}";
}

// What the spec sets, for the declaration's comment.
std::string watch_summary(const ResolvedSpec& spec) {
  std::vector<std::string> parts;
  if (!spec.predicates.empty()) parts.emplace_back("the resource's predicates");
  for (const ResolvedStep& s : spec.steps)
    if (!s.predicates.empty()) parts.push_back("step " + s.name + "'s predicates");
  for (const ResolvedWatch& w : spec.watches)
    parts.push_back((w.metadata_only ? "the metadata-only watch of " : "the watch of ") + w.kind.kind);
  if (!spec.reconcile_timeout.empty()) parts.push_back("a reconcile timeout of " + spec.reconcile_timeout);
  std::string out;
  for (std::size_t i = 0; i < parts.size(); ++i)
    out += (i == 0 ? "" : i + 1 == parts.size() ? " and " : ", ") + parts[i];
  return out;
}

}  // namespace

bool has_controller_options(const ResolvedSpec& spec) {
  if (!spec.predicates.empty() || !spec.watches.empty() || !spec.reconcile_timeout.empty()) return true;
  for (const ResolvedStep& s : spec.steps)
    if (!s.predicates.empty()) return true;
  return false;
}

void controller_options_includes(const Ctx& c, bool header, std::set<std::string>& system,
                                 std::set<std::string>& local) {
  if (!has_controller_options(c.spec)) return;
  const std::vector<Hook> hooks = watch_hooks(c.spec, c.names);
  if (header) {
    // What the hooks' signatures name: rr::ObjectKey, rr::EventType.
    if (watch_any_hook(hooks, HookRole::Map)) {
      local.insert("rr/client/object_key.hpp");
      system.insert("vector");
    }
    if (watch_any_hook(hooks, HookRole::Predicate)) local.insert("rr/controller/predicates.hpp");
    if (watch_any_metadata_only(c.spec)) local.insert("rr/core/meta.hpp");  // rr::ObjectMeta
    return;
  }
  local.insert("rr/controller/controller.hpp");
  if (!c.spec.reconcile_timeout.empty()) system.insert("chrono");
  system.insert("vector");
}

std::string controller_options_declaration(const Ctx& c) {
  if (!has_controller_options(c.spec)) return "";
  const WiringNames& n = c.names;
  Printer p("controller options declaration");
  p.print(
      R"(
$comment$
$declaration$)",
      {{"comment",
        wrap_comment(
            "The controller options " + n.spec_file + " sets: " + watch_summary(c.spec) + ". Fill them before " +
                "op.add_controller(options, ...) (rr/manager/operator_main.hpp); --reconcile-timeout, when given, " +
                "replaces the timeout. `hooks` serve the watches' hooks (nullptr: a default-constructed " +
                n.hooks_struct + ").",
            "// ")},
       {"declaration", wrap_parameters("void " + n.controller_options_function,
                                       {"rr::ControllerOptions& options", hooks_param(c) + " = nullptr"}, ";", 0)}});
  return p.take_block();
}

std::string controller_options_checks(const Ctx& c) {
  if (!has_controller_options(c.spec)) return "";
  const std::vector<Hook> hooks = watch_hooks(c.spec, c.names);
  Printer p("watch hook checks");
  for (const Hook& h : hooks) p.line(hook_check(c, h));
  const bool typed_hook = std::any_of(hooks.begin(), hooks.end(), [](const Hook& h) {
    return h.role == HookRole::Predicate && h.kind_alias != watched_metadata_type();
  });
  if (typed_hook) {
    p.print(R"(// A predicate hook over typed objects: each event's objects decoded as K.
template <class K, class F>
rr::Predicate typed_predicate(F decide) {
  return rr::predicates::hook([decide](const rr::PredicateEvent& event) {
    const K decoded = rr::from_object_json<K>(event.object);
    if (event.old_object == nullptr) return decide(event.type, static_cast<const K*>(nullptr), decoded);
    const K old_decoded = rr::from_object_json<K>(*event.old_object);
    return decide(event.type, &old_decoded, decoded);
  });
}
)");
  }
  const bool metadata_hook = std::any_of(c.spec.watches.begin(), c.spec.watches.end(), [](const ResolvedWatch& w) {
    return w.metadata_only && std::any_of(w.predicates.begin(), w.predicates.end(),
                                          [](const ResolvedPredicate& pr) { return pr.type == PredicateKind::Hook; });
  });
  if (metadata_hook) {
    if (typed_hook) p.print("");
    p.print(R"(// A predicate hook over the metadata of a metadata-only watch's objects.
template <class F>
rr::Predicate metadata_predicate(F decide) {
  return rr::predicates::hook([decide](const rr::PredicateEvent& event) {
    const rr::ObjectMeta metadata = rr::object_metadata(event.object);
    if (event.old_object == nullptr) return decide(event.type, static_cast<const rr::ObjectMeta*>(nullptr), metadata);
    const rr::ObjectMeta old_metadata = rr::object_metadata(*event.old_object);
    return decide(event.type, &old_metadata, metadata);
  });
}
)");
  }
  return p.take();
}

std::string controller_options_definition(const Ctx& c) {
  if (!has_controller_options(c.spec)) return "";
  const std::vector<Hook> hooks = watch_hooks(c.spec, c.names);
  const ResolvedSpec& spec = c.spec;
  Printer p("controller options");
  p.print("");
  p.line(wrap_parameters("void " + c.names.controller_options_function,
                         {"rr::ControllerOptions& options", hooks_param(c)}, " {", 0));
  {
    auto body = p.indented();
    p.print("hooks = hooks_or_default(std::move(hooks));");
    if (!spec.reconcile_timeout.empty()) {
      p.print(R"(// reconcileTimeout: $text$
options.reconcile_timeout = std::chrono::nanoseconds($ns$);)",
              {{"text", spec.reconcile_timeout}, {"ns", std::to_string(spec.reconcile_timeout_ns)}});
    }
    if (!spec.predicates.empty()) {
      p.print("options.predicates.push_back(rr::WatchPredicates::for_kind({");
      watch_predicate_list(p, c, hooks, spec.predicates, spec.resource);
      p.print("}));");
    }
    // One entry per watch of the steps (sema made the predicates of a shared watch the same).
    std::vector<std::pair<bool, std::string>> done;  // (owns, C++ type)
    for (const ResolvedStep& s : spec.steps) {
      if (s.predicates.empty()) continue;
      for (const ResolvedKind* k : step_watched_kinds(s)) {
        const bool owns = s.child && s.child->cpp_type == k->cpp_type && s.finalizer.empty();
        const std::pair<bool, std::string> key{owns, k->cpp_type};
        if (std::find(done.begin(), done.end(), key) != done.end()) continue;
        done.push_back(key);
        p.print("// Step $step$: its $mode$ watch of $kind$.",
                {{"step", s.name}, {"mode", owns ? "Owns" : "Tracked"}, {"kind", k->kind}});
        p.print("options.predicates.push_back(rr::WatchPredicates::$mode$($kind$.gvk, {",
                {{"mode", owns ? "owns" : "tracked"}, {"kind", watch_kind_info(c, *k)}});
        watch_predicate_list(p, c, hooks, s.predicates, *k);
        p.print("}));");
      }
    }
    for (const ResolvedWatch& w : spec.watches) {
      if (w.metadata_only) {
        p.print(R"(// metadataOnly: a metadata-only informer of $kind_name$ (PartialObjectMetadata).
options.watches.push_back(rr::MappedWatch{
    .kind = $kind$,
    .map = [hooks](const rr::Json& object) { return hooks->$map$(rr::object_metadata(object)); },)",
                {{"kind_name", w.kind.kind}, {"kind", watch_kind_literal(w.kind)}, {"map", file_stem(w.map) + "_map"}});
      } else {
        const std::string& k = alias_of(spec, c.names, w.kind);
        p.print(R"(options.watches.push_back(rr::MappedWatch{
    .kind = $kind$,
    .map = [hooks](const rr::Json& object) { return hooks->$map$(rr::from_object_json<$k$>(object)); },)",
                {{"kind", watch_kind_info(c, w.kind)}, {"map", file_stem(w.map) + "_map"}, {"k", k}});
      }
      {
        auto member = p.indented(2);
        if (!w.predicates.empty()) {
          p.print(".predicates = {");
          watch_predicate_list(p, c, hooks, w.predicates, w.kind, w.metadata_only);
          p.print("},");
        }
        if (w.metadata_only) p.print(".metadata_only = true,");
      }
      p.print("});");
    }
  }
  p.print("}");
  return p.take_block();
}

}  // namespace rrgen::wiring
