#include "pb_check.hpp"

#include <algorithm>
#include <cstdio>
#include <optional>

#include <nlohmann/json.hpp>

#include "rr/core/errors.hpp"

namespace rr::roundtrip {
namespace {

using nlohmann::json;

std::string token(const std::string& t) {
  std::string out;
  for (const char c : t) out += c == '~' ? "~0" : c == '/' ? "~1" : std::string(1, c);
  return out;
}

std::optional<std::string> difference(const json& a, const json& b, const std::string& at) {
  if (a.is_number() && b.is_number()) {
    const bool same = a.is_number_float() || b.is_number_float() ? a.get<double>() == b.get<double>() : a == b;
    return same ? std::nullopt : std::optional(at);
  }
  if (a.type() != b.type()) return at;
  if (a.is_object()) {
    for (const auto& [k, v] : a.items()) {
      if (!b.contains(k)) return at + "/" + token(k) + " (missing)";
      if (auto d = difference(v, b.at(k), at + "/" + token(k))) return d;
    }
    for (const auto& [k, v] : b.items())
      if (!a.contains(k)) return at + "/" + token(k) + " (added)";
    return std::nullopt;
  }
  if (a.is_array()) {
    if (a.size() != b.size())
      return at + " (" + std::to_string(a.size()) + " items, here " + std::to_string(b.size()) + ")";
    for (std::size_t i = 0; i < a.size(); ++i)
      if (auto d = difference(a[i], b[i], at + "/" + std::to_string(i))) return d;
    return std::nullopt;
  }
  return a == b ? std::nullopt : std::optional(at);
}

}  // namespace

std::string first_byte_difference(std::string_view want, std::string_view got) {
  const auto [w, g] = std::mismatch(want.begin(), want.end(), got.begin(), got.end());
  if (w == want.end() && g == got.end()) return "";
  char text[96];
  const auto at = static_cast<std::size_t>(w - want.begin());
  if (w == want.end() || g == got.end()) {
    std::snprintf(text, sizeof text, "byte %zu (%zu bytes expected, %zu written)", at, want.size(), got.size());
  } else {
    std::snprintf(text, sizeof text, "byte %zu (0x%02x expected, 0x%02x written)", at, static_cast<unsigned char>(*w),
                  static_cast<unsigned char>(*g));
  }
  return text;
}

std::string first_json_difference(const std::string& want, const std::string& got) {
  const auto d = difference(json::parse(want), json::parse(got), "");
  if (!d) return "";
  return d->empty() ? "/ (the whole value)" : *d;
}

PbResult check_pb_fixture(const KindCodec& codec, std::string_view pb, const std::string* json_encoded) {
  if (!codec.pb_reencode || !codec.pb_to_json) return {false, "protobuf: the kind has no protobuf codec"};
  try {
    const std::string again = codec.pb_reencode(pb);
    if (const std::string d = first_byte_difference(pb, again); !d.empty())
      return {false, "protobuf does not survive decode and encode: first difference at " + d};
    if (json_encoded) {
      if (const std::string d = first_json_difference(*json_encoded, codec.pb_to_json(pb)); !d.empty())
        return {false, "protobuf decodes to another object than the JSON form: first difference at " + d};
    }
  } catch (const DecodeError& e) {
    return {false, std::string("protobuf does not decode: ") + e.what()};
  }
  return {true, ""};
}

}  // namespace rr::roundtrip
