#include "support/printer.hpp"

#include <algorithm>
#include <cstdio>
#include <stdexcept>
#include <vector>

namespace rrgen {

std::string Printer::fill_checked(std::string_view text, const TemplateVars& vars) const {
  std::vector<std::string> used;
  std::string filled = fill_template(name_, text, vars, &used);
  for (const auto& [name, value] : vars) {
    if (std::find(used.begin(), used.end(), name) == used.end()) {
      throw std::logic_error("printer " + name_ + ": $" + name + "$ is given but no hole uses it");
    }
  }
  return filled;
}

std::string Printer::fill(std::string_view text, const TemplateVars& vars) const {
  std::string filled = fill_checked(text, vars);
  if (!filled.empty() && filled.back() == '\n') filled.pop_back();
  return filled;
}

void Printer::print(std::string_view text, const TemplateVars& vars) {
  const std::string filled = fill_checked(text, vars);
  std::string_view rest = filled;
  if (!rest.empty() && rest.back() == '\n') rest.remove_suffix(1);
  if (filled.empty() && !text.empty()) return;  // a lone block hole with an empty value
  line(rest);
}

void Printer::line(std::string_view text) {
  std::size_t start = 0;
  while (true) {
    const std::size_t nl = text.find('\n', start);
    append_line(text.substr(start, nl == std::string_view::npos ? std::string_view::npos : nl - start));
    if (nl == std::string_view::npos) return;
    start = nl + 1;
  }
}

void Printer::append_line(std::string_view text) {
  std::size_t end = text.size();
  while (end > 0 && (text[end - 1] == ' ' || text[end - 1] == '\t')) --end;
  if (end > 0) {
    out_.append(static_cast<std::size_t>(depth_), ' ');
    out_.append(text.substr(0, end));
  }
  out_ += '\n';
}

std::string Printer::take_block() {
  std::string text = take();
  if (!text.empty() && text.back() == '\n') text.pop_back();
  return text;
}

void Printer::outdent() {
  if (depth_ < kIndentWidth) throw std::logic_error("printer " + name_ + ": outdent below column 0");
  depth_ -= kIndentWidth;
}

void Printer::doc(std::string_view text) {
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t nl = text.find('\n', start);
    if (nl == std::string_view::npos) nl = text.size();
    std::string piece(text.substr(start, nl - start));
    for (auto& c : piece)
      if (c == '\r' || c == '\t') c = ' ';
    // A trailing backslash would splice the next source line into the comment.
    while (!piece.empty() && (piece.back() == ' ' || piece.back() == '\\')) piece.pop_back();
    if (!(nl == text.size() && piece.empty() && start > 0)) append_line(piece.empty() ? "///" : "/// " + piece);
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
