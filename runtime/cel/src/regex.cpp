// RE2 matching (regex.hpp).
#include "regex.hpp"

#include <re2/re2.h>

#include <unordered_map>

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

Value regex_matches(const std::string& text, const std::string& pattern) {
  thread_local std::unordered_map<std::string, std::shared_ptr<const re2::RE2>> cache;
  auto it = cache.find(pattern);
  if (it == cache.end()) {
    std::string error;
    auto re = compile_regex(pattern, error);
    if (!re) return Value::error(error);
    if (cache.size() >= 64) cache.clear();
    it = cache.emplace(pattern, std::move(re)).first;
  }
  return regex_matches(text, *it->second);
}

}  // namespace rr::cel
