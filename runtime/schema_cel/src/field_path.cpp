// A rule's fieldPath resolved against its schema (field_path.hpp).
#include "field_path.hpp"

#include <string_view>

namespace rr::schema::detail {

namespace {

// The body of a single-quoted name with its backslash escapes decoded; nullopt on an unknown escape.
std::optional<std::string> unquote(std::string_view body) {
  std::string out;
  for (std::size_t i = 0; i < body.size(); ++i) {
    if (body[i] != '\\') {
      out += body[i];
      continue;
    }
    if (++i == body.size()) return std::nullopt;
    switch (body[i]) {
      case 'a': out += '\a'; break;
      case 'b': out += '\b'; break;
      case 'f': out += '\f'; break;
      case 'n': out += '\n'; break;
      case 'r': out += '\r'; break;
      case 't': out += '\t'; break;
      case 'v': out += '\v'; break;
      case '\'': out += '\''; break;
      case '\\': out += '\\'; break;
      default: return std::nullopt;
    }
  }
  return out;
}

}  // namespace

ResolvedFieldPath resolve_field_path(const std::string& field_path, const rr::Json& node_schema) {
  ResolvedFieldPath out;
  const rr::Json* schema = &node_schema;
  // One step into `name`: a declared property, or a key of a map.
  const auto step = [&](const std::string& name) -> bool {
    if (auto props = schema->find("properties"); props != schema->end() && props->is_object()) {
      const auto it = props->find(name);
      if (it == props->end()) return false;
      out.path += (out.path.empty() ? "" : ".") + name;
      schema = &*it;
      return true;
    }
    if (auto extra = schema->find("additionalProperties"); extra != schema->end() && extra->is_object()) {
      out.path += "[" + name + "]";
      schema = &*extra;
      return true;
    }
    return false;
  };
  std::size_t i = 0;
  const std::string_view p = field_path;
  while (i < p.size()) {
    std::string name;
    if (p[i] == '.') {
      const std::size_t end = p.find_first_of(".[]", i + 1);
      name = std::string(p.substr(i + 1, end == std::string_view::npos ? std::string_view::npos : end - i - 1));
      if (name.empty()) return {{}, "unexpected end of JSON path"};
      i = end == std::string_view::npos ? p.size() : end;
    } else if (p[i] == '[') {
      if (i + 1 >= p.size() || p[i + 1] != '\'') return {{}, "expected single quoted string"};
      std::size_t close = i + 2;
      while (close < p.size() && !(p[close] == '\'' && p[close - 1] != '\\')) ++close;
      if (close >= p.size()) return {{}, "unexpected end of JSON path"};
      auto unquoted = unquote(p.substr(i + 2, close - i - 2));
      if (!unquoted) return {{}, "invalid string literal"};
      if (close + 1 >= p.size() || p[close + 1] != ']') return {{}, "expected ]"};
      name = std::move(*unquoted);
      i = close + 2;
    } else {
      return {{}, "expected [ or . but got: " + std::string(p.substr(i))};
    }
    if (!step(name)) return {{}, "does not refer to a valid field"};
  }
  return out;
}

}  // namespace rr::schema::detail
