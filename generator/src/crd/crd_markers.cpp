#include "crd/crd_markers.hpp"

#include <array>
#include <cstdint>

namespace rrgen {
namespace {

struct KnownMarker {
  std::string_view name;
  MarkerForm form;
};

// Every marker rrgen crd reads (docs/crd-from-types.md has what each means). Arguments markers
// are matched by "name:" before the others, so "kubebuilder:subresource:scale:specpath=..." is
// the scale marker with its arguments.
constexpr std::array kKnown = {
    KnownMarker{"kubebuilder:validation:XValidation", MarkerForm::Arguments},
    KnownMarker{"kubebuilder:printcolumn", MarkerForm::Arguments},
    KnownMarker{"kubebuilder:resource", MarkerForm::Arguments},
    KnownMarker{"kubebuilder:subresource:scale", MarkerForm::Arguments},
    KnownMarker{"kubebuilder:validation:Minimum", MarkerForm::Value},
    KnownMarker{"kubebuilder:validation:Maximum", MarkerForm::Value},
    KnownMarker{"kubebuilder:validation:ExclusiveMinimum", MarkerForm::Value},
    KnownMarker{"kubebuilder:validation:ExclusiveMaximum", MarkerForm::Value},
    KnownMarker{"kubebuilder:validation:MultipleOf", MarkerForm::Value},
    KnownMarker{"kubebuilder:validation:MinLength", MarkerForm::Value},
    KnownMarker{"kubebuilder:validation:MaxLength", MarkerForm::Value},
    KnownMarker{"kubebuilder:validation:Pattern", MarkerForm::Value},
    KnownMarker{"kubebuilder:validation:Enum", MarkerForm::Value},
    KnownMarker{"kubebuilder:validation:MinItems", MarkerForm::Value},
    KnownMarker{"kubebuilder:validation:MaxItems", MarkerForm::Value},
    KnownMarker{"kubebuilder:validation:MinProperties", MarkerForm::Value},
    KnownMarker{"kubebuilder:validation:MaxProperties", MarkerForm::Value},
    KnownMarker{"kubebuilder:validation:UniqueItems", MarkerForm::Value},
    KnownMarker{"kubebuilder:validation:Format", MarkerForm::Value},
    KnownMarker{"kubebuilder:validation:Required", MarkerForm::Flag},
    KnownMarker{"kubebuilder:validation:Optional", MarkerForm::Flag},
    KnownMarker{"kubebuilder:default", MarkerForm::Value},
    KnownMarker{"kubebuilder:pruning:PreserveUnknownFields", MarkerForm::Flag},
    KnownMarker{"kubebuilder:object:root", MarkerForm::Value},
    KnownMarker{"kubebuilder:storageversion", MarkerForm::Flag},
    KnownMarker{"kubebuilder:subresource:status", MarkerForm::Flag},
    KnownMarker{"listType", MarkerForm::Value},
    KnownMarker{"listMapKey", MarkerForm::Value},
    KnownMarker{"mapType", MarkerForm::Value},
    KnownMarker{"optional", MarkerForm::Flag},
    KnownMarker{"required", MarkerForm::Flag},
    KnownMarker{"nullable", MarkerForm::Flag},
    KnownMarker{"json:name", MarkerForm::Value},
};

// Markers of other tools, in the same comments: not ours to read or to refuse.
constexpr std::array<std::string_view, 3> kOthers = {"kubebuilder:rbac:", "kubebuilder:object:generate",
                                                     "kubebuilder:webhook:"};

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

bool starts_with(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

bool valid_utf8(std::string_view s) {
  for (std::size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    std::size_t n = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
    if (n == 0 || i + n > s.size()) return false;
    for (std::size_t k = 1; k < n; ++k) {
      if ((static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80) return false;
    }
    i += n;
  }
  return true;
}

// Splits at the commas outside quotes, backticks and brackets.
std::vector<std::string_view> split_top(std::string_view text, char sep) {
  std::vector<std::string_view> out;
  int depth = 0;
  char quote = 0;
  std::size_t start = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quote) {
      if (c == '\\' && quote == '"') {
        ++i;
      } else if (c == quote) {
        quote = 0;
      }
    } else if (c == '"' || c == '`') {
      quote = c;
    } else if (c == '{' || c == '[') {
      ++depth;
    } else if (c == '}' || c == ']') {
      --depth;
    } else if (c == sep && depth == 0) {
      out.push_back(text.substr(start, i - start));
      start = i + 1;
    }
  }
  out.push_back(text.substr(start));
  return out;
}

void append_utf8(std::string& out, std::uint32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

// A small JSON reader that builds YAML nodes (the default= values).
class JsonText {
 public:
  explicit JsonText(std::string_view text) : s_(text) {}

  std::optional<Yaml> document(std::string& why) {
    std::optional<Yaml> v = value(0);
    space();
    if (v && i_ != s_.size()) fail("text after the value");
    if (!error_.empty()) {
      why = error_;
      return std::nullopt;
    }
    return v;
  }

  // The text is one JSON string: its value.
  std::optional<std::string> string_document(std::string& why) {
    std::optional<std::string> s;
    if (!s_.empty() && s_[0] == '"') s = string();
    if (s && i_ != s_.size()) fail("text after the closing quote");
    if (!s && error_.empty()) fail("not a quoted string");
    if (!error_.empty()) {
      why = error_;
      return std::nullopt;
    }
    return s;
  }

 private:
  void fail(std::string what) {
    if (error_.empty()) error_ = std::move(what) + " at offset " + std::to_string(i_);
  }
  void space() {
    while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\t' || s_[i_] == '\n' || s_[i_] == '\r')) ++i_;
  }
  bool eat(char c) {
    space();
    if (i_ < s_.size() && s_[i_] == c) {
      ++i_;
      return true;
    }
    return false;
  }

  std::optional<std::uint32_t> hex4() {
    if (i_ + 4 > s_.size()) return std::nullopt;
    std::uint32_t v = 0;
    for (int k = 0; k < 4; ++k) {
      const char c = s_[i_++];
      v <<= 4;
      if (c >= '0' && c <= '9') {
        v |= static_cast<std::uint32_t>(c - '0');
      } else if (c >= 'a' && c <= 'f') {
        v |= static_cast<std::uint32_t>(c - 'a' + 10);
      } else if (c >= 'A' && c <= 'F') {
        v |= static_cast<std::uint32_t>(c - 'A' + 10);
      } else {
        return std::nullopt;
      }
    }
    return v;
  }

  std::optional<std::string> string() {
    ++i_;  // the opening quote
    std::string out;
    while (i_ < s_.size()) {
      const char c = s_[i_++];
      if (c == '"') return out;
      if (static_cast<unsigned char>(c) < 0x20) {
        fail("a control character in a string");
        return std::nullopt;
      }
      if (c != '\\') {
        out += c;
        continue;
      }
      if (i_ >= s_.size()) break;
      const char e = s_[i_++];
      switch (e) {
        case '"': out += '"'; break;
        case '\\': out += '\\'; break;
        case '/': out += '/'; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'n': out += '\n'; break;
        case 'r': out += '\r'; break;
        case 't': out += '\t'; break;
        case 'u': {
          std::optional<std::uint32_t> cp = hex4();
          if (cp && *cp >= 0xD800 && *cp < 0xDC00 && i_ + 1 < s_.size() && s_[i_] == '\\' && s_[i_ + 1] == 'u') {
            i_ += 2;
            std::optional<std::uint32_t> low = hex4();
            if (!low || *low < 0xDC00 || *low > 0xDFFF) cp.reset();
            if (cp) cp = 0x10000 + ((*cp - 0xD800) << 10) + (*low - 0xDC00);
          } else if (cp && *cp >= 0xD800 && *cp <= 0xDFFF) {
            cp.reset();
          }
          if (!cp) {
            fail("a bad \\u escape");
            return std::nullopt;
          }
          append_utf8(out, *cp);
          break;
        }
        default: fail("an unknown escape"); return std::nullopt;
      }
    }
    fail("an unterminated string");
    return std::nullopt;
  }

  std::optional<Yaml> value(int depth) {
    space();
    if (depth > 64) {
      fail("nesting deeper than 64");
      return std::nullopt;
    }
    if (i_ >= s_.size()) {
      fail("no value");
      return std::nullopt;
    }
    const char c = s_[i_];
    if (c == '{') {
      ++i_;
      Yaml map = Yaml::map();
      if (eat('}')) return map;
      do {
        space();
        if (i_ >= s_.size() || s_[i_] != '"') {
          fail("an object key that is not a string");
          return std::nullopt;
        }
        std::optional<std::string> key = string();
        if (!key) return std::nullopt;
        if (!eat(':')) {
          fail("no ':' after an object key");
          return std::nullopt;
        }
        std::optional<Yaml> v = value(depth + 1);
        if (!v) return std::nullopt;
        map.set(std::move(*key), std::move(*v));
      } while (eat(','));
      if (!eat('}')) {
        fail("no '}' closing an object");
        return std::nullopt;
      }
      return map;
    }
    if (c == '[') {
      ++i_;
      Yaml seq = Yaml::seq();
      if (eat(']')) return seq;
      do {
        std::optional<Yaml> v = value(depth + 1);
        if (!v) return std::nullopt;
        seq.push(std::move(*v));
      } while (eat(','));
      if (!eat(']')) {
        fail("no ']' closing an array");
        return std::nullopt;
      }
      return seq;
    }
    if (c == '"') {
      std::optional<std::string> text = string();
      if (!text) return std::nullopt;
      return Yaml::str(std::move(*text));
    }
    for (std::string_view word : {std::string_view("true"), std::string_view("false"), std::string_view("null")}) {
      if (s_.substr(i_, word.size()) == word) {
        i_ += word.size();
        return Yaml::raw(std::string(word));
      }
    }
    std::size_t end = i_;
    while (end < s_.size() && std::string_view("+-0123456789.eE").find(s_[end]) != std::string_view::npos) ++end;
    if (std::optional<std::string> number = json_number(s_.substr(i_, end - i_))) {
      i_ = end;
      return Yaml::raw(*number);
    }
    fail("not a JSON value");
    return std::nullopt;
  }

  std::string_view s_;
  std::size_t i_ = 0;
  std::string error_;
};

// One marker from the text after '+'; "" on success, else what is wrong.
std::string parse_marker(std::string_view text, Marker& m) {
  for (const KnownMarker& k : kKnown) {
    if (k.form != MarkerForm::Arguments) continue;
    if (text == k.name) return "+" + std::string(k.name) + " needs arguments (key=value,...)";
    if (!starts_with(text, k.name) || text.size() <= k.name.size() || text[k.name.size()] != ':') continue;
    m.name = std::string(k.name);
    m.form = MarkerForm::Arguments;
    for (std::string_view arg : split_top(text.substr(k.name.size() + 1), ',')) {
      arg = trim(arg);
      if (arg.empty()) continue;
      const std::size_t eq = arg.find('=');
      if (eq == std::string_view::npos) return "argument '" + std::string(arg) + "' has no '='";
      m.args.emplace_back(std::string(trim(arg.substr(0, eq))), std::string(trim(arg.substr(eq + 1))));
    }
    if (m.args.empty()) return "+" + m.name + " needs arguments (key=value,...)";
    return {};
  }
  const std::size_t eq = text.find('=');
  const std::string_view name = trim(text.substr(0, eq));
  for (const KnownMarker& k : kKnown) {
    if (k.name != name) continue;
    m.name = std::string(name);
    m.form = k.form;
    if (k.form == MarkerForm::Flag) {
      if (eq != std::string_view::npos) return "+" + m.name + " takes no value";
      return {};
    }
    if (eq == std::string_view::npos) return "+" + m.name + " needs a value (+" + m.name + "=...)";
    m.value = std::string(trim(text.substr(eq + 1)));
    return {};
  }
  m.name = std::string(name);
  return "unknown marker '+" + m.name + "' (docs/crd-from-types.md lists the markers rrgen crd reads)";
}

}  // namespace

std::string Marker::arg(std::string_view key, bool* found) const {
  for (const auto& [k, v] : args) {
    if (k == key) {
      if (found) *found = true;
      return v;
    }
  }
  if (found) *found = false;
  return {};
}

CommentFacts read_comment(const std::vector<CommentLine>& lines, Diagnostics& diags) {
  CommentFacts facts;
  std::string paragraph;
  auto end_paragraph = [&] {
    if (paragraph.empty()) return;
    if (!facts.description.empty()) facts.description += "\n\n";
    facts.description += paragraph;
    paragraph.clear();
  };
  for (const CommentLine& line : lines) {
    const std::string_view text = trim(line.text);
    if (!valid_utf8(text)) {
      diags.error(line.at, "crd-marker-invalid", "the comment is not valid UTF-8");
      continue;
    }
    if (starts_with(text, "JSON:")) {
      // The form rrgen types writes: // JSON: "configMapName"
      Marker m;
      m.at = line.at;
      m.name = "json:name";
      m.form = MarkerForm::Value;
      m.value = std::string(trim(text.substr(5)));
      facts.markers.push_back(std::move(m));
      continue;
    }
    if (text.empty()) {
      end_paragraph();
      continue;
    }
    if (text.front() != '+') {
      if (!paragraph.empty()) paragraph += ' ';
      paragraph += text;
      continue;
    }
    const std::string_view body = text.substr(1);
    bool other = false;
    for (std::string_view prefix : kOthers) other = other || starts_with(body, prefix);
    if (other) continue;
    Marker m;
    m.at = line.at;
    if (std::string why = parse_marker(body, m); !why.empty()) {
      diags.error(line.at, why.rfind("unknown marker", 0) == 0 ? "crd-marker-unknown" : "crd-marker-invalid", why);
      continue;
    }
    facts.markers.push_back(std::move(m));
  }
  end_paragraph();
  return facts;
}

std::optional<std::string> marker_string(std::string_view text, std::string& why) {
  text = trim(text);
  if (text.size() >= 2 && text.front() == '`' && text.back() == '`')
    return std::string(text.substr(1, text.size() - 2));
  if (!text.empty() && text.front() == '"') return JsonText(text).string_document(why);
  return std::string(text);
}

std::optional<Yaml> json_value(std::string_view text, std::string& why) { return JsonText(text).document(why); }

std::optional<std::string> json_number(std::string_view text) {
  text = trim(text);
  std::size_t i = 0;
  auto digits = [&] {
    const std::size_t start = i;
    while (i < text.size() && text[i] >= '0' && text[i] <= '9') ++i;
    return i - start;
  };
  if (i < text.size() && text[i] == '-') ++i;
  const std::size_t int_start = i;
  const std::size_t n = digits();
  if (n == 0 || (n > 1 && text[int_start] == '0')) return std::nullopt;
  if (i < text.size() && text[i] == '.') {
    ++i;
    if (digits() == 0) return std::nullopt;
  }
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    ++i;
    if (i < text.size() && (text[i] == '+' || text[i] == '-')) ++i;
    if (digits() == 0) return std::nullopt;
  }
  if (i != text.size() || text.size() > 40) return std::nullopt;
  return std::string(text);
}

std::optional<long long> marker_count(std::string_view text) {
  text = trim(text);
  if (text.empty() || text.size() > 18 || text.find_first_not_of("0123456789") != std::string_view::npos)
    return std::nullopt;
  return std::stoll(std::string(text));
}

std::vector<std::string> marker_list(std::string_view text) {
  text = trim(text);
  char sep = ';';
  if (text.size() >= 2 &&
      ((text.front() == '{' && text.back() == '}') || (text.front() == '[' && text.back() == ']'))) {
    text = text.substr(1, text.size() - 2);
    sep = ',';
  }
  std::vector<std::string> items;
  if (trim(text).empty()) return items;
  for (std::string_view item : split_top(text, sep)) {
    std::string why;
    std::optional<std::string> s = marker_string(item, why);
    items.push_back(s ? *s : std::string(trim(item)));
  }
  return items;
}

}  // namespace rrgen
