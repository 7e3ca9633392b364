// A pod's network (root only): its own network namespace with `lo` up and `eth0`, one end of a
// veth pair whose other end (`rrv<n>`) stays on the host. Pod n owns 10.88.0.0/16's n-th /30:
// the host side is .1 of it, the pod .2 with a default route via the host side, so the host
// reaches the pod at its IP and two pods can bind the same port. The API server on the host's
// loopback is reached from inside through a forwarder listening on the pod's own 127.0.0.1 at the
// same port (the serving certificate's 127.0.0.1 stays valid). The namespace lives as long as
// this object (its fd) and the pod's processes; the destructor removes the veth pair and frees n.
#pragma once
#include <memory>
#include <string>

namespace rr::node_detail {

class TcpForwarder;

class PodNetwork {
 public:
  // `service_host`:`service_port` is the API server; forwarded when the host is a loopback
  // address. Throws std::runtime_error saying which step failed.
  PodNetwork(const std::string& service_host, int service_port);
  ~PodNetwork();
  PodNetwork(const PodNetwork&) = delete;
  PodNetwork& operator=(const PodNetwork&) = delete;

  int netns_fd() const { return netns_fd_; }  // for setns(CLONE_NEWNET) in a container's child
  const std::string& pod_ip() const { return pod_ip_; }
  const std::string& host_ip() const { return host_ip_; }  // the host side, the pod's gateway
  const std::string& host_link() const { return host_link_; }

 private:
  int slot_ = -1;
  int netns_fd_ = -1;
  std::string pod_ip_, host_ip_, host_link_;
  std::unique_ptr<TcpForwarder> forwarder_;
};

}  // namespace rr::node_detail
