#include "support/yaml_writer.hpp"

#include <array>
#include <cctype>

#include "support/ascii.hpp"

namespace rrgen {

namespace {

using ascii::is_digit;
using ascii::lower;

bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (lower(a[i]) != lower(b[i])) return false;
  }
  return true;
}

// Words a YAML 1.1 reader (go-yaml v2, which kubectl's YAML→JSON step grew from) or a 1.2 core
// schema reader resolves to a boolean or null. Compared case-insensitively: quoting "tRUE" too
// costs nothing.
bool is_reserved_word(std::string_view s) {
  static constexpr std::array<std::string_view, 12> words = {"true", "false", "yes", "no", "on", "off",
                                                             "y",    "n",     "null", "~", "=", "<<"};
  for (std::string_view w : words) {
    if (iequals(s, w)) return true;
  }
  return false;
}

// Anything a reader might resolve to a number or a timestamp: 12, -1, +1.5, .5, 1e3, 0x1F, 0o17,
// 0b101, 1_000, 1:30 (YAML 1.1 base 60), .inf, -.Inf, .NaN, 2001-12-14. Broader than the grammars
// ("1.2.3" is quoted too): a needless quote is harmless, a missing one changes the value.
bool looks_numeric(std::string_view s) {
  std::string_view rest = s;
  if (!rest.empty() && (rest[0] == '+' || rest[0] == '-')) rest.remove_prefix(1);
  if (rest.empty()) return false;
  if (iequals(rest, ".inf") || iequals(rest, ".nan")) return true;
  if (!is_digit(rest[0]) && !(rest[0] == '.' && rest.size() > 1 && is_digit(rest[1]))) return false;
  // A date-like prefix makes a YAML 1.1 timestamp whatever follows ("2001-12-14t21:59:43Z").
  if (s.size() >= 8 && is_digit(s[0]) && is_digit(s[1]) && is_digit(s[2]) && is_digit(s[3]) && s[4] == '-') {
    return true;
  }
  for (char c : rest) {
    const bool numeric_char = is_digit(c) || (lower(c) >= 'a' && lower(c) <= 'f') || lower(c) == 'x' ||
                              lower(c) == 'o' || c == '.' || c == '_' || c == ':' || c == '+' || c == '-';
    if (!numeric_char) return false;
  }
  return true;
}

// The UTF-8 sequences YAML treats as line breaks or a byte order mark: NEL, LS, PS, BOM.
std::string_view special_unicode_escape(std::string_view s, std::size_t i, std::size_t& length) {
  struct Special {
    std::string_view bytes, escape;
  };
  static constexpr std::array<Special, 4> specials = {
      Special{"\xC2\x85", "\\N"}, Special{"\xE2\x80\xA8", "\\L"}, Special{"\xE2\x80\xA9", "\\P"},
      Special{"\xEF\xBB\xBF", "\\uFEFF"}};
  for (const Special& sp : specials) {
    if (s.substr(i, sp.bytes.size()) == sp.bytes) {
      length = sp.bytes.size();
      return sp.escape;
    }
  }
  return {};
}

bool has_unprintable(std::string_view s) {
  for (std::size_t i = 0; i < s.size(); ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c < 0x20 || c == 0x7f) return true;
    std::size_t length = 0;
    if (!special_unicode_escape(s, i, length).empty()) return true;
  }
  return false;
}

void indent_to(std::string& out, std::size_t indent) { out.append(indent, ' '); }

}  // namespace

bool yaml_needs_quotes(std::string_view s) {
  if (s.empty()) return true;
  if (s.front() == ' ' || s.back() == ' ') return true;
  if (has_unprintable(s)) return true;
  // Indicators that cannot start a plain scalar.
  static constexpr std::string_view never_first = ",[]{}#&*!|>'\"%@`";
  if (never_first.find(s.front()) != std::string_view::npos) return true;
  // "-", "?" and ":" may start one only when a non-space follows ("--leader-elect" is fine).
  if ((s.front() == '-' || s.front() == '?' || s.front() == ':') && (s.size() == 1 || s[1] == ' ')) return true;
  // A leading ':' is legal YAML 1.2 but some 1.1 readers choke on it (":8080").
  if (s.front() == ':') return true;
  if (s.starts_with("---") || s.starts_with("...")) return true;  // document markers
  if (s.back() == ':' || s.find(": ") != std::string_view::npos) return true;  // would start a mapping
  if (s.find(" #") != std::string_view::npos) return true;                       // would start a comment
  return is_reserved_word(s) || looks_numeric(s);
}

std::string yaml_double_quoted(std::string_view s) {
  static constexpr char hex[] = "0123456789ABCDEF";
  std::string out = "\"";
  for (std::size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    std::size_t length = 0;
    if (std::string_view escape = special_unicode_escape(s, i, length); !escape.empty()) {
      out += escape;
      i += length - 1;
      continue;
    }
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      case '\r': out += "\\r"; break;
      default: {
        const auto u = static_cast<unsigned char>(c);
        if (u < 0x20 || u == 0x7f) {
          out += "\\x";
          out += hex[u >> 4];
          out += hex[u & 0xf];
        } else {
          out += c;
        }
      }
    }
  }
  out += '"';
  return out;
}

std::string yaml_scalar(std::string_view s) { return yaml_needs_quotes(s) ? yaml_double_quoted(s) : std::string(s); }

Yaml Yaml::str(std::string text) { return Yaml(Kind::String, std::move(text)); }
Yaml Yaml::integer(long long value) { return Yaml(Kind::Literal, std::to_string(value)); }
Yaml Yaml::boolean(bool value) { return Yaml(Kind::Literal, value ? "true" : "false"); }
Yaml Yaml::raw(std::string json_scalar) { return Yaml(Kind::Literal, std::move(json_scalar)); }
Yaml Yaml::map() { return Yaml(Kind::Map); }
Yaml Yaml::seq() { return Yaml(Kind::Seq); }

Yaml Yaml::strings(const std::vector<std::string>& items) {
  Yaml out = seq();
  for (const auto& item : items) out.push(str(item));
  return out;
}

Yaml& Yaml::set(std::string key, Yaml value) {
  keys_.push_back(std::move(key));
  items_.push_back(std::move(value));
  return *this;
}

Yaml& Yaml::push(Yaml value) {
  items_.push_back(std::move(value));
  return *this;
}

std::string Yaml::text() const {
  std::string out;
  switch (kind_) {
    case Kind::String: out = yaml_scalar(scalar_) + "\n"; break;
    case Kind::Literal: out = scalar_ + "\n"; break;
    case Kind::Map:
      if (empty()) out = "{}\n";
      else write_map(out, 0);
      break;
    case Kind::Seq:
      if (empty()) out = "[]\n";
      else write_seq(out, 0);
      break;
  }
  return out;
}

void Yaml::write_map(std::string& out, std::size_t indent) const {
  for (std::size_t i = 0; i < keys_.size(); ++i) {
    indent_to(out, indent);
    out += yaml_scalar(keys_[i]);
    out += ':';
    items_[i].write_after_key(out, indent);
  }
}

void Yaml::write_seq(std::string& out, std::size_t indent) const {
  for (const Yaml& item : items_) item.write_item(out, indent);
}

// The value of a mapping entry whose key (at `indent`) has just been written.
void Yaml::write_after_key(std::string& out, std::size_t indent) const {
  switch (kind_) {
    case Kind::String: out += ' ' + yaml_scalar(scalar_) + '\n'; break;
    case Kind::Literal: out += ' ' + scalar_ + '\n'; break;
    case Kind::Map:
      if (empty()) {
        out += " {}\n";
      } else {
        out += '\n';
        write_map(out, indent + 2);
      }
      break;
    case Kind::Seq:
      if (empty()) {
        out += " []\n";
      } else {
        out += '\n';
        write_seq(out, indent);  // "- item" level with the key, as kubectl writes it
      }
      break;
  }
}

// One sequence item: "- " at `indent`, a collection's first line continuing after it.
void Yaml::write_item(std::string& out, std::size_t indent) const {
  if ((kind_ == Kind::Map || kind_ == Kind::Seq) && !empty()) {
    std::string nested;
    if (kind_ == Kind::Map) write_map(nested, indent + 2);
    else write_seq(nested, indent + 2);
    indent_to(out, indent);
    out += "- ";
    out.append(nested, indent + 2, std::string::npos);
    return;
  }
  indent_to(out, indent);
  out += '-';
  write_after_key(out, indent);
}

std::string manifest_file(const std::vector<Yaml>& documents, std::string_view comment) {
  std::string out(yaml_banner);
  while (!comment.empty()) {
    const std::size_t end = comment.find('\n');
    const std::string_view line = comment.substr(0, end);
    out += line.empty() ? "#\n" : "# " + std::string(line) + "\n";
    comment = end == std::string_view::npos ? std::string_view{} : comment.substr(end + 1);
  }
  for (std::size_t i = 0; i < documents.size(); ++i) {
    if (i > 0) out += "---\n";
    out += documents[i].text();
  }
  return out;
}

Yaml kustomization(const std::vector<std::string>& resources, const std::string& namespace_) {
  Yaml k = Yaml::map();
  k.set("apiVersion", "kustomize.config.k8s.io/v1beta1");
  k.set("kind", "Kustomization");
  if (!namespace_.empty()) k.set("namespace", namespace_);
  k.set("resources", Yaml::strings(resources));
  return k;
}

}  // namespace rrgen
