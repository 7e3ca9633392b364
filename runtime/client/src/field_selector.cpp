// Field selectors, parsed as k8s.io/apimachinery/pkg/fields.ParseSelector does.
#include <algorithm>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "rr/client/quote.hpp"
#include "rr/client/label_selector.hpp"
#include "rr/core/json.hpp"

namespace rr {
namespace {

// Splits on commas not escaped by a backslash.
std::vector<std::string_view> split_terms(std::string_view text) {
  std::vector<std::string_view> terms;
  std::size_t start = 0;
  bool escaped = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (escaped) {
      escaped = false;
    } else if (text[i] == '\\') {
      escaped = true;
    } else if (text[i] == ',') {
      terms.push_back(text.substr(start, i - start));
      start = i + 1;
    }
  }
  terms.push_back(text.substr(start));
  return terms;
}

[[noreturn]] void fail(std::string_view text, const std::string& why) {
  throw std::invalid_argument("invalid field selector " + go_quote(text) + ": " + why);
}

// fields.UnescapeValue: "\\", "\," and "\=" stand for themselves; a bare "," or "=" is an error.
std::string unescape(std::string_view text, std::string_view value) {
  std::string out;
  bool escaped = false;
  for (const char c : value) {
    if (escaped) {
      if (c != '\\' && c != ',' && c != '=') fail(text, std::string("invalid escape sequence: \\") + c);
      out += c;
      escaped = false;
    } else if (c == '\\') {
      escaped = true;
    } else if (c == ',' || c == '=') {
      fail(text, std::string("unescaped character in value: ") + c);
    } else {
      out += c;
    }
  }
  if (escaped) fail(text, "invalid escape sequence: \\");
  return out;
}

std::string escape(std::string_view value) {
  std::string out;
  for (const char c : value) {
    if (c == '\\' || c == ',' || c == '=') out += '\\';
    out += c;
  }
  return out;
}

std::string term_text(const FieldSelector::Term& t) {
  return t.field + (t.negated ? "!=" : "=") + escape(t.value);
}

void sort_terms(std::vector<FieldSelector::Term>& terms) {
  std::sort(terms.begin(), terms.end(),
            [](const FieldSelector::Term& a, const FieldSelector::Term& b) { return term_text(a) < term_text(b); });
}

// The field's value as text: "" when missing or null, strings as they are, anything else as JSON.
std::string field_text(const Json& object, std::string_view path) {
  const Json* at = &object;
  std::size_t start = 0;
  while (true) {
    const std::size_t dot = path.find('.', start);
    const std::string key(path.substr(start, dot == std::string_view::npos ? path.npos : dot - start));
    if (!at->is_object()) return {};
    const auto it = at->find(key);
    if (it == at->end()) return {};
    at = &*it;
    if (dot == std::string_view::npos) break;
    start = dot + 1;
  }
  if (at->is_null()) return {};
  if (at->is_string()) return at->get<std::string>();
  return at->dump();
}

}  // namespace

FieldSelector FieldSelector::parse(std::string_view text) {
  FieldSelector out;
  for (const std::string_view part : split_terms(text)) {
    if (part.empty()) continue;
    // The first operator wins; at each position "!=" and "==" are tried before "=".
    std::size_t at = std::string_view::npos;
    std::size_t length = 0;
    for (std::size_t i = 0; i < part.size() && at == std::string_view::npos; ++i) {
      if (part.substr(i, 2) == "!=" || part.substr(i, 2) == "==") {
        at = i;
        length = 2;
      } else if (part[i] == '=') {
        at = i;
        length = 1;
      }
    }
    if (at == std::string_view::npos) fail(text, "can't understand " + go_quote(part));
    if (at == 0) fail(text, "missing field name in " + go_quote(part));
    out.terms_.push_back(Term{std::string(part.substr(0, at)), part[at] == '!',
                              unescape(text, part.substr(at + length))});
  }
  sort_terms(out.terms_);
  return out;
}

FieldSelector FieldSelector::renamed(std::string_view from, std::string_view to) const {
  FieldSelector out = *this;
  for (Term& t : out.terms_)
    if (t.field == from) t.field = std::string(to);
  sort_terms(out.terms_);
  return out;
}

bool FieldSelector::matches(const Json& object) const {
  return std::all_of(terms_.begin(), terms_.end(), [&](const Term& t) {
    return (field_text(object, t.field) == t.value) != t.negated;
  });
}

std::string FieldSelector::str() const {
  std::string out;
  for (const Term& t : terms_) {
    if (!out.empty()) out += ',';
    out += term_text(t);
  }
  return out;
}

}  // namespace rr
