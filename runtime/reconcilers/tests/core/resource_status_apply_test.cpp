// ResourceReconciler with status_write = StatusWrite::Apply: the status by server-side apply of the
// status subresource, against the in-memory cluster's apply (managedFields are the server's), and
// the configuration it sends (status_apply_configuration) case by case.
#include <doctest/doctest.h>

#include "rr/core/json.hpp"
#include "rr/reconcilers/resource.hpp"
#include "rr/reconcilers/status_apply.hpp"
#include "rr/reconcilers/sync.hpp"
#include "support.hpp"

using namespace coretest;

namespace status_apply_test {

const rr::ObjectKey applied_key{std::string(test_namespace), "test-resource"};

rr::Condition condition(std::string type, std::string status = "True") {
  rr::Condition c;
  c.type = std::move(type);
  c.status = std::move(status);
  c.reason = "Because";
  c.message = "";
  c.last_transition_time = rr::Time::parse("2026-01-01T00:00:00Z").value();
  return c;
}

// Sets our condition "Ours" (and keeps whatever else the status has), and latestImage when asked.
rr::ResourceReconciler<TestResource> applying(Env& env, const bool* set_image) {
  return rr::ResourceReconciler<TestResource>{
      .reconciler = rr::SyncReconciler<TestResource>{.sync =
                                                         [set_image](rr::Context&, TestResource& r) {
                                                           auto& status = rr::ensure_status(r);
                                                           if (*set_image) {
                                                             status.latest_image = r.spec->image;
                                                           } else {
                                                             status.latest_image.reset();
                                                           }
                                                           auto& conditions = rr::ensure_conditions(r);
                                                           std::erase_if(conditions, [](const rr::Condition& c) {
                                                             return c.type == "Ours";
                                                           });
                                                           conditions.push_back(condition("Ours"));
                                                           return rr::Error{};
                                                         }},
      .config = env.config(),
      .status_write = rr::StatusWrite::Apply,
  };
}

// Another controller applies its own condition to the status.
void apply_foreign(Env& env, bool with_condition) {
  rr::Json config = {{"apiVersion", "testing.rrgen.dev/v1"},
                     {"kind", "TestResource"},
                     {"metadata", {{"name", "test-resource"}, {"namespace", std::string(test_namespace)}}},
                     {"status", rr::Json::object()}};
  if (with_condition) {
    config["status"]["conditions"] = rr::Json::array({{{"type", "Foreign"},
                                                       {"status", "False"},
                                                       {"reason", "Theirs"},
                                                       {"message", ""},
                                                       {"lastTransitionTime", "2026-01-01T00:00:00Z"}}});
  }
  rr::ClusterClient other(env.cluster);
  rr::WriteOptions opts;
  opts.field_manager = "other-controller";
  opts.force = true;
  other.patch(rr::kind_info_of<TestResource>(), applied_key, rr::PatchType::Apply, config.dump(), "status", opts);
}

std::vector<std::string> condition_types(const TestResource& r) {
  std::vector<std::string> out;
  if (r.status && r.status->conditions)
    for (const rr::Condition& c : *r.status->conditions) out.push_back(c.type);
  return out;
}

}  // namespace status_apply_test

using namespace status_apply_test;

TEST_CASE("ResourceReconciler StatusWrite::Apply: one apply of the status, only when it changed") {
  Env env;
  env.seed(make_resource());
  bool set_image = true;
  auto r = applying(env, &set_image);

  rr::Outcome out = r.reconcile(applied_key, env.options());
  CHECK_FALSE(out.error);
  CHECK(out.result == rr::Result{});
  CHECK(env.client->calls_of("update_status").empty());
  const std::vector<Call> patches = env.client->calls_of("patch", "TestResource");
  REQUIRE(patches.size() == 1);
  // The whole status the reconcile computed, named by apiVersion, kind, name and namespace.
  const rr::Json& body = patches[0].body;
  CHECK(body["apiVersion"] == "testing.rrgen.dev/v1");
  CHECK(body["kind"] == "TestResource");
  CHECK(body["metadata"] == rr::Json{{"name", "test-resource"}, {"namespace", std::string(test_namespace)}});
  CHECK(body["status"]["latestImage"] == "image:1");
  CHECK(body["status"]["conditions"].size() == 1);
  CHECK_FALSE(body.contains("spec"));
  CHECK(env.recorder->lines() == std::vector<std::string>{"Normal StatusUpdated Updated status"});

  const TestResource stored = env.stored<TestResource>(applied_key).value();
  CHECK(stored.status->latest_image == "image:1");
  bool entry = false;
  for (const rr::ManagedFieldsEntry& e : stored.metadata.managed_fields)
    entry = entry || (e.manager == "testresource" && e.operation == "Apply" && e.subresource == "status");
  CHECK(entry);  // the default field manager: the kind, lower-cased

  // Nothing changed: no write, no event.
  CHECK_FALSE(r.reconcile(applied_key, env.options()).error);
  CHECK(env.client->calls_of("patch", "TestResource").size() == 1);
  CHECK(env.recorder->events.size() == 1);
}

TEST_CASE(
    "ResourceReconciler StatusWrite::Apply: a field no longer set goes, another manager's condition stays theirs") {
  Env env;
  env.seed(make_resource());
  apply_foreign(env, true);
  bool set_image = true;
  auto r = applying(env, &set_image);
  r.field_manager = "test-controller";

  REQUIRE_FALSE(r.reconcile(applied_key, env.options()).error);
  // The Foreign condition, carried unchanged and owned by the other controller, is not sent.
  const rr::Json first = env.client->calls_of("patch", "TestResource").back().body;
  REQUIRE(first["status"]["conditions"].size() == 1);
  CHECK(first["status"]["conditions"][0]["type"] == "Ours");
  CHECK(condition_types(env.stored<TestResource>(applied_key).value()) == std::vector<std::string>{"Foreign", "Ours"});

  // The reconciler stops setting latestImage: the server removes it (we were its only owner).
  set_image = false;
  REQUIRE_FALSE(r.reconcile(applied_key, env.options()).error);
  CHECK(env.client->calls_of("patch", "TestResource").size() == 2);
  TestResource stored = env.stored<TestResource>(applied_key).value();
  CHECK_FALSE(stored.status->latest_image.has_value());
  CHECK(condition_types(stored) == std::vector<std::string>{"Foreign", "Ours"});

  // The other controller withdraws its condition: it goes, as we never took it over.
  apply_foreign(env, false);
  CHECK(condition_types(env.stored<TestResource>(applied_key).value()) == std::vector<std::string>{"Ours"});
}

TEST_CASE("ResourceReconciler StatusWrite::Apply: failures are reported as the update's") {
  Env env;
  env.seed(make_resource());
  bool set_image = true;
  auto r = applying(env, &set_image);

  SUBCASE("409 Conflict → a quiet rate-limited requeue") {
    env.client->fail("patch", "TestResource",
                     rr::api_errors::conflict("testresources", "testing.rrgen.dev", "test-resource", "conflict"));
    rr::Outcome out = r.reconcile(applied_key, env.options());
    CHECK_FALSE(out.error);
    CHECK(out.result == rr::Result{.requeue = true});
    CHECK(env.recorder->events.empty());
  }
  SUBCASE("other failures → Warning StatusUpdateFailed and the error") {
    const rr::Status failure = rr::api_errors::internal_error("no space left");
    env.client->fail("patch", "TestResource", failure);
    rr::Outcome out = r.reconcile(applied_key, env.options());
    REQUIRE(out.error);
    CHECK(rr::reason_of(out.error) == "InternalError");
    CHECK(env.recorder->lines() == std::vector<std::string>{"Warning StatusUpdateFailed Failed to update status: " +
                                                            rr::Error::api(failure).message()});
  }
}

TEST_CASE("status_apply_configuration") {
  const rr::Json naming = {{"apiVersion", "g/v1"}, {"kind", "K"}, {"metadata", {{"name", "n"}, {"namespace", "ns"}}}};
  auto object = [&](rr::Json status, rr::Json managed = nullptr) {
    rr::Json o = naming;
    o["status"] = std::move(status);
    if (!managed.is_null()) o["metadata"]["managedFields"] = std::move(managed);
    return o;
  };
  auto entry = [](std::string manager, std::string operation, rr::Json fields, std::string subresource = "status") {
    return rr::Json{{"manager", manager},
                    {"operation", operation},
                    {"subresource", subresource},
                    {"fieldsType", "FieldsV1"},
                    {"fieldsV1", std::move(fields)}};
  };
  const rr::Json conditions_before = rr::Json::array(
      {{{"type", "A"}, {"status", "True"}}, {{"type", "B"}, {"status", "True"}}});

  SUBCASE("without managedFields: the whole computed status") {
    const rr::Json out = rr::status_apply_configuration(object({{"x", "1"}, {"y", "2"}}),
                                                        object({{"x", "1"}, {"z", "3"}}), "me");
    CHECK(out == rr::Json{{"apiVersion", "g/v1"},
                          {"kind", "K"},
                          {"metadata", {{"name", "n"}, {"namespace", "ns"}}},
                          {"status", {{"x", "1"}, {"z", "3"}}}});
  }
  SUBCASE("a member another manager owns, carried unchanged, is left out; changed, it is taken") {
    const rr::Json managed = rr::Json::array(
        {entry("other", "Apply", {{"f:status", {{"f:x", rr::Json::object()}, {"f:w", rr::Json::object()}}}}),
         entry("me", "Apply", {{"f:status", {{"f:y", rr::Json::object()}}}})});
    const rr::Json out = rr::status_apply_configuration(object({{"x", "1"}, {"y", "2"}, {"w", "4"}}, managed),
                                                        object({{"x", "1"}, {"y", "2"}, {"w", "5"}, {"z", "3"}}), "me");
    CHECK(out["status"] == rr::Json{{"y", "2"}, {"w", "5"}, {"z", "3"}});
  }
  SUBCASE("an entry of the same manager by update, or on the main resource, is not our status apply") {
    const rr::Json managed = rr::Json::array({entry("me", "Update", {{"f:status", {{"f:x", rr::Json::object()}}}}),
                                              entry("me", "Apply", {{"f:status", {{"f:y", rr::Json::object()}}}}, "")});
    const rr::Json out = rr::status_apply_configuration(object({{"x", "1"}, {"y", "2"}}, managed),
                                                        object({{"x", "1"}, {"y", "2"}}), "me");
    CHECK(out["status"] == rr::Json::object());
  }
  SUBCASE("list map items by applied_key: another's unchanged item left out, ours and new ones kept with their keys") {
    const rr::Json managed = rr::Json::array(
        {entry("other", "Apply",
               {{"f:status",
                 {{"f:conditions",
                   {{"k:{\"type\":\"A\"}", {{".", rr::Json::object()}, {"f:status", rr::Json::object()}}}}}}}}),
         entry("me", "Apply",
               {{"f:status",
                 {{"f:conditions",
                   {{"k:{\"type\":\"B\"}", {{".", rr::Json::object()}, {"f:status", rr::Json::object()}}}}}}}})});
    rr::Json after = conditions_before;
    after.push_back({{"type", "C"}, {"status", "False"}});
    const rr::Json out = rr::status_apply_configuration(object({{"conditions", conditions_before}}, managed),
                                                        object({{"conditions", after}}), "me");
    CHECK(out["status"]["conditions"] ==
          rr::Json::array({{{"type", "B"}, {"status", "True"}}, {{"type", "C"}, {"status", "False"}}}));
  }
  SUBCASE("another's item the reconcile changed is taken") {
    const rr::Json managed = rr::Json::array(
        {entry("other", "Apply",
               {{"f:status", {{"f:conditions", {{"k:{\"type\":\"A\"}", {{"f:status", rr::Json::object()}}}}}}}})});
    rr::Json after = conditions_before;
    after[0]["status"] = "False";
    const rr::Json out = rr::status_apply_configuration(object({{"conditions", conditions_before}}, managed),
                                                        object({{"conditions", after}}), "me");
    CHECK(out["status"]["conditions"] == after);
  }
  SUBCASE("malformed managedFields are ignored, never thrown") {
    for (const rr::Json& managed :
         {rr::Json("x"), rr::Json::array({1, "y", rr::Json::object()}),
          rr::Json::array({entry("other", "Apply", {{"f:status", {{"f:conditions", {{"k:{", 3}}}}}})})}) {
      const rr::Json out = rr::status_apply_configuration(object({{"conditions", conditions_before}}, managed),
                                                          object({{"conditions", conditions_before}}), "me");
      CHECK(out["metadata"]["name"] == "n");
    }
  }
}
