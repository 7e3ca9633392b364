// RE2 matching (regex.hpp).
#include "regex.hpp"

#include <re2/re2.h>

#include <unordered_map>
#include <vector>

namespace rr::cel {

std::shared_ptr<const re2::RE2> compile_regex(const std::string& pattern, std::string& error) {
  re2::RE2::Options options;
  options.set_log_errors(false);
  auto re = std::make_shared<const re2::RE2>(pattern, options);
  if (!re->ok()) {
    error = "invalid regular expression: " + re->error();
    return nullptr;
  }
  return re;
}

Value regex_matches(const std::string& text, const re2::RE2& re) { return Value(re2::RE2::PartialMatch(text, re)); }

namespace {

// The compiled pattern from a per-thread cache, or nullptr with `error` set.
const re2::RE2* cached(const std::string& pattern, std::string& error) {
  thread_local std::unordered_map<std::string, std::shared_ptr<const re2::RE2>> cache;
  auto it = cache.find(pattern);
  if (it == cache.end()) {
    auto re = compile_regex(pattern, error);
    if (!re) return nullptr;
    if (cache.size() >= 64) cache.clear();
    it = cache.emplace(pattern, std::move(re)).first;
  }
  return it->second.get();
}

}  // namespace

Value regex_matches(const std::string& text, const std::string& pattern) {
  std::string error;
  const re2::RE2* re = cached(pattern, error);
  if (re == nullptr) return Value::error(error);
  return regex_matches(text, *re);
}

Value regex_find(const std::string& text, const std::string& pattern, std::int64_t limit, bool first_only) {
  std::string error;
  const re2::RE2* re = cached(pattern, error);
  if (re == nullptr) return Value::error(error);
  std::vector<Value> found;
  std::size_t pos = 0;
  re2::StringPiece match;
  while ((limit < 0 || static_cast<std::int64_t>(found.size()) < limit) && pos <= text.size() &&
         re->Match(text, pos, text.size(), re2::RE2::UNANCHORED, &match, 1)) {
    found.emplace_back(std::string(match.data(), match.size()));
    const auto end = static_cast<std::size_t>(match.data() - text.data()) + match.size();
    pos = match.empty() ? end + 1 : end;
  }
  if (first_only) return found.empty() ? Value(std::string()) : found.front();
  return Value::list(std::move(found));
}

}  // namespace rr::cel
