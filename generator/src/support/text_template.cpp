#include "support/text_template.hpp"

#include <algorithm>
#include <stdexcept>

#include "support/embedded.hpp"

namespace rrgen {
namespace {

bool only_spaces(std::string_view s) { return s.find_first_not_of(' ') == std::string_view::npos; }

// `value` with `indent` before every non-empty line but the first (the hole's own indentation
// is already in the output).
std::string indent_block(std::string_view value, std::string_view indent) {
  std::string out;
  std::size_t start = 0;
  while (start < value.size()) {
    std::size_t nl = value.find('\n', start);
    const std::size_t end = nl == std::string_view::npos ? value.size() : nl;
    if (start > 0 && end > start) out += indent;
    out += value.substr(start, end - start);
    if (nl == std::string_view::npos) break;
    out += '\n';
    start = nl + 1;
  }
  return out;
}

}  // namespace

std::string fill_template(std::string_view name, std::string_view text, const TemplateVars& vars) {
  return fill_template(name, text, vars, nullptr);
}

std::string fill_template(std::string_view name, std::string_view text, const TemplateVars& vars,
                          std::vector<std::string>* used) {
  std::string out;
  std::size_t line_start_out = 0;  // where the current output line begins
  std::size_t i = 0;
  while (i < text.size()) {
    const char c = text[i];
    if (c == '\n') {
      out += c;
      line_start_out = out.size();
      ++i;
      continue;
    }
    if (c != '$') {
      out += c;
      ++i;
      continue;
    }
    const std::size_t close = text.find('$', i + 1);
    if (close == std::string_view::npos) {
      throw std::logic_error("template " + std::string(name) + ": '$' without a closing '$'");
    }
    const std::string_view hole = text.substr(i + 1, close - i - 1);
    if (hole.empty()) {
      out += '$';
      i = close + 1;
      continue;
    }
    const auto found = vars.find(hole);
    if (found == vars.end()) {
      throw std::logic_error("template " + std::string(name) + ": no value for $" + std::string(hole) + "$");
    }
    if (used) used->push_back(found->first);
    const std::string_view before = std::string_view(out).substr(line_start_out);
    const std::size_t after = close + 1;
    const bool alone = only_spaces(before) && (after == text.size() || text[after] == '\n');
    if (alone && found->second.empty()) {
      out.resize(line_start_out);  // the hole's line disappears, newline included
      i = after == text.size() ? after : after + 1;
      continue;
    }
    out += alone ? indent_block(found->second, before) : found->second;
    i = after;
  }
  return out;
}

std::string wrap_parameters(const std::string& head, const std::vector<std::string>& params, const std::string& tail,
                            std::size_t indent, std::size_t width) {
  std::string one = head + "(";
  for (std::size_t i = 0; i < params.size(); ++i) one += (i ? ", " : "") + params[i];
  one += ")" + tail;
  if (indent + one.size() <= width || params.empty()) return one;
  // Aligned under the first parameter; when the head leaves no room for that, on lines of their
  // own, indented by 4.
  std::size_t longest = 0;
  for (std::size_t i = 0; i < params.size(); ++i) {
    longest = std::max(longest, params[i].size() + (i + 1 == params.size() ? 1 + tail.size() : 1));
  }
  const bool aligned = indent + head.size() + 1 + longest <= width;
  const std::string pad(aligned ? head.size() + 1 : 4, ' ');
  std::string out = aligned ? std::string() : head + "(\n";
  std::string line = aligned ? head + "(" : pad;
  bool line_has_param = false;
  for (std::size_t i = 0; i < params.size(); ++i) {
    const std::string piece = params[i] + (i + 1 == params.size() ? ")" + tail : ",");
    if (line_has_param && indent + line.size() + 1 + piece.size() > width) {
      out += line + "\n";
      line = pad;
      line_has_param = false;
    }
    line += (line_has_param ? " " : "") + piece;
    line_has_param = true;
  }
  return out + line;
}

std::string wrap_comment(const std::string& text, const std::string& prefix, std::size_t width) {
  std::string out, line = prefix;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find(' ', start);
    if (end == std::string::npos) end = text.size();
    const std::string word = text.substr(start, end - start);
    start = end + 1;
    if (word.empty()) continue;
    if (line.size() > prefix.size() && line.size() + 1 + word.size() > width) {
      out += line + "\n";
      line = prefix;
    }
    line += (line.size() > prefix.size() ? " " : "") + word;
  }
  return out + line;
}

std::string fill_embedded_template(std::string_view path, const TemplateVars& vars) {
  const std::string_view text = embedded_file(path);
  if (text.empty()) throw std::logic_error("template " + std::string(path) + " is not embedded into rrgen");
  return fill_template(path, text, vars);
}

}  // namespace rrgen
