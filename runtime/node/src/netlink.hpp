// The few rtnetlink requests a pod's network needs (a veth pair, addresses, a default route, links
// up, a link deleted), sent on a NETLINK_ROUTE socket: a socket acts in the network namespace of
// the thread that opened it, which is how one thread configures both the host's and a pod's side.
#pragma once
#include <netinet/in.h>

#include <string>

namespace rr::node_detail::netlink {

// A NETLINK_ROUTE socket (close-on-exec, 5 s receive timeout), or -1 with errno set.
int open_route_socket();

// Each request returns 0, or the negative errno the kernel (or the socket) gave.
int create_veth(int sock, const std::string& name, const std::string& peer, int peer_netns_fd);
int delete_link(int sock, const std::string& name);
int link_index(int sock, const std::string& name);  // the index (> 0), or a negative errno
int set_up(int sock, int index);
int add_address(int sock, int index, in_addr address, int prefix_length);
int add_default_route(int sock, in_addr gateway, int index);

}  // namespace rr::node_detail::netlink
