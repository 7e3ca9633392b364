// util/validation's port, env var and config key checks, hand-written (each names its regex).
#include "rr/validation/ports.hpp"

#include <algorithm>
#include <string>

namespace rr::validation {
namespace {

bool port_char_ok(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); }

// hasChDirPrefix
void chdir_prefix(std::string_view value, Messages& errs) {
  if (value == ".") {
    errs.emplace_back("must not be '.'");
  } else if (value == "..") {
    errs.emplace_back("must not be '..'");
  } else if (value.starts_with("..")) {
    errs.emplace_back("must not start with '..'");
  }
}

}  // namespace

std::string inclusive_range_error(std::int64_t lo, std::int64_t hi) {
  return "must be between " + std::to_string(lo) + " and " + std::to_string(hi) + ", inclusive";
}

Messages is_valid_port_num(std::int64_t port) {
  if (port >= 1 && port <= 65535) return {};
  return {inclusive_range_error(1, 65535)};
}

Messages is_valid_port_name(std::string_view port) {
  Messages errs;
  if (port.size() > 15) errs.emplace_back("must be no more than 15 characters");
  // ^[-a-z0-9]+$
  if (port.empty() || !std::all_of(port.begin(), port.end(), [](char c) { return port_char_ok(c) || c == '-'; })) {
    errs.emplace_back("must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)");
  }
  // [a-z]
  if (std::none_of(port.begin(), port.end(), [](char c) { return c >= 'a' && c <= 'z'; })) {
    errs.emplace_back("must contain at least one letter (a-z)");
  }
  if (port.find("--") != std::string_view::npos) errs.emplace_back("must not contain consecutive hyphens");
  if (!port.empty() && (port.front() == '-' || port.back() == '-')) {
    errs.emplace_back("must not begin or end with a hyphen");
  }
  return errs;
}

Messages is_relaxed_env_var_name(std::string_view name) {
  Messages errs;
  if (name.empty()) errs.emplace_back("environment variable name must be non-empty");
  // Go ranges over runes: any byte >= 0x80 belongs to a rune above MaxASCII (or to U+FFFD).
  const bool bad = std::any_of(name.begin(), name.end(), [](char ch) {
    const auto c = static_cast<unsigned char>(ch);
    return c < 0x20 || c >= 0x7f || c == '=';
  });
  if (bad) {
    errs.emplace_back(
        "a valid environment variable name must consist only of printable ASCII characters other than '='");
  }
  return errs;
}

Messages is_config_map_key(std::string_view key) {
  Messages errs;
  if (key.size() > kDNS1123SubdomainMaxLength) errs.emplace_back("must be no more than 253 characters");
  // ^[-._a-zA-Z0-9]+$
  const bool ok = !key.empty() && std::all_of(key.begin(), key.end(), [](char c) {
    return port_char_ok(c) || (c >= 'A' && c <= 'Z') || c == '-' || c == '.' || c == '_';
  });
  if (!ok) {
    errs.emplace_back(
        "a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or "
        "'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')");
  }
  chdir_prefix(key, errs);
  return errs;
}

}  // namespace rr::validation
