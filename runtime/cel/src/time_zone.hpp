// Time zones for the timestamp accessors: "UTC", fixed offsets "[+|-]HH:MM", and IANA names read
// from the TZif files under /usr/share/zoneinfo (Debian's tzdata), cached per process.
#pragma once
#include <cstdint>
#include <optional>
#include <string_view>

#include "rr/cel/value.hpp"

namespace rr::cel {

// The UTC offset in seconds of a zone at a moment; nullopt for an unknown zone.
std::optional<std::int64_t> zone_offset(std::string_view zone, Timestamp at);

}  // namespace rr::cel
