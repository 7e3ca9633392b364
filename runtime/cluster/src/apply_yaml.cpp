#include "apply_yaml.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <optional>
#include <string>

#include "errors.hpp"

namespace rr::cluster_detail {

namespace {

[[noreturn]] void undecodable(const std::string& why) {
  fail(api_errors::bad_request("error decoding YAML: " + why));
}

// go-yaml v2's resolve table (YAML 1.1 booleans).
std::optional<bool> as_bool(const std::string& s) {
  static constexpr std::array<std::string_view, 11> yes = {"y",    "Y",    "yes", "Yes", "YES", "true",
                                                            "True", "TRUE", "on",  "On",  "ON"};
  static constexpr std::array<std::string_view, 11> no = {"n",     "N",     "no",  "No",  "NO", "false",
                                                           "False", "FALSE", "off", "Off", "OFF"};
  if (std::find(yes.begin(), yes.end(), s) != yes.end()) return true;
  if (std::find(no.begin(), no.end(), s) != no.end()) return false;
  return std::nullopt;
}

// strconv.ParseInt(s, 0, 64), then ParseUint: a sign, then 0x / 0o / 0b / a leading 0 / decimal.
std::optional<Json> as_integer(std::string s) {
  std::erase(s, '_');
  std::size_t at = 0;
  const bool negative = !s.empty() && s[0] == '-';
  if (!s.empty() && (s[0] == '-' || s[0] == '+')) at = 1;
  std::string_view digits = std::string_view(s).substr(at);
  int base = 10;
  if (digits.size() > 2 && digits[0] == '0' && std::string_view("xXoObB").find(digits[1]) != std::string_view::npos) {
    const char prefix = static_cast<char>(std::tolower(static_cast<unsigned char>(digits[1])));
    base = prefix == 'x' ? 16 : prefix == 'o' ? 8 : 2;
    digits.remove_prefix(2);
  } else if (digits.size() > 1 && digits[0] == '0') {
    base = 8;
    digits.remove_prefix(1);
  }
  if (digits.empty()) return std::nullopt;
  std::uint64_t magnitude = 0;
  const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), magnitude, base);
  if (error != std::errc() || end != digits.data() + digits.size()) return std::nullopt;
  constexpr auto max = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
  if (negative) {
    if (magnitude > max + 1) return std::nullopt;
    return Json(magnitude == max + 1 ? std::numeric_limits<std::int64_t>::min() : -static_cast<std::int64_t>(magnitude));
  }
  if (magnitude <= max) return Json(static_cast<std::int64_t>(magnitude));
  return Json(magnitude);
}

// ^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$
std::optional<Json> as_float(std::string s) {
  std::erase(s, '_');
  std::size_t i = 0;
  auto digits = [&] {
    const std::size_t from = i;
    while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) ++i;
    return i - from;
  };
  if (i < s.size() && (s[i] == '-' || s[i] == '+')) ++i;
  if (i < s.size() && s[i] == '.') {
    ++i;
    if (digits() == 0) return std::nullopt;
  } else {
    if (digits() == 0) return std::nullopt;
    if (i < s.size() && s[i] == '.') {
      ++i;
      digits();
    }
  }
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < s.size() && (s[i] == '-' || s[i] == '+')) ++i;
    if (digits() == 0) return std::nullopt;
  }
  if (i != s.size()) return std::nullopt;
  return Json(std::strtod(s.c_str(), nullptr));
}

Json plain_scalar(const std::string& s) {
  if (s == "~" || s == "null" || s == "Null" || s == "NULL") return nullptr;
  if (auto b = as_bool(s)) return *b;
  if (auto i = as_integer(s)) return *i;
  if (auto f = as_float(s)) return *f;
  return s;
}

Json to_json(const YAML::Node& node) {
  switch (node.Type()) {
    case YAML::NodeType::Undefined:
    case YAML::NodeType::Null:
      return nullptr;
    case YAML::NodeType::Scalar:
      // "?" is a plain scalar; "!" a quoted one; an explicit !!str stays a string too.
      if (node.Tag() == "?") return plain_scalar(node.Scalar());
      return node.Scalar();
    case YAML::NodeType::Sequence: {
      Json out = Json::array();
      for (const auto& item : node) out.push_back(to_json(item));
      return out;
    }
    case YAML::NodeType::Map: {
      Json out = Json::object();
      for (const auto& member : node) {
        if (!member.first.IsScalar()) undecodable("a mapping key is not a scalar");
        out[member.first.Scalar()] = to_json(member.second);
      }
      return out;
    }
  }
  return nullptr;
}

}  // namespace

Json parse_apply_body(std::string_view body) {
  YAML::Node root;
  try {
    root = YAML::Load(std::string(body));
  } catch (const YAML::Exception& e) {
    undecodable(e.what());
  }
  if (!root.IsMap()) undecodable("the body is not a YAML mapping");
  return to_json(root);
}

}  // namespace rr::cluster_detail
