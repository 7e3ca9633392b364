#include "support/image_reference.hpp"

#include <vector>

#include "support/ascii.hpp"

namespace rrgen {

namespace {

constexpr std::size_t kMaxNameLength = 255;  // distribution's NameTotalLengthMax
constexpr std::size_t kMaxTagLength = 128;

using ascii::is_alnum;
using ascii::is_lower_alnum;
using ascii::is_upper;

bool is_word(char c) { return is_alnum(c) || c == '_'; }
bool is_lower_hex(char c) { return ascii::is_digit(c) || (c >= 'a' && c <= 'f'); }

std::vector<std::string_view> split(std::string_view s, char sep) {
  std::vector<std::string_view> parts;
  for (std::size_t start = 0;;) {
    const std::size_t end = s.find(sep, start);
    parts.push_back(s.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start));
    if (end == std::string_view::npos) return parts;
    start = end + 1;
  }
}

// path-component := [a-z0-9]+ ( ( "." | "_" | "__" | "-"+ ) [a-z0-9]+ )*
bool is_path_component(std::string_view c) {
  if (c.empty() || !is_lower_alnum(c.front()) || !is_lower_alnum(c.back())) return false;
  for (std::size_t i = 0; i < c.size();) {
    if (is_lower_alnum(c[i])) {
      ++i;
      continue;
    }
    std::size_t j = i;
    while (j < c.size() && !is_lower_alnum(c[j])) ++j;
    const std::string_view sep = c.substr(i, j - i);
    const bool dashes = sep.find_first_not_of('-') == std::string_view::npos;
    if (!(sep == "." || sep == "_" || sep == "__" || dashes)) return false;
    i = j;
  }
  return true;
}

// domain-component := [a-zA-Z0-9] | [a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9]
bool is_domain_component(std::string_view c) {
  if (c.empty() || !is_alnum(c.front()) || !is_alnum(c.back())) return false;
  for (char ch : c) {
    if (!is_alnum(ch) && ch != '-') return false;
  }
  return true;
}

bool is_port(std::string_view p) {
  if (p.empty()) return false;
  for (char c : p) {
    if (!ascii::is_digit(c)) return false;
  }
  return true;
}

// host [":" port], the host a dotted name or a bracketed IPv6 address.
bool is_domain(std::string_view d) {
  std::string_view host = d;
  if (!d.empty() && d.front() == '[') {
    const std::size_t close = d.find(']');
    if (close == std::string_view::npos || close < 3) return false;
    for (char c : d.substr(1, close - 1)) {
      if (!(is_lower_hex(c) || (c >= 'A' && c <= 'F') || c == ':' || c == '.')) return false;
    }
    const std::string_view rest = d.substr(close + 1);
    return rest.empty() || (rest.front() == ':' && is_port(rest.substr(1)));
  }
  if (const std::size_t colon = d.find(':'); colon != std::string_view::npos) {
    if (!is_port(d.substr(colon + 1))) return false;
    host = d.substr(0, colon);
  }
  for (std::string_view c : split(host, '.')) {
    if (!is_domain_component(c)) return false;
  }
  return true;
}

// distribution's splitDomain: the first component names a registry only when it could not be a
// repository path (it has '.', ':' or upper case, or is "localhost") and more components follow.
bool names_registry(std::string_view first) {
  if (first == "localhost") return true;
  for (char c : first) {
    if (c == '.' || c == ':' || c == '[' || is_upper(c)) return true;
  }
  return false;
}

bool is_tag(std::string_view t) {
  if (t.empty() || t.size() > kMaxTagLength || !is_word(t.front())) return false;
  for (char c : t) {
    if (!is_word(c) && c != '.' && c != '-') return false;
  }
  return true;
}

}  // namespace

bool is_valid_digest(std::string_view digest) {
  const std::size_t colon = digest.find(':');
  if (colon == std::string_view::npos) return false;
  const std::string_view algorithm = digest.substr(0, colon), hex = digest.substr(colon + 1);
  std::size_t length = 0;
  if (algorithm == "sha256") length = 64;
  else if (algorithm == "sha384") length = 96;
  else if (algorithm == "sha512") length = 128;
  else return false;
  if (hex.size() != length) return false;
  for (char c : hex) {
    if (!is_lower_hex(c)) return false;
  }
  return true;
}

std::optional<ImageReference> parse_image_reference(std::string_view text, std::string& error) {
  if (text.empty()) {
    error = "repository name must have at least one component";
    return std::nullopt;
  }
  ImageReference ref;
  std::string_view rest = text;
  if (const std::size_t at = rest.find('@'); at != std::string_view::npos) {
    const std::string_view digest = rest.substr(at + 1);
    if (!is_valid_digest(digest)) {
      error = "invalid digest '" + std::string(digest) + "': expected sha256: and 64 lower-case hex digits";
      return std::nullopt;
    }
    ref.digest = std::string(digest);
    rest = rest.substr(0, at);
  }
  const std::size_t last_slash = rest.rfind('/');
  if (const std::size_t colon = rest.rfind(':');
      colon != std::string_view::npos && (last_slash == std::string_view::npos || colon > last_slash)) {
    const std::string_view tag = rest.substr(colon + 1);
    if (!is_tag(tag)) {
      error = "invalid tag '" + std::string(tag) +
              "': letters, digits, '_', '.' and '-', at most 128, not starting with '.' or '-'";
      return std::nullopt;
    }
    ref.tag = std::string(tag);
    rest = rest.substr(0, colon);
  }
  if (rest.size() > kMaxNameLength) {
    error = "repository name must not be more than 255 characters";
    return std::nullopt;
  }
  std::vector<std::string_view> components = split(rest, '/');
  std::size_t first_path = 0;
  if (components.size() > 1 && names_registry(components.front())) {
    if (!is_domain(components.front())) {
      error = "invalid registry '" + std::string(components.front()) +
              "': a host name or [IPv6] address, then an optional :port";
      return std::nullopt;
    }
    first_path = 1;
  }
  for (std::size_t i = first_path; i < components.size(); ++i) {
    if (!is_path_component(components[i])) {
      bool upper = false;
      for (char c : components[i]) upper = upper || is_upper(c);
      error = upper ? "repository name must be lowercase"
                    : "invalid repository path component '" + std::string(components[i]) +
                          "': lower-case letters and digits, separated by '.', '_', '__' or dashes";
      return std::nullopt;
    }
  }
  ref.name = std::string(rest);
  return ref;
}

std::string image_string(const ImageReference& ref) {
  std::string out = ref.name;
  if (!ref.tag.empty()) out += ":" + ref.tag;
  if (!ref.digest.empty()) out += "@" + ref.digest;
  return out;
}

}  // namespace rrgen
