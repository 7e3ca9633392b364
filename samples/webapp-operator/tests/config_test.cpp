// Step Config (sync, tracks ConfigMap) on its own: status.configHash from the ConfigMap that
// spec.configMapName names, read through the tracker so that its creation or change brings the
// WebApp back. docs/testing-reconcilers.md describes every field of a case.
#include <doctest/doctest.h>

#include <map>
#include <memory>
#include <string>

#include "fixtures.hpp"
#include "rr/testing/registration.hpp"

namespace {

using webapp::WebApp;
using webapp_test::condition;
using webapp_test::ConfigMapDie;
using webapp_test::conditions;
using webapp_test::test_namespace;
using Case = rr::testing::SubReconcilerTestCase<WebApp>;

const ConfigMapDie app_config =
    ConfigMapDie().namespace_(test_namespace).name("app-config").data({{"GREETING", "hello"}, {"LOG_LEVEL", "info"}});

}  // namespace

RR_SUB_RECONCILER_TESTS("WebAppConfigReconciler", WebApp, [](const Case&, const rr::Config&) {
  return webapp::WebAppConfigReconciler(std::make_shared<const webapp::WebAppHooks>());
}) {
  // As the root reconciler hands it to its steps: conditions initialised.
  const auto web_app = webapp_test::web_app().conditions(conditions({}));
  const auto with_config = web_app.spec_config_map_name("app-config");
  const auto track_app_config =
      rr::testing::create_track_request("", "ConfigMap", test_namespace, "app-config").by(test_namespace, "test-webapp");
  const auto changed_config = app_config.data({{"GREETING", "bonjour"}, {"LOG_LEVEL", "info"}});
  const std::string missing = R"(ConfigMap "app-config" does not exist)";

  return rr::testing::SubReconcilerTests<WebApp>{
      {"no ConfigMap named: ConfigReady True, nothing tracked",
       {
           .resource = web_app,
           .expect_resource = web_app.conditions(conditions({.config = condition("ConfigReady", "True", "NoConfig")})),
       }},
      {"the ConfigMap name removed: the old hash goes",
       {
           .resource = web_app.status_config_hash("0123456789abcdef"),
           .expect_resource = web_app.conditions(conditions({.config = condition("ConfigReady", "True", "NoConfig")})),
       }},
      {"the ConfigMap exists: tracked, its hash on the status",
       {
           .resource = with_config,
           .given_objects = {app_config.get()},
           .expect_resource = with_config.status_config_hash(webapp::config_hash(app_config))
                                  .conditions(conditions({.config = condition("ConfigReady", "True", "Resolved")})),
           .expect_tracks = {track_app_config},
       }},
      {"the ConfigMap changed: the new hash replaces the old",
       {
           .resource = with_config.status_config_hash(webapp::config_hash(app_config)),
           .given_objects = {changed_config.get()},
           .expect_resource = with_config.status_config_hash(webapp::config_hash(changed_config))
                                  .conditions(conditions({.config = condition("ConfigReady", "True", "Resolved")})),
           .expect_tracks = {track_app_config},
       }},
      // Tracked although missing: its creation is what brings the WebApp back. The error is
      // durable: recorded on the status, it stops the sequence without a retry.
      {"the ConfigMap is missing: tracked, ConfigReady False, a durable error",
       {
           .resource = with_config.status_config_hash("0123456789abcdef"),
           .expect_resource = with_config.conditions(conditions({
               .config = condition("ConfigReady", "False", "ConfigMapMissing", missing),
               .ready = condition("Ready", "False", "ConfigMapMissing", missing),
           })),
           .expect_tracks = {track_app_config},
           .should_err = true,
           .verify = [](const rr::Result&, const rr::Error& err) { CHECK(err.is(rr::err_durable())); },
       }},
      // Not the same as missing: the status is left as it was and the request is retried.
      {"reading the ConfigMap fails: the error is returned as it is",
       {
           .resource = with_config,
           .given_objects = {app_config.get()},
           .with_reactors = {rr::testing::induce_failure("get", "ConfigMap")},
           .expect_tracks = {track_app_config},
           .should_err = true,
           .verify =
               [](const rr::Result&, const rr::Error& err) {
                 CHECK_FALSE(err.is(rr::err_durable()));
                 CHECK(err.message() == "inducing failure for get ConfigMap");
               },
       }},
  };
}

TEST_CASE("config_hash: equal data give equal hashes, a change to any key or value another hash") {
  const auto config = [](std::map<std::string, std::string> data) { return ConfigMapDie().data(std::move(data)).get(); };
  const std::string hash = webapp::config_hash(config({{"a", "bc"}}));
  CHECK(hash.size() == 16);
  CHECK(hash.find_first_not_of("0123456789abcdef") == std::string::npos);
  // Only the data counts, not where the ConfigMap lives.
  CHECK(webapp::config_hash(ConfigMapDie(config({{"a", "bc"}})).namespace_("other").name("x")) == hash);
  CHECK(webapp::config_hash(config({{"ab", "c"}})) != hash);
  CHECK(webapp::config_hash(config({{"a", "bd"}})) != hash);
  CHECK(webapp::config_hash(config({{"a", "bc"}, {"d", ""}})) != hash);
  CHECK(webapp::config_hash(config({})) != hash);
}
