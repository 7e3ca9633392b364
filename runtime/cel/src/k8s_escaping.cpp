// Kubernetes' property-name escaping (k8s_escaping.hpp).
#include "k8s_escaping.hpp"

#include <utility>

#include "lexer.hpp"

namespace rr::cel {

std::string unescape_property(std::string_view name) {
  if (name.size() > 4 && name.starts_with("__") && name.ends_with("__")) {
    const std::string_view inner = name.substr(2, name.size() - 4);
    if (is_reserved_word(inner)) return std::string(inner);
  }
  static constexpr std::pair<std::string_view, std::string_view> kEscapes[] = {
      {"__underscores__", "__"}, {"__dot__", "."}, {"__dash__", "-"}, {"__slash__", "/"}};
  std::string out;
  std::size_t i = 0;
  while (i < name.size()) {
    bool replaced = false;
    for (const auto& [escape, text] : kEscapes)
      if (name.substr(i, escape.size()) == escape) {
        out += text;
        i += escape.size();
        replaced = true;
        break;
      }
    if (!replaced) out += name[i++];
  }
  return out;
}

}  // namespace rr::cel
