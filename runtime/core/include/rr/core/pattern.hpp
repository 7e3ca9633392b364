// A schema `pattern`, compiled with RE2 (Kubernetes validates patterns with Go's regexp, which is
// RE2 syntax, not ECMAScript). Compiled once, on first use; RE2 stays out of generated headers.
#pragma once
#include <memory>
#include <string>
#include <string_view>

namespace re2 { class RE2; }

namespace rr {

class Pattern {
 public:
  explicit Pattern(std::string_view source);
  ~Pattern();
  Pattern(const Pattern&) = delete;
  Pattern& operator=(const Pattern&) = delete;

  const std::string& source() const noexcept { return source_; }
  bool ok() const;                     // false when RE2 cannot compile the pattern
  std::string error() const;
  bool search(std::string_view text) const;  // unanchored, like Go's MatchString

 private:
  std::string source_;
  std::unique_ptr<re2::RE2> re_;
};

}  // namespace rr
