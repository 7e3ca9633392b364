// JSON Merge Patch (RFC 7386) and JSON Patch (RFC 6902): apply, and create from two documents.
// Created patches serialise with sorted keys (nlohmann's object order), as Go's do, so expected
// patch bytes in tests are deterministic.
#pragma once
#include <stdexcept>
#include <string>

#include "rr/core/json.hpp"

namespace rr {

// Thrown when a patch is malformed or (JSON Patch) an operation fails, e.g. a failed "test".
class PatchError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// RFC 7386: null deletes a member, objects merge recursively, anything else replaces.
Json apply_merge_patch(const Json& target, const Json& patch);
// The smallest merge patch turning `from` into `to` (members only in `from` become null). As with
// any merge patch, a member of `to` whose value is null cannot be expressed (it reads as a delete).
Json create_merge_patch(const Json& from, const Json& to);

// RFC 6902: add, remove, replace, move, copy, test; atomic (all or nothing). A PatchError names
// the failing operation: `JSON patch operation 1 (remove /spec/x): path "/spec/x" does not exist`.
Json apply_json_patch(const Json& target, const Json& patch);
// An RFC 6902 patch turning `from` into `to`: objects diffed member by member, arrays replaced
// when their lengths differ, otherwise diffed element-wise.
Json create_json_patch(const Json& from, const Json& to);

}  // namespace rr
