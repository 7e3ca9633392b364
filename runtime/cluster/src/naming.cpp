// Server-assigned identity: uids, generateName suffixes, timestamps.
#include <cstdio>

#include "rr/core/time.hpp"
#include "store.hpp"

namespace rr::cluster_detail {

std::string Store::next_uid() {
  // UUID-shaped (version 4 layout) from a counter: deterministic and readable in test output.
  char buf[40];
  std::snprintf(buf, sizeof buf, "00000000-0000-4000-8000-%012llx",
                static_cast<unsigned long long>(++uid_counter_));
  return buf;
}

std::string Store::generate_name(const std::string& base) {
  if (options_.counter_generate_name) {
    // reconciler.io's test client: base + %03d from a per-client counter ("foo-" → "foo-001").
    char buf[24];
    std::snprintf(buf, sizeof buf, "%03llu", static_cast<unsigned long long>(++generate_name_counter_));
    return base + buf;
  }
  // names.SimpleNameGenerator: base[:58] + 5 characters from an alphabet without vowels or
  // look-alikes. Modulo keeps the sequence identical across standard libraries for a seed.
  static constexpr std::string_view alphabet = "bcdfghjklmnpqrstvwxz2456789";
  std::string name = base.substr(0, 58);
  for (int i = 0; i < 5; ++i) name += alphabet[random_() % alphabet.size()];
  return name;
}

std::chrono::system_clock::time_point Store::now() const {
  return options_.clock ? options_.clock() : std::chrono::system_clock::now();
}

std::string Store::timestamp() const { return Time::from(now()).str(); }

}  // namespace rr::cluster_detail
