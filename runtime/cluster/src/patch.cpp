// PATCH: the patch is applied to the stored object, then the result goes through the same write
// path as a PUT of the main resource or of /status. Server-side apply has its own file (apply.cpp).
#include "rr/client/patch.hpp"
#include "errors.hpp"
#include "object_meta.hpp"
#include "request_checks.hpp"
#include "rr/client/resource_version.hpp"
#include "rr/client/strategic_merge.hpp"
#include "store.hpp"

namespace rr::cluster_detail {

namespace {

// apiserver's applyJSPatch: NewGenericServerResponse(422, …, err.Error()).
Status rejected_patch(const KindInfo& kind, const ObjectKey& key, std::string detail) {
  Status s;
  s.message = "the server rejected our request due to an error in our request";
  s.reason = "Invalid";
  s.code = 422;
  s.details_name = key.name;
  s.details_group = kind.gvk.group;
  s.details_kind = kind.plural;
  s.causes.push_back(StatusCause{.type = "UnexpectedServerResponse", .message = std::move(detail), .field = ""});
  return s;
}

}  // namespace

Json Store::patch(const KindInfo& kind, const ObjectKey& key, PatchType type, std::string_view body,
                  std::string_view subresource, const WriteOptions& opts) {
  removed_in_call_.clear();
  ++writes_begun_;
  KindEntry& entry = served(kind);
  const KindInfo& info = entry.info;
  // Strategic merge needs the patch metadata of the Go types: built-in kinds have it
  // (rr::builtin_strategic_schema), custom resources refuse it on a real server too.
  if (type == PatchType::Strategic && !builtin_strategic_schema().covers(info.gvk.api_version(), info.gvk.kind)) {
    fail(api_errors::unsupported_media_type(content_type(type)));
  }
  const bool status = subresource == "status";
  if (!subresource.empty() && !(status && info.has_status)) fail(not_served(info));
  if (type == PatchType::Apply) return apply(entry, key, body, status, opts);  // apply.cpp
  const Json stored = stored_or_404(entry, key);

  Json document;
  try {
    document = Json::parse(body);
  } catch (const Json::parse_error& e) {
    fail(api_errors::bad_request(std::string("error decoding patch: ") + e.what()));
  }
  Json patched;
  try {
    switch (type) {
      case PatchType::Merge: patched = apply_merge_patch(stored, document); break;
      case PatchType::JsonPatch: patched = apply_json_patch(stored, document); break;
      case PatchType::Strategic:
        patched = apply_strategic_merge_patch(stored, document, builtin_strategic_schema());
        break;
      case PatchType::Apply: break;  // handled above
    }
  } catch (const PatchError& e) {
    fail(rejected_patch(info, key, e.what()));
  }
  check_type_meta(info, patched);
  if (meta_string(patched, "name") != meta_string(stored, "name")) {
    fail(api_errors::bad_request("the name of the object (" + meta_string(patched, "name") +
                                 ") does not match the name on the URL (" + meta_string(stored, "name") + ")"));
  }
  if (meta_string(patched, "namespace") != meta_string(stored, "namespace")) {
    fail(api_errors::bad_request("the namespace of the object (" + meta_string(patched, "namespace") +
                                 ") does not match the namespace on the URL (" + meta_string(stored, "namespace") +
                                 ")"));
  }
  // A resourceVersion the patch brings is a precondition; without one the last writer wins.
  // It is read as the registry reads it: a malformed one fails, numbers compare as numbers.
  const ParsedResourceVersion rv = parse_resource_version(meta_string(patched, "resourceVersion"));
  if (!rv.error.empty()) fail(api_errors::malformed_object_resource_version(rv));
  if (rv.value != 0 && rv.value != parse_resource_version(meta_string(stored, "resourceVersion")).value) {
    fail(stale(info, key.name));
  }

  Json result = status ? write_status(entry, stored, patched, opts)
                       : write_main(entry, stored, std::move(patched), opts);
  collect_garbage_after_write(stored);
  return result;
}

}  // namespace rr::cluster_detail
