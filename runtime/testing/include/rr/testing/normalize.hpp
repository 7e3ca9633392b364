// What each comparison ignores (reconciler.io testing/config.go and diff.go), applied to objects
// held as JSON before they are diffed.
//
// | comparison      | ignored                                                                     |
// | CreateOrUpdate  | metadata.resourceVersion, metadata.creationTimestamp, apiVersion/kind,      |
// |                 | every lastTransitionTime; empty == absent; metadata.uid when the expected   |
// |                 | object has none (the test store gives given objects one)                    |
// | StatusUpdate    | everything but .status; every lastTransitionTime; empty == absent           |
// | Resource        | apiVersion/kind, every lastTransitionTime; empty == absent                  |
// |                 | (resourceVersion and creationTimestamp ARE compared)                        |
// | StashedValue    | as CreateOrUpdate                                                           |
// | StatusApply     | every lastTransitionTime (the rest of the ApplyRef, configuration included, |
// |                 | is compared exactly; Apply compares everything)                             |
//
// apiVersion and kind are ignored only when the two sides agree or one side leaves them out, so
// an object of the wrong kind still shows up (as a Go type mismatch does under go-cmp).
#pragma once
#include <string>

#include "rr/core/fwd.hpp"

namespace rr::testing {

enum class ObjectComparison { CreateOrUpdate, StatusUpdate, Resource, StashedValue };

// cmpopts.EquateEmpty for JSON: drops null members and members that are (or become) empty
// arrays or objects, recursively. Array elements are kept, so positions still count.
Json equate_empty(Json value);
// Removes every member named "lastTransitionTime", at any depth.
Json drop_last_transition_times(Json value);

// The diff of two objects under the rules of `comparison` ("" when they match).
std::string diff_objects(const Json& expected, const Json& actual, ObjectComparison comparison);

}  // namespace rr::testing
