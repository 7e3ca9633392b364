// LIST semantics: namespaces, label and field selectors, order, pagination.
#include "test_support.hpp"

using namespace cluster_test;

namespace {

std::vector<std::string> names(const Json& list) {
  std::vector<std::string> out;
  for (const auto& item : list["items"]) {
    out.push_back(item["metadata"].value("namespace", "") + "/" + item["metadata"]["name"].get<std::string>());
  }
  return out;
}

rr::ListOptions query(std::string ns, std::string labels = {}, std::string fields = {}) {
  rr::ListOptions o;
  o.namespace_ = std::move(ns);
  o.label_selector = std::move(labels);
  o.field_selector = std::move(fields);
  return o;
}

std::shared_ptr<rr::Cluster> populated() {
  auto cluster = make_cluster();
  auto add = [&](const std::string& ns, const std::string& name, Json labels) {
    Json j = config_map(ns, name);
    j["metadata"]["labels"] = std::move(labels);
    j["data"] = {{"owner", name == "b" ? "team-b" : "team-x"}};
    cluster->create(config_map_kind(), j);
  };
  add("zeta", "a", {{"app", "web"}, {"tier", "front"}});
  add("alpha", "c", {{"app", "web"}});
  add("alpha", "b", {{"app", "db"}});
  add("alpha", "a", Json::object());
  return cluster;
}

}  // namespace

TEST_CASE("list: items sorted by namespace then name, <Kind>List envelope") {
  auto cluster = populated();
  const Json list = cluster->list(config_map_kind(), {});
  CHECK(list["apiVersion"] == "v1");
  CHECK(list["kind"] == "ConfigMapList");
  CHECK(list["metadata"]["resourceVersion"] == "4");
  CHECK(names(list) == std::vector<std::string>{"alpha/a", "alpha/b", "alpha/c", "zeta/a"});
  CHECK(names(cluster->list(config_map_kind(), query("zeta"))) == std::vector<std::string>{"zeta/a"});
}

TEST_CASE("list: label selectors") {
  auto cluster = populated();
  CHECK(names(cluster->list(config_map_kind(), query("", "app=web"))) == std::vector<std::string>{"alpha/c", "zeta/a"});
  CHECK(names(cluster->list(config_map_kind(), query("", "app in (db,web),tier!=front"))) ==
        std::vector<std::string>{"alpha/b", "alpha/c"});
  CHECK(names(cluster->list(config_map_kind(), query("", "!app"))) == std::vector<std::string>{"alpha/a"});
  CHECK(failure_of([&] { cluster->list(config_map_kind(), query("", "app in (")); }).code == 400);
}

TEST_CASE("list: field selectors on metadata, and on any field for kinds without admission") {
  auto cluster = populated();
  CHECK(names(cluster->list(config_map_kind(), query("", "", "metadata.name=a"))) ==
        std::vector<std::string>{"alpha/a", "zeta/a"});
  CHECK(names(cluster->list(config_map_kind(), query("", "", "metadata.namespace!=alpha"))) ==
        std::vector<std::string>{"zeta/a"});
  CHECK(names(cluster->list(config_map_kind(), query("", "", "data.owner=team-b"))) ==
        std::vector<std::string>{"alpha/b"});
}

TEST_CASE("list: kinds with admission select only on metadata.name and metadata.namespace") {
  auto cluster = make_cluster();
  rr::KindInfo strict = thing_kind();
  cluster->register_kind(strict, [](Json&) { return std::vector<rr::FieldError>{}; });
  const rr::Status s = failure_of([&] { cluster->list(strict, query("", "", "spec.size=1")); });
  CHECK(s.code == 400);
  CHECK(s.message == "field label not supported: spec.size");
  CHECK_NOTHROW(cluster->list(strict, query("", "", "metadata.name=x")));
}

TEST_CASE("list: limit and continue walk every item once") {
  auto cluster = populated();
  rr::ListOptions page;
  page.limit = 3;
  const Json first = cluster->list(config_map_kind(), page);
  CHECK(names(first) == std::vector<std::string>{"alpha/a", "alpha/b", "alpha/c"});
  REQUIRE(first["metadata"].contains("continue"));
  CHECK(first["metadata"]["remainingItemCount"] == 1);
  page.continue_ = first["metadata"]["continue"].get<std::string>();
  const Json second = cluster->list(config_map_kind(), page);
  CHECK(names(second) == std::vector<std::string>{"zeta/a"});
  CHECK_FALSE(second["metadata"].contains("continue"));

  page.continue_ = "not a token";
  CHECK(failure_of([&] { cluster->list(config_map_kind(), page); }).code == 400);
}
