#include <doctest/doctest.h>

#include "rest_paths.hpp"

using namespace rr::http_detail;

namespace {
rr::KindInfo config_maps() {
  return {{"", "v1", "ConfigMap"}, "configmaps", "ConfigMapList", rr::Scope::Namespaced, false};
}
rr::KindInfo widgets() {
  return {{"example.dev", "v1", "Widget"}, "widgets", "WidgetList", rr::Scope::Namespaced, true};
}
rr::KindInfo gadgets() {
  return {{"example.dev", "v1alpha1", "Gadget"}, "gadgets", "GadgetList", rr::Scope::Cluster, false};
}
}  // namespace

TEST_CASE("escape keeps unreserved characters and percent-encodes the rest") {
  CHECK(escape("abc-._~XYZ019") == "abc-._~XYZ019");
  CHECK(escape("a b/c?d=e&f,g!(h)") == "a%20b%2Fc%3Fd%3De%26f%2Cg%21%28h%29");
  CHECK(escape("\xC3\xA9") == "%C3%A9");
}

TEST_CASE("resource paths for the core group, named groups, scopes and subresources") {
  CHECK(resource_path(config_maps(), "default") == "/api/v1/namespaces/default/configmaps");
  CHECK(resource_path(config_maps(), "") == "/api/v1/configmaps");  // all namespaces
  CHECK(resource_path(config_maps(), "kube-system", "cfg") == "/api/v1/namespaces/kube-system/configmaps/cfg");
  CHECK(resource_path(widgets(), "ns", "w1", "status") == "/apis/example.dev/v1/namespaces/ns/widgets/w1/status");
  CHECK(resource_path(gadgets(), "ignored-for-cluster-scope", "g") == "/apis/example.dev/v1alpha1/gadgets/g");
  CHECK(resource_path(gadgets(), "") == "/apis/example.dev/v1alpha1/gadgets");
  CHECK(resource_path(config_maps(), "default", "a b") == "/api/v1/namespaces/default/configmaps/a%20b");
}

TEST_CASE("list and watch query parameters") {
  rr::ListOptions opts;
  CHECK(list_query(opts, false).str().empty());
  CHECK(list_query(opts, true).str() == "?watch=true");
  opts.label_selector = "app=web,tier in (a,b)";
  opts.field_selector = "metadata.name=x";
  opts.limit = 50;
  opts.continue_ = "tok";
  opts.resource_version = "17";
  opts.resource_version_match = "NotOlderThan";
  opts.timeout_seconds = 300;
  opts.allow_watch_bookmarks = true;
  opts.send_initial_events = true;
  CHECK(list_query(opts, false).str() ==
        "?labelSelector=app%3Dweb%2Ctier%20in%20%28a%2Cb%29&fieldSelector=metadata.name%3Dx&limit=50&continue=tok"
        "&resourceVersion=17&resourceVersionMatch=NotOlderThan&timeoutSeconds=300");
  CHECK(list_query(opts, true).str() ==
        "?watch=true&labelSelector=app%3Dweb%2Ctier%20in%20%28a%2Cb%29&fieldSelector=metadata.name%3Dx&limit=50"
        "&continue=tok&resourceVersion=17&resourceVersionMatch=NotOlderThan&timeoutSeconds=300"
        "&allowWatchBookmarks=true&sendInitialEvents=true");
}

TEST_CASE("write query: dryRun, fieldManager, and force only for apply patches") {
  rr::WriteOptions opts;
  CHECK(write_query(opts, false).str().empty());
  opts.dry_run = true;
  opts.field_manager = "my-operator";
  opts.force = true;
  CHECK(write_query(opts, false).str() == "?dryRun=All&fieldManager=my-operator");
  CHECK(write_query(opts, true).str() == "?dryRun=All&fieldManager=my-operator&force=true");
}

TEST_CASE("delete options: query and body") {
  rr::DeleteOptions opts;
  CHECK(delete_query(opts).str().empty());
  CHECK(delete_body(opts) == rr::Json::parse(R"({"kind":"DeleteOptions","apiVersion":"v1"})"));
  opts.propagation = rr::PropagationPolicy::Foreground;
  opts.precondition_uid = "u-1";
  opts.precondition_resource_version = "42";
  opts.dry_run = true;
  CHECK(delete_query(opts).str() == "?dryRun=All&propagationPolicy=Foreground");
  CHECK(delete_body(opts) == rr::Json::parse(R"({"kind":"DeleteOptions","apiVersion":"v1",
      "propagationPolicy":"Foreground","preconditions":{"uid":"u-1","resourceVersion":"42"},"dryRun":["All"]})"));
  CHECK(to_string(rr::PropagationPolicy::Orphan) == "Orphan");
  CHECK(to_string(rr::PropagationPolicy::Background) == "Background");
}
