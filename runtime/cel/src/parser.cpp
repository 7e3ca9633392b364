// Recursive-descent parser for CEL's grammar (cel-spec doc/langdef.md):
//   Expr           = ConditionalOr ["?" ConditionalOr ":" Expr]
//   ConditionalOr  = [ConditionalOr "||"] ConditionalAnd
//   ConditionalAnd = [ConditionalAnd "&&"] Relation
//   Relation       = [Relation Relop] Addition
//   Addition       = [Addition ("+" | "-")] Multiplication
//   Multiplication = [Multiplication ("*" | "/" | "%")] Unary
//   Unary          = Member | "!" {"!"} Member | "-" {"-"} Member
//   Member         = Primary | Member "." SELECTOR ["(" [ExprList] ")"] | Member "[" Expr "]"
//   Primary        = ["."] IDENT ["(" [ExprList] ")"] | "(" Expr ")" | "[" [ExprList] [","] "]"
//                  | "{" [MapInits] [","] "}" | ["."] SELECTOR {"." SELECTOR} "{" [FieldInits] [","] "}"
//                  | LITERAL
// plus the optional syntax (`a.?b`, `a[?b]`, `[?x]`, `{?k: v}`, `T{?f: v}`).
#include <charconv>
#include <cstdlib>
#include <stdexcept>

#include "lexer.hpp"
#include "macros.hpp"
#include "rr/cel/parser.hpp"
#include "utf8.hpp"

namespace rr::cel {

namespace {

struct Failure {
  std::size_t offset;
  std::string message;
};

std::string describe(const Token& t) {
  switch (t.kind) {
    case Tok::End: return "'<EOF>'";
    case Tok::String: return "string literal";
    case Tok::Bytes: return "bytes literal";
    default: return "'" + t.text + "'";
  }
}

class Parser {
 public:
  Parser(std::string_view source, const ParseOptions& options) : options_(options), tokens_(lex(source)) {}

  ExprPtr run() {
    ExprPtr e = expr();
    if (peek().kind != Tok::End) fail_at(peek(), "mismatched input " + describe(peek()) + " expecting <EOF>");
    return e;
  }

 private:
  const Token& peek(std::size_t ahead = 0) const {
    const std::size_t i = pos_ + ahead;
    return i < tokens_.size() ? tokens_[i] : tokens_.back();
  }
  const Token& advance() {
    const Token& t = peek();
    if (t.kind == Tok::Error) throw Failure{t.offset, t.text};
    if (pos_ < tokens_.size() - 1) ++pos_;
    return t;
  }
  [[noreturn]] void fail_at(const Token& t, const std::string& message) {
    if (t.kind == Tok::Error) throw Failure{t.offset, t.text};
    throw Failure{t.offset, message};
  }
  void expect(std::string_view punct, const char* context) {
    if (!peek().is(punct))
      fail_at(peek(), "mismatched input " + describe(peek()) + " expecting '" + std::string(punct) + "'" + context);
    advance();
  }
  bool accept(std::string_view punct) {
    if (!peek().is(punct)) return false;
    advance();
    return true;
  }

  struct Depth {
    Parser& p;
    explicit Depth(Parser& parser) : p(parser) {
      if (++p.depth_ > p.options_.max_recursion_depth)
        throw Failure{p.peek().offset,
                      "expression recursion limit exceeded: " + std::to_string(p.options_.max_recursion_depth)};
    }
    ~Depth() { --p.depth_; }
    Depth(const Depth&) = delete;
    Depth& operator=(const Depth&) = delete;
  };

  template <class Node>
  ExprPtr make(std::size_t offset, Node node) {
    auto e = std::make_unique<Expr>();
    e->id = ++next_id_;
    e->offset = offset;
    e->node = std::move(node);
    return e;
  }
  ExprPtr call(std::size_t offset, std::string fn, std::vector<ExprPtr> args, ExprPtr target = nullptr) {
    return make(offset, CallExpr{std::move(target), std::move(fn), std::move(args)});
  }
  ExprPtr binary(std::size_t offset, const char* fn, ExprPtr a, ExprPtr b) {
    std::vector<ExprPtr> args;
    args.push_back(std::move(a));
    args.push_back(std::move(b));
    return call(offset, fn, std::move(args));
  }

  ExprPtr expr() {
    const Depth d(*this);
    ExprPtr cond = conditional_or();
    if (!peek().is("?")) return cond;
    const std::size_t at = advance().offset;
    ExprPtr yes = conditional_or();
    expect(":", "");
    ExprPtr no = expr();
    std::vector<ExprPtr> args;
    args.push_back(std::move(cond));
    args.push_back(std::move(yes));
    args.push_back(std::move(no));
    return call(at, "_?_:_", std::move(args));
  }

  // `a || b || c ...` as a balanced tree, as cel-go builds it: the operators are commutative in
  // CEL, and a long chain then nests only log2(n) levels deep.
  ExprPtr balanced(const char* fn, std::vector<ExprPtr>& operands, const std::vector<std::size_t>& offsets,
                   std::size_t lo, std::size_t hi) {
    if (lo == hi) return std::move(operands[lo]);
    const std::size_t mid = (lo + hi + 1) / 2;
    ExprPtr left = balanced(fn, operands, offsets, lo, mid - 1);
    ExprPtr right = balanced(fn, operands, offsets, mid, hi);
    return binary(offsets[mid - 1], fn, std::move(left), std::move(right));
  }

  template <class Next>
  ExprPtr logical_chain(const char* op, const char* fn, Next next) {
    std::vector<ExprPtr> operands;
    std::vector<std::size_t> offsets;
    operands.push_back(next());
    while (peek().is(op)) {
      offsets.push_back(advance().offset);
      operands.push_back(next());
    }
    return balanced(fn, operands, offsets, 0, operands.size() - 1);
  }

  ExprPtr conditional_or() {
    return logical_chain("||", "_||_", [this] { return conditional_and(); });
  }
  ExprPtr conditional_and() {
    return logical_chain("&&", "_&&_", [this] { return relation(); });
  }

  // Counts the links of a left-nested chain (`a + b + c`, `a.b.c`, `a[0][1]`) against the
  // recursion limit: each link nests the tree one level deeper.
  class Chain {
   public:
    explicit Chain(Parser& p) : p_(p) {}
    ~Chain() { p_.depth_ -= links_; }
    Chain(const Chain&) = delete;
    Chain& operator=(const Chain&) = delete;
    void link() {
      ++links_;
      if (++p_.depth_ > p_.options_.max_recursion_depth)
        throw Failure{p_.peek().offset,
                      "expression recursion limit exceeded: " + std::to_string(p_.options_.max_recursion_depth)};
    }

   private:
    Parser& p_;
    std::size_t links_ = 0;
  };

  ExprPtr relation() {
    ExprPtr e = addition();
    Chain chain(*this);
    for (;;) {
      const Token& t = peek();
      const char* fn = nullptr;
      if (t.is("<")) fn = "_<_";
      else if (t.is("<=")) fn = "_<=_";
      else if (t.is(">")) fn = "_>_";
      else if (t.is(">=")) fn = "_>=_";
      else if (t.is("==")) fn = "_==_";
      else if (t.is("!=")) fn = "_!=_";
      else if (t.kind == Tok::Ident && t.text == "in") fn = "@in";
      if (fn == nullptr) return e;
      chain.link();
      const std::size_t at = advance().offset;
      e = binary(at, fn, std::move(e), addition());
    }
  }

  ExprPtr addition() {
    ExprPtr e = multiplication();
    Chain chain(*this);
    for (;;) {
      const char* fn = peek().is("+") ? "_+_" : (peek().is("-") ? "_-_" : nullptr);
      if (fn == nullptr) return e;
      chain.link();
      const std::size_t at = advance().offset;
      e = binary(at, fn, std::move(e), multiplication());
    }
  }

  ExprPtr multiplication() {
    ExprPtr e = unary();
    Chain chain(*this);
    for (;;) {
      const char* fn = peek().is("*") ? "_*_" : (peek().is("/") ? "_/_" : (peek().is("%") ? "_%_" : nullptr));
      if (fn == nullptr) return e;
      chain.link();
      const std::size_t at = advance().offset;
      e = binary(at, fn, std::move(e), unary());
    }
  }

  bool starts_postfix(const Token& t) const { return t.is(".") || t.is("[") || t.is("("); }

  ExprPtr unary() {
    if (peek().is("!")) {
      const Depth d(*this);
      const std::size_t at = advance().offset;
      std::vector<ExprPtr> args;
      args.push_back(unary());
      return call(at, "!_", std::move(args));
    }
    if (peek().is("-")) {
      const Token& minus = peek();
      const Token& num = peek(1);
      // A negative literal is one constant (so -9223372036854775808 is in range).
      if ((num.kind == Tok::Int || num.kind == Tok::Double) && !starts_postfix(peek(2))) {
        const std::size_t at = minus.offset;
        advance();
        const Token& lit = advance();
        return make(at, ConstantExpr{number_value(lit, true)});
      }
      const Depth d(*this);
      const std::size_t at = advance().offset;
      std::vector<ExprPtr> args;
      args.push_back(unary());
      return call(at, "-_", std::move(args));
    }
    return member();
  }

  Value number_value(const Token& t, bool negative) {
    const std::string& s = t.text;
    if (t.kind == Tok::Double) {
      const double d = std::strtod(s.c_str(), nullptr);
      return Value(negative ? -d : d);
    }
    const bool hex = s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
    const char* first = s.data() + (hex ? 2 : 0);
    const char* last = s.data() + s.size();
    std::uint64_t u = 0;
    const auto r = std::from_chars(first, last, u, hex ? 16 : 10);
    if (t.kind == Tok::Uint) {
      if (r.ec != std::errc{}) throw Failure{t.offset, "invalid uint literal"};
      return Value(u);
    }
    constexpr std::uint64_t kMaxPos = 9223372036854775807ULL;
    if (r.ec != std::errc{} || u > kMaxPos + (negative ? 1 : 0)) throw Failure{t.offset, "invalid int literal"};
    if (negative) return Value(u == kMaxPos + 1 ? INT64_MIN : -static_cast<std::int64_t>(u));
    return Value(static_cast<std::int64_t>(u));
  }

  std::vector<ExprPtr> arguments(const char* closing) {
    std::vector<ExprPtr> args;
    if (accept(closing)) return args;
    for (;;) {
      args.push_back(expr());
      if (accept(closing)) return args;
      expect(",", "");
    }
  }

  ExprPtr finish_call(std::size_t at, ExprPtr target, std::string fn, std::vector<ExprPtr> args) {
    if (options_.macros) {
      std::optional<MacroError> error;
      auto expanded = expand_macro(
          target, fn, args, at, [this] { return ++next_id_; }, error);
      if (error) throw Failure{error->offset, error->message};
      if (expanded) return std::move(*expanded);
    }
    return call(at, std::move(fn), std::move(args), std::move(target));
  }

  std::string selector_name(const char* what) {
    const Token& t = peek();
    if (t.kind == Tok::Ident || t.kind == Tok::QuotedIdent) return advance().text;
    fail_at(t, "mismatched input " + describe(t) + " expecting " + what);
  }

  ExprPtr member() {
    ExprPtr e = primary();
    Chain chain(*this);
    for (;;) {
      if (peek().is(".") || peek().is("[")) chain.link();
      if (peek().is(".")) {
        const std::size_t at = advance().offset;
        const bool optional = accept("?");
        const bool quoted = peek().kind == Tok::QuotedIdent;
        std::string name = selector_name("IDENTIFIER");
        if (!optional && !quoted && peek().is("(")) {
          advance();
          auto args = arguments(")");
          e = finish_call(at, std::move(e), std::move(name), std::move(args));
        } else {
          e = make(at, SelectExpr{std::move(e), std::move(name), false, optional});
        }
      } else if (peek().is("[")) {
        const std::size_t at = advance().offset;
        const bool optional = accept("?");
        ExprPtr index = expr();
        expect("]", "");
        e = binary(at, optional ? "_[?_]" : "_[_]", std::move(e), std::move(index));
      } else {
        return e;
      }
    }
  }

  ExprPtr primary() {
    const Token& t = peek();
    const std::size_t at = t.offset;
    switch (t.kind) {
      case Tok::Int:
      case Tok::Double: return make(at, ConstantExpr{number_value(advance(), false)});
      case Tok::Uint: return make(at, ConstantExpr{number_value(advance(), false)});
      case Tok::String: return make(at, ConstantExpr{Value(advance().text)});
      case Tok::Bytes: return make(at, ConstantExpr{Value::bytes(advance().text)});
      default: break;
    }
    if (t.kind == Tok::Ident) {
      if (t.text == "true" || t.text == "false") return make(at, ConstantExpr{Value(advance().text == "true")});
      if (t.text == "null") {
        advance();
        return make(at, ConstantExpr{Value()});
      }
    }
    if (t.is(".") || t.kind == Tok::Ident) {
      std::string name;
      if (accept(".")) name = ".";
      const Token& id = peek();
      if (id.kind != Tok::Ident) fail_at(id, "mismatched input " + describe(id) + " expecting IDENTIFIER");
      if (is_reserved_word(id.text)) fail_at(id, "reserved identifier: " + id.text);
      name += advance().text;
      if (peek().is("(")) {
        advance();
        auto args = arguments(")");
        return finish_call(at, nullptr, std::move(name), std::move(args));
      }
      // A message construction's type name: ident {"." ident} "{".
      std::size_t ahead = 0;
      while (peek(ahead).is(".") && peek(ahead + 1).kind == Tok::Ident) ahead += 2;
      if (peek(ahead).is("{")) {
        for (std::size_t i = 0; i < ahead; i += 2) {
          advance();
          name += "." + advance().text;
        }
        advance();
        return struct_body(at, std::move(name));
      }
      return make(at, IdentExpr{std::move(name)});
    }
    if (t.is("(")) {
      advance();
      ExprPtr e = expr();
      expect(")", "");
      return e;
    }
    if (t.is("[")) {
      advance();
      ListExpr list;
      while (!peek().is("]")) {
        list.optional.push_back(accept("?"));
        list.elements.push_back(expr());
        if (!accept(",")) break;
      }
      expect("]", "");
      return make(at, std::move(list));
    }
    if (t.is("{")) {
      advance();
      MapExpr map;
      while (!peek().is("}")) {
        MapEntry entry;
        entry.optional = accept("?");
        entry.key = expr();
        expect(":", "");
        entry.value = expr();
        map.entries.push_back(std::move(entry));
        if (!accept(",")) break;
      }
      expect("}", "");
      return make(at, std::move(map));
    }
    fail_at(t, "mismatched input " + describe(t) + " expecting an expression");
  }

  ExprPtr struct_body(std::size_t at, std::string name) {
    StructExpr s;
    s.message_name = std::move(name);
    while (!peek().is("}")) {
      FieldInit f;
      f.optional = accept("?");
      f.field = selector_name("a field name");
      expect(":", "");
      f.value = expr();
      s.fields.push_back(std::move(f));
      if (!accept(",")) break;
    }
    expect("}", "");
    return make(at, std::move(s));
  }

  const ParseOptions& options_;
  std::vector<Token> tokens_;
  std::size_t pos_ = 0;
  std::size_t depth_ = 0;
  std::int64_t next_id_ = 0;
};

}  // namespace

SourceError source_error(std::string_view source, std::size_t offset, std::string message) {
  SourceError e;
  e.offset = offset;
  e.message = std::move(message);
  std::size_t line_start = 0;
  for (std::size_t i = 0; i < offset && i < source.size(); ++i)
    if (source[i] == '\n') {
      ++e.line;
      line_start = i + 1;
    }
  e.column = code_point_count(source.substr(line_start, offset - line_start)) + 1;
  return e;
}

std::string format_errors(std::string_view source, const std::vector<SourceError>& errors,
                          const std::string& description) {
  std::string out;
  for (const auto& e : errors) {
    if (!out.empty()) out += '\n';
    out += "ERROR: " + description + ":" + std::to_string(e.line) + ":" + std::to_string(e.column) + ": " + e.message;
    // The source line, then a caret under the column (dots before it, as cel-go draws it).
    std::size_t start = 0;
    for (std::size_t line = 1; line < e.line; ++line) start = source.find('\n', start) + 1;
    std::size_t end = source.find('\n', start);
    if (end == std::string_view::npos) end = source.size();
    out += "\n | " + std::string(source.substr(start, end - start));
    out += "\n | " + std::string(e.column - 1, '.') + "^";
  }
  return out;
}

ParseResult parse(std::string_view source, const ParseOptions& options) {
  ParseResult result;
  if (code_point_count(source) > options.max_source_size) {
    result.errors.push_back(
        source_error(source, 0,
                     "expression code point size exceeds limit: size: " + std::to_string(code_point_count(source)) +
                         ", limit " + std::to_string(options.max_source_size)));
  } else if (!valid_utf8(source)) {
    result.errors.push_back(source_error(source, 0, "Syntax error: invalid UTF-8 in the expression"));
  } else {
    try {
      Parser parser(source, options);
      result.expr = parser.run();
    } catch (const Failure& f) {
      result.errors.push_back(source_error(source, f.offset, "Syntax error: " + f.message));
    }
  }
  if (!result.errors.empty()) {
    result.expr.reset();
    result.error_text = format_errors(source, result.errors, options.description);
  }
  return result;
}

}  // namespace rr::cel
