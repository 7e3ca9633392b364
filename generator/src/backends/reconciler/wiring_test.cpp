// <stem>_wiring_test.cpp: doctest cases that hold for any hooks that compile: the tree validates,
// each step builds and validates on its own, Ready summarises the spec's conditions, and set-up
// asks for exactly the watches <Name>Watches describes.
#include "backends/reconciler/wiring_text.hpp"
#include "model/webhook_hooks.hpp"
#include "support/text_template.hpp"

namespace rrgen::wiring {
namespace {

constexpr const char* kHelpers = R"gen(namespace {

using Watches = $watches$;

// "Owns apps/v1 Deployment (deployments)"
std::string watch_line(rr::WatchRequest::Mode mode, std::string_view group,
                       std::string_view version, std::string_view kind, std::string_view plural) {
  const char* modes[] = {"For", "Owns", "Tracked"};
  std::string line = modes[static_cast<int>(mode)];
  line.append(" ").append(group).append("/").append(version);
  line.append(" ").append(kind).append(" (").append(plural).append(")");
  return line;
}

std::string watch_line(rr::WatchRequest::Mode mode, const Watches::Kind& k) {
  return watch_line(mode, k.group, k.version, k.kind, k.plural);
}

// One line per watch, sorted: a difference shows as text.
std::string sorted(std::vector<std::string> lines) {
  std::sort(lines.begin(), lines.end());
  std::string out;
  for (const std::string& line : lines) out += line + "\n";
  return out;
}

}  // namespace
)gen";

// With webhooks: the server answers at every path the generated config names (a path it does not
// serve is a 404), and the conversion converts exactly the CRD's served versions.
constexpr const char* kWebhookPaths = R"gen(TEST_CASE($name$) {
  rr::webhook::Server server;
  $register$(server, rr::Config{});
  CHECK(server.has_handlers());
  for (const std::string_view path : {$paths$}) {
    CAPTURE(path);
    CHECK(server.respond(path, "application/json", "{}").status != 404);
  }
}
)gen";

constexpr const char* kConversionVersions = R"gen(TEST_CASE($name$) {
  const std::vector<std::string> served = {$versions$};
  CHECK($conversion$().versions() == served);
}
)gen";

constexpr const char* kTreeValidates = R"gen(TEST_CASE($name$) {
  rr::Validation validation;
  $root$(rr::Config{}).validate(validation);
  std::string errors;
  for (const std::string& error : validation.errors()) errors += error + "\n";
  CHECK_MESSAGE(validation.errors().empty(), errors);
}
)gen";

constexpr const char* kStepsBuild = R"gen(TEST_CASE($name$) {
  struct Step {
    std::string name;
    rr::SubReconciler<$t$> reconciler;
  };
  const std::vector<Step> steps = {
      $steps$
  };
  for (const Step& step : steps) {
    CAPTURE(step.name);
    REQUIRE(step.reconciler);
    CHECK(step.reconciler.display_name() == step.name);
    CHECK_NOTHROW(rr::validate_reconciler(step.reconciler));
  }
}
)gen";

constexpr const char* kConditions = R"gen(TEST_CASE($name$) {
  const rr::ConditionSet& set = $function$();
  CHECK(set.happy_type() == "Ready");
  const std::vector<std::string> listed{
      $types$
  };
  CHECK(set.dependents() == listed);
}
)gen";

constexpr const char* kWatches = R"gen(TEST_CASE($name$) {
  rr::Setup setup;
  $root$(rr::Config{}).setup(setup);
  std::vector<std::string> asked;
  for (const rr::WatchRequest& watch : setup.watches()) {
    const rr::KindInfo& k = watch.kind;
    asked.push_back(watch_line(watch.mode, k.gvk.group, k.gvk.version, k.gvk.kind, k.plural));
  }
  using Mode = rr::WatchRequest::Mode;
  std::vector<std::string> described{watch_line(Mode::For, Watches::resource)};
  for (const auto& k : Watches::owned) described.push_back(watch_line(Mode::Owns, k));
  for (const auto& k : Watches::tracked) described.push_back(watch_line(Mode::Tracked, k));
  CHECK(sorted(asked) == sorted(described));
})gen";

// A duck root: one per default kind, each validating and watching its own kind.
constexpr const char* kDuckHelper = R"gen(
// The KindInfo of one of the duck's default kinds (what discovery would say of it).
rr::KindInfo kind_info(const Watches::Kind& k) {
  rr::KindInfo kind;
  kind.gvk = {std::string(k.group), std::string(k.version), std::string(k.kind)};
  kind.plural = std::string(k.plural);
  return kind;
}
)gen";

constexpr const char* kDuckTreeValidates = R"gen(TEST_CASE($name$) {
  for (const auto& k : Watches::resources) {
    const std::string kind_name(k.kind);
    CAPTURE(kind_name);
    rr::Validation validation;
    $root$(rr::Config{}, kind_info(k)).validate(validation);
    std::string errors;
    for (const std::string& error : validation.errors()) errors += error + "\n";
    CHECK_MESSAGE(validation.errors().empty(), errors);
  }
}
)gen";

constexpr const char* kDuckKinds = R"gen(TEST_CASE($name$) {
  std::vector<rr::GroupVersionKind> defaults;
  for (const auto& k : Watches::resources) defaults.push_back(kind_info(k).gvk);
  if (std::getenv($env$) == nullptr) CHECK($kinds$() == defaults);
  const std::vector<rr::GroupVersionKind> given{{"", "v1", "Pod"}, {"example.dev", "v1", "Gadget"}};
  CHECK($kinds$({"v1/Pod", "example.dev/v1/Gadget"}) == given);
  CHECK_THROWS_WITH_AS($kinds$({"Pod"}), "a kind is <apiVersion>/<Kind> (apps/v1/Deployment, v1/Pod), not \"Pod\"",
                       std::invalid_argument);
}
)gen";

constexpr const char* kDuckWatches = R"gen(TEST_CASE($name$) {
  for (const auto& k : Watches::resources) {
    const std::string kind_name(k.kind);
    CAPTURE(kind_name);
    rr::Setup setup;
    $root$(rr::Config{}, kind_info(k)).setup(setup);
    std::vector<std::string> asked;
    for (const rr::WatchRequest& watch : setup.watches()) {
      const rr::KindInfo& w = watch.kind;
      asked.push_back(watch_line(watch.mode, w.gvk.group, w.gvk.version, w.gvk.kind, w.plural));
    }
    using Mode = rr::WatchRequest::Mode;
    std::vector<std::string> described{watch_line(Mode::For, k)};
    for (const auto& o : Watches::owned) described.push_back(watch_line(Mode::Owns, o));
    for (const auto& t : Watches::tracked) described.push_back(watch_line(Mode::Tracked, t));
    CHECK(sorted(asked) == sorted(described));
  }
})gen";

}  // namespace

namespace {

void webhook_cases(Printer& p, const Ctx& c, const std::string& ns) {
  const ResolvedWebhooks& w = *c.spec.webhooks;
  const WebhookNames names = webhook_names(c.spec, c.names);
  const std::string suite = c.names.name + " webhooks: ";
  const std::string paths_struct = ns + c.names.name + "WebhookPaths";
  std::string paths;
  for (const auto& [present, member] :
       {std::pair{w.defaulting.has_value(), "defaulting"}, std::pair{w.validation.has_value(), "validation"},
        std::pair{w.conversion.has_value(), "conversion"}}) {
    if (present) paths += std::string(paths.empty() ? "" : ", ") + paths_struct + "::" + member;
  }
  p.line();
  p.print(kWebhookPaths, {{"name", cpp_string_literal(suite + "each is served at the path config/webhook names")},
                          {"register", ns + names.register_function},
                          {"paths", paths}});
  if (!w.conversion) return;
  std::string versions = cpp_string_literal(w.conversion->hub.group + "/" + w.conversion->hub.version);
  for (const ResolvedKind& spoke : w.conversion->spokes)
    versions += ", " + cpp_string_literal(spoke.group + "/" + spoke.version);
  p.line();
  p.print(kConversionVersions,
          {{"name", cpp_string_literal(suite + "the conversion converts exactly the CRD's served versions")},
           {"versions", versions},
           {"conversion", ns + names.conversion_function}});
}

}  // namespace

std::string emit_wiring_test(const Ctx& c) {
  const WiringNames& n = c.names;
  const std::string ns = c.spec.cpp_namespace.empty() ? "" : c.spec.cpp_namespace + "::";
  const std::string suite = n.name + " wiring: ";
  const bool duck = c.spec.duck.has_value();
  std::set<std::string> local{n.reconciler_header};
  std::set<std::string> system{"algorithm", "string", "string_view", "vector"};
  if (duck) system.insert({"cstdlib", "stdexcept"});
  if (c.spec.webhooks) {
    local.insert(webhook_names(c.spec, n).header);
    local.insert("rr/webhook/server.hpp");
  }
  Printer p("wiring test");
  p.print(
      R"($banner$
// What holds for any hooks that compile: the reconciler tree validates, each step builds and
// validates on its own, the conditions and watches are the spec's. Tests of what the hooks do
// go in tests/ (a table per step).
#include <doctest/doctest.h>

$includes$

)",
      {{"banner", banner(c)}, {"includes", include_block(system, local)}});
  if (duck) {
    // The helpers' namespace, reopened for kind_info.
    std::string helpers = kHelpers;
    helpers.insert(helpers.rfind("}  // namespace"), std::string(kDuckHelper).substr(1) + "\n");
    p.print(helpers, {{"watches", ns + n.watches_struct}});
    p.line();
    p.print(kDuckTreeValidates,
            {{"name", cpp_string_literal(suite + "the reconciler tree validates for each default kind")},
             {"root", ns + n.root_function}});
    p.line();
    p.print(
        kDuckKinds,
        {{"name", cpp_string_literal(suite + "the kinds are the arguments, else the environment's, else the spec's")},
         {"kinds", ns + n.name + "Kinds"},
         {"env", cpp_string_literal(duck_kinds_env(c))}});
  } else {
    p.print(kHelpers, {{"watches", ns + n.watches_struct}});
    p.line();
    p.print(kTreeValidates,
            {{"name", cpp_string_literal(suite + "the reconciler tree validates")}, {"root", ns + n.root_function}});
  }
  p.line();
  Printer steps("steps");
  for (std::size_t i = 0; i < c.spec.steps.size(); ++i) {
    steps.print("{$name$, $function$()},", {{"name", cpp_string_literal(step_display_name(c.spec.steps[i]))},
                                             {"function", ns + n.step_functions[i]}});
  }
  p.print(kStepsBuild, {{"name", cpp_string_literal(suite + "each step builds and validates on its own")},
                        {"t", ns + n.resource_alias},
                        {"steps", steps.take_block()}});
  p.line();
  const auto& conditions = c.conditions;
  if (!conditions.empty()) {
    Printer types("condition types");
    for (const auto& constant_type : conditions) types.print("$type$,", {{"type", cpp_string_literal(constant_type.second)}});
    p.print(kConditions, {{"name", cpp_string_literal(suite + "Ready summarises the spec's conditions")},
                          {"function", ns + n.conditions_function},
                          {"types", types.take_block()}});
    p.line();
  }
  p.print(duck ? kDuckWatches : kWatches,
          {{"name", cpp_string_literal(suite + "set-up asks for the watches " + n.watches_struct + " describes")},
           {"root", ns + n.root_function}});
  if (c.spec.webhooks) webhook_cases(p, c, ns);
  return p.take();
}

}  // namespace rrgen::wiring
