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

TEST_CASE("list: a custom resource's selectableFields select, and are the only other fields it accepts") {
  auto cluster = make_cluster();
  rr::KindInfo things = thing_kind();
  cluster->register_kind(things, [](Json&) { return std::vector<rr::FieldError>{}; });
  cluster->set_selectable_fields(things.gvk, {"spec.color", "spec.size"});
  const auto thing = [](const std::string& name, Json spec) {
    return Json{{"apiVersion", "things.test/v1"},
                {"kind", "Thing"},
                {"metadata", {{"name", name}, {"namespace", "default"}}},
                {"spec", std::move(spec)}};
  };
  cluster->create(things, thing("red", {{"color", "red"}, {"size", 3}}));
  cluster->create(things, thing("blue", {{"color", "blue"}}));
  CHECK(names(cluster->list(things, query("", "", "spec.color=red"))) == std::vector<std::string>{"default/red"});
  // An integer selects by its decimal text; an absent field reads as "" (fmt.Sprint of nothing).
  CHECK(names(cluster->list(things, query("", "", "spec.size=3"))) == std::vector<std::string>{"default/red"});
  CHECK(names(cluster->list(things, query("", "", "spec.size="))) == std::vector<std::string>{"default/blue"});
  CHECK(failure_of([&] { cluster->list(things, query("", "", "spec.shape=round")); }).message ==
        "field label not supported: spec.shape");
}

TEST_CASE("list: a built-in kind accepts the field labels the API server converts for it") {
  auto cluster = make_cluster();
  const rr::KindInfo pods{.gvk = {"", "v1", "Pod"}, .plural = "pods", .list_kind = "PodList"};
  const rr::KindInfo deployments{
      .gvk = {"apps", "v1", "Deployment"}, .plural = "deployments", .list_kind = "DeploymentList"};
  const rr::KindInfo namespaces = namespace_kind();
  const auto admit = [](Json&) { return std::vector<rr::FieldError>{}; };
  cluster->register_kind(pods, admit);
  cluster->register_kind(deployments, admit);
  cluster->register_kind(namespaces, admit);
  CHECK_NOTHROW(cluster->list(pods, query("", "", "spec.nodeName=node-1,status.phase!=Failed")));
  CHECK(failure_of([&] { cluster->list(pods, query("", "", "status.hostIP=10.0.0.1")); }).message ==
        "field label not supported: status.hostIP");
  // A kind without a conversion function of its own: apimachinery's default one.
  CHECK(failure_of([&] { cluster->list(deployments, query("", "", "spec.replicas=1")); }).message ==
        "\"spec.replicas\" is not a known field selector: only \"metadata.name\", \"metadata.namespace\"");
  CHECK(failure_of([&] { cluster->list(namespaces, query("", "", "metadata.namespace=x")); }).message ==
        "field label not supported: metadata.namespace");
}

TEST_CASE("list: Pod's legacy spec.host selects by spec.nodeName, as the v1 conversion maps it") {
  auto cluster = make_cluster();
  const rr::KindInfo pods{.gvk = {"", "v1", "Pod"}, .plural = "pods", .list_kind = "PodList"};
  cluster->register_kind(pods, [](Json&) { return std::vector<rr::FieldError>{}; });
  const auto pod = [](const std::string& name, const std::string& node) {
    return Json{{"apiVersion", "v1"},
                {"kind", "Pod"},
                {"metadata", {{"name", name}, {"namespace", "default"}}},
                {"spec", {{"nodeName", node}, {"containers", {{{"name", "c"}, {"image", "busybox"}}}}}}};
  };
  cluster->create(pods, pod("a", "node-1"));
  cluster->create(pods, pod("b", "node-2"));
  CHECK(names(cluster->list(pods, query("", "", "spec.host=node-1"))) == std::vector<std::string>{"default/a"});
  CHECK(names(cluster->list(pods, query("", "", "spec.host!=node-1,metadata.name!=x"))) ==
        std::vector<std::string>{"default/b"});
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
