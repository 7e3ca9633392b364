// Every write of a main resource gets the API server's ObjectMeta validation (rr::validation): the
// resource's name rule, labels, finalizers, in one 422 with the kind's own findings.
#include "test_support.hpp"

using namespace cluster_test;

namespace {

const std::string kSubdomainRule =
    R"(a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*'))";

}  // namespace

TEST_CASE("create refuses a built-in kind's invalid name with the API server's Status") {
  auto cluster = make_cluster();
  const rr::Status s = failure_of([&] { cluster->create(config_map_kind(), config_map("default", "Foo")); });
  CHECK(s.code == 422);
  CHECK(s.reason == "Invalid");
  CHECK(s.message == "ConfigMap \"Foo\" is invalid: metadata.name: Invalid value: \"Foo\": " + kSubdomainRule);
  REQUIRE(s.causes.size() == 1);
  CHECK(s.causes[0] ==
        rr::StatusCause{"FieldValueInvalid", "Invalid value: \"Foo\": " + kSubdomainRule, "metadata.name"});
  CHECK(failure_of([&] { cluster->get(config_map_kind(), {"default", "Foo"}); }).code == 404);  // nothing stored
}

TEST_CASE("create: a custom resource's name is a DNS subdomain; labels and built-in finalizers checked") {
  auto cluster = make_cluster();
  CHECK(failure_of([&] { cluster->create(thing_kind(), thing("default", "Big")); }).code == 422);
  Json labelled = thing("default", "t");
  labelled["metadata"]["labels"] = {{"app", "has space"}};
  const rr::Status s = failure_of([&] { cluster->create(thing_kind(), labelled); });
  REQUIRE(s.causes.size() == 1);
  CHECK(s.causes[0].field == "metadata.labels");
  // An unqualified finalizer: an error on a built-in kind, accepted on a custom resource.
  Json cm = config_map("default", "cm");
  cm["metadata"]["finalizers"] = Json::array({"cleanup"});
  CHECK(failure_of([&] { cluster->create(config_map_kind(), cm); }).causes.at(0).field == "metadata.finalizers[0]");
  Json custom = thing("default", "t");
  custom["metadata"]["finalizers"] = Json::array({"cleanup"});
  CHECK_NOTHROW(cluster->create(thing_kind(), custom));
}

TEST_CASE("update refuses invalid labels; a valid update passes") {
  auto cluster = make_cluster();
  Json cm = cluster->create(config_map_kind(), config_map("default", "a"));
  cm["metadata"]["labels"] = {{"app", "web"}};
  cm = cluster->update(config_map_kind(), cm);
  cm["metadata"]["labels"] = {{"app", std::string(64, 'x')}};
  const rr::Status s = failure_of([&] { cluster->update(config_map_kind(), cm); });
  CHECK(s.code == 422);
  CHECK(s.message == "ConfigMap \"a\" is invalid: metadata.labels: Invalid value: \"" + std::string(64, 'x') +
                         "\": must be no more than 63 bytes");
}
