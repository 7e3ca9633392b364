#include "rr/wire_order/go_encoder.hpp"

#include "rr/wire_order/go_order.hpp"

namespace rr::wire_order {

namespace {

// The escape of the character starting at text[i], and how many bytes it spans; empty when Go
// writes it as it is.
std::string_view escape_at(std::string_view text, std::size_t i, std::size_t& length) {
  length = 1;
  switch (text[i]) {
    case '<': return "\\u003c";
    case '>': return "\\u003e";
    case '&': return "\\u0026";
    case '\xE2':
      if (i + 2 < text.size() && text[i + 1] == '\x80' && (text[i + 2] == '\xA8' || text[i + 2] == '\xA9')) {
        length = 3;
        return text[i + 2] == '\xA8' ? "\\u2028" : "\\u2029";
      }
      return {};
    default: return {};
  }
}

bool needs_escape(std::string_view text) { return text.find_first_of("<>&\xE2") != std::string_view::npos; }

std::string finished(std::string text) {
  escape_as_go(text);
  text.push_back('\n');
  return text;
}

}  // namespace

void escape_as_go(std::string& text, std::size_t from) {
  if (from >= text.size() || !needs_escape(std::string_view(text).substr(from))) return;
  std::string out;
  out.reserve(text.size() + 16);
  out.append(text, 0, from);
  for (std::size_t i = from; i < text.size();) {
    std::size_t length = 1;
    const std::string_view escape = escape_at(text, i, length);
    if (escape.empty()) {
      out.push_back(text[i]);
    } else {
      out.append(escape);
    }
    i += length;
  }
  text = std::move(out);
}

std::string encode(const Json& document) { return finished(dump(document)); }

std::string encode_as(std::string_view definition, const Json& document) {
  return finished(dump_as(definition, document));
}

std::string encode_watch_event(std::string_view type, const Json& object) {
  return finished(dump_watch_event(type, object));
}

}  // namespace rr::wire_order
