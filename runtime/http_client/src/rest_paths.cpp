#include "rest_paths.hpp"

namespace rr::http_detail {
namespace {

bool unreserved(unsigned char c) noexcept {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '.' ||
         c == '_' || c == '~';
}

}  // namespace

std::string escape(std::string_view text) {
  static constexpr char hex[] = "0123456789ABCDEF";
  std::string out;
  out.reserve(text.size());
  for (const char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    if (unreserved(c)) {
      out.push_back(ch);
    } else {
      out.push_back('%');
      out.push_back(hex[c >> 4U]);
      out.push_back(hex[c & 0x0FU]);
    }
  }
  return out;
}

std::string group_version_path(const GroupVersionKind& gvk) {
  if (gvk.group.empty()) return "/api/" + escape(gvk.version);
  return "/apis/" + escape(gvk.group) + "/" + escape(gvk.version);
}

std::string resource_path(const KindInfo& kind, std::string_view namespace_, std::string_view name,
                          std::string_view subresource) {
  std::string path = group_version_path(kind.gvk);
  if (kind.namespaced() && !namespace_.empty()) path += "/namespaces/" + escape(namespace_);
  path += "/" + escape(kind.plural);
  if (!name.empty()) {
    path += "/" + escape(name);
    if (!subresource.empty()) path += "/" + escape(subresource);
  }
  return path;
}

std::string Query::str() const {
  std::string out;
  for (const auto& [key, value] : params_) {
    out += out.empty() ? "?" : "&";
    out += escape(key) + "=" + escape(value);
  }
  return out;
}

Query list_query(const ListOptions& opts, bool watch) {
  Query q;
  if (watch) q.add("watch", "true");
  if (!opts.label_selector.empty()) q.add("labelSelector", opts.label_selector);
  if (!opts.field_selector.empty()) q.add("fieldSelector", opts.field_selector);
  if (opts.limit > 0) q.add("limit", std::to_string(opts.limit));
  if (!opts.continue_.empty()) q.add("continue", opts.continue_);
  if (!opts.resource_version.empty()) q.add("resourceVersion", opts.resource_version);
  if (!opts.resource_version_match.empty()) q.add("resourceVersionMatch", opts.resource_version_match);
  if (opts.timeout_seconds > 0) q.add("timeoutSeconds", std::to_string(opts.timeout_seconds));
  if (watch && opts.allow_watch_bookmarks) q.add("allowWatchBookmarks", "true");
  if (watch && opts.send_initial_events) q.add("sendInitialEvents", "true");
  return q;
}

std::string list_accept(const ListOptions& opts, bool watch) {
  if (!opts.metadata_only) return "application/json";
  return watch ? "application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json"
               : "application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json";
}

Query write_query(const WriteOptions& opts, bool apply_patch) {
  Query q;
  if (opts.dry_run) q.add("dryRun", "All");
  if (!opts.field_manager.empty()) q.add("fieldManager", opts.field_manager);
  if (const auto v = to_string(opts.field_validation); !v.empty()) q.add("fieldValidation", std::string(v));
  // The API server refuses force on anything but an apply patch.
  if (apply_patch && opts.force) q.add("force", "true");
  return q;
}

std::string_view to_string(PropagationPolicy policy) noexcept {
  switch (policy) {
    case PropagationPolicy::Default: return "";
    case PropagationPolicy::Background: return "Background";
    case PropagationPolicy::Foreground: return "Foreground";
    case PropagationPolicy::Orphan: return "Orphan";
  }
  return "";
}

Query delete_query(const DeleteOptions& opts) {
  Query q;
  if (opts.dry_run) q.add("dryRun", "All");
  if (const auto policy = to_string(opts.propagation); !policy.empty()) q.add("propagationPolicy", std::string(policy));
  return q;
}

Json delete_body(const DeleteOptions& opts) {
  Json body = {{"kind", "DeleteOptions"}, {"apiVersion", "v1"}};
  if (const auto policy = to_string(opts.propagation); !policy.empty()) body["propagationPolicy"] = policy;
  if (opts.precondition_uid || opts.precondition_resource_version) {
    Json pre = Json::object();
    if (opts.precondition_uid) pre["uid"] = *opts.precondition_uid;
    if (opts.precondition_resource_version) pre["resourceVersion"] = *opts.precondition_resource_version;
    body["preconditions"] = std::move(pre);
  }
  if (opts.dry_run) body["dryRun"] = Json::array({"All"});
  return body;
}

}  // namespace rr::http_detail
