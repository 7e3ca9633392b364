// The pull parser behind every generated decoder. Hot paths (whitespace, keys, plain strings,
// integers) avoid allocation: keys without escapes are views into the input, and the per-depth
// state lives in a vector that only ever grows.
// Over 600 lines on purpose: one parser's scanner, number and string paths share private state and
// inline helpers; splitting them would cost the hot paths calls across translation units.
#include "rr/core/json_reader.hpp"

#include <array>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <limits>
#include <system_error>

#include "number_parse.hpp"
#include "rr/core/errors.hpp"
#include "rr/core/json.hpp"
#include "rr/core/unknown_fields.hpp"
#include "text_util.hpp"

namespace rr {
namespace {

// String scanner classes: 0 plain, 1 closing quote, 2 backslash, 3 control character, 4 non-ASCII.
constexpr std::array<std::uint8_t, 256> make_string_table() {
  std::array<std::uint8_t, 256> t{};
  for (int c = 0; c < 0x20; ++c) t[static_cast<std::size_t>(c)] = 3;
  t['"'] = 1;
  t['\\'] = 2;
  for (int c = 0x80; c < 0x100; ++c) t[static_cast<std::size_t>(c)] = 4;
  return t;
}
constexpr auto kStringClass = make_string_table();

inline bool is_digit(char c) noexcept { return c >= '0' && c <= '9'; }
inline bool is_ws(char c) noexcept { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }

inline int hex_value(char c) noexcept {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

inline std::uint32_t hex4(const char* p) noexcept {
  return static_cast<std::uint32_t>((hex_value(p[0]) << 12) | (hex_value(p[1]) << 8) | (hex_value(p[2]) << 4) |
                                    hex_value(p[3]));
}

// Decodes the body of a string token already validated by scan_string. Unpaired surrogates become
// U+FFFD, as Go's encoding/json does.
void decode_escaped(std::string_view body, std::string& out) {
  const char* s = body.data();
  const std::size_t n = body.size();
  std::size_t i = 0;
  while (i < n) {
    const std::size_t run_start = i;
    while (i < n && s[i] != '\\') ++i;
    out.append(s + run_start, i - run_start);
    if (i >= n) break;
    const char e = s[i + 1];
    i += 2;
    switch (e) {
      case '"': out.push_back('"'); break;
      case '\\': out.push_back('\\'); break;
      case '/': out.push_back('/'); break;
      case 'b': out.push_back('\b'); break;
      case 'f': out.push_back('\f'); break;
      case 'n': out.push_back('\n'); break;
      case 'r': out.push_back('\r'); break;
      case 't': out.push_back('\t'); break;
      default: {  // 'u'
        std::uint32_t cp = hex4(s + i);
        i += 4;
        if (cp >= 0xD800 && cp <= 0xDBFF) {
          if (i + 6 <= n && s[i] == '\\' && s[i + 1] == 'u') {
            const std::uint32_t lo = hex4(s + i + 2);
            if (lo >= 0xDC00 && lo <= 0xDFFF) {
              cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
              i += 6;
            } else {
              cp = 0xFFFD;
            }
          } else {
            cp = 0xFFFD;
          }
        } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
          cp = 0xFFFD;
        }
        detail::append_utf8(out, cp);
      }
    }
  }
}

std::string abbreviate(std::string_view token) {
  if (token.size() <= 40) return std::string(token);
  std::string s(token.substr(0, 37));
  s += "...";
  return s;
}

}  // namespace

JsonReader::JsonReader(std::string_view text, std::size_t max_depth) : text_(text), max_depth_(max_depth) {}

inline void JsonReader::skip_ws() noexcept {
  const char* s = text_.data();
  const std::size_t n = text_.size();
  std::size_t p = pos_;
  while (p < n && is_ws(s[p])) ++p;
  pos_ = p;
}

inline char JsonReader::next_significant() {
  skip_ws();
  if (pos_ >= text_.size()) fail_at(pos_, "unexpected end of input");
  return text_[pos_];
}

void JsonReader::expect(char c) {
  if (next_significant() != c) {
    std::string m = "expected '";
    m += c;
    m += '\'';
    fail_at(pos_, m);
  }
  ++pos_;
}

inline void JsonReader::push(bool is_object) {
  if (depth_ >= max_depth_) fail_at(pos_, "nesting deeper than " + std::to_string(max_depth_) + " levels");
  if (depth_ == stack_.size()) {
    if (stack_.capacity() == 0) stack_.reserve(16);
    stack_.emplace_back();
  }
  Level& l = stack_[depth_++];
  l.is_object = is_object;
  l.first = true;
  l.index = 0;
  l.key = {};
}

JsonKind JsonReader::peek() {
  const char c = next_significant();
  switch (c) {
    case '{': return JsonKind::Object;
    case '[': return JsonKind::Array;
    case '"': return JsonKind::String;
    case 't':
    case 'f': return JsonKind::Bool;
    case 'n': return JsonKind::Null;
    default:
      if (c == '-' || is_digit(c)) return JsonKind::Number;
  }
  mismatch("a JSON value");
}

void JsonReader::begin_object() {
  if (next_significant() != '{') mismatch("object");
  push(true);
  ++pos_;
}

bool JsonReader::next_key() {
  if (depth_ == 0 || !stack_[depth_ - 1].is_object) fail_at(pos_, "next_key() called outside an object");
  Level& l = stack_[depth_ - 1];
  char c = next_significant();
  if (l.first) {
    if (c == '}') {
      ++pos_;
      --depth_;
      return false;
    }
    l.first = false;
  } else if (c == ',') {
    ++pos_;
    c = next_significant();
  } else if (c == '}') {
    ++pos_;
    --depth_;
    return false;
  } else {
    fail_at(pos_, "expected ',' or '}' after an object member");
  }
  if (c != '"') fail_at(pos_, "expected a string key");
  std::size_t end = 0;
  const Scan kind = scan_string(end);
  const std::string_view body = text_.substr(pos_ + 1, end - pos_ - 2);
  if (kind == Scan::Plain) {
    l.key = body;
  } else {
    l.owned.clear();
    if (l.owned.capacity() < 32) l.owned.reserve(32);  // heap storage: survives moves of the stack
    decode_escaped(body, l.owned);
    l.key = l.owned;
  }
  pos_ = end;
  if (next_significant() != ':') fail_at(pos_, "expected ':' after an object key");
  ++pos_;
  return true;
}

std::string_view JsonReader::key() const noexcept {
  return depth_ == 0 ? std::string_view{} : stack_[depth_ - 1].key;
}

void JsonReader::begin_array() {
  if (next_significant() != '[') mismatch("array");
  push(false);
  ++pos_;
}

bool JsonReader::next_item() {
  if (depth_ == 0 || stack_[depth_ - 1].is_object) fail_at(pos_, "next_item() called outside an array");
  Level& l = stack_[depth_ - 1];
  const char c = next_significant();
  if (l.first) {
    if (c == ']') {
      ++pos_;
      --depth_;
      return false;
    }
    l.first = false;
    l.index = 0;
    return true;
  }
  if (c == ',') {
    ++pos_;
    ++l.index;
    return true;
  }
  if (c == ']') {
    ++pos_;
    --depth_;
    return false;
  }
  fail_at(pos_, "expected ',' or ']' after an array item");
}

bool JsonReader::try_null() {
  skip_ws();
  if (text_.size() - pos_ >= 4 && std::memcmp(text_.data() + pos_, "null", 4) == 0) {
    pos_ += 4;
    return true;
  }
  return false;
}

JsonReader::Scan JsonReader::scan_string(std::size_t& end) {
  const auto* s = reinterpret_cast<const unsigned char*>(text_.data());
  const std::size_t n = text_.size();
  std::size_t p = pos_ + 1;
  Scan result = Scan::Plain;
  for (;;) {
    while (p < n && kStringClass[s[p]] == 0) ++p;
    if (p >= n) fail_at(pos_, "unterminated string");
    switch (kStringClass[s[p]]) {
      case 1:
        end = p + 1;
        return result;
      case 2: {
        result = Scan::Escaped;
        if (p + 1 >= n) fail_at(pos_, "unterminated string");
        switch (s[p + 1]) {
          case '"': case '\\': case '/': case 'b': case 'f': case 'n': case 'r': case 't':
            p += 2;
            break;
          case 'u':
            if (p + 6 > n) fail_at(p, "truncated \\u escape");
            for (std::size_t i = 2; i < 6; ++i)
              if (hex_value(static_cast<char>(s[p + i])) < 0) fail_at(p, "invalid \\u escape");
            p += 6;
            break;
          default:
            fail_at(p, "invalid escape sequence in string");
        }
        break;
      }
      case 3:
        fail_at(p, "control character in string (must be escaped)");
      default: {
        const std::size_t len = detail::utf8_sequence_length(s + p, n - p);
        if (len == 0) fail_at(p, "invalid UTF-8 in string");
        p += len;
      }
    }
  }
}

void JsonReader::parse_string_into(std::string& out) {
  if (next_significant() != '"') mismatch("string");
  std::size_t end = 0;
  const Scan kind = scan_string(end);
  const std::string_view body = text_.substr(pos_ + 1, end - pos_ - 2);
  if (kind == Scan::Plain) {
    out.assign(body);
  } else {
    out.clear();
    decode_escaped(body, out);
  }
  pos_ = end;
}

std::string_view JsonReader::number_token() {
  const char* s = text_.data();
  const std::size_t n = text_.size();
  const std::size_t start = pos_;
  std::size_t p = pos_;
  if (p < n && s[p] == '-') ++p;
  if (p >= n || !is_digit(s[p])) fail_at(start, "invalid number");
  if (s[p] == '0') {
    ++p;
    if (p < n && is_digit(s[p])) fail_at(start, "invalid number: leading zero");
  } else {
    while (p < n && is_digit(s[p])) ++p;
  }
  if (p < n && s[p] == '.') {
    ++p;
    if (p >= n || !is_digit(s[p])) fail_at(start, "invalid number: digit expected after '.'");
    while (p < n && is_digit(s[p])) ++p;
  }
  if (p < n && (s[p] == 'e' || s[p] == 'E')) {
    ++p;
    if (p < n && (s[p] == '+' || s[p] == '-')) ++p;
    if (p >= n || !is_digit(s[p])) fail_at(start, "invalid number: digit expected in exponent");
    while (p < n && is_digit(s[p])) ++p;
  }
  pos_ = p;
  return text_.substr(start, p - start);
}

void JsonReader::read(std::string& out) { parse_string_into(out); }

void JsonReader::read(bool& out) {
  const char c = next_significant();
  if (c == 't' && text_.compare(pos_, 4, "true") == 0) {
    out = true;
    pos_ += 4;
    return;
  }
  if (c == 'f' && text_.compare(pos_, 5, "false") == 0) {
    out = false;
    pos_ += 5;
    return;
  }
  mismatch("boolean");
}

void JsonReader::read(std::int32_t& out) {
  const char c = next_significant();
  if (c != '-' && !is_digit(c)) mismatch("integer");
  const std::size_t start = pos_;
  const std::string_view tok = number_token();
  std::int64_t v = 0;
  switch (detail::parse_json_integer(tok, v)) {
    case detail::IntParse::Ok:
      if (v >= std::numeric_limits<std::int32_t>::min() && v <= std::numeric_limits<std::int32_t>::max()) {
        out = static_cast<std::int32_t>(v);
        return;
      }
      [[fallthrough]];
    case detail::IntParse::OutOfRange:
      fail_at(start, "number " + abbreviate(tok) + " out of range for int32");
    case detail::IntParse::NotInteger:
      fail_at(start, "expected integer, got " + abbreviate(tok));
  }
}

void JsonReader::read(std::int64_t& out) {
  const char c = next_significant();
  if (c != '-' && !is_digit(c)) mismatch("integer");
  const std::size_t start = pos_;
  const std::string_view tok = number_token();
  switch (detail::parse_json_integer(tok, out)) {
    case detail::IntParse::Ok: return;
    case detail::IntParse::OutOfRange: fail_at(start, "number " + abbreviate(tok) + " out of range for int64");
    case detail::IntParse::NotInteger: fail_at(start, "expected integer, got " + abbreviate(tok));
  }
}

void JsonReader::read(double& out) {
  const char c = next_significant();
  if (c != '-' && !is_digit(c)) mismatch("number");
  const std::size_t start = pos_;
  const std::string_view tok = number_token();
  if (!detail::parse_json_double(tok, out)) fail_at(start, "number " + abbreviate(tok) + " out of range for a double");
}

std::string JsonReader::read_number_text() {
  const char c = next_significant();
  if (c != '-' && !is_digit(c)) mismatch("number");
  return std::string(number_token());
}

void JsonReader::read(Json& out) { read_dom(out); }

void JsonReader::read_dom(Json& out) {
  switch (peek()) {
    case JsonKind::Object: {
      begin_object();
      out = Json::object();
      auto& obj = out.get_ref<Json::object_t&>();
      while (next_key()) read_dom(obj[std::string(key())]);  // duplicate keys: last one wins (Go, nlohmann)
      return;
    }
    case JsonKind::Array: {
      begin_array();
      out = Json::array();
      auto& arr = out.get_ref<Json::array_t&>();
      while (next_item()) read_dom(arr.emplace_back());
      return;
    }
    case JsonKind::String: {
      std::string s;
      parse_string_into(s);
      out = std::move(s);
      return;
    }
    case JsonKind::Number: {
      const std::size_t start = pos_;
      const std::string_view tok = number_token();
      if (tok.find_first_of(".eE") == std::string_view::npos) {
        // Integers keep nlohmann's own typing: unsigned when non-negative, signed when negative,
        // a double only past 64 bits.
        if (tok[0] == '-') {
          std::int64_t v = 0;
          if (detail::parse_json_integer(tok, v) == detail::IntParse::Ok) {
            out = v;
            return;
          }
        } else {
          std::uint64_t v = 0;
          const auto r = std::from_chars(tok.data(), tok.data() + tok.size(), v);
          if (r.ec == std::errc{}) {
            out = v;
            return;
          }
        }
      }
      double d = 0;
      if (!detail::parse_json_double(tok, d)) fail_at(start, "number " + abbreviate(tok) + " out of range for a double");
      out = d;
      return;
    }
    case JsonKind::Bool: {
      bool b = false;
      read(b);
      out = b;
      return;
    }
    case JsonKind::Null:
      if (!try_null()) mismatch("null");
      out = nullptr;
      return;
  }
}

void JsonReader::skip() { scan_value(nullptr); }
void JsonReader::skip(std::string& out) { scan_value(&out); }

// Validates one value and, with `out`, appends it minified: string and number tokens are copied
// byte for byte, so the text reproduces the original value exactly. Iterative, so hostile nesting
// costs heap (bounded by max_depth), not stack.
void JsonReader::scan_value(std::string* out) {
  enum class State { Value, Key, After };
  std::string open;  // '{' or '[' for each container opened here
  State st = State::Value;
  for (;;) {
    if (st == State::Value) {
      const char c = next_significant();
      if (c == '{' || c == '[') {
        if (depth_ + open.size() >= max_depth_)
          fail_at(pos_, "nesting deeper than " + std::to_string(max_depth_) + " levels");
        ++pos_;
        const char close = c == '{' ? '}' : ']';
        if (out) out->push_back(c);
        if (next_significant() == close) {
          ++pos_;
          if (out) out->push_back(close);
          st = State::After;
        } else {
          open.push_back(c);
          st = c == '{' ? State::Key : State::Value;
        }
      } else if (c == '"') {
        std::size_t end = 0;
        scan_string(end);
        if (out) out->append(text_.data() + pos_, end - pos_);
        pos_ = end;
        st = State::After;
      } else if (c == '-' || is_digit(c)) {
        const std::string_view tok = number_token();
        if (out) out->append(tok);
        st = State::After;
      } else {
        std::string_view lit;
        if (c == 't') lit = "true";
        else if (c == 'f') lit = "false";
        else if (c == 'n') lit = "null";
        if (lit.empty() || text_.compare(pos_, lit.size(), lit) != 0) mismatch("a JSON value");
        if (out) out->append(lit);
        pos_ += lit.size();
        st = State::After;
      }
    } else if (st == State::Key) {
      if (next_significant() != '"') fail_at(pos_, "expected a string key");
      std::size_t end = 0;
      scan_string(end);
      if (out) out->append(text_.data() + pos_, end - pos_);
      pos_ = end;
      if (next_significant() != ':') fail_at(pos_, "expected ':' after an object key");
      ++pos_;
      if (out) out->push_back(':');
      st = State::Value;
    } else {
      if (open.empty()) return;
      const char c = next_significant();
      const bool in_object = open.back() == '{';
      if (c == ',') {
        ++pos_;
        if (out) out->push_back(',');
        st = in_object ? State::Key : State::Value;
      } else if (c == (in_object ? '}' : ']')) {
        ++pos_;
        if (out) out->push_back(c);
        open.pop_back();
      } else {
        fail_at(pos_, in_object ? "expected ',' or '}' after an object member" : "expected ',' or ']' after an array item");
      }
    }
  }
}

void JsonReader::capture_unknown(UnknownFields& fields) {
  if (depth_ == 0 || !stack_[depth_ - 1].is_object) fail_at(pos_, "capture_unknown() called outside an object");
  std::string k(key());
  std::string text;
  scan_value(&text);
  // Past a few dozen members a duplicate check per member would make hostile input quadratic.
  if (fields.size() < 64) fields.set(std::move(k), std::move(text));
  else fields.append(std::move(k), std::move(text));
}

void JsonReader::finish() {
  skip_ws();
  if (pos_ != text_.size()) fail_at(pos_, "unexpected data after the JSON value");
}

void JsonReader::fail(std::string_view message) const {
  std::size_t p = pos_;
  while (p < text_.size() && is_ws(text_[p])) ++p;
  fail_at(p, message);
}

void JsonReader::fail_missing(std::string_view key) const {
  std::string p = pointer();
  p += '/';
  detail::append_pointer_segment(p, key);
  std::string m = "missing required member \"";
  m += key;
  m += '"';
  throw DecodeError(std::move(p), pos_, std::move(m));
}

std::string JsonReader::pointer() const {
  std::string p;
  for (std::size_t i = 0; i < depth_; ++i) {
    const Level& l = stack_[i];
    if (l.first) break;  // no member or item entered yet
    p += '/';
    if (l.is_object) {
      detail::append_pointer_segment(p, l.key);
    } else {
      char buf[24];
      const auto r = std::to_chars(buf, buf + sizeof buf, l.index);
      p.append(buf, r.ptr);
    }
  }
  return p;
}

void JsonReader::mismatch(std::string_view expected) const {
  std::string m = "expected ";
  m += expected;
  m += ", got ";
  if (pos_ >= text_.size()) {
    m += "end of input";
  } else {
    const char c = text_[pos_];
    switch (c) {
      case '{': m += "object"; break;
      case '[': m += "array"; break;
      case '"': m += "string"; break;
      case 't': m += text_.compare(pos_, 4, "true") == 0 ? "boolean" : "an invalid literal"; break;
      case 'f': m += text_.compare(pos_, 5, "false") == 0 ? "boolean" : "an invalid literal"; break;
      case 'n': m += text_.compare(pos_, 4, "null") == 0 ? "null" : "an invalid literal"; break;
      default:
        if (c == '-' || is_digit(c)) {
          m += "number";
        } else if (static_cast<unsigned char>(c) >= 0x21 && static_cast<unsigned char>(c) < 0x7F) {
          m += '\'';
          m += c;
          m += '\'';
        } else {
          char buf[8];
          std::snprintf(buf, sizeof buf, "0x%02X", static_cast<unsigned>(static_cast<unsigned char>(c)));
          m += "byte ";
          m += buf;
        }
    }
  }
  fail_at(pos_, m);
}

void JsonReader::fail_at(std::size_t offset, std::string_view message) const {
  throw DecodeError(pointer(), offset, std::string(message));
}

}  // namespace rr
