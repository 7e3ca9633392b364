#include "rr/testing/sub_reconciler_test.hpp"

#include "rr/core/json.hpp"

namespace rr::testing::detail {

void check_resource(CaseRun& run, const client_detail::ObjectCodec& codec, const void* expected, const void* actual) {
  Json expected_json;
  Json actual_json;
  codec.encode(expected_json, expected);
  codec.encode(actual_json, actual);
  if (std::string diff = diff_objects(expected_json, actual_json, ObjectComparison::Resource); !diff.empty()) {
    run.error("ExpectResource differs (-expected, +actual):\n" + diff);
  }
}

void check_stash(CaseRun& run, const std::map<std::string, StashedValue>& expected, const Stash& stash) {
  for (const auto& [key, value] : expected) {
    if (std::string diff = value.compare(stash.find(key)); !diff.empty()) {
      run.error("ExpectStashedValues[" + json_quoted(key) + "] differs (-expected, +actual):\n" + diff);
    }
  }
}

}  // namespace rr::testing::detail
