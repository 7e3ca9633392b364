// Accumulates generated text with indentation. Output is LF-only, with no trailing spaces.
#pragma once
#include <string>
#include <string_view>

namespace rrgen {

class CodeWriter {
 public:
  void line(std::string_view text = {});
  void indent() { depth_ += 2; }
  void dedent() { depth_ -= 2; }
  // Doc comment ("/// ...") from free text; blank lines kept, trailing spaces dropped.
  void doc(std::string_view text);
  std::string take() { return std::move(out_); }

 private:
  std::string out_;
  int depth_ = 0;
};

// A C++ string literal for arbitrary bytes ("a\"b", control bytes as 3-digit octal escapes).
std::string cpp_string_literal(std::string_view s);
// A raw string literal whose delimiter does not occur in s.
std::string cpp_raw_literal(std::string_view s);
// True when the text can be written as a JSON string without any escaping.
bool json_plain(std::string_view s);

}  // namespace rrgen
