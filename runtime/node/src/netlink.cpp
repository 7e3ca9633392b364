#include "netlink.hpp"

#include <linux/if.h>
#include <linux/if_link.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/veth.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <functional>

namespace rr::node_detail::netlink {

namespace {

std::atomic<unsigned> sequence{1};

// One request: the netlink header, a fixed family header, then (nested) attributes.
class Message {
 public:
  Message(std::uint16_t type, std::uint16_t flags) {
    nlmsghdr header{};
    header.nlmsg_type = type;
    header.nlmsg_flags = static_cast<std::uint16_t>(NLM_F_REQUEST | NLM_F_ACK | flags);
    header.nlmsg_seq = sequence++;
    append(&header, sizeof header);
  }
  template <class T>
  void fixed(const T& value) {
    append(&value, sizeof value);
  }
  void attr(std::uint16_t type, const void* data, std::size_t length) {
    rtattr a{};
    a.rta_type = type;
    a.rta_len = static_cast<unsigned short>(RTA_LENGTH(length));
    append(&a, sizeof a);
    append(data, length);
  }
  void attr(std::uint16_t type, const std::string& text) { attr(type, text.c_str(), text.size() + 1); }
  std::size_t begin_nest(std::uint16_t type) {
    const std::size_t at = length_;
    attr(type, nullptr, 0);
    return at;
  }
  void end_nest(std::size_t at) {
    const auto nested = static_cast<unsigned short>(length_ - at);
    std::memcpy(buffer_.data() + at + offsetof(rtattr, rta_len), &nested, sizeof nested);
  }
  std::uint32_t seq() const {
    nlmsghdr header;
    std::memcpy(&header, buffer_.data(), sizeof header);
    return header.nlmsg_seq;
  }
  const char* data() {
    const auto total = static_cast<std::uint32_t>(length_);
    std::memcpy(buffer_.data() + offsetof(nlmsghdr, nlmsg_len), &total, sizeof total);
    return buffer_.data();
  }
  std::size_t size() const { return length_; }
  bool overflowed() const { return overflow_; }

 private:
  void append(const void* data, std::size_t length) {
    const std::size_t padded = NLMSG_ALIGN(length);
    if (length_ + padded > buffer_.size()) {
      overflow_ = true;
      return;
    }
    if (length > 0) std::memcpy(buffer_.data() + length_, data, length);
    length_ += padded;
  }
  alignas(nlmsghdr) std::array<char, 1024> buffer_{};
  std::size_t length_ = 0;
  bool overflow_ = false;
};

// Sends the request and reads until its acknowledgement; replies before it go to `on_reply`.
int transact(int sock, Message& m, const std::function<void(const nlmsghdr&, const char*)>& on_reply = {}) {
  if (m.overflowed()) return -EMSGSIZE;
  sockaddr_nl kernel{};
  kernel.nl_family = AF_NETLINK;
  if (::sendto(sock, m.data(), m.size(), 0, reinterpret_cast<sockaddr*>(&kernel), sizeof kernel) < 0) return -errno;
  alignas(nlmsghdr) std::array<char, 8192> buffer;
  for (;;) {
    const ssize_t n = ::recv(sock, buffer.data(), buffer.size(), 0);
    if (n < 0) {
      if (errno == EINTR) continue;
      return -errno;
    }
    auto left = static_cast<std::size_t>(n);
    for (std::size_t at = 0; left >= sizeof(nlmsghdr);) {
      nlmsghdr header;
      std::memcpy(&header, buffer.data() + at, sizeof header);
      if (header.nlmsg_len < sizeof header || header.nlmsg_len > left) return -EPROTO;
      if (header.nlmsg_seq == m.seq()) {
        if (header.nlmsg_type == NLMSG_ERROR) {
          nlmsgerr error;
          if (header.nlmsg_len < NLMSG_LENGTH(sizeof error)) return -EPROTO;
          std::memcpy(&error, buffer.data() + at + NLMSG_HDRLEN, sizeof error);
          return error.error;  // 0: the acknowledgement
        }
        if (on_reply) on_reply(header, buffer.data() + at);
      }
      const std::size_t step = NLMSG_ALIGN(header.nlmsg_len);
      if (step >= left) break;
      at += step;
      left -= step;
    }
  }
}

ifinfomsg link_header(int index = 0) {
  ifinfomsg info{};
  info.ifi_family = AF_UNSPEC;
  info.ifi_index = index;
  return info;
}

}  // namespace

int open_route_socket() {
  const int sock = ::socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
  if (sock < 0) return -1;
  timeval timeout{5, 0};
  ::setsockopt(sock, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
  return sock;
}

int create_veth(int sock, const std::string& name, const std::string& peer, int peer_netns_fd) {
  Message m(RTM_NEWLINK, NLM_F_CREATE | NLM_F_EXCL);
  m.fixed(link_header());
  m.attr(IFLA_IFNAME, name);
  const auto info = m.begin_nest(IFLA_LINKINFO);
  m.attr(IFLA_INFO_KIND, std::string("veth"));
  const auto data = m.begin_nest(IFLA_INFO_DATA);
  const auto peer_info = m.begin_nest(VETH_INFO_PEER);
  m.fixed(link_header());  // the peer's own ifinfomsg comes before its attributes
  m.attr(IFLA_IFNAME, peer);
  const auto fd = static_cast<std::uint32_t>(peer_netns_fd);
  m.attr(IFLA_NET_NS_FD, &fd, sizeof fd);
  m.end_nest(peer_info);
  m.end_nest(data);
  m.end_nest(info);
  return transact(sock, m);
}

int delete_link(int sock, const std::string& name) {
  Message m(RTM_DELLINK, 0);
  m.fixed(link_header());
  m.attr(IFLA_IFNAME, name);
  return transact(sock, m);
}

int link_index(int sock, const std::string& name) {
  Message m(RTM_GETLINK, 0);
  m.fixed(link_header());
  m.attr(IFLA_IFNAME, name);
  int index = -ENODEV;
  const int r = transact(sock, m, [&](const nlmsghdr& header, const char* message) {
    if (header.nlmsg_type != RTM_NEWLINK || header.nlmsg_len < NLMSG_LENGTH(sizeof(ifinfomsg))) return;
    ifinfomsg info;
    std::memcpy(&info, message + NLMSG_HDRLEN, sizeof info);
    index = info.ifi_index;
  });
  return r < 0 ? r : index;
}

int set_up(int sock, int index) {
  Message m(RTM_NEWLINK, 0);
  ifinfomsg info = link_header(index);
  info.ifi_flags = IFF_UP;
  info.ifi_change = IFF_UP;
  m.fixed(info);
  return transact(sock, m);
}

int add_address(int sock, int index, in_addr address, int prefix_length) {
  Message m(RTM_NEWADDR, NLM_F_CREATE | NLM_F_EXCL);
  ifaddrmsg info{};
  info.ifa_family = AF_INET;
  info.ifa_prefixlen = static_cast<unsigned char>(prefix_length);
  info.ifa_scope = RT_SCOPE_UNIVERSE;
  info.ifa_index = static_cast<unsigned>(index);
  m.fixed(info);
  m.attr(IFA_LOCAL, &address, sizeof address);
  m.attr(IFA_ADDRESS, &address, sizeof address);
  return transact(sock, m);
}

int add_default_route(int sock, in_addr gateway, int index) {
  Message m(RTM_NEWROUTE, NLM_F_CREATE | NLM_F_EXCL);
  rtmsg route{};
  route.rtm_family = AF_INET;
  route.rtm_table = RT_TABLE_MAIN;
  route.rtm_protocol = RTPROT_BOOT;
  route.rtm_scope = RT_SCOPE_UNIVERSE;
  route.rtm_type = RTN_UNICAST;
  m.fixed(route);
  m.attr(RTA_GATEWAY, &gateway, sizeof gateway);
  const auto oif = static_cast<std::uint32_t>(index);
  m.attr(RTA_OIF, &oif, sizeof oif);
  return transact(sock, m);
}

}  // namespace rr::node_detail::netlink
