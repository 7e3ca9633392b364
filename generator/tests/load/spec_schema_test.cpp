// Keeps schemas/reconciler-spec.schema.json honest: it describes exactly the keys the reader
// accepts, at every level, and its patterns accept exactly the values the reader accepts.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "load/spec_duck.hpp"
#include "load/spec_metrics.hpp"
#include "load/spec_policies.hpp"
#include "load/spec_reader.hpp"
#include "load/spec_watches.hpp"
#include "load/spec_webhooks.hpp"
#include "support/embedded.hpp"

using namespace rrgen;
using nlohmann::json;

namespace {

const json& schema() {
  static const json s = json::parse(embedded_file("schemas/reconciler-spec.schema.json"));
  return s;
}

std::set<std::string> property_names(const json& object_schema) {
  std::set<std::string> out;
  for (const auto& [key, value] : object_schema.at("properties").items()) out.insert(key);
  return out;
}

std::set<std::string> as_set(const std::vector<std::string>& keys) { return {keys.begin(), keys.end()}; }

const json& definition(const std::string& name) { return schema().at("definitions").at(name); }

// The regular expression of a definition, for std::regex (ECMAScript, as JSON Schema's).
std::regex pattern_of(const std::string& name) { return std::regex(definition(name).at("pattern").get<std::string>()); }

bool reader_accepts(const std::string& body) {
  SourceSet sources;
  Diagnostics diags;
  return read_spec_text(sources, "s.yaml", "apiVersion: rrgen.dev/v1alpha1\nkind: ReconcilerSpec\n" + body, diags).has_value();
}

}  // namespace

TEST_CASE("spec schema: the schema is draft-07 and closed at every level") {
  CHECK(schema().at("$schema") == "http://json-schema.org/draft-07/schema#");
  CHECK(schema().at("additionalProperties") == false);
  for (const char* def :
       {"syncStep", "childStep", "childSetStep", "rule", "webhooks", "admissionWebhook", "conversionWebhook",
        "duckResource", "metrics", "admissionPolicy", "watch", "labelSelector"}) {
    CAPTURE(def);
    CHECK(definition(def).at("additionalProperties") == false);
  }
  CHECK(schema().at("properties").at("apiVersion").at("const") == std::string(kSpecApiVersion));
  CHECK(schema().at("properties").at("kind").at("const") == std::string(kSpecKind));
  CHECK(schema().at("required") == json({"apiVersion", "kind", "resource", "reconcilers"}));
}

TEST_CASE("spec schema: the schema's keys are the reader's keys") {
  CHECK(property_names(schema()) == as_set(spec_top_level_keys()));
  CHECK(property_names(definition("syncStep")) == as_set(spec_step_keys(StepType::Sync)));
  CHECK(property_names(definition("childStep")) == as_set(spec_step_keys(StepType::Child)));
  CHECK(property_names(definition("childSetStep")) == as_set(spec_step_keys(StepType::ChildSet)));
  CHECK(property_names(definition("rule")) == as_set(spec_rule_keys()));
  CHECK(property_names(definition("webhooks")) == as_set(spec_webhooks_keys()));
  CHECK(property_names(definition("metrics")) == as_set(spec_metrics_keys()));
  CHECK(property_names(definition("admissionWebhook")) == as_set(spec_admission_webhook_keys()));
  CHECK(property_names(definition("conversionWebhook")) == as_set(spec_conversion_webhook_keys()));
  CHECK(property_names(definition("duckResource")) == as_set(spec_duck_keys()));
  CHECK(property_names(definition("admissionPolicy")) == as_set(spec_policy_keys()));
  CHECK(property_names(definition("admissionPolicy").at("properties").at("tests").at("items")) ==
        as_set(spec_policy_test_keys()));
  CHECK(property_names(definition("watch")) == as_set(spec_watch_keys()));
  CHECK(property_names(definition("labelSelector")) == as_set(spec_selector_keys()));
  CHECK(property_names(definition("labelSelector").at("properties").at("matchExpressions").at("items")) ==
        as_set(spec_expression_keys()));
  const json& predicate = definition("predicate").at("oneOf");
  CHECK(predicate[0].at("enum") == json(spec_predicate_names()));
  CHECK(property_names(predicate[1]).size() + property_names(predicate[2]).size() == spec_predicate_keys().size());
  CHECK(property_names(predicate[1]).count(spec_predicate_keys()[0]) == 1);
  CHECK(property_names(predicate[2]).count(spec_predicate_keys()[1]) == 1);
  CHECK(schema().at("properties").at("resource").at("oneOf") ==
        json::parse(R"([{"$ref": "#/definitions/kindRef"}, {"$ref": "#/definitions/duckResource"}])"));
  const json& steps = schema().at("properties").at("reconcilers").at("items").at("oneOf");
  CHECK(steps == json::parse(R"([{"$ref": "#/definitions/syncStep"}, {"$ref": "#/definitions/childStep"},
                                 {"$ref": "#/definitions/childSetStep"}])"));
  CHECK(schema().at("properties").at("rbac").at("items") == json::parse(R"({"$ref": "#/definitions/rule"})"));
}

TEST_CASE("spec schema: every key has a description editors can show") {
  // Its own, or that of the one definition it refers to ({"$ref"} or {"allOf": [{"$ref"}]}).
  auto described = [](const json& object_schema) {
    for (const auto& item : object_schema.at("properties").items()) {
      const std::string key = item.key();
      const json& value = item.value();
      CAPTURE(key);
      const json* target = &value;
      if (value.contains("allOf") && value.at("allOf").size() == 1) target = &value.at("allOf")[0];
      std::string ref = target->value("$ref", "");
      const bool has = value.contains("description") ||
                       (ref.rfind("#/definitions/", 0) == 0 && definition(ref.substr(14)).contains("description"));
      CHECK(has);
    }
  };
  described(schema());
  for (const char* def : {"syncStep", "childStep", "childSetStep", "rule", "webhooks", "admissionWebhook",
                          "conversionWebhook", "duckResource", "watch", "labelSelector"})
    described(definition(def));
}

TEST_CASE("spec schema: the schema's patterns agree with the reader") {
  const std::regex timeout(schema().at("properties").at("reconcileTimeout").at("pattern").get<std::string>());
  for (const std::string text : {"30s", "1m30s", "0", "1.5h", ".5s", "+2m", "5", "-1s", "30x", "1e3s", "0s"}) {
    CAPTURE(text);
    CHECK(std::regex_match(text, timeout) ==
          reader_accepts("resource: F\nreconcileTimeout: '" + text + "'\nreconcilers:\n  - sync: S\n"));
  }
  const std::regex kind_ref = pattern_of("kindRef");
  for (const std::string text : {"Function", "v1/ConfigMap", "apps/v1/Deployment", "core/v1/Pod", "/v1/Pod",
                                 "build.example.rrgen.dev/v1alpha1/Function", "", "v1/", "V1/Pod", "a/b/c/D", "apps/v1/my-kind",
                                 "1Pod", "Apps/v1/Pod", "apps/1v/Pod", "apps./v1/Pod", "apps/v1-/Pod"}) {
    CAPTURE(text);
    Diagnostics diags;
    CHECK(std::regex_match(text, kind_ref) == parse_kind_ref(text, {}, diags).has_value());
  }
  const std::regex finalizer = pattern_of("finalizer");
  for (const std::string text : {"example.com/cleanup", "a.b/c_d.e-f", "cleanup", "Example.com/x", "example.com/",
                                 "example.com/a/b", "/x", "example.com/-x", "example.com/x-", "a-/x"}) {
    CAPTURE(text);
    CHECK(std::regex_match(text, finalizer) == reader_accepts("resource: F\nreconcilers:\n  - sync: S\n    finalizer: '" + text + "'\n"));
  }
  const std::regex pascal = pattern_of("pascalName");
  for (const std::string text : {"Function", "F2", "function", "Two Words", "Snake_Case", "2Fast", ""}) {
    CAPTURE(text);
    CHECK(std::regex_match(text, pascal) == reader_accepts("resource: F\nname: '" + text + "'\nreconcilers:\n  - sync: S\n"));
  }
  const std::regex subdomain = pattern_of("dnsSubdomain");
  for (const std::string text : {"function.build.example.rrgen.dev", "a", "a-b.c", "A.b", "a..b", "-a", "a_b"}) {
    CAPTURE(text);
    CHECK(std::regex_match(text, subdomain) == reader_accepts("resource: F\nleaderElectionID: '" + text + "'\nreconcilers:\n  - sync: S\n"));
  }
  // The namespace pattern checks the shape; keywords and reserved names are the reader's alone.
  const std::regex ns(schema().at("properties").at("namespace").at("pattern").get<std::string>());
  for (const std::string text : {"fnsample", "acme::ops", "fn-sample", "::acme", "acme::", "1st", "a:b"}) {
    CAPTURE(text);
    CHECK(std::regex_match(text, ns) == reader_accepts("resource: F\nnamespace: '" + text + "'\nreconcilers:\n  - sync: S\n"));
  }
}
