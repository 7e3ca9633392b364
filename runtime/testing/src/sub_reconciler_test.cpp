#include "rr/testing/sub_reconciler_test.hpp"

namespace rr::testing::detail {

void check_resource(CaseRun& run, const Json& expected, const Json& actual) {
  if (std::string diff = diff_objects(expected, actual, ObjectComparison::Resource); !diff.empty()) {
    run.error("ExpectResource differs (-expected, +actual):\n" + diff);
  }
}

void check_stash(CaseRun& run, const std::map<std::string, StashedValue>& expected, const Stash& stash) {
  for (const auto& [key, value] : expected) {
    if (std::string diff = value.compare(stash.find(key)); !diff.empty()) {
      run.error("ExpectStashedValues[" + Json(key).dump() + "] differs (-expected, +actual):\n" + diff);
    }
  }
}

}  // namespace rr::testing::detail
