// A controller's predicates, mapped watches and channel sources (ControllerOptions::predicates,
// ::watches, ::channels) against the in-process cluster.
#include <doctest/doctest.h>

#include "controller_test_support.hpp"
#include "rr/core/meta.hpp"

using namespace rr;
using namespace rr::test;
using namespace std::chrono_literals;
using Keys = std::vector<std::string>;

namespace {

// Lets events already in flight land, then tells whether `key` was reconciled `n` times.
bool settles_at(Probe& probe, const std::string& key, std::size_t n) {
  std::this_thread::sleep_for(200ms);
  return probe.count_of(key) == n;
}

}  // namespace

TEST_CASE("controller watches: GenerationChanged on For filters a label-only update, not a spec change") {
  ControllerOptions options;
  options.predicates.push_back(WatchPredicates::for_kind({predicates::generation_changed()}));
  Harness h(std::move(options));
  h.run();
  REQUIRE(eventually([&] { return h.controller->ready(); }));
  Json p = make(parent_kind(), "p");
  p["spec"] = {{"size", 1}};
  h.cluster->create(parent_kind(), p);
  REQUIRE(eventually([&] { return h.probe->count_of("default/p") == 1; }));

  h.cluster->patch(parent_kind(), {"default", "p"}, PatchType::Merge, R"({"metadata":{"labels":{"x":"y"}}})");
  h.cluster->create(parent_kind(), make(parent_kind(), "marker"));  // after the label event
  REQUIRE(eventually([&] { return h.probe->count_of("default/marker") == 1; }));
  CHECK(settles_at(*h.probe, "default/p", 1));

  h.cluster->patch(parent_kind(), {"default", "p"}, PatchType::Merge, R"({"spec":{"size":2}})");
  REQUIRE(eventually([&] { return h.probe->count_of("default/p") == 2; }));
}

TEST_CASE("controller watches: a predicate on Owns filters the child's events") {
  ControllerOptions options;
  options.predicates.push_back(WatchPredicates::owns(child_kind().gvk, {predicates::label_selector("watched=yes")}));
  Harness h(std::move(options));
  h.run();
  REQUIRE(eventually([&] { return h.controller->ready(); }));
  auto child = [&](const std::string& name, const std::string& owner, bool watched) {
    Json c = make(child_kind(), name);
    c["metadata"]["ownerReferences"] = Json::array(
        {{{"apiVersion", "example.dev/v1"}, {"kind", "Parent"}, {"name", owner}, {"uid", "u"}, {"controller", true}}});
    if (watched) c["metadata"]["labels"] = {{"watched", "yes"}};
    h.cluster->create(child_kind(), c);
  };
  child("ignored", "unwatched-owner", false);
  child("seen", "watched-owner", true);
  REQUIRE(eventually([&] { return h.probe->count_of("default/watched-owner") == 1; }));
  CHECK(settles_at(*h.probe, "default/unwatched-owner", 0));
}

TEST_CASE("controller watches: a mapped ConfigMap event enqueues the keys its map returns") {
  ControllerOptions options;
  options.watches.push_back(MappedWatch{
      .kind = configmap_kind(),
      .map =
          [](const Json& config_map) {
            std::vector<ObjectKey> keys;
            const std::string targets = config_map["data"].value("targets", "");
            for (std::size_t start = 0; start < targets.size();) {
              const std::size_t comma = std::min(targets.find(',', start), targets.size());
              keys.push_back({config_map["metadata"].value("namespace", ""), targets.substr(start, comma - start)});
              start = comma + 1;
            }
            return keys;
          },
      .predicates = {predicates::label_selector("role=settings")},
  });
  Harness h(std::move(options));
  h.run();
  REQUIRE(eventually([&] { return h.controller->ready(); }));
  Json settings = make(configmap_kind(), "settings");
  settings["metadata"]["labels"] = {{"role", "settings"}};
  settings["data"] = {{"targets", "a,b"}};
  h.cluster->create(configmap_kind(), settings);
  Json other = make(configmap_kind(), "other");
  other["data"] = {{"targets", "c"}};
  h.cluster->create(configmap_kind(), other);  // no role=settings label: filtered
  REQUIRE(eventually([&] { return h.probe->count_of("default/a") == 1 && h.probe->count_of("default/b") == 1; }));
  CHECK(settles_at(*h.probe, "default/c", 0));

  // An update maps the old and the new object: a target dropped is reconciled once more too.
  h.cluster->patch(configmap_kind(), {"default", "settings"}, PatchType::Merge, R"({"data":{"targets":"b,d"}})");
  REQUIRE(eventually([&] {
    return h.probe->count_of("default/a") == 2 && h.probe->count_of("default/b") == 2 &&
           h.probe->count_of("default/d") == 1;
  }));
}

TEST_CASE("controller watches: a metadata-only mapped watch maps the metadata; reads still get whole objects") {
  ControllerOptions options;
  auto seen_data = std::make_shared<std::atomic<int>>(0);  // objects given to map with more than metadata
  options.watches.push_back(MappedWatch{
      .kind = configmap_kind(),
      .map =
          [seen_data](const Json& object) {
            if (object.contains("data")) ++*seen_data;
            const Json& metadata = object["metadata"];
            const Json& annotations = metadata.contains("annotations") ? metadata["annotations"] : Json::object();
            if (!annotations.contains("target")) return std::vector<ObjectKey>{};
            return std::vector<ObjectKey>{{metadata.value("namespace", ""), annotations["target"].get<std::string>()}};
          },
      .predicates = {predicates::annotation_changed()},
      .metadata_only = true,
  });
  Harness h(std::move(options));
  h.run();
  REQUIRE(eventually([&] { return h.controller->ready(); }));
  Json settings = make(configmap_kind(), "settings");
  settings["metadata"]["annotations"] = {{"target", "a"}};
  settings["data"] = {{"large", std::string(4096, 'x')}};
  h.cluster->create(configmap_kind(), settings);
  REQUIRE(eventually([&] { return h.probe->count_of("default/a") == 1; }));
  CHECK(*seen_data == 0);

  // A data change leaves the metadata's annotations as they were: filtered.
  h.cluster->patch(configmap_kind(), {"default", "settings"}, PatchType::Merge, R"({"data":{"large":"y"}})");
  h.cluster->create(parent_kind(), make(parent_kind(), "marker"));
  REQUIRE(eventually([&] { return h.probe->count_of("default/marker") == 1; }));
  CHECK(settles_at(*h.probe, "default/a", 1));

  // An annotation change maps the old and the new metadata.
  h.cluster->patch(configmap_kind(), {"default", "settings"}, PatchType::Merge,
                   R"({"metadata":{"annotations":{"target":"b"}}})");
  REQUIRE(eventually([&] { return h.probe->count_of("default/a") == 2 && h.probe->count_of("default/b") == 1; }));
  CHECK(*seen_data == 0);

  // The metadata informer is the watch's own: the reconciler's Tracked watch of ConfigMaps keeps its
  // whole informer, and a read of the kind through the cache is whole.
  auto metadata = h.cache->metadata_informer(configmap_kind());
  CHECK(metadata->metadata_only());
  CHECK(metadata->get({"default", "settings"})->contains("data") == false);
  auto whole = h.cache->find(configmap_kind().gvk);
  REQUIRE(whole != nullptr);
  CHECK(whole != metadata);
  CHECK_FALSE(whole->metadata_only());
  CHECK(h.cache->get(configmap_kind(), {"default", "settings"})["data"]["large"] == "y");
  CHECK(h.cache->informers().size() == 4);  // parents, children, ConfigMaps, ConfigMaps' metadata
}

TEST_CASE("controller watches: object_metadata decodes the metadata a metadata-only watch gives") {
  const Json partial = {{"apiVersion", "v1"},
                        {"kind", "Pod"},
                        {"metadata",
                         {{"namespace", "edge"},
                          {"name", "web-0"},
                          {"generation", 3},
                          {"annotations", {{"net.example.rrgen.dev/gateway", "a"}}}}}};
  const ObjectMeta metadata = object_metadata(partial);
  CHECK(metadata.namespace_ == "edge");
  CHECK(metadata.name == "web-0");
  CHECK(metadata.generation == 3);
  CHECK(metadata.annotations.at("net.example.rrgen.dev/gateway") == "a");
  CHECK(object_metadata(Json::object()).name.empty());  // no metadata: an empty one
}

TEST_CASE("informer cache: a kind cached metadata-only has one informer, also the metadata watch's") {
  auto cluster = std::make_shared<Cluster>();
  cluster->register_kind(configmap_kind());
  InformerCacheOptions options;
  options.by_kind[configmap_kind().gvk].metadata_only = true;
  InformerCache cache(std::make_shared<ClusterClient>(cluster), options);
  auto informer = cache.metadata_informer(configmap_kind());
  CHECK(informer->metadata_only());
  CHECK(cache.get_or_create(configmap_kind()) == informer);
  CHECK(cache.informers().size() == 1);
}

TEST_CASE("controller watches: a channel push reaches the reconciler; the source closes with the controller") {
  auto channel = std::make_shared<ChannelSource>();
  ChannelSourceOptions mapped_options;
  mapped_options.map = [](const Json& o) {
    return std::vector<ObjectKey>{{"team", o["metadata"].value("name", "") + "-1"},
                                  {"team", o["metadata"].value("name", "") + "-2"}};
  };
  mapped_options.predicates = {
      predicates::filter([](const Json& o) { return o["metadata"].value("name", "") != "skip"; })};
  auto mapped = std::make_shared<ChannelSource>(std::move(mapped_options));
  ControllerOptions options;
  options.channels = {channel, mapped};
  Harness h(std::move(options));

  CHECK(channel->push(make(parent_kind(), "early")));  // waits for the controller
  CHECK(channel->pending() == 1);
  h.run();
  REQUIRE(eventually([&] { return h.probe->count_of("default/early") == 1; }));
  CHECK(channel->pending() == 0);
  CHECK(channel->push(make(parent_kind(), "late", "elsewhere")));
  REQUIRE(eventually([&] { return h.probe->count_of("elsewhere/late") == 1; }));
  CHECK(mapped->push(make(parent_kind(), "job")));
  CHECK(mapped->push(make(parent_kind(), "skip")));
  REQUIRE(eventually([&] { return h.probe->count_of("team/job-1") == 1 && h.probe->count_of("team/job-2") == 1; }));
  CHECK(settles_at(*h.probe, "team/skip-1", 0));

  h.stop();
  CHECK(channel->closed());
  CHECK_FALSE(channel->push(make(parent_kind(), "after-stop")));
  CHECK_THROWS_AS(channel->bind([](const ObjectKey&) {}), std::logic_error);
}

TEST_CASE("controller watches: a full buffer refuses, options naming what is not watched are refused") {
  ChannelSourceOptions small;
  small.buffer = 1;
  ChannelSource channel(std::move(small));
  CHECK(channel.push(make(parent_kind(), "a")));
  CHECK_FALSE(channel.push(make(parent_kind(), "b")));

  ControllerOptions options;
  options.predicates.push_back(WatchPredicates::owns(configmap_kind().gvk, {predicates::generation_changed()}));
  CHECK_THROWS_WITH_AS(Harness(std::move(options)),
                       "controller parent: predicates for Owns ConfigMap.v1., which the reconciler does not watch",
                       std::invalid_argument);
  ControllerOptions no_map;
  no_map.watches.push_back(MappedWatch{.kind = configmap_kind()});
  CHECK_THROWS_AS(Harness(std::move(no_map)), std::invalid_argument);
}
