// ASCII character classes, independent of the locale: names, YAML scalars and Kubernetes names are
// ASCII by definition, and std::isalpha & co. take an int that a negative char would misuse.
#pragma once

namespace rrgen::ascii {

inline bool is_digit(char c) { return c >= '0' && c <= '9'; }
inline bool is_lower(char c) { return c >= 'a' && c <= 'z'; }
inline bool is_upper(char c) { return c >= 'A' && c <= 'Z'; }
inline bool is_alnum(char c) { return is_digit(c) || is_lower(c) || is_upper(c); }
inline bool is_lower_alnum(char c) { return is_digit(c) || is_lower(c); }
inline char lower(char c) { return is_upper(c) ? static_cast<char>(c - 'A' + 'a') : c; }
inline char upper(char c) { return is_lower(c) ? static_cast<char>(c - 'a' + 'A') : c; }

}  // namespace rrgen::ascii
