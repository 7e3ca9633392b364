// rr_informer_cache_objects: one gauge per informer of the cache, following adds and deletes.
#include <doctest/doctest.h>

#include <string>

#include "informer_test_support.hpp"
#include "rr/controller/informer_cache_metrics.hpp"

using namespace rr;
using namespace rr::test;
using namespace std::chrono_literals;

namespace {

bool has_line(const std::string& text, const std::string& line) { return text.find(line + "\n") != std::string::npos; }

const std::string widgets_line = R"(rr_informer_cache_objects{group="example.dev",kind="Widget",version="v1"} )";
const std::string gadgets_line = R"(rr_informer_cache_objects{group="example.dev",kind="Gadget",version="v1"} )";

}  // namespace

TEST_CASE("informer cache metrics: objects per kind at each collect, following adds and deletes") {
  auto cluster = make_cluster();
  cluster->create(widget_kind(), object(widget_kind(), "a", "one"));
  cluster->create(widget_kind(), object(widget_kind(), "a", "two"));
  InformerCacheOptions options;
  options.informer = fast_options();
  auto cache = std::make_shared<InformerCache>(std::make_shared<ClusterClient>(cluster), options);
  metrics::Registry registry;
  metrics::InformerCacheMetrics objects(registry, cache);

  objects.collect();
  CHECK(registry.expose().empty());  // no informer yet: nothing to show

  std::jthread running([&](std::stop_token stop) { cache->start(stop); });
  REQUIRE(cache->wait_for_sync(widget_kind(), running.get_stop_token(), 5s));
  REQUIRE(cache->wait_for_sync(gadget_kind(), running.get_stop_token(), 5s));
  objects.collect();
  const std::string text = registry.expose();
  CHECK(text.starts_with("# HELP rr_informer_cache_objects Number of objects in the informer cache, per kind.\n"
                         "# TYPE rr_informer_cache_objects gauge\n"));
  CHECK(has_line(text, widgets_line + "2"));
  CHECK(has_line(text, gadgets_line + "0"));

  cluster->create(widget_kind(), object(widget_kind(), "b", "three"));
  cluster->create(gadget_kind(), object(gadget_kind(), "a", "g"));
  CHECK(eventually([&] {
    objects.collect();
    const std::string now = registry.expose();
    return has_line(now, widgets_line + "3") && has_line(now, gadgets_line + "1");
  }));

  cluster->remove(widget_kind(), {"a", "one"});
  cluster->remove(widget_kind(), {"a", "two"});
  CHECK(eventually([&] {
    objects.collect();
    return has_line(registry.expose(), widgets_line + "1");
  }));
}
