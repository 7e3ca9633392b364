// Kubernetes' IP and CIDR libraries (net.IP, net.CIDR; also cel-go's network extension): ip(),
// isIP(), ip.isCanonical(), family(), the address classes, cidr(), isCIDR(), containsIP(),
// containsCIDR(), ip(), masked(), prefixLength(). Zones and dotted IPv4-in-IPv6 text are refused,
// as Kubernetes refuses them.
#include <arpa/inet.h>

#include <array>
#include <cstring>
#include <optional>

#include "functions.hpp"

namespace rr::cel {

namespace {

struct Address {
  std::array<unsigned char, 16> bytes{};  // an IPv4 address uses the first 4
  bool v4 = false;
  bool operator==(const Address&) const = default;
  std::size_t size() const { return v4 ? 4 : 16; }
};

std::string address_text(const Address& a) {
  char buf[INET6_ADDRSTRLEN];
  inet_ntop(a.v4 ? AF_INET : AF_INET6, a.bytes.data(), buf, sizeof buf);
  return buf;
}

// The address, or an error message naming the input.
std::optional<Address> parse_address(const std::string& s, const char* what, std::string& error) {
  if (s.find('%') != std::string::npos) {
    error = std::string(what) + " with zone value is not allowed";
    return std::nullopt;
  }
  Address a;
  if (inet_pton(AF_INET, s.c_str(), a.bytes.data()) == 1) {
    a.v4 = true;
    return a;
  }
  if (s.find(':') != std::string::npos && inet_pton(AF_INET6, s.c_str(), a.bytes.data()) == 1) {
    if (s.find('.') != std::string::npos) {
      error = "IPv4-mapped IPv6 address is not allowed";
      return std::nullopt;
    }
    static constexpr unsigned char kMapped[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
    if (std::memcmp(a.bytes.data(), kMapped, 12) == 0) {  // ::ffff:a.b.c.d is the IPv4 address
      std::memmove(a.bytes.data(), a.bytes.data() + 12, 4);
      std::memset(a.bytes.data() + 4, 0, 12);
      a.v4 = true;
    }
    return a;
  }
  error = std::string(what) + " '" + s + "' parse error during conversion from string";
  return std::nullopt;
}

class Ip final : public Opaque {
 public:
  explicit Ip(Address a) : addr(a) {}
  std::string type_name() const override { return "net.IP"; }
  bool equals(const Opaque& other) const override { return addr == static_cast<const Ip&>(other).addr; }
  std::string to_string() const override { return address_text(addr); }
  Address addr;
};

class Cidr final : public Opaque {
 public:
  Cidr(Address a, int bits) : addr(a), prefix(bits) {}
  std::string type_name() const override { return "net.CIDR"; }
  bool equals(const Opaque& other) const override {
    const auto& o = static_cast<const Cidr&>(other);
    return addr == o.addr && prefix == o.prefix;
  }
  std::string to_string() const override { return address_text(addr) + "/" + std::to_string(prefix); }
  Address masked() const {
    Address m = addr;
    for (std::size_t i = 0; i < m.size(); ++i) {
      const int keep = std::max(0, std::min(8, prefix - static_cast<int>(i) * 8));
      m.bytes[i] = static_cast<unsigned char>(m.bytes[i] & (keep == 0 ? 0 : (0xff << (8 - keep)) & 0xff));
    }
    return m;
  }
  bool contains(const Address& a) const {
    if (a.v4 != addr.v4) return false;
    return Cidr(a, prefix).masked() == masked();
  }
  Address addr;
  int prefix;
};

const Ip* as_ip(const Value& v) {
  return v.kind() == Kind::Opaque && v.as_opaque().type_name() == "net.IP" ? &static_cast<const Ip&>(v.as_opaque())
                                                                           : nullptr;
}
const Cidr* as_cidr(const Value& v) {
  return v.kind() == Kind::Opaque && v.as_opaque().type_name() == "net.CIDR" ? &static_cast<const Cidr&>(v.as_opaque())
                                                                             : nullptr;
}

std::optional<Cidr> parse_cidr(const std::string& s, std::string& error) {
  if (s.find('%') != std::string::npos) {
    error = "CIDR with zone value is not allowed";
    return std::nullopt;
  }
  const auto slash = s.find('/');
  const std::string bits = slash == std::string::npos ? "" : s.substr(slash + 1);
  bool digits = !bits.empty() && bits.size() <= 3;
  for (const char c : bits) digits = digits && c >= '0' && c <= '9';
  if (!digits || (bits.size() > 1 && bits[0] == '0')) {
    error = "network address parse error during conversion from string";
    return std::nullopt;
  }
  const auto addr = parse_address(s.substr(0, slash), "CIDR", error);
  if (!addr) {
    if (error.find("parse error") != std::string::npos)
      error = "network address parse error during conversion from string";
    return std::nullopt;
  }
  const int prefix = std::stoi(bits);
  if (prefix > (addr->v4 ? 32 : 128)) {
    error = "network address parse error during conversion from string";
    return std::nullopt;
  }
  return Cidr(*addr, prefix);
}

Value ip(std::span<const Value> a) {
  if (a.size() == 1 && a[0].kind() == Kind::String) {
    std::string error;
    const auto addr = parse_address(a[0].as_string(), "IP Address", error);
    if (!addr) return Value::error(error);
    return Value(std::shared_ptr<const Opaque>(std::make_shared<Ip>(*addr)));
  }
  if (a.size() == 1) {
    if (const Cidr* c = as_cidr(a[0])) return Value(std::shared_ptr<const Opaque>(std::make_shared<Ip>(c->addr)));
  }
  return no_overload("ip", a);
}

Value is_ip(std::span<const Value> a) {
  if (a.size() != 1 || a[0].kind() != Kind::String) return no_overload("isIP", a);
  std::string error;
  return Value(parse_address(a[0].as_string(), "IP Address", error).has_value());
}

Value is_canonical(std::span<const Value> a) {
  if (a.size() != 1 || a[0].kind() != Kind::String) return no_overload("ip.isCanonical", a);
  std::string error;
  const auto addr = parse_address(a[0].as_string(), "IP Address", error);
  if (!addr) return Value::error(error);
  return Value(address_text(*addr) == a[0].as_string());
}

enum class Class { Family, Unspecified, Loopback, GlobalUnicast, LinkLocalMulticast, LinkLocalUnicast };

bool all_zero(const Address& a) {
  for (std::size_t i = 0; i < a.size(); ++i)
    if (a.bytes[i] != 0) return false;
  return true;
}

template <Class C>
Value classify(std::span<const Value> a) {
  static constexpr const char* kNames[] = {"family",          "isUnspecified",        "isLoopback",
                                           "isGlobalUnicast", "isLinkLocalMulticast", "isLinkLocalUnicast"};
  const Ip* ip_value = a.size() == 1 ? as_ip(a[0]) : nullptr;
  if (ip_value == nullptr) return no_overload(kNames[static_cast<int>(C)], a);
  const Address& x = ip_value->addr;
  const auto& b = x.bytes;
  Address one;  // ::1
  one.bytes[15] = 1;
  const bool loopback = x.v4 ? b[0] == 127 : x == one;
  const bool multicast = x.v4 ? (b[0] & 0xf0) == 0xe0 : b[0] == 0xff;
  const bool link_local_unicast = x.v4 ? (b[0] == 169 && b[1] == 254) : (b[0] == 0xfe && (b[1] & 0xc0) == 0x80);
  const bool broadcast = x.v4 && b[0] == 255 && b[1] == 255 && b[2] == 255 && b[3] == 255;
  switch (C) {
    case Class::Family: return Value(std::int64_t{x.v4 ? 4 : 6});
    case Class::Unspecified: return Value(all_zero(x));
    case Class::Loopback: return Value(loopback);
    case Class::GlobalUnicast:
      return Value(!all_zero(x) && !loopback && !multicast && !link_local_unicast && !broadcast);
    case Class::LinkLocalMulticast:
      return Value(x.v4 ? (b[0] == 224 && b[1] == 0 && b[2] == 0) : (b[0] == 0xff && (b[1] & 0x0f) == 0x02));
    case Class::LinkLocalUnicast: return Value(link_local_unicast);
  }
  return no_overload(kNames[static_cast<int>(C)], a);
}

Value cidr(std::span<const Value> a) {
  if (a.size() != 1 || a[0].kind() != Kind::String) return no_overload("cidr", a);
  std::string error;
  const auto c = parse_cidr(a[0].as_string(), error);
  if (!c) return Value::error(error);
  return Value(std::shared_ptr<const Opaque>(std::make_shared<Cidr>(*c)));
}

Value is_cidr(std::span<const Value> a) {
  if (a.size() != 1 || a[0].kind() != Kind::String) return no_overload("isCIDR", a);
  std::string error;
  return Value(parse_cidr(a[0].as_string(), error).has_value());
}

Value contains_ip(std::span<const Value> a) {
  const Cidr* c = a.size() == 2 ? as_cidr(a[0]) : nullptr;
  if (c == nullptr) return no_overload("containsIP", a);
  if (const Ip* i = as_ip(a[1])) return Value(c->contains(i->addr));
  if (a[1].kind() == Kind::String) {
    std::string error;
    const auto addr = parse_address(a[1].as_string(), "IP Address", error);
    if (!addr) return Value::error(error);
    return Value(c->contains(*addr));
  }
  return no_overload("containsIP", a);
}

Value contains_cidr(std::span<const Value> a) {
  const Cidr* c = a.size() == 2 ? as_cidr(a[0]) : nullptr;
  if (c == nullptr) return no_overload("containsCIDR", a);
  std::optional<Cidr> parsed;
  const Cidr* other = as_cidr(a[1]);
  if (other == nullptr && a[1].kind() == Kind::String) {
    std::string error;
    parsed = parse_cidr(a[1].as_string(), error);
    if (!parsed) return Value::error(error);
    other = &*parsed;
  }
  if (other == nullptr) return no_overload("containsCIDR", a);
  return Value(other->prefix >= c->prefix && c->contains(other->addr));
}

Value masked(std::span<const Value> a) {
  const Cidr* c = a.size() == 1 ? as_cidr(a[0]) : nullptr;
  if (c == nullptr) return no_overload("masked", a);
  return Value(std::shared_ptr<const Opaque>(std::make_shared<Cidr>(c->masked(), c->prefix)));
}

Value prefix_length(std::span<const Value> a) {
  const Cidr* c = a.size() == 1 ? as_cidr(a[0]) : nullptr;
  if (c == nullptr) return no_overload("prefixLength", a);
  return Value(std::int64_t{c->prefix});
}

}  // namespace

void register_network(FunctionTable& t) {
  t.add("ip", ip, true, true);
  t.add("isIP", is_ip, true, false);
  t.add("ip.isCanonical", is_canonical, true, false);
  t.add("family", classify<Class::Family>, false, true);
  t.add("isUnspecified", classify<Class::Unspecified>, false, true);
  t.add("isLoopback", classify<Class::Loopback>, false, true);
  t.add("isGlobalUnicast", classify<Class::GlobalUnicast>, false, true);
  t.add("isLinkLocalMulticast", classify<Class::LinkLocalMulticast>, false, true);
  t.add("isLinkLocalUnicast", classify<Class::LinkLocalUnicast>, false, true);
  t.add("cidr", cidr, true, false);
  t.add("isCIDR", is_cidr, true, false);
  t.add("containsIP", contains_ip, false, true);
  t.add("containsCIDR", contains_cidr, false, true);
  t.add("masked", masked, false, true);
  t.add("prefixLength", prefix_length, false, true);
}

}  // namespace rr::cel
