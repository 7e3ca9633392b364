#include "rr/core/pattern.hpp"

#include <re2/re2.h>

namespace rr {

Pattern::Pattern(std::string_view source) : source_(source) {
  RE2::Options options;
  options.set_log_errors(false);  // a bad pattern is reported through ok()/error(), not stderr
  re_ = std::make_unique<re2::RE2>(source_, options);
}

Pattern::~Pattern() = default;

bool Pattern::ok() const { return re_ && re_->ok(); }

std::string Pattern::error() const { return re_ ? re_->error() : std::string("pattern not compiled"); }

bool Pattern::search(std::string_view text) const {
  if (!ok()) return false;
  return RE2::PartialMatch(re2::StringPiece(text.data(), text.size()), *re_);
}

}  // namespace rr
