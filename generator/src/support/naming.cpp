#include "support/naming.hpp"

#include <algorithm>
#include <cctype>
#include <vector>

#include "support/ascii.hpp"

namespace rrgen {
namespace {

using ascii::is_alnum;
using ascii::is_digit;
using ascii::is_lower;
using ascii::is_upper;
using ascii::lower;
using ascii::upper;

constexpr std::string_view kReserved[] = {
    // C++20 keywords and alternative tokens
    "alignas", "alignof", "and", "and_eq", "asm", "auto", "bitand", "bitor", "bool", "break", "case", "catch",
    "char", "char8_t", "char16_t", "char32_t", "class", "compl", "concept", "const", "consteval", "constexpr",
    "constinit", "const_cast", "continue", "co_await", "co_return", "co_yield", "decltype", "default", "delete",
    "do", "double", "dynamic_cast", "else", "enum", "explicit", "export", "extern", "false", "float", "for",
    "friend", "goto", "if", "inline", "int", "long", "mutable", "namespace", "new", "noexcept", "not", "not_eq",
    "nullptr", "operator", "or", "or_eq", "private", "protected", "public", "register", "reinterpret_cast",
    "requires", "return", "short", "signed", "sizeof", "static", "static_assert", "static_cast", "struct",
    "switch", "template", "this", "thread_local", "throw", "true", "try", "typedef", "typeid", "typename",
    "union", "unsigned", "using", "virtual", "void", "volatile", "wchar_t", "while", "xor", "xor_eq",
    // contextual identifiers and names that confuse readers or tools
    "final", "override", "import", "module", "std", "rr",
    // macros from libc / POSIX / glibc / Windows / macOS headers
    "assert", "errno", "stdin", "stdout", "stderr", "major", "minor", "makedev", "unix", "linux", "i386",
    "setjmp", "offsetof", "NULL", "EOF", "TRUE", "FALSE", "DELETE", "ERROR", "IN", "OUT", "OPTIONAL", "DOMAIN",
    "OVERFLOW", "UNDERFLOW", "INFINITY", "NAN", "CONST", "VOID", "BOOL", "INT", "CHAR", "BYTE", "WORD",
    "DWORD", "ABSOLUTE", "RELATIVE", "TRANSPARENT", "OPAQUE", "IGNORE", "INFINITE", "MIN", "MAX", "PASCAL",
    "CALLBACK", "interface", "small", "near", "far", "EXIT_SUCCESS", "EXIT_FAILURE", "BUFSIZ", "PATH_MAX",
    "SIG_DFL", "SIG_IGN", "CLOCKS_PER_SEC", "RAND_MAX", "EDOM", "ERANGE", "EINVAL", "ENOENT", "DEBUG",
    "NDEBUG", "PAGE_SIZE", "BIG_ENDIAN", "LITTLE_ENDIAN", "BYTE_ORDER", "alloca", "st_atime", "st_mtime",
    "st_ctime", "sa_handler", "si_pid", "si_status", "si_uid", "si_value", "si_addr", "htonl", "htons", "ntohl",
    "ntohs", "isascii", "toascii", "unix", "bool_t", "howmany", "roundup", "powerof2", "MIN_INT", "nil"};

// Splits a JSON name into words: at non-alphanumerics, lower->Upper ("proxyUrl"), acronym ends
// ("URLPath" -> URL, Path) and digit->Upper ("2Mi" -> 2, Mi).
std::vector<std::string> words(std::string_view s) {
  std::vector<std::string> out;
  std::string cur;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (!is_alnum(c)) {
      if (!cur.empty()) out.push_back(std::move(cur)), cur.clear();
      continue;
    }
    if (!cur.empty()) {
      const char p = cur.back();
      const bool next_lower = i + 1 < s.size() && is_lower(s[i + 1]);
      const bool boundary = (is_upper(c) && (is_lower(p) || is_digit(p))) || (is_upper(c) && is_upper(p) && next_lower);
      if (boundary) out.push_back(std::move(cur)), cur.clear();
    }
    cur += c;
  }
  if (!cur.empty()) out.push_back(std::move(cur));
  return out;
}

struct SymbolName {
  char c;
  const char* name;
};
constexpr SymbolName kSymbols[] = {{'=', "Eq"}, {'!', "Not"}, {'~', "Tilde"}, {'<', "Lt"}, {'>', "Gt"},
                                   {'*', "Star"}, {'+', "Plus"}, {'-', "Minus"}, {'.', "Dot"}, {'/', "Slash"},
                                   {'%', "Percent"}, {'&', "And"}, {'|', "Or"}, {'^', "Caret"}, {'?', "Question"},
                                   {'@', "At"}, {'#', "Hash"}, {'$', "Dollar"}, {':', "Colon"}, {',', "Comma"},
                                   {';', "Semicolon"}, {'_', "Underscore"}, {' ', "Space"}};

}  // namespace

bool is_reserved_identifier(std::string_view name) {
  return std::find(std::begin(kReserved), std::end(kReserved), name) != std::end(kReserved);
}

std::string pascal_case(std::string_view json_name) {
  std::string out;
  for (auto& w : words(json_name)) {
    w[0] = upper(w[0]);
    out += w;
  }
  if (out.empty()) out = "Value";
  if (is_digit(out[0])) out = "V" + out;
  if (is_reserved_identifier(out)) out += '_';
  return out;
}

std::string field_name(std::string_view json_name) {
  std::string out;
  for (const auto& w : words(json_name)) {
    if (!out.empty()) out += '_';
    for (char c : w) out += lower(c);
  }
  if (out.empty()) out = "value";
  if (is_digit(out[0])) out = "_" + out;  // "_2xx": reserved only at global scope, and members are not
  if (is_reserved_identifier(out)) out += '_';
  return out;
}

std::string enumerator_name(std::string_view value) {
  if (value.empty()) return "Empty";
  std::string out;
  for (auto& w : words(value)) {
    w[0] = upper(w[0]);
    if (!out.empty() && is_digit(out.back()) && is_digit(w[0])) out += '_';
    out += w;
  }
  if (out.empty()) {
    for (char c : value)
      for (const auto& s : kSymbols)
        if (s.c == c) out += s.name;
    if (out.empty()) out = "Value";
  }
  if (is_digit(out[0])) out = "V" + out;
  if (is_reserved_identifier(out)) out += '_';
  return out;
}

std::string namespace_segment(std::string_view text) {
  std::string out;
  for (char c : text) out += is_alnum(c) ? lower(c) : '_';
  if (out.empty()) out = "ns";
  if (is_digit(out[0]) || out[0] == '_') out = "g" + out;
  // Collapse "__" (reserved in any C++ identifier).
  std::string collapsed;
  for (char c : out)
    if (!(c == '_' && !collapsed.empty() && collapsed.back() == '_')) collapsed += c;
  if (collapsed.back() == '_') collapsed.pop_back();
  if (is_reserved_identifier(collapsed)) collapsed += "_ns";
  return collapsed;
}

std::string file_stem(std::string_view name) {
  std::string out;
  for (const auto& w : words(name)) {
    if (!out.empty()) out += '_';
    for (char c : w) out += lower(c);
  }
  return out.empty() ? std::string("unnamed") : out;
}

std::string kebab_case(std::string_view name) {
  std::string out;
  for (char c : name) {
    if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) out += c;
    else if (!out.empty() && out.back() != '-') out += '-';
  }
  while (!out.empty() && out.back() == '-') out.pop_back();
  return out;
}

std::string NameScope::claim(const std::string& wanted, bool* renamed) {
  if (renamed) *renamed = false;
  if (used_.insert(wanted).second) return wanted;
  if (renamed) *renamed = true;
  for (int i = 2;; ++i) {
    std::string candidate = wanted + (pascal_ ? "" : "_") + std::to_string(i);
    if (used_.insert(candidate).second) return candidate;
  }
}

std::string cpp_namespace_problem(std::string_view ns) {
  auto quoted = [](std::string_view t) { return "'" + std::string(t) + "'"; };
  auto is_identifier = [](std::string_view t) {
    if (t.empty() || std::isdigit(static_cast<unsigned char>(t.front()))) return false;
    return std::all_of(t.begin(), t.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
  };
  for (std::size_t a = 0;;) {
    const std::size_t b = ns.find("::", a);
    const std::string_view seg = ns.substr(a, b == std::string_view::npos ? std::string_view::npos : b - a);
    if (seg.empty()) return "it has an empty segment";
    if (!is_identifier(seg)) return quoted(seg) + " is not an identifier";
    if (is_reserved_identifier(seg)) return quoted(seg) + " is a C++ keyword or a name the runtime or system headers use";
    if (seg.find("__") != std::string_view::npos || (seg.size() > 1 && seg[0] == '_' && std::isupper(static_cast<unsigned char>(seg[1]))))
      return quoted(seg) + " is reserved for the C++ implementation";
    if (b == std::string_view::npos) return "";
    a = b + 2;
  }
}

}  // namespace rrgen
