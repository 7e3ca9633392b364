// robfig/cron v3's standard parser, hand-written (no regexes), error for error.
#include "cron_schedule.hpp"

#include <array>
#include <cstdint>
#include <filesystem>
#include <limits>
#include <vector>

#include "rr/core/go_quote.hpp"

namespace rr::validation::detail {
namespace {

struct Bounds {
  unsigned min;
  unsigned max;
  const std::array<std::string_view, 13>* names;  // index = value; empty where none
};

constexpr std::array<std::string_view, 13> kMonths = {"",    "jan", "feb", "mar", "apr", "may", "jun",
                                                      "jul", "aug", "sep", "oct", "nov", "dec"};
constexpr std::array<std::string_view, 13> kDays = {"sun", "mon", "tue", "wed", "thu", "fri", "sat"};

std::vector<std::string_view> split(std::string_view s, char sep) {
  std::vector<std::string_view> out;
  for (;;) {
    const std::size_t at = s.find(sep);
    out.push_back(s.substr(0, at));
    if (at == std::string_view::npos) return out;
    s.remove_prefix(at + 1);
  }
}

bool space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'; }

std::vector<std::string_view> fields(std::string_view s) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && space(s[i])) ++i;
    const std::size_t start = i;
    while (i < s.size() && !space(s[i])) ++i;
    if (i > start) out.push_back(s.substr(start, i - start));
  }
  return out;
}

// strconv.Atoi's errors, as "failed to parse int from <expr>: <err>".
std::optional<std::string> atoi(std::string_view expr, long long& out) {
  std::string_view digits = expr;
  bool negative = false;
  if (!digits.empty() && (digits[0] == '+' || digits[0] == '-')) {
    negative = digits[0] == '-';
    digits.remove_prefix(1);
  }
  const auto syntax = [&] {
    return "failed to parse int from " + std::string(expr) + ": strconv.Atoi: parsing " + go_quote(expr) +
           ": invalid syntax";
  };
  if (digits.empty()) return syntax();
  unsigned long long v = 0;
  bool overflow = false;
  for (const char c : digits) {
    if (c < '0' || c > '9') return syntax();
    if (v > (std::numeric_limits<unsigned long long>::max() - 9) / 10) overflow = true;
    v = v * 10 + static_cast<unsigned>(c - '0');
  }
  if (overflow || v > static_cast<unsigned long long>(std::numeric_limits<long long>::max())) {
    return "failed to parse int from " + std::string(expr) + ": strconv.Atoi: parsing " + go_quote(expr) +
           ": value out of range";
  }
  out = negative ? -static_cast<long long>(v) : static_cast<long long>(v);
  return std::nullopt;
}

std::optional<std::string> must_parse_int(std::string_view expr, unsigned long long& out) {
  long long v = 0;
  if (auto err = atoi(expr, v)) return err;
  if (v < 0) return "negative number (" + std::to_string(v) + ") not allowed: " + std::string(expr);
  out = static_cast<unsigned long long>(v);
  return std::nullopt;
}

std::optional<std::string> int_or_name(std::string_view expr, const Bounds& r, unsigned long long& out) {
  if (r.names) {
    std::string lower(expr);
    for (char& c : lower) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
    for (std::size_t i = 0; i < r.names->size(); ++i) {
      if (!(*r.names)[i].empty() && (*r.names)[i] == lower) {
        out = i;
        return std::nullopt;
      }
    }
  }
  return must_parse_int(expr, out);
}

std::optional<std::string> range(std::string_view expr, const Bounds& r) {
  const std::vector<std::string_view> range_and_step = split(expr, '/');
  const std::vector<std::string_view> low_and_high = split(range_and_step[0], '-');
  const bool single = low_and_high.size() == 1;
  unsigned long long start = 0;
  unsigned long long end = 0;
  unsigned long long step = 1;
  if (low_and_high[0] == "*" || low_and_high[0] == "?") {
    start = r.min;
    end = r.max;
  } else {
    if (auto err = int_or_name(low_and_high[0], r, start)) return err;
    if (low_and_high.size() == 1) {
      end = start;
    } else if (low_and_high.size() == 2) {
      if (auto err = int_or_name(low_and_high[1], r, end)) return err;
    } else {
      return "too many hyphens: " + std::string(expr);
    }
  }
  if (range_and_step.size() == 2) {
    if (auto err = must_parse_int(range_and_step[1], step)) return err;
    if (single) end = r.max;  // "N/step" means "N-max/step"
  } else if (range_and_step.size() > 2) {
    return "too many slashes: " + std::string(expr);
  }
  const std::string e(expr);
  if (start < r.min)
    return "beginning of range (" + std::to_string(start) + ") below minimum (" + std::to_string(r.min) + "): " + e;
  if (end > r.max)
    return "end of range (" + std::to_string(end) + ") above maximum (" + std::to_string(r.max) + "): " + e;
  if (start > end)
    return "beginning of range (" + std::to_string(start) + ") beyond end of range (" + std::to_string(end) + "): " + e;
  if (step == 0) return "step of range should be a positive number: " + e;
  return std::nullopt;
}

std::optional<std::string> field(std::string_view f, const Bounds& r) {
  for (std::string_view expr : split(f, ',')) {
    if (expr.empty()) continue;  // strings.FieldsFunc drops empty parts
    if (auto err = range(expr, r)) return err;
  }
  return std::nullopt;
}

// time.ParseDuration's grammar: [-+]?([0-9]*(\.[0-9]*)?[a-z]+)+, or "0".
std::optional<std::string> duration_error(std::string_view s) {
  const std::string orig(s);
  const std::string invalid = "time: invalid duration " + go_quote(orig);
  if (!s.empty() && (s[0] == '-' || s[0] == '+')) s.remove_prefix(1);
  if (s == "0") return std::nullopt;
  if (s.empty()) return invalid;
  while (!s.empty()) {
    std::size_t i = 0;
    bool digits = false;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i, digits = true;
    if (i < s.size() && s[i] == '.') {
      ++i;
      while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i, digits = true;
    }
    if (!digits) return invalid;
    s.remove_prefix(i);
    std::size_t u = 0;
    while (u < s.size() && s[u] != '.' && !(s[u] >= '0' && s[u] <= '9')) ++u;
    if (u == 0) return "time: missing unit in duration " + go_quote(orig);
    const std::string_view unit = s.substr(0, u);
    static constexpr std::array<std::string_view, 8> kUnits = {"ns", "us", "\xC2\xB5s", "\xCE\xBCs",
                                                               "ms", "s",  "m",         "h"};
    bool known = false;
    for (const std::string_view k : kUnits) known = known || k == unit;
    if (!known) return "time: unknown unit " + go_quote(unit) + " in duration " + go_quote(orig);
    s.remove_prefix(u);
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::string> time_zone_error(std::string_view name) {
  if (name.empty() || name == "UTC" || name == "Local") return std::nullopt;
  if (name.find("..") != std::string_view::npos || name[0] == '/' || name[0] == '\\') {
    return "time: invalid location name";
  }
  static const bool have_db = std::filesystem::is_directory("/usr/share/zoneinfo");
  if (!have_db) return std::nullopt;  // nothing to check against: accept, as the embedded database would
  std::error_code ec;
  if (std::filesystem::is_regular_file(std::filesystem::path("/usr/share/zoneinfo") / std::string(name), ec)) {
    return std::nullopt;
  }
  return "unknown time zone " + std::string(name);
}

std::optional<std::string> cron_parse_error(std::string_view spec) {
  if (spec.empty()) return "empty spec string";
  if (spec.starts_with("TZ=") || spec.starts_with("CRON_TZ=")) {
    const std::size_t sp = spec.find(' ');
    const std::size_t eq = spec.find('=');
    const std::string_view zone = spec.substr(eq + 1,
                                              sp == std::string_view::npos ? std::string_view::npos : sp - eq - 1);
    if (auto err = time_zone_error(zone)) return "provided bad location " + std::string(zone) + ": " + *err;
    spec = sp == std::string_view::npos ? std::string_view() : spec.substr(sp);
    while (!spec.empty() && space(spec.front())) spec.remove_prefix(1);
    while (!spec.empty() && space(spec.back())) spec.remove_suffix(1);
  }
  if (spec.starts_with('@')) {
    for (const std::string_view d : {"@yearly", "@annually", "@monthly", "@weekly", "@daily", "@midnight", "@hourly"}) {
      if (spec == d) return std::nullopt;
    }
    if (spec.starts_with("@every ")) {
      if (auto err = duration_error(spec.substr(7)))
        return "failed to parse duration " + std::string(spec) + ": " + *err;
      return std::nullopt;
    }
    return "unrecognized descriptor: " + std::string(spec);
  }
  const std::vector<std::string_view> f = fields(spec);
  if (f.size() != 5) {
    std::string shown = "[";
    for (std::size_t i = 0; i < f.size(); ++i) shown += (i ? " " : "") + std::string(f[i]);
    return "expected exactly 5 fields, found " + std::to_string(f.size()) + ": " + shown + "]";
  }
  static const Bounds kMinutes{0, 59, nullptr};
  static const Bounds kHours{0, 23, nullptr};
  static const Bounds kDom{1, 31, nullptr};
  static const Bounds kMonth{1, 12, &kMonths};
  static const Bounds kDow{0, 6, &kDays};
  for (const auto& [text, bounds] :
       {std::pair{f[0], &kMinutes}, {f[1], &kHours}, {f[2], &kDom}, {f[3], &kMonth}, {f[4], &kDow}}) {
    if (auto err = field(text, *bounds)) return err;
  }
  return std::nullopt;
}

}  // namespace rr::validation::detail
