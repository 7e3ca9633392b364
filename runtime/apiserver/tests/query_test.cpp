#include <doctest/doctest.h>

#include "query.hpp"
#include "rest_handler.hpp"
#include "rr/client/api_error.hpp"

using namespace rr::apiserver_detail;

namespace {

QueryParams params(std::initializer_list<std::pair<const std::string, std::string>> list) { return QueryParams(list); }

int code_of(const QueryParams& p) {
  try {
    parse_query(p);
    return 0;
  } catch (const rr::ApiError& e) {
    return e.code();
  }
}

}  // namespace

TEST_CASE("list and watch parameters") {
  RequestQuery q = parse_query(params({{"labelSelector", "app=web"},
                                       {"fieldSelector", "metadata.name=x"},
                                       {"limit", "50"},
                                       {"continue", "tok"},
                                       {"resourceVersion", "12"},
                                       {"allowWatchBookmarks", "true"},
                                       {"timeoutSeconds", "30"},
                                       {"watch", "1"},
                                       {"sendInitialEvents", "true"},
                                       {"resourceVersionMatch", "NotOlderThan"}}));
  CHECK(q.list.label_selector == "app=web");
  CHECK(q.list.field_selector == "metadata.name=x");
  CHECK(q.list.limit == 50);
  CHECK(q.list.continue_ == "tok");
  CHECK(q.list.resource_version == "12");
  CHECK(q.list.allow_watch_bookmarks);
  CHECK(q.list.timeout_seconds == 30);
  CHECK(q.watch);
  CHECK(q.send_initial_events == true);
  CHECK(q.resource_version_match == "NotOlderThan");
  CHECK_NOTHROW(validate_list_options(q));
}

TEST_CASE("write parameters") {
  RequestQuery q = parse_query(params({{"dryRun", "All"},
                                       {"fieldManager", "kubectl"},
                                       {"force", "true"},
                                       {"fieldValidation", "Strict"},
                                       {"propagationPolicy", "Foreground"}}));
  CHECK(q.dry_run);
  CHECK(q.field_manager == "kubectl");
  CHECK(q.force);
  CHECK(q.field_validation == "Strict");
  CHECK(q.propagation == rr::PropagationPolicy::Foreground);
}

TEST_CASE("malformed values are 400 BadRequest") {
  CHECK(code_of(params({{"limit", "-1"}})) == 400);
  CHECK(code_of(params({{"limit", "ten"}})) == 400);
  CHECK(code_of(params({{"watch", "yes"}})) == 400);
  CHECK(code_of(params({{"dryRun", "Some"}})) == 400);
  CHECK(code_of(params({{"fieldValidation", "Lenient"}})) == 400);
  CHECK(code_of(params({{"propagationPolicy", "Now"}})) == 400);
  CHECK(code_of(params({{"resourceVersionMatch", "Newest"}})) == 400);
  CHECK(code_of(params({{"timeoutSeconds", "1.5"}})) == 400);
  CHECK(code_of(params({{"unknownParameter", "whatever"}, {"watch", "0"}, {"pretty", "true"}})) == 0);
}

TEST_CASE("Go's boolean spellings") {
  for (const char* t : {"1", "t", "T", "true", "TRUE", "True"}) CHECK(parse_go_bool(t) == true);
  for (const char* f : {"0", "f", "F", "false", "FALSE", "False"}) CHECK(parse_go_bool(f) == false);
  CHECK_FALSE(parse_go_bool("yes").has_value());
}

TEST_CASE("ListOptions checks: sendInitialEvents needs bookmarks and NotOlderThan, and only on watches") {
  auto code = [](RequestQuery q) {
    try {
      validate_list_options(q);
      return 0;
    } catch (const rr::ApiError& e) {
      return e.code();
    }
  };
  RequestQuery watch;
  watch.watch = true;
  watch.send_initial_events = true;
  watch.resource_version_match = "NotOlderThan";
  CHECK(code(watch) == 422);  // no allowWatchBookmarks
  watch.list.allow_watch_bookmarks = true;
  CHECK(code(watch) == 0);
  watch.resource_version_match.clear();
  CHECK(code(watch) == 422);

  RequestQuery list;
  list.send_initial_events = true;
  CHECK(code(list) == 422);
  RequestQuery match_without_rv;
  match_without_rv.resource_version_match = "NotOlderThan";
  CHECK(code(match_without_rv) == 422);
}

TEST_CASE("PATCH content types, parameters ignored") {
  CHECK(patch_type_of("application/merge-patch+json") == rr::PatchType::Merge);
  CHECK(patch_type_of("application/json-patch+json; charset=utf-8") == rr::PatchType::JsonPatch);
  CHECK(patch_type_of("application/strategic-merge-patch+json") == rr::PatchType::Strategic);
  CHECK(patch_type_of("application/apply-patch+yaml") == rr::PatchType::Apply);
  CHECK_FALSE(patch_type_of("application/json").has_value());
}

TEST_CASE("DeleteOptions from the body, the query filling in") {
  RequestQuery q;
  q.propagation = rr::PropagationPolicy::Orphan;
  rr::DeleteOptions from_query = delete_options_of("", "", q);
  CHECK(from_query.propagation == rr::PropagationPolicy::Orphan);

  rr::DeleteOptions body = delete_options_of(
      "application/json", R"({"kind":"DeleteOptions","apiVersion":"v1","propagationPolicy":"Foreground",
          "preconditions":{"uid":"u1","resourceVersion":"7"},"dryRun":["All"],"gracePeriodSeconds":0})",
      RequestQuery{});
  CHECK(body.propagation == rr::PropagationPolicy::Foreground);
  CHECK(body.precondition_uid == "u1");
  CHECK(body.precondition_resource_version == "7");
  CHECK(body.dry_run);

  CHECK(delete_options_of("application/json", R"({"orphanDependents":true})", RequestQuery{}).propagation == rr::PropagationPolicy::Orphan);
  CHECK_THROWS_AS(delete_options_of("application/json", "{not json", RequestQuery{}), rr::ApiError);
  CHECK_THROWS_AS(delete_options_of("application/json", R"({"dryRun":["Some"]})", RequestQuery{}), rr::ApiError);
  CHECK(delete_options_of("application/yaml", "propagationPolicy: Orphan\n", RequestQuery{}).propagation ==
        rr::PropagationPolicy::Orphan);
  try {
    delete_options_of("application/vnd.kubernetes.protobuf", "k8s\0", RequestQuery{});
    FAIL("a truncated protobuf envelope accepted");
  } catch (const rr::ApiError& e) {
    CHECK(e.code() == 400);
  }
  try {
    delete_options_of("text/plain", "propagationPolicy: Orphan", RequestQuery{});
    FAIL("text/plain accepted");
  } catch (const rr::ApiError& e) {
    CHECK(e.code() == 415);
  }
}
