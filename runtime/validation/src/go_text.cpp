#include "go_text.hpp"

#include <algorithm>

#include "rr/core/go_quote.hpp"

namespace rr::validation::detail {

std::string go_json_string(std::string_view s) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out = "\"";
  for (std::size_t i = 0; i < s.size(); ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    switch (c) {
      case '"': out += "\\\""; continue;
      case '\\': out += "\\\\"; continue;
      case '\n': out += "\\n"; continue;
      case '\r': out += "\\r"; continue;
      case '\t': out += "\\t"; continue;
      default: break;
    }
    // encoding/json escapes control characters and, for HTML safety, '<', '>' and '&'.
    if (c < 0x20 || c == '<' || c == '>' || c == '&') {
      out += "\\u00";
      out += kHex[c >> 4];
      out += kHex[c & 0xf];
    } else if (c == 0xe2 && i + 2 < s.size() && static_cast<unsigned char>(s[i + 1]) == 0x80 &&
               (static_cast<unsigned char>(s[i + 2]) == 0xa8 || static_cast<unsigned char>(s[i + 2]) == 0xa9)) {
      out += static_cast<unsigned char>(s[i + 2]) == 0xa8 ? "\\u2028" : "\\u2029";
      i += 2;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out + "\"";
}

std::string go_json(const Json& value) {
  if (value.is_string()) return go_json_string(value.get_ref<const std::string&>());
  if (value.is_object()) {
    std::string s = "{";
    for (const auto& [k, v] : value.items()) s += (s.size() > 1 ? "," : "") + go_json_string(k) + ":" + go_json(v);
    return s + "}";
  }
  if (value.is_array()) {
    std::string s = "[";
    for (std::size_t i = 0; i < value.size(); ++i) s += (i ? "," : "") + go_json(value[i]);
    return s + "]";
  }
  return value.dump();  // numbers, booleans, null: no strings inside, so dump() cannot throw
}

std::string go_string_slice(const std::vector<std::string>& v) {
  std::string s = "[]string{";
  for (std::size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + go_quote(v[i]);
  return s + "}";
}

std::string go_json_string_list(const std::vector<std::string>& v) {
  std::string s = "[";
  for (std::size_t i = 0; i < v.size(); ++i) s += (i ? "," : "") + go_json_string(v[i]);
  return s + "]";
}

const Json* member(const Json& object, std::string_view key) {
  if (!object.is_object()) return nullptr;
  const auto it = object.find(std::string(key));
  return it == object.end() ? nullptr : &*it;
}

std::vector<std::string> string_list(const Json& list) {
  std::vector<std::string> out;
  if (!list.is_array()) return out;
  for (const Json& v : list) {
    if (v.is_string()) out.push_back(v.get<std::string>());
  }
  return out;
}

std::vector<std::string> added_strings(const Json& now, const Json& old) {
  std::vector<std::string> added = string_list(now);
  const std::vector<std::string> before = string_list(old);
  std::sort(added.begin(), added.end());
  added.erase(std::unique(added.begin(), added.end()), added.end());
  std::erase_if(added,
                [&](const std::string& s) { return std::find(before.begin(), before.end(), s) != before.end(); });
  return added;
}

std::string_view string_member(const Json& object, std::string_view key) {
  const Json* v = member(object, key);
  return v && v->is_string() ? std::string_view(v->get_ref<const std::string&>()) : std::string_view();
}

std::string child(std::string_view path, std::string_view name) {
  return path.empty() ? std::string(name) : std::string(path) + "." + std::string(name);
}

std::string index(std::string_view path, std::size_t i) { return std::string(path) + "[" + std::to_string(i) + "]"; }

}  // namespace rr::validation::detail
