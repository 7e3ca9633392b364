#include "load/proto_reader.hpp"

#include <algorithm>
#include <charconv>
#include <iterator>
#include <utility>

#include "support/ascii.hpp"

namespace rrgen {
namespace {

constexpr std::string_view kScalars[] = {"double",   "float",    "int32",  "int64",   "uint32",
                                         "uint64",   "sint32",   "sint64", "fixed32", "fixed64",
                                         "sfixed32", "sfixed64", "bool",   "string",  "bytes"};

enum class Tok { End, Name, Number, String, Symbol };

struct Token {
  Tok kind = Tok::End;
  std::string_view text;
  Location at;
};

// Identifiers ("k8s.io.api", ".k8s.io.api.core.v1.Pod"), numbers, quoted strings, one-character
// symbols; comments and white space skipped.
class Lexer {
 public:
  Lexer(const std::string* file, std::string_view text, Diagnostics& diags) : file_(file), text_(text), diags_(diags) {}

  Token next() {
    skip_space();
    Token t{Tok::End, {}, here()};
    if (pos_ >= text_.size()) return t;
    const std::size_t start = pos_;
    const char c = text_[pos_];
    if (is_name_char(c) || (c == '.' && pos_ + 1 < text_.size() && is_name_char(text_[pos_ + 1]))) {
      t.kind = ascii::is_digit(c) ? Tok::Number : Tok::Name;
      while (pos_ < text_.size() && (is_name_char(text_[pos_]) || text_[pos_] == '.')) advance();
    } else if (c == '"' || c == '\'') {
      t.kind = Tok::String;
      advance();
      while (pos_ < text_.size() && text_[pos_] != c && text_[pos_] != '\n') advance(text_[pos_] == '\\' ? 2 : 1);
      if (pos_ >= text_.size() || text_[pos_] != c) fail(t.at, "unterminated string");
      advance();
    } else {
      t.kind = Tok::Symbol;
      advance();
    }
    t.text = text_.substr(start, pos_ - start);
    return t;
  }

  [[noreturn]] void fail(Location at, const std::string& message) {
    diags_.error(at, "proto-syntax", message);
    throw AbortDocument{};
  }

 private:
  static bool is_name_char(char c) { return ascii::is_alnum(c) || c == '_'; }
  Location here() const { return {file_, line_, column_}; }
  void advance(std::size_t n = 1) {
    for (; n > 0 && pos_ < text_.size(); --n, ++pos_) {
      if (text_[pos_] == '\n') ++line_, column_ = 1;
      else ++column_;
    }
  }
  void skip_space() {
    while (pos_ < text_.size()) {
      const std::string_view rest = text_.substr(pos_);
      if (rest[0] == ' ' || rest[0] == '\t' || rest[0] == '\n' || rest[0] == '\r') advance();
      else if (rest.starts_with("//")) advance(std::min(rest.find('\n'), rest.size()));
      else if (rest.starts_with("/*")) {
        const std::size_t end = rest.find("*/", 2);
        if (end == std::string_view::npos) fail(here(), "unterminated comment");
        advance(end + 2);
      } else {
        break;
      }
    }
  }

  const std::string* file_;
  std::string_view text_;
  Diagnostics& diags_;
  std::size_t pos_ = 0;
  std::uint32_t line_ = 1, column_ = 1;
};

class Parser {
 public:
  Parser(const std::string* file, std::string_view text, Diagnostics& diags) : lex_(file, text, diags) { take(); }

  ProtoFile file() {
    ProtoFile out;
    while (tok_.kind != Tok::End) {
      if (accept(";")) continue;
      const Token t = expect(Tok::Name, "a statement");
      if (t.text == "syntax") {
        expect("=");
        const Token s = expect(Tok::String, "the syntax");
        if (s.text != "\"proto2\"") lex_.fail(s.at, "only proto2 is supported, found " + std::string(s.text));
        expect(";");
      } else if (t.text == "package") {
        out.package = std::string(expect(Tok::Name, "a package name").text);
        expect(";");
      } else if (t.text == "import") {
        if (tok_.text == "public" || tok_.text == "weak") take();
        out.imports.push_back(unquote(expect(Tok::String, "the imported file").text));
        expect(";");
      } else if (t.text == "option") {
        option_rest();
      } else if (t.text == "message") {
        message(out.package, out);
      } else {
        lex_.fail(t.at, "unsupported statement '" + std::string(t.text) +
                            "' (rrgen reads the proto2 subset of Kubernetes' generated.proto)");
      }
    }
    return out;
  }

 private:
  // `message Name { ... }`; nested messages are added after it, as Name.Child.
  void message(const std::string& scope, ProtoFile& out) {
    const Token name = expect(Tok::Name, "a message name");
    const std::size_t index = out.messages.size();
    out.messages.push_back({(scope.empty() ? "" : scope + ".") + std::string(name.text), {}, name.at});
    expect("{");
    while (!accept("}")) {
      if (accept(";")) continue;
      const Token t = expect(Tok::Name, "a field, a message or '}'");
      if (t.text == "message") {
        message(out.messages[index].full_name, out);
      } else if (t.text == "option") {
        option_rest();
      } else if (t.text == "optional" || t.text == "repeated" || t.text == "required") {
        ProtoField f;
        f.repeated = t.text == "repeated";
        f.location = t.at;
        f.type = std::string(expect(Tok::Name, "a field type").text);
        field_rest(f);
        out.messages[index].fields.push_back(std::move(f));
      } else if (t.text == "map") {
        ProtoField f;
        f.location = t.at;
        expect("<");
        f.map_key = std::string(expect(Tok::Name, "a map key type").text);
        expect(",");
        f.type = std::string(expect(Tok::Name, "a map value type").text);
        expect(">");
        field_rest(f);
        out.messages[index].fields.push_back(std::move(f));
      } else {
        lex_.fail(t.at, "unsupported in a message: '" + std::string(t.text) +
                            "' (expected optional, repeated, map, message or option)");
      }
    }
  }

  // `name = number [options];`
  void field_rest(ProtoField& f) {
    f.name = std::string(expect(Tok::Name, "a field name").text);
    expect("=");
    const Token n = expect(Tok::Number, "a field number");
    const auto [end, ec] = std::from_chars(n.text.data(), n.text.data() + n.text.size(), f.number);
    if (ec != std::errc() || end != n.text.data() + n.text.size() || f.number < 1 || f.number > 536870911)
      lex_.fail(n.at, "bad field number '" + std::string(n.text) + "'");
    if (accept("[")) skip_until("]");
    expect(";");
  }

  // The rest of an `option name = value;` line, whose value nothing here reads.
  void option_rest() { skip_until(";"); }

  void skip_until(std::string_view symbol) {
    while (!accept(symbol)) {
      if (tok_.kind == Tok::End)
        lex_.fail(tok_.at, "expected '" + std::string(symbol) + "' before the end of the file");
      take();
    }
  }

  static std::string unquote(std::string_view s) { return std::string(s.substr(1, s.size() - 2)); }

  Token take() { return std::exchange(tok_, lex_.next()); }
  bool accept(std::string_view symbol) {
    if (tok_.kind != Tok::Symbol || tok_.text != symbol) return false;
    take();
    return true;
  }
  void expect(std::string_view symbol) {
    if (!accept(symbol)) lex_.fail(tok_.at, "expected '" + std::string(symbol) + "', found " + shown(tok_));
  }
  Token expect(Tok kind, std::string_view what) {
    if (tok_.kind != kind) lex_.fail(tok_.at, "expected " + std::string(what) + ", found " + shown(tok_));
    return take();
  }
  static std::string shown(const Token& t) {
    return t.kind == Tok::End ? "the end of the file" : "'" + std::string(t.text) + "'";
  }

  Lexer lex_;
  Token tok_;
};

// A relative type name looked up from the innermost scope outwards ("a.b.C" then "a.C" then "C").
const ProtoMessage* lookup(const std::map<std::string, ProtoMessage>& all, std::string scope, const std::string& name) {
  if (name.starts_with('.')) {
    const auto it = all.find(name.substr(1));
    return it == all.end() ? nullptr : &it->second;
  }
  for (;;) {
    const auto it = all.find(scope.empty() ? name : scope + "." + name);
    if (it != all.end()) return &it->second;
    if (scope.empty()) return nullptr;
    const std::size_t dot = scope.rfind('.');
    scope = dot == std::string::npos ? std::string() : scope.substr(0, dot);
  }
}

}  // namespace

bool is_proto_scalar(std::string_view type) {
  return std::find(std::begin(kScalars), std::end(kScalars), type) != std::end(kScalars);
}

ProtoFile read_proto(const std::string* file, std::string_view text, Diagnostics& diags) {
  try {
    return Parser(file, text, diags).file();
  } catch (const AbortDocument&) {
    return {};
  }
}

std::map<std::string, ProtoMessage> resolve_proto_types(std::vector<ProtoFile> files, Diagnostics& diags) {
  std::map<std::string, ProtoMessage> all;
  for (ProtoFile& f : files)
    for (ProtoMessage& m : f.messages) {
      const Location at = m.location;
      const std::string name = m.full_name;
      if (!all.emplace(name, std::move(m)).second)
        diags.error(at, "proto-duplicate", "message '" + name + "' is defined twice");
    }
  for (auto& [name, m] : all)
    for (ProtoField& f : m.fields) {
      if (f.is_map() && f.map_key != "string")
        diags.error(f.location, "proto-unsupported",
                    "map key type '" + f.map_key + "': rrgen supports string keys only");
      if (is_proto_scalar(f.type)) continue;
      if (const ProtoMessage* target = lookup(all, name, f.type)) f.type = target->full_name;
      else diags.error(f.location, "proto-unknown-type", "unknown type '" + f.type + "' in message '" + name + "'");
    }
  return all;
}

}  // namespace rrgen
