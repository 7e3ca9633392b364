#include "pod_network.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <sched.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <mutex>
#include <set>
#include <stdexcept>
#include <thread>
#include <utility>

#include "netlink.hpp"
#include "tcp_forwarder.hpp"

namespace rr::node_detail {

namespace {

constexpr int slots = 1 << 14;  // /30s in 10.88.0.0/16
constexpr std::uint32_t network = (10u << 24) | (88u << 16);
constexpr const char* pod_link = "eth0";

std::mutex slots_mutex;
std::set<int> used_slots;  // this process's; another process's show up as an existing link name

in_addr address(int slot, int host) {
  in_addr a{};
  a.s_addr = htonl(network + static_cast<std::uint32_t>(slot) * 4 + static_cast<std::uint32_t>(host));
  return a;
}

std::string text(in_addr a) {
  char buffer[INET_ADDRSTRLEN];
  return ::inet_ntop(AF_INET, &a, buffer, sizeof buffer);
}

std::string failure(const std::string& step, int negative_errno) {
  return "pod network: " + step + ": " + std::strerror(-negative_errno);
}

void check(int r, const std::string& step) {
  if (r < 0) throw std::runtime_error(failure(step, r));
}

struct Fd {
  int fd = -1;
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
  int release() { return std::exchange(fd, -1); }
};

// What the set-up thread leaves: the namespace, the host link's slot, the API listener.
struct Made {
  int netns = -1, slot = -1, listener = -1;
  std::string error;
};

// Runs on a thread of its own, which unshare() moves into the new namespace: sockets opened
// before it act on the host, those opened after it inside the pod.
void set_up(Made& made, const std::string& service_host, int service_port) {
  Fd host{netlink::open_route_socket()};
  if (host.fd < 0) throw std::runtime_error(failure("netlink socket", -errno));
  if (::unshare(CLONE_NEWNET) != 0) throw std::runtime_error(failure("unshare(CLONE_NEWNET)", -errno));
  Fd netns{::open("/proc/thread-self/ns/net", O_RDONLY | O_CLOEXEC)};
  if (netns.fd < 0) throw std::runtime_error(failure("open /proc/thread-self/ns/net", -errno));
  Fd pod{netlink::open_route_socket()};
  if (pod.fd < 0) throw std::runtime_error(failure("netlink socket in the pod", -errno));
  const int lo = netlink::link_index(pod.fd, "lo");
  check(lo, "find lo");
  check(netlink::set_up(pod.fd, lo), "set lo up");

  // The lowest free slot whose link name no other agent holds.
  int slot = -1;
  {
    std::lock_guard lock(slots_mutex);
    for (int s = 0; s < slots && slot < 0; ++s) {
      if (used_slots.count(s) != 0) continue;
      const int r = netlink::create_veth(host.fd, "rrv" + std::to_string(s), pod_link, netns.fd);
      if (r == -EEXIST) continue;
      check(r, "create veth rrv" + std::to_string(s));
      slot = s;
      used_slots.insert(s);
    }
  }
  if (slot < 0) throw std::runtime_error("pod network: all " + std::to_string(slots) + " addresses are in use");
  made.slot = slot;
  const std::string host_link = "rrv" + std::to_string(slot);
  const int host_index = netlink::link_index(host.fd, host_link);
  check(host_index, "find " + host_link);
  check(netlink::add_address(host.fd, host_index, address(slot, 1), 30), "address " + host_link);
  check(netlink::set_up(host.fd, host_index), "set " + host_link + " up");
  const int eth0 = netlink::link_index(pod.fd, pod_link);
  check(eth0, "find eth0");
  check(netlink::add_address(pod.fd, eth0, address(slot, 2), 30), "address eth0");
  check(netlink::set_up(pod.fd, eth0), "set eth0 up");
  check(netlink::add_default_route(pod.fd, address(slot, 1), eth0), "default route");

  in_addr service{};
  if (::inet_pton(AF_INET, service_host.c_str(), &service) == 1 && (ntohl(service.s_addr) >> 24) == 127) {
    Fd listener{::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0)};
    sockaddr_in at{};
    at.sin_family = AF_INET;
    at.sin_port = htons(static_cast<std::uint16_t>(service_port));
    at.sin_addr = service;
    const int on = 1;
    ::setsockopt(listener.fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);
    if (listener.fd < 0 || ::bind(listener.fd, reinterpret_cast<sockaddr*>(&at), sizeof at) != 0 ||
        ::listen(listener.fd, 64) != 0) {
      throw std::runtime_error(failure("listen on " + service_host + ":" + std::to_string(service_port), -errno));
    }
    made.listener = listener.release();
  }
  made.netns = netns.release();
}

void free_slot(int slot) {
  if (slot < 0) return;
  // Deleting one end of a veth pair deletes both. From a thread of the host's namespace.
  const int sock = netlink::open_route_socket();
  if (sock >= 0) {
    (void)netlink::delete_link(sock, "rrv" + std::to_string(slot));
    ::close(sock);
  }
  std::lock_guard lock(slots_mutex);
  used_slots.erase(slot);
}

}  // namespace

PodNetwork::PodNetwork(const std::string& service_host, int service_port) {
  Made made;
  std::thread([&] {
    try {
      set_up(made, service_host, service_port);
    } catch (const std::exception& e) {
      made.error = e.what();
    }
  }).join();
  if (!made.error.empty()) {
    if (made.listener >= 0) ::close(made.listener);
    if (made.netns >= 0) ::close(made.netns);
    free_slot(made.slot);
    throw std::runtime_error(made.error);
  }
  slot_ = made.slot;
  netns_fd_ = made.netns;
  pod_ip_ = text(address(slot_, 2));
  host_ip_ = text(address(slot_, 1));
  host_link_ = "rrv" + std::to_string(slot_);
  if (made.listener >= 0) {
    sockaddr_in target{};
    target.sin_family = AF_INET;
    target.sin_port = htons(static_cast<std::uint16_t>(service_port));
    ::inet_pton(AF_INET, service_host.c_str(), &target.sin_addr);
    forwarder_ = std::make_unique<TcpForwarder>(made.listener, target);
  }
}

PodNetwork::~PodNetwork() {
  forwarder_.reset();
  free_slot(slot_);
  if (netns_fd_ >= 0) ::close(netns_fd_);
}

}  // namespace rr::node_detail
