// IP addresses and CIDRs as k8s.io/utils/net's ParseIPSloppy / ParseCIDRSloppy read them (IPv4
// octets may have leading zeros), with the classification the Service and Endpoints checks need.
#pragma once
#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

namespace rr::validation::detail {

struct IpAddress {
  std::array<std::uint8_t, 16> bytes{};  // IPv4 as IPv4-mapped IPv6, as Go's net.IP holds it
  bool is_v4() const;                    // To4() != nil (includes ::ffff:a.b.c.d)
  bool is_unspecified() const;
  bool is_loopback() const;
  bool is_link_local_unicast() const;
  bool is_link_local_multicast() const;
};

std::optional<IpAddress> parse_ip_sloppy(std::string_view text);
struct Cidr {
  IpAddress network;  // the address with the bits beyond the prefix cleared
  int prefix = 0;     // in the family's bits (32 for IPv4)
  bool v4 = false;
  // IPNet.Contains: same family, and the address's first `prefix` bits equal the network's.
  bool contains(const IpAddress& ip) const;
};
std::optional<Cidr> parse_cidr_sloppy(std::string_view text);  // "<ip>/<prefix length>"
bool is_cidr_sloppy(std::string_view text);

// The messages of validation.IsValidIPForLegacyField / IsValidCIDRForLegacyField without the
// StrictIPCIDRValidation checks.
inline constexpr std::string_view kInvalidIpMessage = "must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)";
inline constexpr std::string_view kInvalidCidrMessage =
    "must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)";

}  // namespace rr::validation::detail
