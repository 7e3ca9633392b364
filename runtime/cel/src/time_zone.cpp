// Time zones (time_zone.hpp): fixed offsets and the IANA database's TZif files.
#include "time_zone.hpp"

#include <fstream>
#include <iterator>
#include <map>
#include <mutex>
#include <vector>

#include "time_util.hpp"

namespace rr::cel {

namespace {

// The transitions of one TZif file (RFC 8536): UTC offsets by time, version 2+ 64-bit data when
// present. Past the last transition the last offset holds (the fat files Debian ships carry
// transitions to 2037).
struct Zone {
  std::vector<std::int64_t> times;
  std::vector<std::uint8_t> types;
  std::vector<std::int32_t> offsets;
  std::int32_t initial = 0;
};

std::int64_t be(const unsigned char* p, int n) {
  std::uint64_t v = 0;
  for (int i = 0; i < n; ++i) v = (v << 8) | p[i];
  if (n == 4) return static_cast<std::int32_t>(static_cast<std::uint32_t>(v));
  return static_cast<std::int64_t>(v);
}

std::optional<Zone> parse_tzif(const std::string& data) {
  const auto* p = reinterpret_cast<const unsigned char*>(data.data());
  std::size_t size = data.size();
  auto read_block = [&](std::size_t at, int time_size, Zone& z, std::size_t& end) -> bool {
    if (at + 44 > size || data.compare(at, 4, "TZif") != 0) return false;
    const std::int64_t isutcnt = be(p + at + 20, 4), isstdcnt = be(p + at + 24, 4), leapcnt = be(p + at + 28, 4),
                       timecnt = be(p + at + 32, 4), typecnt = be(p + at + 36, 4), charcnt = be(p + at + 40, 4);
    if (isutcnt < 0 || isstdcnt < 0 || leapcnt < 0 || timecnt < 0 || typecnt <= 0 || charcnt < 0) return false;
    std::size_t q = at + 44;
    const std::size_t need = static_cast<std::size_t>(timecnt * time_size + timecnt + typecnt * 6 + charcnt +
                                                      leapcnt * (time_size + 4) + isstdcnt + isutcnt);
    if (q + need > size) return false;
    z = Zone{};
    for (std::int64_t i = 0; i < timecnt; ++i) z.times.push_back(be(p + q + i * time_size, time_size));
    q += static_cast<std::size_t>(timecnt * time_size);
    for (std::int64_t i = 0; i < timecnt; ++i) z.types.push_back(p[q + i]);
    q += static_cast<std::size_t>(timecnt);
    for (std::int64_t i = 0; i < typecnt; ++i) z.offsets.push_back(static_cast<std::int32_t>(be(p + q + i * 6, 4)));
    for (const auto t : z.types)
      if (t >= z.offsets.size()) return false;
    z.initial = z.offsets[0];
    end = at + 44 + need;
    return true;
  };
  Zone z;
  std::size_t end = 0;
  if (!read_block(0, 4, z, end)) return std::nullopt;
  if (data.size() > 4 && data[4] >= '2') {
    Zone z2;
    std::size_t end2 = 0;
    if (read_block(end, 8, z2, end2)) return z2;
  }
  return z;
}

bool valid_zone_name(std::string_view name) {
  if (name.empty() || name.front() == '/' || name.find("..") != std::string_view::npos) return false;
  for (const char c : name)
    if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '/' || c == '_' ||
          c == '-' || c == '+'))
      return false;
  return true;
}

const Zone* load_zone(std::string_view name) {
  static std::mutex mu;
  static std::map<std::string, std::optional<Zone>, std::less<>> cache;
  const std::lock_guard lock(mu);
  if (const auto it = cache.find(name); it != cache.end()) return it->second ? &*it->second : nullptr;
  std::optional<Zone> zone;
  if (valid_zone_name(name)) {
    std::ifstream in("/usr/share/zoneinfo/" + std::string(name), std::ios::binary);
    if (in) {
      const std::string data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
      zone = parse_tzif(data);
    }
  }
  const auto& slot = cache.emplace(std::string(name), std::move(zone)).first->second;
  return slot ? &*slot : nullptr;
}

}  // namespace

std::optional<std::int64_t> zone_offset(std::string_view zone, Timestamp at) {
  if (zone == "UTC" || zone == "Z") return 0;
  if (const auto colon = zone.find(':'); colon != std::string_view::npos) {
    // [+|-]HH:MM
    std::string_view h = zone.substr(0, colon);
    const std::string_view m = zone.substr(colon + 1);
    int sign = 1;
    if (!h.empty() && (h[0] == '+' || h[0] == '-')) {
      sign = h[0] == '-' ? -1 : 1;
      h.remove_prefix(1);
    }
    int hours = 0, minutes = 0;
    if (h.empty() || h.size() > 2 || !decimal_digits(h, 0, h.size(), hours) || m.size() != 2 ||
        !decimal_digits(m, 0, 2, minutes) || minutes > 59)
      return std::nullopt;
    return sign * (hours * 3600 + minutes * 60);
  }
  const Zone* z = load_zone(zone);
  if (z == nullptr) return std::nullopt;
  std::int32_t offset = z->initial;
  for (std::size_t i = 0; i < z->times.size() && z->times[i] <= at.seconds; ++i) offset = z->offsets[z->types[i]];
  return offset;
}

}  // namespace rr::cel
