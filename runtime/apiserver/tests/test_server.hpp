// A cluster served on an ephemeral port for one test, and small HTTP helpers.
#pragma once
#include <httplib.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "rr/apiserver/api_server.hpp"
#include "rr/cluster/cluster.hpp"

namespace rr::apiserver_test {

struct TestServer {
  explicit TestServer(ApiServerOptions options = {}, ClusterOptions cluster_options = {});
  ~TestServer();

  std::shared_ptr<Cluster> cluster;
  std::unique_ptr<ApiServer> server;

  // A plain-HTTP client of the server (10 s timeouts).
  std::unique_ptr<httplib::Client> client() const;
};

// The body of a response as JSON (null when it is not JSON).
Json body_of(const httplib::Result& result);

// The events of a watch read with this Accept header until the server ends it (give the path a
// timeoutSeconds).
std::vector<Json> watch_events(int port, const std::string& path, const std::string& accept);

// Percent-encodes a query value.
std::string url_encode(std::string_view text);

// Reads a watch stream on its own thread. Give the path a timeoutSeconds: the destructor waits
// for the stream to end (or abandons it at the next chunk).
class WatchReader {
 public:
  WatchReader(int port, std::string path);
  ~WatchReader();
  // True once at least `count` events arrived within `timeout`.
  bool wait_for(std::size_t count, std::chrono::milliseconds timeout = std::chrono::seconds(5));
  // True once the stream ended within `timeout`.
  bool wait_end(std::chrono::milliseconds timeout = std::chrono::seconds(5));
  std::vector<Json> events();
  // Whether the transfer ended cleanly (chunked end) rather than being cut.
  bool clean_end();

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  std::vector<Json> events_;
  std::string partial_;
  bool ended_ = false;
  bool clean_ = false;
  std::atomic<bool> abandon_{false};
  std::thread thread_;
};

// A CRD of the tests: test.rrgen.dev/v1 Gizmo (gizmos, short name gz), namespaced, with the
// status subresource.
Json gizmo_crd();
KindInfo gizmo_kind();

}  // namespace rr::apiserver_test
