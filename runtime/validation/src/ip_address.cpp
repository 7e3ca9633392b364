#include "ip_address.hpp"

#include <arpa/inet.h>

#include <string>

namespace rr::validation::detail {
namespace {

constexpr std::array<std::uint8_t, 12> kV4InV6Prefix{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};

// Go 1.16's parseIPv4 (kept by k8s.io/utils/net): four decimal fields up to 255, leading zeros allowed.
std::optional<std::array<std::uint8_t, 4>> parse_v4(std::string_view s) {
  std::array<std::uint8_t, 4> out{};
  std::size_t i = 0;
  for (int field = 0; field < 4; ++field) {
    if (field > 0) {
      if (i >= s.size() || s[i] != '.') return std::nullopt;
      ++i;
    }
    std::uint32_t n = 0;
    std::size_t digits = 0;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') {
      n = n * 10 + static_cast<std::uint32_t>(s[i] - '0');
      if (n > 0xff) return std::nullopt;
      ++i;
      ++digits;
    }
    if (digits == 0) return std::nullopt;
    out[static_cast<std::size_t>(field)] = static_cast<std::uint8_t>(n);
  }
  if (i != s.size()) return std::nullopt;
  return out;
}

}  // namespace

bool IpAddress::is_v4() const {
  for (std::size_t i = 0; i < kV4InV6Prefix.size(); ++i) {
    if (bytes[i] != kV4InV6Prefix[i]) return false;
  }
  return true;
}

bool IpAddress::is_unspecified() const {
  if (is_v4()) return bytes[12] == 0 && bytes[13] == 0 && bytes[14] == 0 && bytes[15] == 0;
  for (std::uint8_t b : bytes) {
    if (b != 0) return false;
  }
  return true;
}

bool IpAddress::is_loopback() const {
  if (is_v4()) return bytes[12] == 127;
  for (std::size_t i = 0; i < 15; ++i) {
    if (bytes[i] != 0) return false;
  }
  return bytes[15] == 1;
}

bool IpAddress::is_link_local_unicast() const {
  if (is_v4()) return bytes[12] == 169 && bytes[13] == 254;
  return bytes[0] == 0xfe && (bytes[1] & 0xc0) == 0x80;
}

bool IpAddress::is_link_local_multicast() const {
  if (is_v4()) return bytes[12] == 224 && bytes[13] == 0 && bytes[14] == 0;
  return bytes[0] == 0xff && (bytes[1] & 0x0f) == 0x02;
}

std::optional<IpAddress> parse_ip_sloppy(std::string_view text) {
  IpAddress ip;
  if (text.find(':') == std::string_view::npos) {
    const auto v4 = parse_v4(text);
    if (!v4) return std::nullopt;
    for (std::size_t i = 0; i < kV4InV6Prefix.size(); ++i) ip.bytes[i] = kV4InV6Prefix[i];
    for (std::size_t i = 0; i < 4; ++i) ip.bytes[12 + i] = (*v4)[i];
    return ip;
  }
  // IPv6 has no leading-zero ambiguity; zones ("%eth0") are refused by both parsers.
  if (text.size() > 64 || text.find('%') != std::string_view::npos) return std::nullopt;
  const std::string s(text);
  if (inet_pton(AF_INET6, s.c_str(), ip.bytes.data()) != 1) return std::nullopt;
  return ip;
}

std::optional<Cidr> parse_cidr_sloppy(std::string_view text) {
  const std::size_t slash = text.find('/');
  if (slash == std::string_view::npos) return std::nullopt;
  const auto ip = parse_ip_sloppy(text.substr(0, slash));
  if (!ip) return std::nullopt;
  const std::string_view bits = text.substr(slash + 1);
  if (bits.empty() || bits.size() > 3) return std::nullopt;
  int n = 0;
  for (char c : bits) {
    if (c < '0' || c > '9') return std::nullopt;
    n = n * 10 + (c - '0');
  }
  Cidr cidr;
  cidr.v4 = text.substr(0, slash).find(':') == std::string_view::npos;
  if (n > (cidr.v4 ? 32 : 128)) return std::nullopt;
  cidr.prefix = n;
  cidr.network = *ip;
  const int offset = cidr.v4 ? 96 : 0;  // an IPv4 prefix counts from the 13th byte
  for (int bit = offset + n; bit < 128; ++bit) {
    cidr.network.bytes[static_cast<std::size_t>(bit / 8)] &= static_cast<std::uint8_t>(~(0x80u >> (bit % 8)));
  }
  return cidr;
}

bool Cidr::contains(const IpAddress& ip) const {
  if (ip.is_v4() != v4) return false;
  const int offset = v4 ? 96 : 0;
  for (int bit = offset; bit < offset + prefix; ++bit) {
    const auto byte = static_cast<std::size_t>(bit / 8);
    const auto mask = static_cast<std::uint8_t>(0x80u >> (bit % 8));
    if ((ip.bytes[byte] & mask) != (network.bytes[byte] & mask)) return false;
  }
  return true;
}

bool is_cidr_sloppy(std::string_view text) { return parse_cidr_sloppy(text).has_value(); }

}  // namespace rr::validation::detail
