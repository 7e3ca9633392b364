// Running a whole table inside one doctest test case: names from map keys, skip, focus (Q7: every
// focused case runs, then the table fails on purpose).
#pragma once
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "rr/testing/failure.hpp"

namespace rr::testing::detail {

template <class Case>
std::vector<Case> named_cases(const std::map<std::string, Case>& tests) {
  std::vector<Case> out;
  out.reserve(tests.size());
  for (const auto& [name, tc] : tests) {
    out.push_back(tc);
    out.back().name = name;
  }
  return out;
}

template <class Case>
std::size_t focused_count(const std::vector<Case>& cases) {
  std::size_t n = 0;
  for (const auto& tc : cases) n += tc.focus ? 1 : 0;
  return n;
}

// "2 tests out of 5 are still focused, so the test suite fails"
std::string focus_message(std::size_t focused, std::size_t total);

template <class Case>
void run_table(const std::vector<Case>& cases, const FailureSink& sink,
               const std::function<void(const Case&, const FailureSink&)>& run_one) {
  const std::size_t focused = focused_count(cases);
  for (const auto& tc : cases) {
    if (tc.skip || (focused > 0 && !tc.focus)) continue;
    run_one(tc, prefixed_sink(sink, tc.name + ": "));
  }
  if (focused > 0) sink({Severity::Error, focus_message(focused, cases.size())});
}

}  // namespace rr::testing::detail
