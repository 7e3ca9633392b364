// REST addressing of the Kubernetes API: resource paths from a KindInfo, query strings from the
// option structs, percent-escaping. Pure functions (unit-tested without a server).
#pragma once
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "rr/client/kind.hpp"
#include "rr/client/options.hpp"
#include "rr/core/json.hpp"

namespace rr::http_detail {

// RFC 3986 percent-encoding of everything but the unreserved characters (A-Z a-z 0-9 - . _ ~).
std::string escape(std::string_view text);

// "/api/<v>" for the core group, "/apis/<group>/<v>" otherwise.
std::string group_version_path(const GroupVersionKind& gvk);

// <group-version>[/namespaces/<ns>]/<plural>[/<name>[/<subresource>]]. `namespace_` is ignored for
// cluster-scoped kinds; empty for a namespaced kind means all namespaces (collections only).
std::string resource_path(const KindInfo& kind, std::string_view namespace_, std::string_view name = {},
                          std::string_view subresource = {});

// Ordered query parameters; rendered "?k=v&k=v" (empty string when there are none).
class Query {
 public:
  void add(std::string key, std::string value) { params_.emplace_back(std::move(key), std::move(value)); }
  void append(const Query& other) { params_.insert(params_.end(), other.params_.begin(), other.params_.end()); }
  bool empty() const noexcept { return params_.empty(); }
  std::string str() const;

 private:
  std::vector<std::pair<std::string, std::string>> params_;
};

// labelSelector, fieldSelector, limit, continue, resourceVersion, resourceVersionMatch,
// timeoutSeconds; for a watch also watch=true, allowWatchBookmarks, sendInitialEvents.
Query list_query(const ListOptions& opts, bool watch);
// The Accept header of a list or watch: JSON, or with ListOptions::metadata_only what client-go's
// metadata client asks for in JSON (PartialObjectMetadataList for a list, PartialObjectMetadata for
// a watch's objects), the object as a fallback for servers that can not.
std::string list_accept(const ListOptions& opts, bool watch);
// dryRun=All, fieldManager and (for apply patches only) force=true.
Query write_query(const WriteOptions& opts, bool apply_patch);
// dryRun=All and propagationPolicy (the body carries them too).
Query delete_query(const DeleteOptions& opts);
// The meta.k8s.io/v1 DeleteOptions body: propagationPolicy, preconditions, dryRun.
Json delete_body(const DeleteOptions& opts);

std::string_view to_string(PropagationPolicy policy) noexcept;  // "" for Default

}  // namespace rr::http_detail
