// Query parameters of resource requests, checked as the API server checks them (400 BadRequest
// on a malformed value; unknown parameters are ignored).
#pragma once
#include <optional>
#include <string>

#include "route.hpp"
#include "rr/client/options.hpp"
#include "rr/core/go_strconv.hpp"

namespace rr::apiserver_detail {

struct RequestQuery {
  ListOptions list;  // labelSelector, fieldSelector, limit, continue, resourceVersion,
                     // allowWatchBookmarks, timeoutSeconds (namespace comes from the path)
  bool watch = false;
  std::optional<bool> send_initial_events;
  std::string resource_version_match;  // "", NotOlderThan, Exact
  bool dry_run = false;                // dryRun=All
  std::string field_manager;
  bool force = false;
  std::string field_validation;  // "", Strict, Warn, Ignore
  std::optional<PropagationPolicy> propagation;
};

// Throws rr::ApiError (400) on a malformed value.
RequestQuery parse_query(const QueryParams& params);

// Go's strconv.ParseBool (rr/core/go_strconv.hpp).
using rr::parse_go_bool;
// "Background" / "Foreground" / "Orphan"; nullopt otherwise.
std::optional<PropagationPolicy> parse_propagation(std::string_view text);

}  // namespace rr::apiserver_detail
