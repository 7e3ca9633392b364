// Options of client calls, mirroring the API server's query parameters.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rr {

struct ListOptions {
  std::string namespace_{};      // "" = all namespaces (or cluster-scoped)
  std::string label_selector{};  // Kubernetes selector grammar, e.g. "app=web,tier in (a,b),!old"
  std::string field_selector{};  // "metadata.name=x,metadata.namespace!=y"
  std::int64_t limit = 0;        // 0 = no limit
  std::string continue_{};
  std::string resource_version{};  // watch start point; "" or "0" = current state first
  bool allow_watch_bookmarks = false;
  std::int64_t timeout_seconds = 0;  // watch: 0 = until stopped
  // "NotOlderThan" / "Exact" (metav1.ResourceVersionMatch); "" = the server's default.
  std::string resource_version_match{};
  // Watch only (WatchList): ADDED for every current object first, then a BOOKMARK annotated
  // k8s.io/initial-events-end: "true"; needs resource_version_match "NotOlderThan" and bookmarks.
  bool send_initial_events = false;
  // Only the objects' metadata (client-go's metadata client): an API server answers
  // PartialObjectMetadata (meta.k8s.io/v1) items and watch objects, so the rest of each object is
  // neither sent nor decoded. A client or server that does not support it answers whole objects;
  // informers keep only the metadata either way.
  bool metadata_only = false;
};

enum class PropagationPolicy { Default, Background, Foreground, Orphan };

struct DeleteOptions {
  PropagationPolicy propagation = PropagationPolicy::Default;
  std::optional<std::string> precondition_uid{};
  std::optional<std::string> precondition_resource_version{};
  bool dry_run = false;
};

// What the server does with fields its schema does not know (the fieldValidation query parameter):
// Ignore drops them, Warn drops them with a warning each (the server's default), Strict refuses
// the write with 400 BadRequest.
enum class FieldValidation { Default, Ignore, Warn, Strict };

struct WriteOptions {
  bool dry_run = false;
  std::string field_manager{};
  // Server-side apply only: take ownership of fields other managers own instead of a 409 Conflict.
  bool force = false;
  FieldValidation field_validation = FieldValidation::Default;
  // Where the server's warnings for this write go (the HTTP Warning header's texts, e.g.
  // `unknown field "spec.foo"`); nullptr drops them.
  std::vector<std::string>* warnings = nullptr;
};

// The query parameter's spelling: "", "Ignore", "Warn", "Strict".
std::string_view to_string(FieldValidation v) noexcept;

enum class PatchType {
  Merge,     // application/merge-patch+json (RFC 7386)
  JsonPatch, // application/json-patch+json (RFC 6902); not "Json": that would shadow rr::Json
  Strategic, // application/strategic-merge-patch+json (built-in kinds only; 415 for custom resources)
  Apply      // application/apply-patch+yaml: server-side apply (WriteOptions::field_manager required)
};

// The Content-Type of a PATCH body of this type, e.g. "application/merge-patch+json".
std::string_view content_type(PatchType t) noexcept;

}  // namespace rr
