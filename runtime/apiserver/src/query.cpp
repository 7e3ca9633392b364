#include "query.hpp"

#include <charconv>

#include "rr/client/api_error.hpp"

namespace rr::apiserver_detail {

namespace {

[[noreturn]] void bad(std::string message) { throw ApiError(api_errors::bad_request(std::move(message))); }

const std::string* last_value(const QueryParams& params, const std::string& key) {
  auto [first, last] = params.equal_range(key);
  if (first == last) return nullptr;
  return &std::prev(last)->second;
}

bool bool_param(const QueryParams& params, const std::string& key) {
  const std::string* value = last_value(params, key);
  if (!value || value->empty()) return false;
  auto parsed = parse_go_bool(*value);
  if (!parsed) bad("invalid boolean value for " + key + ": \"" + *value + "\"");
  return *parsed;
}

std::int64_t int_param(const QueryParams& params, const std::string& key) {
  const std::string* value = last_value(params, key);
  if (!value || value->empty()) return 0;
  std::int64_t out = 0;
  auto [end, ec] = std::from_chars(value->data(), value->data() + value->size(), out);
  if (ec != std::errc() || end != value->data() + value->size() || out < 0) {
    bad("invalid value for " + key + ": \"" + *value + "\": must be a non-negative integer");
  }
  return out;
}

std::string string_param(const QueryParams& params, const std::string& key) {
  const std::string* value = last_value(params, key);
  return value ? *value : std::string();
}

}  // namespace

std::optional<PropagationPolicy> parse_propagation(std::string_view text) {
  if (text == "Background") return PropagationPolicy::Background;
  if (text == "Foreground") return PropagationPolicy::Foreground;
  if (text == "Orphan") return PropagationPolicy::Orphan;
  return std::nullopt;
}

RequestQuery parse_query(const QueryParams& params) {
  RequestQuery q;
  q.list.label_selector = string_param(params, "labelSelector");
  q.list.field_selector = string_param(params, "fieldSelector");
  q.list.limit = int_param(params, "limit");
  q.list.continue_ = string_param(params, "continue");
  q.list.resource_version = string_param(params, "resourceVersion");
  q.list.allow_watch_bookmarks = bool_param(params, "allowWatchBookmarks");
  q.list.timeout_seconds = int_param(params, "timeoutSeconds");
  q.watch = bool_param(params, "watch");
  if (const std::string* v = last_value(params, "sendInitialEvents"); v && !v->empty()) {
    q.send_initial_events = parse_go_bool(*v);
    if (!q.send_initial_events) bad("invalid boolean value for sendInitialEvents: \"" + *v + "\"");
  }
  q.resource_version_match = string_param(params, "resourceVersionMatch");
  if (!q.resource_version_match.empty() && q.resource_version_match != "NotOlderThan" &&
      q.resource_version_match != "Exact") {
    bad("resourceVersionMatch: Unsupported value: \"" + q.resource_version_match +
        "\": supported values: \"Exact\", \"NotOlderThan\"");
  }
  auto [dry_first, dry_last] = params.equal_range("dryRun");
  for (auto it = dry_first; it != dry_last; ++it) {
    if (it->second != "All") bad("Invalid dry run value: " + it->second + ": supported values: \"All\"");
    q.dry_run = true;
  }
  q.field_manager = string_param(params, "fieldManager");
  if (q.field_manager.size() > 128) bad("fieldManager: Too long: may not be more than 128 bytes");
  q.force = bool_param(params, "force");
  q.field_validation = string_param(params, "fieldValidation");
  if (!q.field_validation.empty() && q.field_validation != "Strict" && q.field_validation != "Warn" &&
      q.field_validation != "Ignore") {
    bad("fieldValidation: Unsupported value: \"" + q.field_validation +
        "\": supported values: \"Ignore\", \"Strict\", \"Warn\"");
  }
  if (const std::string* v = last_value(params, "propagationPolicy"); v && !v->empty()) {
    q.propagation = parse_propagation(*v);
    if (!q.propagation) {
      bad("propagationPolicy: Unsupported value: \"" + *v +
          "\": supported values: \"Background\", \"Foreground\", \"Orphan\"");
    }
  }
  return q;
}

}  // namespace rr::apiserver_detail
