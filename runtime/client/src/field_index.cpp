// The selector text of an indexed lookup.
#include "rr/client/field_index.hpp"

namespace rr {

std::string field_equals(std::string_view field, std::string_view value) {
  std::string out(field);
  out += '=';
  for (const char c : value) {
    if (c == '\\' || c == ',' || c == '=') out += '\\';
    out += c;
  }
  return out;
}

}  // namespace rr
