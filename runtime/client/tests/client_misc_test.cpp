// The small pieces: GroupVersionKind::from, content_type, to_string(WatchEventType), key_of.
#include <doctest/doctest.h>

#include <stdexcept>

#include "rr/client/client.hpp"
#include "rr/client/watch.hpp"

TEST_CASE("GroupVersionKind::from splits apiVersion") {
  CHECK(rr::GroupVersionKind::from("v1", "ConfigMap") == rr::GroupVersionKind{"", "v1", "ConfigMap"});
  CHECK(rr::GroupVersionKind::from("apps/v1", "Deployment") == rr::GroupVersionKind{"apps", "v1", "Deployment"});
  CHECK(rr::GroupVersionKind::from("example.dev/v1alpha1", "Widget") ==
        rr::GroupVersionKind{"example.dev", "v1alpha1", "Widget"});
  CHECK(rr::GroupVersionKind::from("", "Thing") == rr::GroupVersionKind{"", "", "Thing"});
  CHECK(rr::GroupVersionKind::from("/", "Thing") == rr::GroupVersionKind{"", "", "Thing"});
  CHECK_THROWS_AS(rr::GroupVersionKind::from("a/b/c", "K"), std::invalid_argument);
  CHECK(rr::GroupVersionKind::from("apps/v1", "Deployment").api_version() == "apps/v1");
  CHECK(rr::GroupVersionKind::from("v1", "Pod").api_version() == "v1");
}

TEST_CASE("content_type of each patch type") {
  CHECK(rr::content_type(rr::PatchType::Merge) == "application/merge-patch+json");
  CHECK(rr::content_type(rr::PatchType::JsonPatch) == "application/json-patch+json");
  CHECK(rr::content_type(rr::PatchType::Strategic) == "application/strategic-merge-patch+json");
}

TEST_CASE("to_string(WatchEventType)") {
  CHECK(rr::to_string(rr::WatchEventType::Added) == "ADDED");
  CHECK(rr::to_string(rr::WatchEventType::Modified) == "MODIFIED");
  CHECK(rr::to_string(rr::WatchEventType::Deleted) == "DELETED");
  CHECK(rr::to_string(rr::WatchEventType::Bookmark) == "BOOKMARK");
  CHECK(rr::to_string(rr::WatchEventType::Error) == "ERROR");
}

TEST_CASE("key_of(Json) reads metadata.namespace and metadata.name") {
  using rr::Json;
  CHECK(rr::key_of(Json::parse(R"({"metadata":{"namespace":"ns","name":"n"}})")) == rr::ObjectKey{"ns", "n"});
  CHECK(rr::key_of(Json::parse(R"({"metadata":{"name":"n"}})")) == rr::ObjectKey{"", "n"});
  CHECK(rr::key_of(Json::parse(R"({"metadata":{"name":3,"namespace":null}})")) == rr::ObjectKey{});
  CHECK(rr::key_of(Json::parse(R"({"metadata":"x"})")) == rr::ObjectKey{});
  CHECK(rr::key_of(Json::parse("[]")) == rr::ObjectKey{});
  CHECK(rr::key_of(Json::parse(R"({"metadata":{"namespace":"ns","name":"n"}})")).str() == "ns/n");
}
