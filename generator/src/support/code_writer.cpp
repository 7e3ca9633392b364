#include "support/code_writer.hpp"

#include <cstdio>

namespace rrgen {

void CodeWriter::line(std::string_view text) {
  if (auto nl = text.find('\n'); nl != std::string_view::npos) {  // indent every line of a block
    line(text.substr(0, nl));
    line(text.substr(nl + 1));
    return;
  }
  if (text.empty()) {
    out_ += '\n';
    return;
  }
  out_.append(static_cast<std::size_t>(depth_), ' ');
  std::size_t end = text.size();
  while (end > 0 && (text[end - 1] == ' ' || text[end - 1] == '\t')) --end;
  out_.append(text.substr(0, end));
  out_ += '\n';
}

void CodeWriter::doc(std::string_view text) {
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t nl = text.find('\n', start);
    if (nl == std::string_view::npos) nl = text.size();
    std::string piece(text.substr(start, nl - start));
    for (auto& c : piece)
      if (c == '\r' || c == '\t') c = ' ';
    // A trailing backslash would splice the next source line into the comment.
    while (!piece.empty() && (piece.back() == ' ' || piece.back() == '\\')) piece.pop_back();
    if (!(nl == text.size() && piece.empty() && start > 0)) line(piece.empty() ? "///" : "/// " + piece);
    start = nl + 1;
  }
}

std::string cpp_string_literal(std::string_view s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c < 0x20 || c == 0x7f || c == '?') {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\%03o", c);
      out += buf;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out + "\"";
}

std::string cpp_raw_literal(std::string_view s) {
  std::string delim = "rr";
  for (int i = 0; s.find(")" + delim + "\"") != std::string_view::npos; ++i) delim = "rr" + std::to_string(i);
  return "R\"" + delim + "(" + std::string(s) + ")" + delim + "\"";
}

bool json_plain(std::string_view s) {
  for (unsigned char c : s)
    if (c == '"' || c == '\\' || c < 0x20) return false;
  return true;
}

}  // namespace rrgen
