// The spec's predicates, watches and reconcileTimeout: read (load/spec_watches.cpp), then resolved
// (sema/spec_resolve.cpp) against the built-in kinds.
#include "load/spec_watches.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "load/spec_reader.hpp"
#include "model/hooks.hpp"
#include "sema/sema.hpp"
#include "sema/spec_resolve.hpp"

using namespace rrgen;

namespace {

struct Read {
  SourceSet sources;
  Diagnostics diags;
  std::optional<ReconcilerSpec> spec;
  std::optional<ResolvedSpec> resolved;
};

// The header and a built-in resource (a Deployment in namespace ops); `body` starts on line 5.
std::unique_ptr<Read> read(const std::string& body, bool resolve = false) {
  auto r = std::make_unique<Read>();
  r->spec = read_spec_text(
      r->sources, "reconciler.yaml",
      "apiVersion: rrgen.dev/v1alpha1\nkind: ReconcilerSpec\nresource: apps/v1/Deployment\nnamespace: ops\n" + body,
      r->diags);
  if (resolve && r->spec) r->resolved = resolve_spec(*r->spec, Model{}, r->diags);
  return r;
}

std::string messages(const Read& r) {
  std::string out;
  for (const auto& d : r.diags.all()) out += format(d) + "\n";
  return out;
}
std::string lines(const std::vector<std::string>& expected) {
  std::string out;
  for (const auto& e : expected) out += e + "\n";
  return out;
}

const std::string kSteps = "reconcilers:\n  - sync: Only\n";

void check_errors(const std::string& body, const std::vector<std::string>& expected, bool resolve = false) {
  auto r = read(body, resolve);
  CHECK_FALSE((resolve ? r->resolved.has_value() : r->spec.has_value()));
  CHECK(messages(*r) == lines(expected));
}

}  // namespace

TEST_CASE("spec watches: predicates, watches and reconcileTimeout read and resolve") {
  auto r = read(R"(predicates:
  - GenerationChanged
  - labelSelector:
      matchLabels: {app: web}
      matchExpressions:
        - {key: tier, operator: In, values: [front, back]}
        - {key: example.com/skip, operator: DoesNotExist}
  - hook: OnlyMine
reconcileTimeout: 1m30s
watches:
  - kind: v1/ConfigMap
    map: SettingsToDeployments
    predicates: [LabelChanged, {hook: OnlyMine}]
reconcilers:
  - sync: Settings
    tracks: [v1/Secret]
    predicates: [ResourceVersionChanged]
  - child: Service
    kind: v1/Service
    predicates: [AnnotationChanged]
)",
                true);
  INFO(messages(*r));
  REQUIRE(r->resolved);
  const ResolvedSpec& s = *r->resolved;
  REQUIRE(s.predicates.size() == 3);
  CHECK(s.predicates[0].type == PredicateKind::GenerationChanged);
  CHECK(s.predicates[1].type == PredicateKind::LabelSelector);
  CHECK(s.predicates[1].selector == "app=web,tier in (front,back),!example.com/skip");
  CHECK(s.predicates[2].type == PredicateKind::Hook);
  CHECK(s.predicates[2].hook == "OnlyMine");
  CHECK(s.reconcile_timeout == "1m30s");
  CHECK(s.reconcile_timeout_ns == 90'000'000'000);
  REQUIRE(s.watches.size() == 1);
  CHECK(s.watches[0].kind.kind == "ConfigMap");
  CHECK(s.watches[0].map == "SettingsToDeployments");
  REQUIRE(s.watches[0].predicates.size() == 2);
  CHECK(s.watches[0].predicates[0].type == PredicateKind::LabelChanged);
  CHECK(s.steps[0].predicates.size() == 1);
  CHECK(s.steps[0].predicates[0].type == PredicateKind::ResourceVersionChanged);
  CHECK(s.steps[1].predicates[0].type == PredicateKind::AnnotationChanged);
  // The watched kind has an alias in the wiring like every other kind.
  CHECK(std::any_of(s.kinds.begin(), s.kinds.end(), [](const ResolvedKind& k) { return k.kind == "ConfigMap"; }));
}

TEST_CASE("spec watches: metadataOnly watches a kind's metadata, with no C++ type of it") {
  auto r = read(R"(watches:
  - kind: v1/Pod
    map: PodsToDeployments
    metadataOnly: true
    predicates: [{hook: OnlyMine}]
  - kind: v1/ConfigMap
    map: SettingsToDeployments
    metadataOnly: false
)" + kSteps,
                true);
  INFO(messages(*r));
  REQUIRE(r->resolved);
  const ResolvedSpec& s = *r->resolved;
  REQUIRE(s.watches.size() == 2);
  CHECK(s.watches[0].metadata_only);
  CHECK_FALSE(s.watches[1].metadata_only);
  CHECK(std::none_of(s.kinds.begin(), s.kinds.end(), [](const ResolvedKind& k) { return k.kind == "Pod"; }));
  CHECK(std::any_of(s.kinds.begin(), s.kinds.end(), [](const ResolvedKind& k) { return k.kind == "ConfigMap"; }));
  // Its hooks take the metadata.
  const std::vector<Hook> hooks = watch_hooks(s, wiring_names(s));
  REQUIRE(hooks.size() == 3);
  CHECK(hook_signature(hooks[0], true) ==
        "std::vector<rr::ObjectKey> pods_to_deployments_map(const rr::ObjectMeta& metadata) const");
  CHECK(hook_signature(hooks[1], true) == "bool only_mine_predicate(rr::EventType type, const rr::ObjectMeta* "
                                          "old_metadata, const rr::ObjectMeta& metadata) const");
}

TEST_CASE("spec watches: metadataOnly on a kind watched whole, or not a boolean, is refused") {
  check_errors(R"(watches:
  - {kind: apps/v1/Deployment, map: Self, metadataOnly: true}
)" + kSteps,
               {"reconciler.yaml:6:57: error: apps/v1/Deployment is watched whole already (it is the resource), so "
                "'metadataOnly' would list and watch it a second time; drop it (the map hook then gets the whole "
                "object) [spec-metadata-only-watched-whole]"},
               true);
  check_errors(R"(watches:
  - {kind: v1/Secret, map: Secrets, metadataOnly: 1}
)" + kSteps,
               {"reconciler.yaml:6:51: error: 'metadataOnly' must be true or false, not an integer [spec-wrong-type]"});
}

TEST_CASE("spec watches: mistakes in predicates are located") {
  check_errors("predicates: [GenerationChange]\n" + kSteps,
               {"reconciler.yaml:5:14: error: unknown predicate 'GenerationChange'; did you mean 'GenerationChanged'? "
                "(GenerationChanged, LabelChanged, AnnotationChanged, ResourceVersionChanged, {labelSelector: ...} or "
                "{hook: Name}) [spec-bad-predicate]"});
  check_errors(
      "predicates: GenerationChanged\n" + kSteps,
      {"reconciler.yaml:5:13: error: 'predicates' must be a sequence of predicates, not a string [spec-wrong-type]"});
  check_errors("predicates: [GenerationChanged, GenerationChanged]\n" + kSteps,
               {"reconciler.yaml:5:33: error: predicate 'GenerationChanged' is listed twice [spec-bad-predicate]"});
  check_errors("predicates:\n  - hook: only_mine\n" + kSteps,
               {"reconciler.yaml:6:11: error: hook name 'only_mine' must be a PascalCase identifier like 'OnlyMine' "
                "[spec-bad-name]"});
  check_errors("predicates:\n  - labelSelector: {matchExpressions: [{key: tier, operator: In}]}\n" + kSteps,
               {"reconciler.yaml:6:62: error: operator In needs at least one value [spec-bad-predicate]"});
  check_errors("predicates:\n  - labelSelector: {matchExpressions: [{key: tier, operator: Has}]}\n" + kSteps,
               {"reconciler.yaml:6:62: error: operator 'Has' is not one of In, NotIn, Exists and DoesNotExist "
                "[spec-bad-predicate]"});
  check_errors("predicates:\n  - labelSelector: {matchLabels: {'bad key': x}}\n" + kSteps,
               {"reconciler.yaml:6:35: error: label key 'bad key' is not a qualified name [spec-bad-predicate]"});
  check_errors("predicates:\n  - labelSelector: {}\n" + kSteps,
               {"reconciler.yaml:6:20: error: an empty labelSelector matches every object; remove the predicate "
                "[spec-bad-predicate]"});
  check_errors(
      "predicates:\n  - {labelSelector: {matchLabels: {a: b}}, hook: X}\n" + kSteps,
      {"reconciler.yaml:6:5: error: a predicate is a name (GenerationChanged, ...) or a mapping of exactly one of "
       "labelSelector and hook, not a mapping [spec-wrong-type]"});
  check_errors(
      "predicates:\n  - selector: {}\n" + kSteps,
      {"reconciler.yaml:6:5: error: unknown key 'selector'; did you mean 'labelSelector'? [spec-unknown-key]"});
}

TEST_CASE("spec watches: mistakes in watches and reconcileTimeout are located") {
  check_errors("watches:\n  - kind: v1/ConfigMap\n" + kSteps,
               {"reconciler.yaml:6:5: error: a watch needs 'map' (the hook that maps an object to requests) "
                "[spec-missing-key]"});
  check_errors("watches:\n  - kind: v1/ConfigMap\n    map: X\n    mapper: Y\n" + kSteps,
               {"reconciler.yaml:8:5: error: unknown key 'mapper'; did you mean 'map'? [spec-unknown-key]"});
  check_errors(
      "watches: [v1/ConfigMap]\n" + kSteps,
      {"reconciler.yaml:5:11: error: each of 'watches' must be a mapping of kind, map and predicates, not a string "
       "[spec-wrong-type]"});
  check_errors(
      "reconcileTimeout: 30\n" + kSteps,
      {"reconciler.yaml:5:19: error: 'reconcileTimeout' must be a Go duration like '30s' or '2m', not an integer "
       "[spec-wrong-type]"});
  check_errors(
      "reconcileTimeout: 30x\n" + kSteps,
      {"reconciler.yaml:5:19: error: reconcileTimeout '30x' is not a Go duration: unknown unit 'x' (ns, us, ms, s, m "
       "or h) [spec-bad-duration]"});
  check_errors(
      "reconcileTimeout: -1s\n" + kSteps,
      {"reconciler.yaml:5:19: error: reconcileTimeout '-1s' must not be negative (0: no timeout) [spec-bad-duration]"});
  check_errors(
      "reconcilers:\n  - sync: Only\n    predicates: [GenerationChanged]\n",
      {"reconciler.yaml:7:17: error: sync step 'Only' watches nothing its predicates could filter; they apply to the "
       "kinds it 'tracks' [spec-predicates-no-watch]"},
      true);
  check_errors("watches:\n  - {kind: v1/ConfigMap, map: A}\n  - {kind: ConfigMap, map: B}\n" + kSteps,
               {"reconciler.yaml:7:12: error: v1/ConfigMap is watched twice; map its events with one hook "
                "[spec-duplicate-watch]",
                "reconciler.yaml:6:5: note: first watched here"},
               true);
  check_errors(
      "watches:\n  - {kind: v1/ConfigMapp, map: A}\n" + kSteps,
      {"reconciler.yaml:6:12: error: unknown kind 'v1/ConfigMapp'; did you mean 'v1/ConfigMap'? [spec-unknown-kind]"},
      true);
  check_errors(R"(reconcilers:
  - sync: A
    tracks: [v1/Secret]
    predicates: [GenerationChanged]
  - sync: B
    tracks: [v1/Secret]
)",
               {"reconciler.yaml:9:5: error: steps 'A' and 'B' share the Tracked watch of Secret but give it different "
                "predicates; give both steps the same ones [spec-predicates-shared-watch]"},
               true);
}

TEST_CASE("spec watches: Go durations as time.ParseDuration reads them") {
  struct Case {
    const char* text;
    std::int64_t ns;  // -1: refused
  };
  for (const Case c : {Case{"0", 0},
                       {"30s", 30'000'000'000},
                       {"1m30s", 90'000'000'000},
                       {"1.5h", 5'400'000'000'000},
                       {"300ms", 300'000'000},
                       {"2h45m", 9'900'000'000'000},
                       {".5s", 500'000'000},
                       {"10us", 10'000},
                       {"1ns", 1},
                       {"", -1},
                       {"5", -1},
                       {"1e3s", -1},
                       {"s", -1},
                       {"1..2s", -1},
                       {"3d", -1},
                       {"3000000h", -1}}) {
    CAPTURE(c.text);
    std::string why;
    const auto ns = parse_go_duration(c.text, why);
    CHECK(ns.value_or(-1) == c.ns);
    CHECK(ns.has_value() == why.empty());
  }
}
