#include "backends/scaffold/scaffold.hpp"

#include <set>
#include <string>
#include <vector>

#include "model/hooks.hpp"
#include "model/webhook_hooks.hpp"
#include "support/naming.hpp"
#include "support/printer.hpp"
#include "support/text_template.hpp"

namespace rrgen {
namespace {

constexpr std::size_t kWidth = 100;

struct Scaffold {
  const ResolvedSpec& spec;
  const WiringNames& names;
  std::vector<Hook> hooks;
  std::vector<WebhookHook> webhook_hooks;  // empty without `webhooks:`
  std::vector<Hook> watch_hooks;           // the Map and Predicate hooks of `watches:` and `predicates:`
};

// Parameters the scaffolded body uses keep their names; the others are commented out so that the
// no-op compiles without unused-parameter warnings.
bool body_uses(const Hook& h, const HookParam& p, const WiringNames& names) {
  switch (h.role) {
    case HookRole::Merge: return true;
    case HookRole::Identify: return p.name == "child";
    case HookRole::ListOptions: return p.name == names.resource_param;
    default: return false;
  }
}

std::string definition_head(const Scaffold& s, const Hook& h) {
  std::vector<std::string> params;
  for (const HookParam& p : h.params) {
    params.push_back(p.type + (body_uses(h, p, s.names) ? " " + p.name : " /*" + p.name + "*/"));
  }
  return wrap_parameters(h.return_type + " " + s.names.hooks_struct + "::" + h.name, params, " const", 0);
}

std::string declaration(const Hook& h) {
  std::vector<std::string> params;
  for (const HookParam& p : h.params) params.push_back(p.type + " " + p.name);
  return wrap_parameters(h.return_type + " " + h.name, params, " const;", 2);
}

std::string hook_of(const Scaffold& s, std::size_t step, HookRole role) {
  for (const Hook& h : s.hooks) {
    if (h.step == step && h.role == role) return h.name;
  }
  return {};
}

std::string alias_list(const Scaffold& s, const std::vector<ResolvedKind>& kinds) {
  std::string out;
  for (std::size_t i = 0; i < kinds.size(); ++i) {
    if (i > 0) out += i + 1 == kinds.size() ? " and " : ", ";
    out += alias_of(s.spec, s.names, kinds[i]);
  }
  return out;
}

// "sync, tracks ConfigMap", "child Deployment", "childSet Worker, finalizer mode (x/y)".
std::string summary(const Scaffold& s, std::size_t i) {
  const ResolvedStep& step = s.spec.steps[i];
  std::string out = step_type_name(step.type);
  if (step.child) out += " " + alias_of(s.spec, s.names, *step.child);
  if (has_finalizer(step)) {
    out += step.type == StepKind::Sync ? ", behind the finalizer " + step.finalizer
                                       : ", finalizer mode (" + step.finalizer + ")";
  }
  if (step.apply) out += ", server-side apply";
  if (!step.tracks.empty()) out += ", tracks " + alias_list(s, step.tracks);
  return out;
}

// "// ---- <title> ----...", wrapped when it does not fit.
std::string section_rule(std::string rule) {
  if (rule.size() + 3 < kWidth) return rule + " " + std::string(kWidth - 3 - rule.size(), '-');
  return wrap_comment(rule.substr(3), "// ", kWidth - 2);
}

// The webhooks' hooks, one section per webhook, after the steps' (docs/reconciler-spec.md#webhooks).
std::string webhook_declarations(const Scaffold& s) {
  std::string out;
  std::string section;
  for (const WebhookHook& h : s.webhook_hooks) {
    if (h.webhook != section) {
      section = h.webhook;
      out += "\n\n" + section_rule("// ---- webhook " + section + " (" + webhook_location(s.spec, h) + ")");
    }
    std::vector<std::string> params;
    for (const HookParam& p : h.params) params.push_back(p.type + " " + p.name);
    out += "\n\n" + wrap_comment(h.doc, "// ", kWidth - 2) + "\n" +
           wrap_parameters(h.return_type + " " + h.name, params, " const;", 2);
  }
  return out;
}

// Where a watch hook is asked for in the spec: "reconciler.yaml:24:5".
std::string watch_location(const Scaffold& s, const Hook& h) {
  ResolvedStep at;  // for its location's text
  at.location = h.location;
  return step_location(s.spec, at);
}

// "the watch of ConfigMap (reconciler.yaml:24:5)".
std::string watch_site(const Scaffold& s, const Hook& h) { return h.site + " (" + watch_location(s, h) + ")"; }

// The hooks of `watches:` and of the `predicates:` lists, in one section after the steps'.
std::string watch_declarations(const Scaffold& s) {
  if (s.watch_hooks.empty()) return "";
  std::string out = "\n\n" + section_rule("// ---- watches and predicates (" + s.names.spec_file + ")");
  for (const Hook& h : s.watch_hooks) {
    out += "\n\n" + wrap_comment(h.doc + " Asked for at " + watch_location(s, h) + ".", "// ", kWidth - 2) + "\n" +
           declaration(h);
  }
  return out;
}

// ---- src/<stem>_hooks.hpp -----------------------------------------------------------------------

std::string hooks_header(const Scaffold& s) {
  std::set<std::string> system, rr;
  std::vector<const Hook*> all;
  for (const Hook& h : s.hooks) all.push_back(&h);
  for (const Hook& h : s.watch_hooks) all.push_back(&h);
  for (const Hook* hook : all) {
    const Hook& h = *hook;
    std::string text = h.return_type;
    for (const HookParam& p : h.params) text += " " + p.type;
    if (text.find("std::vector") != std::string::npos) system.insert("<vector>");
    if (text.find("rr::ObjectKey") != std::string::npos) rr.insert("rr/client/object_key.hpp");
    if (text.find("rr::EventType") != std::string::npos) rr.insert("rr/controller/predicates.hpp");
    if (text.find("rr::ObjectMeta") != std::string::npos) rr.insert("rr/core/meta.hpp");
    if (text.find("std::string") != std::string::npos) system.insert("<string>");
    if (text.find("rr::Context") != std::string::npos) rr.insert("rr/reconcilers/context.hpp");
    if (text.find("rr::Error") != std::string::npos) rr.insert("rr/reconcilers/error.hpp");
    if (text.find("rr::Outcome") != std::string::npos) rr.insert("rr/reconcilers/result.hpp");
    if (text.find("rr::Desired<") != std::string::npos) rr.insert("rr/reconcilers/object_manager.hpp");
    if (text.find("rr::DesiredChildren<") != std::string::npos) rr.insert("rr/reconcilers/child_set.hpp");
    if (text.find("rr::ListOptions") != std::string::npos) rr.insert("rr/client/options.hpp");
  }
  for (const WebhookHook& h : s.webhook_hooks) {
    rr.insert("rr/reconcilers/error.hpp");
    if (h.params.front().type == "rr::Context&") rr.insert("rr/reconcilers/context.hpp");
    if (h.params.back().name == "warnings") system.insert("<string>"), system.insert("<vector>");
  }
  std::string system_includes, rr_includes;
  for (const auto& h : system) system_includes += (system_includes.empty() ? "" : "\n") + ("#include " + h);
  for (const auto& h : rr) rr_includes += (rr_includes.empty() ? "" : "\n") + ("#include \"" + h + "\"");

  std::string declarations;
  for (std::size_t i = 0; i < s.spec.steps.size(); ++i) {
    const ResolvedStep& step = s.spec.steps[i];
    if (i > 0) declarations += "\n\n";
    std::string rule = "// ---- " + step.name + ": " + summary(s, i) + " (" + step_location(s.spec, step) + ")";
    if (rule.size() + 3 < kWidth) {
      rule += " " + std::string(kWidth - 3 - rule.size(), '-');
    } else {
      rule = wrap_comment(rule.substr(3), "// ", kWidth - 2);
    }
    declarations += rule;
    for (const Hook& h : s.hooks) {
      if (h.step != i) continue;
      declarations += "\n\n" + wrap_comment(h.doc, "// ", kWidth - 2) + "\n" + declaration(h);
    }
  }
  declarations += watch_declarations(s);
  declarations += webhook_declarations(s);
  const std::string& ns = s.spec.cpp_namespace;
  return fill_embedded_template(
      "templates/scaffold/hooks.hpp.tmpl",
      {{"name", s.names.name},
       {"spec_file", s.names.spec_file},
       {"reconciler_source", s.names.reconciler_source},
       {"reconciler_header", s.names.reconciler_header},
       {"hooks", s.names.hooks_struct},
       {"root_function", s.names.root_function},
       {"system_includes", system_includes},
       {"rr_includes", rr_includes},
       {"open_namespace", ns.empty() ? "" : "namespace " + ns + " {"},
       {"close_namespace", ns.empty() ? "" : "}  // namespace " + ns},
       {"declarations", declarations}});
}

// ---- src/<stem>_hooks.cpp -----------------------------------------------------------------------

std::string body_template(const Hook& h, StepKind type, bool apply) {
  switch (h.role) {
    case HookRole::Sync: return "sync";
    case HookRole::Finalize: return "finalize";
    case HookRole::Desired:
      return type == StepKind::ChildSet ? "desired_children" : apply ? "desired_apply" : "desired";
    case HookRole::Merge: return "merge";
    case HookRole::Reflect: return type == StepKind::ChildSet ? "reflect_children" : "reflect";
    case HookRole::Identify: return "identify";
    case HookRole::OurChild: return "our_child";
    case HookRole::ListOptions: return "list_options";
    case HookRole::Map:        // the watch hooks (model/hooks.hpp's watch_hooks) have
    case HookRole::Predicate:  // watch_hook_definition: these are the steps' hooks only
      break;
  }
  return "sync";
}

std::string merge_copies(const ResolvedKind& child, std::string& merged) {
  std::string copies = "current.metadata.labels = desired.metadata.labels;";
  merged = "the labels";
  for (std::size_t i = 0; i < child.content_fields.size(); ++i) {
    const std::string& f = child.content_fields[i];
    copies += "\ncurrent." + f + " = desired." + f + ";";
    merged += (i + 1 == child.content_fields.size() ? " and " : ", ") + f;
  }
  return copies;
}

std::string hook_definition(const Scaffold& s, const Hook& h) {
  const ResolvedStep& step = s.spec.steps[h.step];
  const std::string& t = s.names.resource_alias;
  TemplateVars vars{{"signature", definition_head(s, h)},
                    {"resource", t},
                    {"resource_param", s.names.resource_param},
                    {"step", step.name}};
  if (step.child) vars["child"] = alias_of(s.spec, s.names, *step.child);
  if (step.child && step.apply) vars["apply"] = apply_alias_of(s.spec, s.names, *step.child);
  switch (h.role) {
    case HookRole::Sync:
      vars["tracks_hint"] =
          step.tracks.empty()
              ? ""
              : wrap_comment("It tracks " + alias_list(s, step.tracks) + ": read " +
                                 (step.tracks.size() == 1 ? "it" : "them") + " with rr::track_and_try_get<" +
                                 alias_of(s.spec, s.names, step.tracks.front()) +
                                 ">(ctx, {namespace, name}) (or track_and_get, track_and_list), so that a change"
                                 " re-runs this step.",
                             "// ", kWidth - 2);
      break;
    case HookRole::Finalize:
      vars["sync_hook"] = hook_of(s, h.step, HookRole::Sync);
      vars["finalizer_hint"] = wrap_comment(
          has_finalizer(step) ? "The finalizer " + step.finalizer + " keeps the " + t +
                                    " until this returns no error; then it is removed and the " + t + " goes."
                              : "It runs only while another finalizer keeps the " + t +
                                    " (this step adds none: give it `finalizer:` in the spec for that).",
          "// ", kWidth - 2);
      break;
    case HookRole::Desired: vars["identify_hook"] = hook_of(s, h.step, HookRole::Identify); break;
    case HookRole::Merge: {
      std::string merged;
      vars["copies"] = merge_copies(*step.child, merged);
      vars["merged"] = merged;
      break;
    }
    case HookRole::ListOptions:
      vars["our_child_hook"] = hook_of(s, h.step, HookRole::OurChild);
      vars["where"] = s.spec.resource.namespaced ? "the " + t + "'s namespace" : "every namespace";
      break;
    default: break;
  }
  std::string text = fill_embedded_template(
      "templates/scaffold/hooks/" + body_template(h, step.type, step.apply) + ".cpp.tmpl", vars);
  while (!text.empty() && text.back() == '\n') text.pop_back();
  return text;
}

// The scaffolded body of a watch hook: a map to no requests, a predicate that passes every event.
std::string watch_hook_definition(const Scaffold& s, const Hook& h) {
  const bool metadata = h.kind_alias == watched_metadata_type();
  std::string comment;
  if (h.role == HookRole::Map) {
    const std::string subject = metadata ? "object (given its metadata)" : h.kind_alias;
    comment = "TODO(you): the keys (namespace, name) of the " + s.names.resource_alias + "s this " + subject +
              " concerns: an owner reference, a label or an annotation naming them. On an update the keys of the " +
              "old and of the new " + subject + " are both reconciled. As scaffolded: none, so its events " +
              "reconcile nothing.";
  } else {
    comment = "TODO(you): whether this event of " +
              (metadata ? std::string("an object, given its metadata,") : "a " + h.kind_alias) +
              " reaches the reconciler (" + watch_site(s, h) + "); " + h.params.at(1).name +
              " is set on updates only. As scaffolded: every event passes, as if the spec named no predicate.";
  }
  std::string text = fill_embedded_template(
      h.role == HookRole::Map ? "templates/scaffold/hooks/map.cpp.tmpl" : "templates/scaffold/hooks/predicate.cpp.tmpl",
      {{"signature", definition_head(s, h)}, {"comment", wrap_comment(comment, "// ", kWidth - 2)}});
  while (!text.empty() && text.back() == '\n') text.pop_back();
  return text;
}

// The scaffolded body of a webhook hook: a no-op that allows, or a conversion through JSON.
std::string webhook_hook_definition(const Scaffold& s, const WebhookHook& h) {
  std::vector<std::string> params;
  const bool conversion = h.role == WebhookHookRole::ToHub || h.role == WebhookHookRole::FromHub;
  for (const HookParam& p : h.params) params.push_back(p.type + (conversion ? " " + p.name : " /*" + p.name + "*/"));
  TemplateVars vars{
      {"signature", wrap_parameters(h.return_type + " " + s.names.hooks_struct + "::" + h.name, params, " const", 0)}};
  std::string name = "default";
  const std::string& t = s.names.resource_alias;
  if (h.role == WebhookHookRole::Default) {
    vars["resource"] = t;
  } else if (h.role == WebhookHookRole::ValidateCreate || h.role == WebhookHookRole::ValidateUpdate ||
             h.role == WebhookHookRole::ValidateDelete) {
    name = "validate";
    vars["question"] = h.role == WebhookHookRole::ValidateCreate ? "may this " + t + " be created?"
                       : h.role == WebhookHookRole::ValidateUpdate
                           ? "may the " + t + " change from old_" + s.names.resource_param + "?"
                           : "may this " + t + " be deleted?";
    vars["webhook_name"] = s.spec.webhooks->validation->name;
  } else {
    const ResolvedConversion& c = *s.spec.webhooks->conversion;
    const WebhookNames n = webhook_names(s.spec, s.names);
    name = h.role == WebhookHookRole::ToHub ? "to_hub" : "from_hub";
    vars["version"] = c.spokes[h.spoke].version;
    vars["hub_version"] = c.hub.version;
    if (h.role == WebhookHookRole::ToHub) {
      vars["kind"] = s.spec.resource.kind;
      vars["hub"] = n.hub_alias;
    } else {
      vars["spoke"] = n.spoke_aliases[h.spoke];
    }
  }
  std::string text = fill_embedded_template("templates/scaffold/webhooks/" + name + ".cpp.tmpl", vars);
  while (!text.empty() && text.back() == '\n') text.pop_back();
  return text;
}

std::string hooks_source(const Scaffold& s) {
  std::set<std::string> system;
  std::string definitions;
  for (const Hook& h : s.hooks) {
    if (h.role == HookRole::Desired && s.spec.steps[h.step].type == StepKind::Child) system.insert("optional");
    // The apply configuration the desired hook returns (only declared by the reconciler header).
    if (h.role == HookRole::Desired && s.spec.steps[h.step].apply)
      system.insert(apply_header(*s.spec.steps[h.step].child));
    if (!definitions.empty()) definitions += "\n\n";
    definitions += hook_definition(s, h);
  }
  for (const Hook& h : s.watch_hooks) {
    if (h.role == HookRole::Map) system.insert("vector");
    if (!definitions.empty()) definitions += "\n\n";
    definitions += watch_hook_definition(s, h);
  }
  for (const WebhookHook& h : s.webhook_hooks) {
    if (h.role == WebhookHookRole::ToHub || h.role == WebhookHookRole::FromHub) {
      // Converts through rr::Json, which client.hpp only declares.
      system.insert("rr/client/client.hpp");
      system.insert("rr/core/json.hpp");
    }
    definitions += "\n\n" + webhook_hook_definition(s, h);
  }
  std::string includes;
  for (const auto& h : system) {
    if (h.find('/') == std::string::npos) includes += "\n#include <" + h + ">";
  }
  for (const auto& h : system) {
    if (h.find('/') != std::string::npos) includes += "\n#include \"" + h + "\"";
  }
  const std::string& ns = s.spec.cpp_namespace;
  return fill_embedded_template("templates/scaffold/hooks.cpp.tmpl",
                                {{"name", s.names.name},
                                 {"hooks_header", s.names.hooks_header},
                                 {"includes", includes},
                                 {"open_namespace", ns.empty() ? "" : "namespace " + ns + " {"},
                                 {"close_namespace", ns.empty() ? "" : "}  // namespace " + ns},
                                 {"definitions", definitions}});
}

// ---- tests/<snake(step)>_test.cpp ----------------------------------------------------------------

// "WebApp" -> "webapp": ChildApplyReconciler's default field manager for that reconciled kind.
std::string lower_case(std::string text) {
  for (char& ch : text) ch = ch >= 'A' && ch <= 'Z' ? static_cast<char>(ch - 'A' + 'a') : ch;
  return text;
}

std::string example(const Scaffold& s, std::size_t i, const std::string& ns, const std::string& name) {
  const ResolvedStep& r = s.spec.steps[i];
  TemplateVars vars{{"resource_param", s.names.resource_param}};
  if (r.type == StepKind::Sync) {
    std::string tracks;
    if (!r.tracks.empty()) {
      const ResolvedKind& k = r.tracks.front();
      const std::string object_ns = k.namespaced ? ns : std::string();
      tracks = "\n//     .expect_tracks = {\n//         rr::testing::create_track_request(" + cpp_string_literal(k.group) +
               ", " + cpp_string_literal(k.kind) + ", " + cpp_string_literal(object_ns) + ", \"<name>\")" +
               "\n//             .by(" + cpp_string_literal(ns) + ", " + cpp_string_literal(name) + ")},";
    }
    vars["expect_tracks"] = tracks;
    vars["failure_example"] = "";
    if (!r.tracks.empty()) {
      vars["failure_example"] = fill_embedded_template(
          "templates/scaffold/examples/sync_failure.tmpl",
          {{"resource_param", s.names.resource_param},
           {"tracked", alias_of(s.spec, s.names, r.tracks.front())},
           {"tracked_kind", r.tracks.front().kind},
           {"expect_tracks", tracks}});
    }
    std::string text = fill_embedded_template("templates/scaffold/examples/sync.tmpl", vars);
    while (!text.empty() && text.back() == '\n') text.pop_back();
    return text;
  }
  vars["child"] = alias_of(s.spec, s.names, *r.child);
  vars["desired_hook"] = hook_of(s, i, HookRole::Desired);
  vars["merge_hook"] = hook_of(s, i, HookRole::Merge);
  vars["reflect_hook"] = hook_of(s, i, HookRole::Reflect);
  if (r.apply) {
    vars["apply"] = apply_alias_of(s.spec, s.names, *r.child);
    vars["field_manager"] = lower_case(s.spec.resource.kind);  // ChildApplyReconciler's default
  }
  std::string text = fill_embedded_template(r.type == StepKind::ChildSet ? "templates/scaffold/examples/child_set.tmpl"
                                            : r.apply ? "templates/scaffold/examples/child_apply.tmpl"
                                                      : "templates/scaffold/examples/child.tmpl",
                                            vars);
  while (!text.empty() && text.back() == '\n') text.pop_back();
  return text;
}

std::string step_test(const Scaffold& s, std::size_t i) {
  const ResolvedStep& step = s.spec.steps[i];
  const std::string& p = s.names.resource_param;
  const std::string object_ns = s.spec.resource.namespaced ? "test-namespace" : "";
  const std::string object_name = "test-" + kebab_case(s.names.stem);
  std::string given;
  if (!object_ns.empty()) given += p + ".metadata.namespace_ = " + cpp_string_literal(object_ns) + ";\n";
  given += p + ".metadata.name = " + cpp_string_literal(object_name) + ";";
  // WithFinalizer adds its finalizer first (a patch the case would have to expect): in place already.
  const bool adds_finalizer = has_finalizer(step) && step.type != StepKind::Child;
  if (adds_finalizer) {
    given += "\n// The step's finalizer is in place (adding it is a patch a case would have to expect).";
    given += "\n" + p + ".metadata.finalizers = {" + cpp_string_literal(step.finalizer) + "};";
  }
  const std::string ns = s.spec.cpp_namespace.empty() ? "::" : s.spec.cpp_namespace + "::";
  return fill_embedded_template(
      "templates/scaffold/step_test.cpp.tmpl",
      {{"intro", wrap_comment("Step " + step.name + " of the " + s.names.name + " reconciler (" + summary(s, i) +
                                  "), on its own.",
                              "// ")},
       {"resource", s.names.resource_alias},
       {"resource_param", p},
       {"hooks_header", s.names.hooks_header},
       {"hooks", s.names.hooks_struct},
       {"ns", ns},
       {"step_function", s.names.step_functions[i]},
       {"given", given},
       {"first_case", cpp_string_literal("as scaffolded, the step leaves the " + s.names.resource_alias + " as it is")},
       {"example", example(s, i, object_ns, object_name)}});
}

// ---- tests/<stem>_test.cpp: a duck spec's table over its root --------------------------------------

// rr::testing's step tables take generated kinds only, so a duck spec gets one table of the root
// over its first default kind instead of one per step.
std::string duck_test(const Scaffold& s) {
  const ResolvedKind& k = s.spec.duck->kinds.front();
  const std::string ns = s.spec.cpp_namespace.empty() ? "::" : s.spec.cpp_namespace + "::";
  const std::string object_ns = k.namespaced ? "test-namespace" : "";
  const std::string object_name = "test-" + kebab_case(s.names.stem);
  return fill_embedded_template(
      "templates/scaffold/duck_test.cpp.tmpl",
      {{"intro", wrap_comment("The " + s.names.name + " reconciler over the " + s.spec.duck->name +
                                  " duck: its steps in order, on one kind.",
                              "// ")},
       {"hooks_header", s.names.hooks_header},
       {"ns", ns},
       {"watches", s.names.watches_struct},
       {"kind_text", (k.group.empty() ? "" : k.group + "/") + k.version + "/" + k.kind},
       {"scope", k.namespaced ? "info.scope = rr::Scope::Namespaced;" : "info.scope = rr::Scope::Cluster;"},
       {"root_function", s.names.root_function},
       {"request", cpp_string_literal(object_ns) + ", " + cpp_string_literal(object_name)},
       {"kind_name", k.kind},
       {"group", cpp_string_literal(k.group)},
       {"kind", cpp_string_literal(k.kind)},
       {"patch_ns", k.namespaced ? ".namespace_ = " + cpp_string_literal(object_ns) + ", " : ""},
       {"name", cpp_string_literal(object_name)}});
}

// ---- tests/<stem>_reconciler_test.cpp: with `statusWrite: apply`, a table over the root -------------

// The step tables never write the status; the root's table shows how a status apply is expected.
std::string status_apply_test(const Scaffold& s) {
  const std::string ns = s.spec.cpp_namespace.empty() ? "::" : s.spec.cpp_namespace + "::";
  const std::string object_ns = s.spec.resource.namespaced ? "test-namespace" : "";
  const std::string object_name = "test-" + kebab_case(s.names.stem);
  return fill_embedded_template(
      "templates/scaffold/status_apply_test.cpp.tmpl",
      {{"intro", wrap_comment("The " + s.names.name +
                                  " reconciler: its steps in order, then the status it computed, "
                                  "applied.",
                              "// ")},
       {"hooks_header", s.names.hooks_header},
       {"ns", ns},
       {"root_function", s.names.root_function},
       {"request", cpp_string_literal(object_ns) + ", " + cpp_string_literal(object_name)},
       {"resource", s.names.resource_alias},
       // ResourceReconciler's default field manager, as the children's.
       {"field_manager", lower_case(s.spec.resource.kind)}});
}

// ---- tests/<stem>_webhooks_test.cpp: the admission webhooks' tables ----------------------------

std::string webhooks_test(const Scaffold& s) {
  const ResolvedWebhooks& w = *s.spec.webhooks;
  const WebhookNames n = webhook_names(s.spec, s.names);
  const std::string& p = s.names.resource_param;
  const std::string& t = s.names.resource_alias;
  const std::string ns = s.spec.cpp_namespace.empty() ? "::" : s.spec.cpp_namespace + "::";
  std::string given;
  if (s.spec.resource.namespaced) given += p + ".metadata.namespace_ = \"test-namespace\";\n";
  given += p + ".metadata.name = " + cpp_string_literal("test-" + kebab_case(s.names.stem)) + ";";
  std::string tables;
  if (w.defaulting) {
    tables += fill_embedded_template("templates/scaffold/webhooks/defaulting_table.tmpl",
                                     {{"ns", ns},
                                      {"hooks", s.names.hooks_struct},
                                      {"function", n.defaulting_function},
                                      {"resource", t},
                                      {"resource_param", p}});
  }
  if (w.validation) {
    std::string cases;
    for (const std::string& op : w.validation->operations) {
      if (!cases.empty()) cases += "\n";
      if (op == "CREATE") {
        cases += "{\"as scaffolded, creating a " + t +
                 " is allowed\", {.operation = Operation::Create, .object = " + p + "}},";
      } else if (op == "UPDATE") {
        cases += "{\"as scaffolded, updating a " + t +
                 " is allowed\",\n {.operation = Operation::Update, .object = " + p + ", .old_object = " + p + "}},";
      } else {
        cases += "{\"as scaffolded, deleting a " + t +
                 " is allowed\", {.operation = Operation::Delete, .old_object = " + p + "}},";
      }
    }
    tables += fill_embedded_template("templates/scaffold/webhooks/validation_table.tmpl",
                                     {{"ns", ns},
                                      {"hooks", s.names.hooks_struct},
                                      {"function", n.validation_function},
                                      {"resource", t},
                                      {"resource_param", p},
                                      {"cases", cases}});
  }
  while (!tables.empty() && tables.back() == '\n') tables.pop_back();
  return fill_embedded_template("templates/scaffold/webhooks_test.cpp.tmpl", {{"name", s.names.name},
                                                                              {"hooks_header", s.names.hooks_header},
                                                                              {"webhooks_header", n.header},
                                                                              {"ns", ns},
                                                                              {"resource", t},
                                                                              {"resource_param", p},
                                                                              {"given", given},
                                                                              {"tables", tables}});
}

}  // namespace

OutputSet scaffold_user_files(const ResolvedSpec& spec, const GenerateOptions& /*options*/) {
  const WiringNames names = wiring_names(spec);
  const Scaffold s{spec, names, required_hooks(spec, names), webhook_hooks(spec, names), watch_hooks(spec, names)};
  OutputSet out;
  out.files.push_back({"src/" + names.hooks_header, hooks_header(s)});
  out.files.push_back({"src/" + names.hooks_source, hooks_source(s)});
  if (spec.duck) {
    out.files.push_back({"tests/" + names.stem + "_test.cpp", duck_test(s)});
  } else {
    for (std::size_t i = 0; i < spec.steps.size(); ++i) {
      out.files.push_back({"tests/" + names.step_snake[i] + "_test.cpp", step_test(s, i)});
    }
    if (spec.status_apply) out.files.push_back({"tests/" + names.stem + "_reconciler_test.cpp", status_apply_test(s)});
  }
  if (spec.webhooks && (spec.webhooks->defaulting || spec.webhooks->validation)) {
    out.files.push_back({"tests/" + names.stem + "_webhooks_test.cpp", webhooks_test(s)});
  }
  return out;
}

}  // namespace rrgen
