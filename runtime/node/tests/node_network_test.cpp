// Pods' networks (root only): a network namespace and IP per pod, the host reaching pods at their
// IPs, pods reaching the API server through KUBERNETES_SERVICE_HOST, nothing left after deletion.
#include <arpa/inet.h>
#include <doctest/doctest.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <memory>
#include <set>
#include <thread>

#include "rr/client/api_error.hpp"
#include "rr/cluster/cluster.hpp"
#include "rr/node/node_agent.hpp"
#include "test_image.hpp"

namespace fs = std::filesystem;
using namespace std::chrono_literals;
using rr::Json;

// Named, not anonymous: the tests build as one unit with node_agent_test.cpp.
namespace node_network_test {

const rr::KindInfo pods{{"", "v1", "Pod"}, "pods", "PodList", rr::Scope::Namespaced, true};

// A plain-TCP stand-in for the API server on the host's 127.0.0.1 (the agent forwards bytes, so
// TLS is not needed to see them arrive): answers each request with a fixed status line.
struct FakeApiServer {
  int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  int port = 0;
  std::atomic<int> requests{0};
  std::thread thread;

  FakeApiServer() {
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t length = sizeof address;
    REQUIRE(::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0);
    REQUIRE(::listen(fd, 16) == 0);
    ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length);
    port = ntohs(address.sin_port);
    thread = std::thread([this] {
      for (int client; (client = ::accept(fd, nullptr, nullptr)) >= 0; ::close(client)) {
        char buffer[1024];
        const ssize_t n = ::read(client, buffer, sizeof buffer);
        if (n <= 0) continue;
        ++requests;
        const bool version = std::string(buffer, static_cast<std::size_t>(n)).rfind("GET /version ", 0) == 0;
        const std::string reply = version ? "HTTP/1.1 200 OK from-fake-apiserver\r\n\r\n{}"
                                          : "HTTP/1.1 404 Not Found\r\n\r\n";
        (void)!::write(client, reply.data(), reply.size());
      }
    });
  }
  ~FakeApiServer() {
    ::shutdown(fd, SHUT_RDWR);
    thread.join();
    ::close(fd);
  }
};

struct NetworkNode {
  fs::path dir;
  std::shared_ptr<rr::Cluster> cluster = std::make_shared<rr::Cluster>();
  FakeApiServer api;
  std::unique_ptr<rr::node::NodeAgent> agent;

  NetworkNode() {
    std::string pattern = (fs::temp_directory_path() / "rr-node-net-XXXXXX").string();
    dir = ::mkdtemp(pattern.data());
    cluster->register_kind(pods);
  }
  ~NetworkNode() {
    agent.reset();
    fs::remove_all(dir);
  }
  bool start() {
    if (!node_test::make_test_image(dir / "images", RR_NODE_TEST_PROGRAM)) return false;
    rr::node::NodeAgentOptions options;
    options.image_dirs = {dir / "images"};
    options.state_dir = dir / "state";
    options.service_port = api.port;
    options.log = [](const std::string&) {};
    agent = std::make_unique<rr::node::NodeAgent>(cluster, options);
    return true;
  }
  void pod(const std::string& name, const Json& args, bool host_network = false, const std::string& image = "app:v1") {
    cluster->create(pods, Json{{"apiVersion", "v1"},
                               {"kind", "Pod"},
                               {"metadata", {{"name", name}, {"namespace", "default"}}},
                               {"spec",
                                {{"restartPolicy", "Always"},
                                 {"terminationGracePeriodSeconds", 1},
                                 {"hostNetwork", host_network},
                                 {"containers", {{{"name", "main"}, {"image", image}, {"args", args}}}}}}});
  }
  // The pod once `ready` holds (null once it is gone), polling for up to 10 s.
  Json wait(const std::string& name, const std::function<bool(const Json&)>& ready) {
    Json last;
    for (const auto deadline = std::chrono::steady_clock::now() + 10s; std::chrono::steady_clock::now() < deadline;
         std::this_thread::sleep_for(20ms)) {
      try {
        last = cluster->get(pods, {"default", name});
      } catch (const rr::ApiError&) {
        last = nullptr;
      }
      if (ready(last)) return last;
    }
    FAIL_CHECK("timed out waiting for pod " << name << "; last seen: " << last.dump());
    return last;
  }
  std::string logs(const Json& pod) {
    auto stream = agent->open(pod, {});
    std::string out;
    while (stream && stream->next(out, 200ms)) {
    }
    return out;
  }
};

bool running(const Json& pod) {
  return pod.is_object() && pod.value("/status/containerStatuses/0/state"_json_pointer, Json()).contains("running");
}

// The body of GET path from ip:port, or "" when nothing answers.
std::string http_get(const std::string& ip, int port, const std::string& path) {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<std::uint16_t>(port));
  ::inet_pton(AF_INET, ip.c_str(), &address.sin_addr);
  std::string reply;
  if (::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0) {
    const std::string request = "GET " + path + " HTTP/1.0\r\n\r\n";
    (void)!::write(fd, request.data(), request.size());
    char buffer[1024];
    for (ssize_t n; (n = ::read(fd, buffer, sizeof buffer)) > 0;) reply.append(buffer, static_cast<std::size_t>(n));
  }
  ::close(fd);
  const auto body = reply.find("\r\n\r\n");
  return body == std::string::npos ? "" : reply.substr(body + 4);
}

// The index of the host's link that has `ip`, or 0. Indexes are not reused soon, so a gone index
// means that link is gone even when a test running beside this one has taken the address since.
unsigned link_with(const std::string& ip) {
  ifaddrs* list = nullptr;
  if (::getifaddrs(&list) != 0) return 0;
  unsigned index = 0;
  for (ifaddrs* a = list; a; a = a->ifa_next) {
    if (!a->ifa_addr || a->ifa_addr->sa_family != AF_INET) continue;
    char text[INET_ADDRSTRLEN];
    ::inet_ntop(AF_INET, &reinterpret_cast<sockaddr_in*>(a->ifa_addr)->sin_addr, text, sizeof text);
    if (ip == text) index = ::if_nametoindex(a->ifa_name);
  }
  ::freeifaddrs(list);
  return index;
}

bool link_exists(unsigned index) {
  char name[IF_NAMESIZE];
  return ::if_indextoname(index, name) != nullptr;
}

// Polls `check` for up to 10 s (a pod's server starts a little after its status says running).
std::string eventually(const std::function<std::string()>& check, const std::string& want) {
  std::string got;
  for (int i = 0; i < 200 && (got = check()) != want; ++i) std::this_thread::sleep_for(50ms);
  return got;
}

TEST_CASE("each pod has its own network namespace and IP: two pods bind the same port and both answer") {
  SKIP_WITHOUT_CONTAINERS();
  NetworkNode node;
  REQUIRE(node.start());
  node.pod("web-a", {"serve:8080", "wait"});
  node.pod("web-b", {"serve:8080", "wait"});
  const Json a = node.wait("web-a", running), b = node.wait("web-b", running);
  const std::string ip_a = a.value("/status/podIP"_json_pointer, ""), ip_b = b.value("/status/podIP"_json_pointer, "");
  CHECK(ip_a.rfind("10.88.", 0) == 0);
  CHECK(ip_b.rfind("10.88.", 0) == 0);
  CHECK(ip_a != ip_b);
  CHECK(a["status"]["podIPs"] == Json::array({{{"ip", ip_a}}}));
  // hostIP is the host's side of the pod's link: where the pod reaches the node.
  const std::string host_a = a.value("/status/hostIP"_json_pointer, "");
  CHECK(host_a != ip_a);
  CHECK(link_with(host_a) > 0);
  CHECK(link_with(ip_a) == 0);  // the pod's address is inside its namespace only

  CHECK(eventually([&] { return http_get(ip_a, 8080, "/hostname"); }, "web-a") == "web-a");
  CHECK(eventually([&] { return http_get(ip_b, 8080, "/hostname"); }, "web-b") == "web-b");
  CHECK(node.logs(a).find("serving 8080") != std::string::npos);
  CHECK(node.logs(b).find("serving 8080") != std::string::npos);
  CHECK(http_get("127.0.0.1", 8080, "/hostname").empty());  // not on the host's loopback

  // A pod whose container never starts has no network, so no addresses (as with the kubelet).
  node.pod("no-image", {"wait"}, false, "app:v9");
  const Json unpulled = node.wait("no-image", [](const Json& pod) {
    return pod.value("/status/containerStatuses/0/state/waiting/reason"_json_pointer, "") == "ErrImagePull";
  });
  CHECK_FALSE(unpulled["status"].contains("podIP"));
  CHECK_FALSE(unpulled["status"].contains("hostIP"));

  // hostNetwork: the host's network, as without namespaces.
  const std::string port = std::to_string(node_test::free_port());
  node.pod("on-host", {"serve:" + port, "wait"}, true);
  const Json on_host = node.wait("on-host", running);
  CHECK(on_host["status"]["podIP"] == "127.0.0.1");
  CHECK(eventually([&] { return http_get("127.0.0.1", std::stoi(port), "/hostname"); }, "on-host") == "on-host");

  // A restarted container keeps its pod's namespace and IP.
  node.pod("restarts", {"serve:8081", "sleep:300", "exit:1"});
  const Json first = node.wait("restarts", running);
  const Json again = node.wait("restarts", [](const Json& pod) {
    return running(pod) && pod.value("/status/containerStatuses/0/restartCount"_json_pointer, 0) >= 1;
  });
  CHECK(again["status"]["podIP"] == first["status"]["podIP"]);
}

TEST_CASE("a pod reaches the API server on the host's loopback through KUBERNETES_SERVICE_HOST") {
  SKIP_WITHOUT_CONTAINERS();
  NetworkNode node;
  REQUIRE(node.start());
  node.pod("client", {"env:KUBERNETES_SERVICE_HOST", "api:/version", "wait"});
  const Json pod = node.wait("client", running);
  std::string out;
  for (int i = 0; i < 100 && out.find("api: ") == std::string::npos; ++i) {
    std::this_thread::sleep_for(50ms);
    out = node.logs(pod);
  }
  CHECK(out.find("KUBERNETES_SERVICE_HOST=127.0.0.1\n") != std::string::npos);
  CHECK(out.find("api: HTTP/1.1 200 OK from-fake-apiserver\n") != std::string::npos);
  CHECK(node.api.requests >= 1);
}

TEST_CASE("deleting pods removes their links and addresses; the addresses are used again") {
  SKIP_WITHOUT_CONTAINERS();
  NetworkNode node;
  REQUIRE(node.start());
  node.pod("short", {"serve:8080", "wait"});
  const Json pod = node.wait("short", running);
  const std::string host_ip = pod["status"]["hostIP"], pod_ip = pod["status"]["podIP"];
  const unsigned link = link_with(host_ip);
  REQUIRE(link > 0);
  CHECK(eventually([&] { return http_get(pod_ip, 8080, "/healthz"); }, "ok") == "ok");
  node.cluster->remove(pods, {"default", "short"});
  node.wait("short", [](const Json& p) { return p.is_null(); });
  CHECK_FALSE(link_exists(link));

  // Pods one after another: each address is freed, and taken again (the lowest free one; other
  // test processes running at the same time may hold some, so not always the same one).
  std::set<std::string> seen = {pod_ip};
  for (int i = 0; i < 5; ++i) {
    const std::string name = "again-" + std::to_string(i);
    node.pod(name, {"wait"});
    const Json again = node.wait(name, running);
    seen.insert(again.value("/status/podIP"_json_pointer, ""));
    const unsigned again_link = link_with(again.value("/status/hostIP"_json_pointer, ""));
    CHECK(again_link > 0);
    node.cluster->remove(pods, {"default", name});
    node.wait(name, [](const Json& p) { return p.is_null(); });
    CHECK_FALSE(link_exists(again_link));
  }
  CHECK(seen.size() < 6);

  // The agent stopping (pods still running) removes their links too.
  node.pod("left", {"wait"});
  const unsigned left = link_with(node.wait("left", running)["status"]["hostIP"]);
  REQUIRE(left > 0);
  node.agent->stop();
  CHECK_FALSE(link_exists(left));
}

}  // namespace node_network_test
