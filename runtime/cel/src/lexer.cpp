// Tokens of CEL's grammar (cel-spec doc/langdef.md, "Syntax").
#include "lexer.hpp"

#include "utf8.hpp"

namespace rr::cel {

namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_hex(char c) { return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }
bool is_ident_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool is_ident_char(char c) { return is_ident_start(c) || is_digit(c); }
int hex_value(char c) {
  if (is_digit(c)) return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return c - 'A' + 10;
}

class Lexer {
 public:
  explicit Lexer(std::string_view s) : s_(s) {}

  std::vector<Token> run() {
    std::vector<Token> out;
    for (;;) {
      skip_space();
      Token t = next();
      const bool stop = t.kind == Tok::End || t.kind == Tok::Error;
      out.push_back(std::move(t));
      if (stop) break;
    }
    return out;
  }

 private:
  char peek(std::size_t ahead = 0) const { return pos_ + ahead < s_.size() ? s_[pos_ + ahead] : '\0'; }

  void skip_space() {
    for (;;) {
      const char c = peek();
      if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f') {
        ++pos_;
      } else if (c == '/' && peek(1) == '/') {
        while (pos_ < s_.size() && s_[pos_] != '\n') ++pos_;
      } else {
        return;
      }
    }
  }

  Token make(Tok kind, std::string text, std::size_t at) const { return Token{kind, std::move(text), at}; }

  Token next() {
    const std::size_t start = pos_;
    if (pos_ >= s_.size()) return make(Tok::End, "", start);
    const char c = peek();
    // String and bytes literals, with their prefixes.
    {
      std::size_t p = pos_;
      bool raw = false, bytes = false;
      for (int i = 0; i < 2 && p < s_.size(); ++i) {
        const char q = s_[p];
        if ((q == 'r' || q == 'R') && !raw) {
          raw = true;
          ++p;
        } else if ((q == 'b' || q == 'B') && !bytes) {
          bytes = true;
          ++p;
        } else {
          break;
        }
      }
      if (p < s_.size() && (s_[p] == '\'' || s_[p] == '"')) {
        pos_ = p;
        return string_literal(start, raw, bytes);
      }
    }
    if (is_ident_start(c)) {
      while (is_ident_char(peek())) ++pos_;
      return make(Tok::Ident, std::string(s_.substr(start, pos_ - start)), start);
    }
    if (c == '`') {
      ++pos_;
      const std::size_t begin = pos_;
      while (pos_ < s_.size() && s_[pos_] != '`') {
        const char q = s_[pos_];
        if (!(is_ident_char(q) || q == '.' || q == '-' || q == '/' || q == ' '))
          return make(Tok::Error, "invalid character in quoted identifier", pos_);
        ++pos_;
      }
      if (pos_ >= s_.size() || pos_ == begin) return make(Tok::Error, "unterminated quoted identifier", start);
      ++pos_;
      return make(Tok::QuotedIdent, std::string(s_.substr(begin, pos_ - 1 - begin)), start);
    }
    if (is_digit(c) || (c == '.' && is_digit(peek(1)))) return number(start);
    static constexpr std::string_view kTwo[] = {"<=", ">=", "==", "!=", "&&", "||"};
    for (const auto op : kTwo)
      if (s_.substr(pos_, 2) == op) {
        pos_ += 2;
        return make(Tok::Punct, std::string(op), start);
      }
    static constexpr std::string_view kOne = "()[]{}.,:?!+-*/%<>";
    if (kOne.find(c) != std::string_view::npos) {
      ++pos_;
      return make(Tok::Punct, std::string(1, c), start);
    }
    if (c == '=' || c == '&' || c == '|')
      return make(Tok::Error, std::string("token recognition error at: '") + c + "'", start);
    const std::size_t len = utf8_sequence_length(s_, pos_);
    return make(Tok::Error, "token recognition error at: '" + std::string(s_.substr(pos_, len)) + "'", start);
  }

  Token number(std::size_t start) {
    if (peek() == '0' && (peek(1) == 'x' || peek(1) == 'X')) {
      pos_ += 2;
      const std::size_t digits = pos_;
      while (is_hex(peek())) ++pos_;
      if (pos_ == digits) return make(Tok::Error, "invalid hex literal", start);
      std::string text(s_.substr(start, pos_ - start));
      if (peek() == 'u' || peek() == 'U') {
        ++pos_;
        return make(Tok::Uint, text, start);
      }
      return make(Tok::Int, text, start);
    }
    bool is_float = false;
    while (is_digit(peek())) ++pos_;
    if (peek() == '.' && is_digit(peek(1))) {
      is_float = true;
      ++pos_;
      while (is_digit(peek())) ++pos_;
    }
    if (peek() == 'e' || peek() == 'E') {
      std::size_t p = pos_ + 1;
      if (p < s_.size() && (s_[p] == '+' || s_[p] == '-')) ++p;
      if (p < s_.size() && is_digit(s_[p])) {
        is_float = true;
        pos_ = p;
        while (is_digit(peek())) ++pos_;
      }
    }
    std::string text(s_.substr(start, pos_ - start));
    if (is_float) return make(Tok::Double, text, start);
    if (peek() == 'u' || peek() == 'U') {
      ++pos_;
      return make(Tok::Uint, text, start);
    }
    return make(Tok::Int, text, start);
  }

  Token string_literal(std::size_t start, bool raw, bool bytes) {
    const char quote = peek();
    const bool triple = peek(1) == quote && peek(2) == quote;
    pos_ += triple ? 3 : 1;
    std::string out;
    for (;;) {
      if (pos_ >= s_.size()) return make(Tok::Error, "unterminated string literal", start);
      const char c = s_[pos_];
      if (triple) {
        if (c == quote && peek(1) == quote && peek(2) == quote) {
          pos_ += 3;
          break;
        }
      } else {
        if (c == quote) {
          ++pos_;
          break;
        }
        if (c == '\n' || c == '\r') return make(Tok::Error, "unterminated string literal", start);
      }
      if (c == '\\' && !raw) {
        std::string err;
        if (!escape(out, bytes, err)) return make(Tok::Error, err, pos_);
        continue;
      }
      if (c == '\\' && raw && triple && peek(1) == quote) {
        // A raw triple-quoted string keeps the backslash; the quote after it stays text.
        out += c;
        out += quote;
        pos_ += 2;
        continue;
      }
      out += c;
      ++pos_;
    }
    if (!bytes && !valid_utf8(out)) return make(Tok::Error, "invalid UTF-8 in string literal", start);
    return make(bytes ? Tok::Bytes : Tok::String, std::move(out), start);
  }

  // Decodes the escape at pos_ (a backslash) into out.
  bool escape(std::string& out, bool bytes, std::string& err) {
    const char e = peek(1);
    auto simple = [&](char v) {
      out += v;
      pos_ += 2;
      return true;
    };
    switch (e) {
      case 'a': return simple('\a');
      case 'b': return simple('\b');
      case 'f': return simple('\f');
      case 'n': return simple('\n');
      case 'r': return simple('\r');
      case 't': return simple('\t');
      case 'v': return simple('\v');
      case '\\': return simple('\\');
      case '\'': return simple('\'');
      case '"': return simple('"');
      case '`': return simple('`');
      case '?': return simple('?');
      default: break;
    }
    std::uint32_t value = 0;
    std::size_t len = 0;
    if (e == 'x' || e == 'X' || e == 'u' || e == 'U') {
      const std::size_t n = (e == 'x' || e == 'X') ? 2 : (e == 'u' ? 4 : 8);
      if (bytes && (e == 'u' || e == 'U')) {
        err = "unicode escape in bytes literal";
        return false;
      }
      for (std::size_t i = 0; i < n; ++i) {
        const char h = peek(2 + i);
        if (!is_hex(h)) {
          err = "invalid escape sequence";
          return false;
        }
        value = value * 16 + static_cast<std::uint32_t>(hex_value(h));
      }
      len = 2 + n;
      if (e == 'u' || e == 'U') {
        if ((value >= 0xD800 && value <= 0xDFFF) || value > 0x10FFFF) {
          err = "invalid unicode code point in escape sequence";
          return false;
        }
      }
    } else if (e >= '0' && e <= '3') {
      for (std::size_t i = 0; i < 3; ++i) {
        const char o = peek(1 + i);
        if (o < '0' || o > '7') {
          err = "invalid octal escape sequence";
          return false;
        }
        value = value * 8 + static_cast<std::uint32_t>(o - '0');
      }
      len = 4;
    } else {
      err = "invalid escape sequence";
      return false;
    }
    if (bytes) out += static_cast<char>(value);
    else append_utf8(out, value);
    pos_ += len;
    return true;
  }

  std::string_view s_;
  std::size_t pos_ = 0;
};

}  // namespace

std::vector<Token> lex(std::string_view source) { return Lexer(source).run(); }

bool is_reserved_word(std::string_view word) {
  static constexpr std::string_view kReserved[] = {
      "as",  "break", "const",   "continue",  "else", "false",  "for",  "function", "if",   "import", "in",
      "let", "loop",  "package", "namespace", "null", "return", "true", "var",      "void", "while"};
  for (const auto r : kReserved)
    if (r == word) return true;
  return false;
}

}  // namespace rr::cel
