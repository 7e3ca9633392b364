// Cache options: transforms, per-kind selectors, metadata-only objects.
#include <doctest/doctest.h>

#include <atomic>

#include "informer_test_support.hpp"
#include "rr/client/forwarding_client.hpp"
#include "rr/controller/informer_cache.hpp"
#include "rr/controller/informer_transforms.hpp"

using namespace rr;
using namespace rr::test;
using namespace std::chrono_literals;

namespace {

Json with_bookkeeping(Json o) {
  o["metadata"]["managedFields"] = Json::array({Json{{"manager", "kubectl"}, {"operation", "Apply"}}});
  o["metadata"]["annotations"] = {{"kubectl.kubernetes.io/last-applied-configuration", "{\"big\":true}"},
                                  {"keep", "me"}};
  return o;
}

std::vector<std::string> names_of(const Json& list) {
  std::vector<std::string> out;
  for (const auto& item : list["items"]) out.push_back(key_of(item).str());
  return out;
}

struct CacheFixture {
  std::shared_ptr<Cluster> cluster = make_cluster();
  std::shared_ptr<InformerCache> cache;
  std::jthread thread;

  explicit CacheFixture(InformerCacheOptions options) {
    options.informer.initial_backoff = 5ms;
    options.informer.max_backoff = 50ms;
    options.informer.poll_interval = 10ms;
    cache = std::make_shared<InformerCache>(std::make_shared<ClusterClient>(cluster), std::move(options));
  }
  void start() {
    thread = std::jthread([c = cache](std::stop_token stop) { c->start(stop); });
    REQUIRE(eventually([&] { return cache->started(); }));
  }
};

// A client that answers metadata_only lists as an API server does (a PartialObjectMetadataList of
// meta.k8s.io/v1 PartialObjectMetadata), and notes what the informer asked for; watches whole.
class MetadataServingClient : public ForwardingClient {
 public:
  using ForwardingClient::ForwardingClient;
  std::atomic<int> metadata_lists{0}, metadata_watches{0}, whole_requests{0};

 protected:
  Json do_list(const KindInfo& kind, const ListOptions& opts) override {
    Json list = ForwardingClient::do_list(kind, opts);
    if (!opts.metadata_only) {
      ++whole_requests;
      return list;
    }
    ++metadata_lists;
    Json items = Json::array();
    for (const Json& item : list["items"]) {
      items.push_back(
          {{"kind", "PartialObjectMetadata"}, {"apiVersion", "meta.k8s.io/v1"}, {"metadata", item["metadata"]}});
    }
    return Json{{"kind", "PartialObjectMetadataList"},
                {"apiVersion", "meta.k8s.io/v1"},
                {"metadata", list["metadata"]},
                {"items", std::move(items)}};
  }
  std::unique_ptr<Watch> do_watch(const KindInfo& kind, const ListOptions& opts) override {
    ++(opts.metadata_only ? metadata_watches : whole_requests);
    return ForwardingClient::do_watch(kind, opts);
  }
};

}  // namespace

TEST_CASE("transforms: strip managedFields and the last-applied annotation, keep the rest") {
  Json o = with_bookkeeping(object(widget_kind(), "default", "a"));
  Json stripped = o;
  strip_managed_fields(stripped);
  CHECK_FALSE(stripped["metadata"].contains("managedFields"));
  CHECK(stripped["metadata"]["annotations"].size() == 2);
  strip_bookkeeping(o);
  CHECK(o == Json{{"apiVersion", "example.dev/v1"},
                  {"kind", "Widget"},
                  {"metadata", {{"namespace", "default"}, {"name", "a"}, {"annotations", {{"keep", "me"}}}}},
                  {"spec", {{"color", "red"}}}});
  // The annotation was the only one: the annotations map goes too.
  Json only = object(widget_kind(), "default", "b");
  only["metadata"]["annotations"] = {{"kubectl.kubernetes.io/last-applied-configuration", "{}"}};
  strip_last_applied_configuration(only);
  CHECK(only == object(widget_kind(), "default", "b"));
}

TEST_CASE("transforms: metadata only keeps apiVersion, kind and metadata") {
  Json o = object(widget_kind(), "default", "a", {{"tier", "web"}});
  o["status"] = {{"ready", true}};
  keep_metadata_only(o);
  CHECK(o == Json{{"apiVersion", "example.dev/v1"},
                  {"kind", "Widget"},
                  {"metadata", {{"namespace", "default"}, {"name", "a"}, {"labels", {{"tier", "web"}}}}}});
}

TEST_CASE("informer cache: a per-kind transform applies to stored objects, listed and watched, other kinds untouched") {
  InformerCacheOptions options;
  options.by_kind[widget_kind().gvk].transform = strip_bookkeeping;
  CacheFixture f(std::move(options));
  f.cluster->create(widget_kind(), with_bookkeeping(object(widget_kind(), "default", "listed")));
  f.cluster->create(gadget_kind(), with_bookkeeping(object(gadget_kind(), "default", "g")));
  f.start();
  REQUIRE(f.cache->wait_for_sync(widget_kind(), {}, 5s));
  Json listed = f.cache->get(widget_kind(), {"default", "listed"});
  CHECK_FALSE(listed["metadata"].contains("managedFields"));
  CHECK(listed["metadata"]["annotations"] == Json{{"keep", "me"}});
  f.cluster->create(widget_kind(), with_bookkeeping(object(widget_kind(), "default", "watched")));
  REQUIRE(eventually([&] { return f.cache->list(widget_kind(), {})["items"].size() == 2; }, 5s));
  Json watched = f.cache->get(widget_kind(), {"default", "watched"});
  CHECK_FALSE(watched["metadata"].contains("managedFields"));
  CHECK(watched["metadata"]["annotations"] == Json{{"keep", "me"}});
  // Gadgets have no transform.
  Json gadget = f.cache->get(gadget_kind(), {"default", "g"});
  CHECK(gadget["metadata"]["managedFields"].size() == 1);
  CHECK(gadget["metadata"]["annotations"].size() == 2);
}

TEST_CASE("informer cache: a default transform with a per-kind opt-out") {
  InformerCacheOptions options;
  options.informer.transform = keep_metadata_only;
  options.by_kind[gadget_kind().gvk].transform = ObjectTransform{};  // gadgets whole
  CacheFixture f(std::move(options));
  f.cluster->create(widget_kind(), object(widget_kind(), "default", "w"));
  f.cluster->create(gadget_kind(), object(gadget_kind(), "default", "g"));
  f.start();
  CHECK_FALSE(f.cache->get(widget_kind(), {"default", "w"}).contains("spec"));
  CHECK(f.cache->get(gadget_kind(), {"default", "g"})["spec"]["color"] == "red");
}

TEST_CASE("informer cache: per-kind label and field selectors decide what is cached") {
  InformerCacheOptions options;
  options.by_kind[widget_kind().gvk].label_selector = "tier=web";
  options.by_kind[gadget_kind().gvk].field_selector = "metadata.namespace=prod";
  CacheFixture f(std::move(options));
  f.cluster->create(widget_kind(), object(widget_kind(), "default", "web", {{"tier", "web"}}));
  f.cluster->create(widget_kind(), object(widget_kind(), "default", "db", {{"tier", "db"}}));
  f.cluster->create(gadget_kind(), object(gadget_kind(), "default", "g1"));
  f.cluster->create(gadget_kind(), object(gadget_kind(), "prod", "g2"));
  f.start();
  CHECK(names_of(f.cache->list(widget_kind(), {})) == std::vector<std::string>{"default/web"});
  CHECK_THROWS_AS(f.cache->get(widget_kind(), {"default", "db"}), ApiError);
  CHECK(names_of(f.cache->list(gadget_kind(), {})) == std::vector<std::string>{"prod/g2"});
  // Watched objects are selected the same way.
  f.cluster->create(widget_kind(), object(widget_kind(), "default", "web2", {{"tier", "web"}}));
  f.cluster->create(widget_kind(), object(widget_kind(), "default", "db2", {{"tier", "db"}}));
  REQUIRE(eventually([&] { return f.cache->list(widget_kind(), {})["items"].size() == 2; }, 5s));
  std::this_thread::sleep_for(50ms);
  CHECK(names_of(f.cache->list(widget_kind(), {})) == std::vector<std::string>{"default/web", "default/web2"});
}

TEST_CASE("informer cache: a metadata-only kind asks for metadata and keeps its own apiVersion and kind") {
  auto cluster = make_cluster();
  auto client = std::make_shared<MetadataServingClient>(std::make_shared<ClusterClient>(cluster));
  InformerCacheOptions options;
  options.informer.poll_interval = 10ms;
  options.by_kind[widget_kind().gvk].metadata_only = true;
  auto cache = std::make_shared<InformerCache>(client, std::move(options));
  std::jthread thread([c = cache](std::stop_token stop) { c->start(stop); });
  REQUIRE(eventually([&] { return cache->started(); }));
  Json listed = object(widget_kind(), "default", "listed", {{"tier", "web"}});
  cluster->create(widget_kind(), listed);
  cluster->create(gadget_kind(), object(gadget_kind(), "default", "g"));

  const Json got = cache->get(widget_kind(), {"default", "listed"});
  CHECK(got["apiVersion"] == "example.dev/v1");
  CHECK(got["kind"] == "Widget");
  CHECK(got["metadata"]["labels"]["tier"] == "web");
  CHECK(got.size() == 3);
  CHECK(client->metadata_watches >= 1);  // the initial stream asked for metadata
  const int whole_before = client->whole_requests;
  CHECK(cache->get(gadget_kind(), {"default", "g"})["spec"]["color"] == "red");  // whole: not metadata-only
  CHECK(client->whole_requests > whole_before);

  // The watch here sends whole objects (as a server that ignores the Accept header): cut all the same.
  cluster->create(widget_kind(), object(widget_kind(), "default", "watched"));
  REQUIRE(eventually([&] { return cache->list(widget_kind(), {})["items"].size() == 2; }, 5s));
  const Json watched = cache->get(widget_kind(), {"default", "watched"});
  CHECK(watched["kind"] == "Widget");
  CHECK_FALSE(watched.contains("spec"));
  CHECK(client->metadata_watches >= 1);
}
