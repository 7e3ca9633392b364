// The label selector string grammar, parsed as k8s.io/apimachinery/pkg/labels.Parse does:
//
//   selector    := "" | requirement ("," requirement)*
//   requirement := ["!"] KEY | KEY op VALUE | KEY ("in" | "notin") "(" [values] ")"
//   op          := "=" | "==" | "!=" | ">" | "<"
//
// Whitespace separates tokens and is otherwise ignored; an identifier is any run of characters
// other than whitespace and = ! ( ) , > <. "in" and "notin" are keywords only where an operator
// is expected, so they are valid keys and values.
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "label_syntax.hpp"
#include "rr/client/quote.hpp"
#include "rr/client/label_selector.hpp"
#include "selector_requirements.hpp"

namespace rr {
namespace {

using Op = Selector::Op;
using Requirement = Selector::Requirement;

enum class Tok { End, Identifier, In, NotIn, Bang, NotEquals, Equals, DoubleEquals, Greater, Less, Open, Close, Comma };

struct Token {
  Tok kind = Tok::End;
  std::string_view text;
  std::size_t offset = 0;
};

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

bool is_special(char c) {
  return c == '=' || c == '!' || c == '(' || c == ')' || c == ',' || c == '>' || c == '<';
}

Tok special_kind(std::string_view s) {
  if (s == "!=") return Tok::NotEquals;
  if (s == "==") return Tok::DoubleEquals;
  switch (s.front()) {
    case '!': return Tok::Bang;
    case '=': return Tok::Equals;
    case '>': return Tok::Greater;
    case '<': return Tok::Less;
    case '(': return Tok::Open;
    case ')': return Tok::Close;
    default: return Tok::Comma;
  }
}

std::vector<Token> lex(std::string_view text) {
  std::vector<Token> tokens;
  std::size_t i = 0;
  while (i < text.size()) {
    if (is_space(text[i])) {
      ++i;
    } else if (is_special(text[i])) {
      // The longest operator: "!=" and "==" are the only two-character ones.
      const std::size_t n = i + 1 < text.size() && text[i + 1] == '=' && (text[i] == '!' || text[i] == '=') ? 2 : 1;
      tokens.push_back({special_kind(text.substr(i, n)), text.substr(i, n), i});
      i += n;
    } else {
      const std::size_t start = i;
      while (i < text.size() && !is_space(text[i]) && !is_special(text[i])) ++i;
      const std::string_view word = text.substr(start, i - start);
      const Tok kind = word == "in" ? Tok::In : word == "notin" ? Tok::NotIn : Tok::Identifier;
      tokens.push_back({kind, word, start});
    }
  }
  tokens.push_back({Tok::End, {}, text.size()});
  return tokens;
}

struct Value {
  std::string text;
  std::size_t offset = 0;
};

class Parser {
 public:
  explicit Parser(std::string_view text) : text_(text), tokens_(lex(text)) {}

  std::vector<Requirement> parse() {
    std::vector<Requirement> out;
    if (peek().kind == Tok::End) return out;
    while (true) {
      const Token& start = peek();
      if (start.kind != Tok::Identifier && start.kind != Tok::Bang) {
        fail(start, "found " + describe(start) + ", expected: '!' or a key");
      }
      out.push_back(requirement());
      const Token& after = next();
      if (after.kind == Tok::End) return out;
      if (after.kind != Tok::Comma) fail(after, "found " + describe(after) + ", expected: ',' or end of string");
      const Token& following = peek();
      if (following.kind != Tok::Identifier && following.kind != Tok::Bang) {
        fail(following, "found " + describe(following) + ", expected: '!' or a key after ','");
      }
    }
  }

 private:
  // In value position the keywords are plain identifiers.
  static Token as_value(Token t) {
    if (t.kind == Tok::In || t.kind == Tok::NotIn) t.kind = Tok::Identifier;
    return t;
  }
  Token peek() const { return as_value(tokens_[pos_]); }
  Token next() { return as_value(next_raw()); }
  Token next_raw() {
    const Token t = tokens_[pos_];
    if (t.kind != Tok::End) ++pos_;
    return t;
  }

  static std::string describe(const Token& t) {
    return t.kind == Tok::End ? std::string("end of string") : "'" + std::string(t.text) + "'";
  }

  [[noreturn]] void fail(std::size_t offset, const std::string& why) const {
    throw std::invalid_argument("invalid label selector " + go_quote(text_) + ": at column " +
                                std::to_string(offset + 1) + ": " + why);
  }
  [[noreturn]] void fail(const Token& t, const std::string& why) const { fail(t.offset, why); }

  Requirement requirement() {
    Token key = next();
    bool negated = false;
    if (key.kind == Tok::Bang) {
      negated = true;
      key = next();
    }
    if (key.kind != Tok::Identifier) fail(key, "found " + describe(key) + ", expected: a key");
    Requirement r{std::string(key.text), Op::Exists, {}};
    if (std::string why = detail::label_key_error(r.key); !why.empty()) {
      fail(key, "invalid key " + go_quote(r.key) + ": " + why);
    }
    if (negated) {
      r.op = Op::DoesNotExist;
      return r;
    }
    if (peek().kind == Tok::End || peek().kind == Tok::Comma) return r;

    const Token op = next_raw();
    std::vector<Value> values;
    switch (op.kind) {
      case Tok::In: r.op = Op::In; values = value_set(); break;
      case Tok::NotIn: r.op = Op::NotIn; values = value_set(); break;
      case Tok::Equals:
      case Tok::DoubleEquals: r.op = Op::Equals; values = {exact_value()}; break;
      case Tok::NotEquals: r.op = Op::NotEquals; values = {exact_value()}; break;
      case Tok::Greater: r.op = Op::GreaterThan; values = {exact_value()}; break;
      case Tok::Less: r.op = Op::LessThan; values = {exact_value()}; break;
      default:
        fail(op, "found " + describe(op) + ", expected an operator: in, notin, =, ==, !=, >, <");
    }
    for (Value& v : values) {
      r.values.push_back(std::move(v.text));
      if (std::string why = detail::requirement_error(r); !why.empty()) fail(v.offset, why);
    }
    return r;
  }

  // "=" value: empty when the requirement ends right after the operator ("a=" matches a="").
  Value exact_value() {
    const Token t = peek();
    if (t.kind == Tok::End || t.kind == Tok::Comma) return {"", t.offset};
    next();
    if (t.kind != Tok::Identifier) fail(t, "found " + describe(t) + ", expected: a value");
    return {std::string(t.text), t.offset};
  }

  // "(" [values] ")", where empty entries count as the empty value: "()", "(a,)", "(,a)", "(a,,b)".
  std::vector<Value> value_set() {
    const Token open = next();
    if (open.kind != Tok::Open) fail(open, "found " + describe(open) + ", expected: '('");
    std::vector<Value> values;
    const Token first = peek();
    if (first.kind == Tok::Close) {
      next();
      values.push_back({"", first.offset});
      return values;
    }
    if (first.kind != Tok::Identifier && first.kind != Tok::Comma) {
      fail(first, "found " + describe(first) + ", expected: ',', ')' or a value");
    }
    bool expect_value = true;  // at the start and after each ','
    while (true) {
      const Token t = next();
      if (t.kind == Tok::Identifier && expect_value) {
        values.push_back({std::string(t.text), t.offset});
        expect_value = false;
      } else if (t.kind == Tok::Comma) {
        if (expect_value) values.push_back({"", t.offset});  // nothing before this ','
        expect_value = true;
      } else if (t.kind == Tok::Close) {
        if (expect_value) values.push_back({"", t.offset});  // nothing after the last ','
        return values;
      } else {
        fail(t, "found " + describe(t) + (expect_value ? ", expected: ',', ')' or a value" : ", expected: ',' or ')'"));
      }
    }
  }

  std::string_view text_;
  std::vector<Token> tokens_;
  std::size_t pos_ = 0;
};

}  // namespace

Selector Selector::parse(std::string_view text) {
  Selector out;
  out.requirements_ = Parser(text).parse();
  detail::canonicalize(out.requirements_);
  return out;
}

}  // namespace rr
