// Regular expressions as CEL uses them: RE2 syntax (as Go's regexp), compiled once per pattern
// (a small per-thread cache for patterns only known at run time).
#pragma once
#include <cstdint>
#include <memory>
#include <string>

#include "rr/cel/value.hpp"

namespace re2 {
class RE2;
}

namespace rr::cel {

// The compiled pattern, or nullptr with `error` set ("invalid regular expression: ...").
std::shared_ptr<const re2::RE2> compile_regex(const std::string& pattern, std::string& error);
// `text.matches(re)`: true when the pattern matches anywhere in the text.
Value regex_matches(const std::string& text, const re2::RE2& re);
// The same with a pattern compiled (or found in the cache) now.
Value regex_matches(const std::string& text, const std::string& pattern);
// The leftmost non-overlapping matches, at most `limit` (all when negative): a list of strings,
// or with `first_only` the first match as a string ("" when none).
Value regex_find(const std::string& text, const std::string& pattern, std::int64_t limit, bool first_only);

}  // namespace rr::cel
