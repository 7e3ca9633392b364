// A metadata-only informer over HTTP: what reaches the client is metadata, measured on the wire by
// a byte-counting TCP relay between rr::HttpClient and rr::ApiServer.
#include <doctest/doctest.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <mutex>
#include <stop_token>
#include <string>
#include <thread>
#include <vector>

#include "live_cluster.hpp"
#include "rr/controller/cached_client.hpp"
#include "rr/controller/informer_cache.hpp"

using namespace rr;
using namespace rr::integration;
using namespace std::chrono_literals;

namespace {

// Listens on 127.0.0.1:0 and relays each connection to 127.0.0.1:`target_port`, keeping every
// byte the server sent to the client.
class CountingRelay {
 public:
  explicit CountingRelay(int target_port) : target_port_(target_port) {
    listener_ = ::socket(AF_INET, SOCK_STREAM, 0);
    REQUIRE(listener_ >= 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    REQUIRE(::bind(listener_, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0);
    REQUIRE(::listen(listener_, 16) == 0);
    socklen_t length = sizeof address;
    REQUIRE(::getsockname(listener_, reinterpret_cast<sockaddr*>(&address), &length) == 0);
    port_ = ntohs(address.sin_port);
    acceptor_ = std::jthread([this](std::stop_token stop) { accept_loop(stop); });
  }
  ~CountingRelay() {
    acceptor_.request_stop();
    acceptor_.join();
    for (auto& pipe : pipes_) pipe.request_stop();
    pipes_.clear();
    ::close(listener_);
  }
  CountingRelay(const CountingRelay&) = delete;
  CountingRelay& operator=(const CountingRelay&) = delete;

  std::string url() const { return "http://127.0.0.1:" + std::to_string(port_); }
  std::string received() const {
    std::lock_guard lock(mutex_);
    return downstream_;
  }

 private:
  static bool readable(int fd) {
    pollfd p{fd, POLLIN, 0};
    return ::poll(&p, 1, 20) > 0;
  }

  void accept_loop(const std::stop_token& stop) {
    while (!stop.stop_requested()) {
      if (!readable(listener_)) continue;
      const int client = ::accept(listener_, nullptr, nullptr);
      if (client < 0) continue;
      const int server = ::socket(AF_INET, SOCK_STREAM, 0);
      sockaddr_in address{};
      address.sin_family = AF_INET;
      address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
      address.sin_port = htons(static_cast<std::uint16_t>(target_port_));
      if (::connect(server, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0) {
        ::close(client);
        ::close(server);
        continue;
      }
      pipes_.emplace_back([this, client, server](std::stop_token pipe_stop) { relay(pipe_stop, client, server); });
    }
  }

  void relay(const std::stop_token& stop, int client, int server) {
    std::vector<char> buffer(64 * 1024);
    while (!stop.stop_requested()) {
      pollfd fds[2] = {{client, POLLIN, 0}, {server, POLLIN, 0}};
      if (::poll(fds, 2, 20) <= 0) continue;
      bool closed = false;
      for (int i = 0; i < 2 && !closed; ++i) {
        if (!(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
        const ssize_t n = ::read(fds[i].fd, buffer.data(), buffer.size());
        if (n <= 0) {
          closed = true;
          break;
        }
        if (fds[i].fd == server) {
          std::lock_guard lock(mutex_);
          downstream_.append(buffer.data(), static_cast<std::size_t>(n));
        }
        const int to = fds[i].fd == server ? client : server;
        for (ssize_t sent = 0; sent < n;) {
          const ssize_t w = ::write(to, buffer.data() + sent, static_cast<std::size_t>(n - sent));
          if (w <= 0) {
            closed = true;
            break;
          }
          sent += w;
        }
      }
      if (closed) break;
    }
    ::close(client);
    ::close(server);
  }

  int target_port_;
  int listener_ = -1;
  int port_ = 0;
  mutable std::mutex mutex_;
  std::string downstream_;
  std::vector<std::jthread> pipes_;  // only the acceptor thread adds to it, until it is joined
  std::jthread acceptor_;
};

std::size_t occurrences(const std::string& text, const std::string& what) {
  std::size_t count = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + what.size())) ++count;
  return count;
}

int port_of(const std::string& url) { return std::stoi(url.substr(url.rfind(':') + 1)); }

// A ConfigMap whose data is `bytes` of a marker that appears nowhere else.
Json big_config_map(const std::string& name, std::size_t bytes) {
  std::string data;
  while (data.size() < bytes) data += "DATA-MARKER;";
  return config_map("default", name, {{"payload", data}});
}

struct RunningCache {
  std::shared_ptr<InformerCache> cache;
  std::jthread thread;
  RunningCache(std::shared_ptr<Client> client, InformerCacheOptions options)
      : cache(std::make_shared<InformerCache>(std::move(client), std::move(options))) {
    thread = std::jthread([c = cache](std::stop_token stop) { c->start(stop); });
    REQUIRE(wait_until([&] { return cache->started(); }));
  }
};

}  // namespace

TEST_CASE("metadata-only informer: the objects' data never reaches the client, the metadata does") {
  LiveCluster live;
  auto writer = live.client();
  const KindInfo cm = writer->kind_info(config_map_gvk());
  constexpr int objects = 10;
  constexpr std::size_t data_bytes = 40000;
  for (int i = 0; i < objects; ++i) writer->create(cm, big_config_map("cm-" + std::to_string(i), data_bytes));

  const int port = port_of(live.server().url());
  CountingRelay metadata_relay(port), whole_relay(port);
  auto client_through = [&](const CountingRelay& relay) {
    RestConfig config = live.config();
    config.host = relay.url();
    return live.client(config);
  };

  InformerCacheOptions metadata_options;
  metadata_options.informer.poll_interval = 50ms;
  metadata_options.by_kind[config_map_gvk()].metadata_only = true;
  auto metadata_api = client_through(metadata_relay);
  RunningCache metadata(metadata_api, metadata_options);
  CachedClient reader(metadata_api, metadata.cache);

  InformerCacheOptions whole_options;
  whole_options.informer.poll_interval = 50ms;
  RunningCache whole(client_through(whole_relay), whole_options);

  // Listed: the cached read (which creates and syncs the informer) sees every object's metadata.
  const Json listed = reader.list(cm, {.namespace_ = "default"});
  REQUIRE(listed["items"].size() == objects);
  for (const Json& item : listed["items"]) {
    CHECK(item["apiVersion"] == "v1");  // the kind's, as controller-runtime keeps for reads
    CHECK(item["kind"] == "ConfigMap");
    CHECK_FALSE(item.contains("data"));
    CHECK_FALSE(item["metadata"]["uid"].get<std::string>().empty());
  }
  REQUIRE(whole.cache->list(cm, {.namespace_ = "default"})["items"].size() == objects);

  // Watched: one more object and a label change arrive as metadata.
  writer->create(cm, big_config_map("late", data_bytes));
  Json changed = writer->get(cm, {"default", "cm-0"});
  changed["metadata"]["labels"]["tier"] = "gold";
  writer->update(cm, changed);
  REQUIRE(wait_until([&] {
    try {
      const Json labels = reader.get(cm, {"default", "cm-0"})["metadata"].value("labels", Json::object());
      return labels.value("tier", "") == "gold" && whole.cache->get(cm, {"default", "late"}).contains("data");
    } catch (const ApiError&) {
      return false;
    }
  }));
  const Json late = reader.get(cm, {"default", "late"});
  CHECK(late["kind"] == "ConfigMap");
  CHECK_FALSE(late.contains("data"));
  const auto informer = metadata.cache->find(config_map_gvk());
  REQUIRE(informer);
  CHECK(informer->store().text_bytes() < static_cast<std::size_t>(objects + 1) * 1000);

  const std::string metadata_bytes = metadata_relay.received();
  const std::string whole_bytes = whole_relay.received();
  MESSAGE("bytes received: metadata-only " << metadata_bytes.size() << ", whole objects " << whole_bytes.size());
  CHECK(occurrences(metadata_bytes, "DATA-MARKER") == 0);
  CHECK(metadata_bytes.find("PartialObjectMetadata") != std::string::npos);
  // The whole-object informer received every payload: the list's, the new object's, the update's.
  CHECK(occurrences(whole_bytes, "DATA-MARKER") >= (objects + 2) * (data_bytes / 12));
  CHECK(metadata_bytes.size() * 20 < whole_bytes.size());
}

TEST_CASE("metadata-only informer: a custom kind, and the option left off for other kinds") {
  LiveCluster live;
  auto api = live.client();
  const KindInfo widgets = register_widget_crd(*api);
  const KindInfo cm = api->kind_info(config_map_gvk());
  api->create(widgets, Json{{"apiVersion", "integration.rrgen.dev/v1"},
                            {"kind", "Widget"},
                            {"metadata", {{"name", "w"}, {"namespace", "default"}}},
                            {"spec", {{"size", 3}}}});
  api->create(cm, config_map("default", "c", {{"k", "v"}}));
  InformerCacheOptions options;
  options.informer.poll_interval = 50ms;
  options.by_kind[widget_gvk()].metadata_only = true;
  RunningCache running(api, options);
  CachedClient reader(api, running.cache);
  const Json widget = reader.get(widgets, {"default", "w"});
  CHECK(widget["apiVersion"] == "integration.rrgen.dev/v1");
  CHECK(widget["kind"] == "Widget");
  CHECK(widget["metadata"]["name"] == "w");
  CHECK_FALSE(widget.contains("spec"));
  CHECK(reader.get(cm, {"default", "c"})["data"]["k"] == "v");  // not metadata-only: whole
}
