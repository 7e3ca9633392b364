// A controller added with options of its own (OperatorContext::add_controller(options, factory),
// what a spec's generated <Name>ControllerOptions fills) in a running manager over the in-process
// cluster: its channel source feeds it and closes when the manager stops, and its reconcile
// timeout holds unless --reconcile-timeout replaces it.
#include <doctest/doctest.h>

#include <chrono>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "manager_test_util.hpp"
#include "rr/cluster/cluster.hpp"
#include "rr/controller/informer_cache.hpp"
#include "rr/core/json.hpp"
#include "rr/manager/operator_main.hpp"

using namespace std::chrono_literals;
using rr::test::eventually;
using rr::test::Running;

namespace {

rr::KindInfo widget_kind() {
  return rr::KindInfo{{"example.dev", "v1", "Widget"}, "widgets", "WidgetList", rr::Scope::Namespaced, false};
}

// What each reconcile saw: its key and how long it had until its deadline.
struct Seen {
  std::mutex mutex;
  std::vector<std::string> keys;
  std::vector<std::optional<std::chrono::steady_clock::duration>> left;
};

struct Recorder {
  std::shared_ptr<Seen> seen;
  rr::Outcome reconcile(const rr::Request& request, const rr::RequestOptions& options) const {
    std::lock_guard lock(seen->mutex);
    seen->keys.push_back(request.str());
    seen->left.push_back(options.deadline ? std::optional(*options.deadline - std::chrono::steady_clock::now())
                                          : std::nullopt);
    return rr::Outcome{};
  }
  void validate(rr::Validation&) const {}
  void setup(rr::Setup& s) const { s.for_kind(widget_kind()); }
  std::string display_name() const { return "Recorder"; }
};

struct World {
  std::shared_ptr<rr::Cluster> cluster = std::make_shared<rr::Cluster>();
  std::shared_ptr<rr::ClusterClient> api;
  rr::Manager manager;
  std::shared_ptr<rr::InformerCache> cache;
  std::shared_ptr<Seen> seen = std::make_shared<Seen>();

  World()
      : api((cluster->register_kind(widget_kind()), std::make_shared<rr::ClusterClient>(cluster))),
        manager(rr::test::loopback_options(), api) {
    rr::InformerCacheOptions cache_options;
    cache_options.informer.poll_interval = 20ms;
    cache = std::make_shared<rr::InformerCache>(api, cache_options);
    manager.add(cache);
  }
  // Adds the controller as an operator's main does, with `flags` as the command line's.
  void add(rr::ControllerOptions options, const rr::ManagerOptions& flags) {
    rr::OperatorContext op{manager, api, cache, flags};
    op.add_controller(std::move(options), [s = seen](const rr::Config&) -> rr::Reconciler { return Recorder{s}; });
  }
  std::size_t count() {
    std::lock_guard lock(seen->mutex);
    return seen->keys.size();
  }
};

rr::Json widget(const std::string& name) {
  return rr::Json{
      {"apiVersion", "example.dev/v1"}, {"kind", "Widget"}, {"metadata", {{"namespace", "ns"}, {"name", name}}}};
}

}  // namespace

TEST_CASE("operator context: a controller's own options: its channel runs with the manager, its timeout holds") {
  World w;
  auto channel = std::make_shared<rr::ChannelSource>();
  rr::ControllerOptions options;
  options.name = "widget";
  options.reconcile_timeout = 30s;
  options.channels.push_back(channel);
  w.add(std::move(options), rr::ManagerOptions{});  // no --reconcile-timeout

  Running running(w.manager);
  CHECK(channel->push(widget("pushed")));
  REQUIRE(eventually([&] { return w.count() == 1; }));
  {
    std::lock_guard lock(w.seen->mutex);
    CHECK(w.seen->keys.front() == "ns/pushed");
    REQUIRE(w.seen->left.front().has_value());
    CHECK(*w.seen->left.front() <= 30s);
    CHECK(*w.seen->left.front() > 20s);
  }
  CHECK(running.stop() == 0);
  CHECK(channel->closed());
  CHECK_FALSE(channel->push(widget("after")));
}

TEST_CASE("operator context: --reconcile-timeout replaces the options' timeout") {
  World w;
  auto channel = std::make_shared<rr::ChannelSource>();
  rr::ControllerOptions options;
  options.name = "widget";
  options.reconcile_timeout = 30s;
  options.channels.push_back(channel);
  rr::ManagerOptions flags;
  flags.reconcile_timeout = 2s;
  w.add(std::move(options), flags);

  Running running(w.manager);
  CHECK(channel->push(widget("pushed")));
  REQUIRE(eventually([&] { return w.count() == 1; }));
  {
    std::lock_guard lock(w.seen->mutex);
    REQUIRE(w.seen->left.front().has_value());
    CHECK(*w.seen->left.front() <= 2s);
  }
  CHECK(running.stop() == 0);
}
