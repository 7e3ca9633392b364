// Writes regenerated code. Text is written as the output will read, with `$name$` holes for what
// the model decides, instead of strings concatenated at hand-counted columns:
//
//   p.print("$type$ $member$;", {{"type", spelling}, {"member", field.cpp_name}});
//   {
//     auto body = p.indented();
//     p.print(body_text);
//   }
//
// - Holes follow fill_template (support/text_template.hpp): `$$` is a literal `$`; a hole alone on
//   its line is a block (every line of the value gets the hole's indentation; an empty value
//   removes the line).
// - Every line gets the printer's indentation (2 spaces a level); empty lines stay empty and
//   trailing spaces are dropped. Output is LF-only.
// - A hole without a value, or a value no hole asked for, is a bug in rrgen: std::logic_error
//   naming the printer and the variable.
// - line() and doc() write text verbatim (a `$` in a generated regex stays a `$`).
#pragma once
#include <cstddef>
#include <string>
#include <string_view>
#include <utility>

#include "support/text_template.hpp"

namespace rrgen {

class Printer {
 public:
  explicit Printer(std::string name = "printer") : name_(std::move(name)) {}

  // `text` with its holes filled, line by line at the current indentation. A final newline is
  // optional: print("a") and print("a\n") write the same line.
  void print(std::string_view text, const TemplateVars& vars = {});
  // `text` with its holes filled and checked as print() does, without writing it: the value of a
  // hole in another template (no final newline), e.g. a line the model may or may not want.
  std::string fill(std::string_view text, const TemplateVars& vars) const;
  // One line, verbatim (no holes); an embedded newline starts another indented line.
  void line(std::string_view text = {});
  // Doc comment ("/// ...") from free text; blank lines kept, trailing spaces and backslashes dropped.
  void doc(std::string_view text);

  void indent() { depth_ += kIndentWidth; }
  void outdent();
  // Indents by `levels` until the returned guard is destroyed.
  class Indent {
   public:
    Indent(Printer& p, int levels) : p_(&p), levels_(levels) {
      for (int i = 0; i < levels_; ++i) p_->indent();
    }
    Indent(const Indent&) = delete;
    Indent& operator=(const Indent&) = delete;
    ~Indent() {
      for (int i = 0; i < levels_; ++i) p_->outdent();
    }

   private:
    Printer* p_;
    int levels_;
  };
  [[nodiscard]] Indent indented(int levels = 1) { return Indent(*this, levels); }

  // The current indentation in columns: where a wrapped line starts (wrap_parameters' indent).
  std::size_t column() const noexcept { return static_cast<std::size_t>(depth_); }
  const std::string& text() const noexcept { return out_; }
  std::string take() { return std::exchange(out_, {}); }
  // The text so far as the value of a block hole in another template: without its final newline,
  // which the hole's own line supplies. Empty when nothing was written.
  std::string take_block();

  static constexpr int kIndentWidth = 2;

 private:
  std::string fill_checked(std::string_view text, const TemplateVars& vars) const;
  void append_line(std::string_view line);

  std::string name_;
  std::string out_;
  int depth_ = 0;
};

// A C++ string literal for arbitrary bytes ("a\"b", control bytes as 3-digit octal escapes).
std::string cpp_string_literal(std::string_view s);
// A raw string literal whose delimiter does not occur in s.
std::string cpp_raw_literal(std::string_view s);
// "true" or "false".
inline std::string cpp_bool(bool b) { return b ? "true" : "false"; }
// True when the text can be written as a JSON string without any escaping.
bool json_plain(std::string_view s);

}  // namespace rrgen
