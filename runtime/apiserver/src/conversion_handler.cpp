// The verbs on a custom resource requested in a version other than its CRD's storage version:
// the storage version's kind in the cluster holds the objects; what the client sends is
// converted to the storage version, what it gets back to the version it asked for. Conversion
// runs outside the cluster's lock (a conversion webhook may call back into the cluster).
#include "body_codec.hpp"
#include "json_members.hpp"
#include "rest_handler.hpp"
#include "rr/client/patch.hpp"
#include "rr/cluster/cluster.hpp"
#include "yaml_json.hpp"

namespace rr::apiserver_detail {

namespace {

// A patch that names a resourceVersion is a precondition: its conflict goes to the client.
bool names_resource_version(const Json& patch) {
  if (patch.is_object()) return patch.contains("/metadata/resourceVersion"_json_pointer);
  if (patch.is_array()) {
    for (const Json& op : patch) {
      if (op.value("path", "") == "/metadata/resourceVersion") return true;
    }
  }
  return false;
}

constexpr int patch_attempts = 5;

}  // namespace

HttpReply RestHandler::converted(const HttpRequest& request, const UserInfo& user, const KindInfo& kind,
                                 const KindInfo& storage, const CrdConversion& conversion, const Route& route,
                                 RequestQuery query, const ResponseForm& form) const {
  const std::string wanted = kind.gvk.api_version();
  const std::string stored_as = storage.gvk.api_version();
  const ClusterReader reader(*cluster_);
  auto convert = [&](Json object, const std::string& to) {
    return std::move(convert_objects(conversion, {std::move(object)}, to, reader).front());
  };
  auto answer = [&](const Json& object, int code = 200) {
    return object_reply(request, shaped(kind, form, object), code);
  };
  const std::string& method = request.method;
  const bool collection = route.name.empty();
  const ObjectKey key{route.namespace_, route.name};
  const RequestedVersionScope requested(kind.gvk.version);  // for admission webhooks

  if (query.watch && method == "GET") {
    if (!collection) {
      query.list.field_selector = "metadata.name=" + route.name +
                                  (query.list.field_selector.empty() ? "" : "," + query.list.field_selector);
    }
    HttpReply reply = watch(storage, std::move(query), ResponseForm{});
    // Each event's object in the version asked for; a conversion that fails ends the stream
    // with an ERROR event carrying its Status.
    reply.transform_event = [cluster = cluster_, conversion, wanted,
                             shape = watch_shaper(kind, form)](WatchEvent event) mutable {
      if (event.type == WatchEventType::Added || event.type == WatchEventType::Modified ||
          event.type == WatchEventType::Deleted) {
        try {
          event.object = std::move(
              convert_objects(conversion, {std::move(event.object)}, wanted, ClusterReader(*cluster)).front());
        } catch (const ApiError& e) {
          return WatchEvent{WatchEventType::Error, e.status().to_json()};
        }
      }
      return shape ? shape(std::move(event)) : event;
    };
    return reply;
  }
  if (auto failure = faults_.before_request(method != "GET", kind.plural, kind.gvk.group, route.name)) {
    return status_reply(*failure);
  }
  if (method == "GET") {
    if (!collection) {
      check_query_resource_version(query.list.resource_version);
      return answer(convert(cluster_->get(storage, key), wanted));
    }
    validate_list_options(query);
    check_query_resource_version(query.list.resource_version);
    query.list.resource_version.clear();
    Json list = cluster_->list(storage, query.list);
    std::vector<Json> items = list["items"].get<std::vector<Json>>();
    list["items"] = convert_objects(conversion, std::move(items), wanted, reader);  // one review for the page
    list["apiVersion"] = wanted;
    list["kind"] = kind.list_kind;
    return answer(list);
  }
  if (authorizer_.enforcing() && route.subresource.empty() && (method == "POST" || method == "PUT")) {
    admit_write_as(request, user, kind, route, query);
  }
  std::vector<std::string> warnings;
  const WriteOptions opts = write_options(query, &warnings);
  const bool status = route.subresource == "status";
  if (collection && method == "POST") {
    if (kind.namespaced() && !route.namespaced_path) {
      return status_reply(api_errors::method_not_supported(kind.plural, "create"));
    }
    Json object = decode_body(request.content_type, request.body);
    place_in_namespace(kind, route, object);
    check_api_version(object, wanted);
    Json created = cluster_->create(storage, convert(std::move(object), stored_as), opts);
    return with_warnings(answer(convert(std::move(created), wanted), 201), warnings);
  }
  if (collection && method == "DELETE") return remove_collection(storage, route, query, request);
  if (collection) return status_reply(api_errors::method_not_supported(kind.resource_group(), method));
  if (method == "PUT") {
    Json object = decode_body(request.content_type, request.body);
    place_in_namespace(kind, route, object);
    check_api_version(object, wanted);
    if (meta_string(object, "name").empty()) object["metadata"]["name"] = route.name;
    Json in_storage = convert(std::move(object), stored_as);
    Json updated = status ? cluster_->update_status(storage, in_storage, opts)
                          : cluster_->update(storage, in_storage, opts);
    return with_warnings(answer(convert(std::move(updated), wanted)), warnings);
  }
  if (method == "DELETE" && route.subresource.empty()) {
    Json last = cluster_->remove(storage, key, delete_options_of(request.content_type, request.body, query));
    return answer(convert(std::move(last), wanted));
  }
  if (method != "PATCH") return status_reply(api_errors::method_not_supported(kind.resource_group(), method));
  const auto type = patch_type_of(request.content_type);
  if (!type) return status_reply(unsupported_patch_type());
  if (*type == PatchType::Strategic) return status_reply(api_errors::unsupported_media_type(content_type(*type)));
  if (*type == PatchType::Apply) {
    // The applied configuration converts like an object; the storage version's apply merges it.
    auto documents = yaml_documents(request.body);
    if (documents.size() != 1) throw ApiError(api_errors::bad_request("error decoding YAML: one document expected"));
    Json applied = convert(std::move(documents.front()), stored_as);
    const int code = patch_reply_code(*cluster_, storage, key, PatchType::Apply, route.subresource);
    Json result = cluster_->patch(storage, key, PatchType::Apply, applied.dump(), route.subresource, opts);
    return with_warnings(answer(convert(std::move(result), wanted), code), warnings);
  }
  Json document;
  try {
    document = Json::parse(request.body);
  } catch (const Json::parse_error& e) {
    throw ApiError(api_errors::bad_request(std::string("error decoding patch: ") + e.what()));
  }
  // The patch applies to the object in the version it was written for; the write is an update
  // of what was read, retried when another write came in between.
  for (int attempt = 1;; ++attempt) {
    Json current = convert(cluster_->get(storage, key), wanted);
    Json patched;
    try {
      patched = *type == PatchType::Merge ? apply_merge_patch(current, document) : apply_json_patch(current, document);
    } catch (const PatchError& e) {
      Status s;
      s.message = "the server rejected our request due to an error in our request";
      s.reason = "Invalid";
      s.code = 422;
      s.details_name = route.name;
      s.details_group = kind.gvk.group;
      s.details_kind = kind.plural;
      s.causes.push_back(StatusCause{.type = "UnexpectedServerResponse", .message = e.what(), .field = ""});
      throw ApiError(std::move(s));
    }
    check_api_version(patched, wanted);
    try {
      Json in_storage = convert(std::move(patched), stored_as);
      Json result = status ? cluster_->update_status(storage, in_storage, opts)
                           : cluster_->update(storage, in_storage, opts);
      return with_warnings(answer(convert(std::move(result), wanted)), warnings);
    } catch (const ApiError& e) {
      if (!is_conflict(e.status()) || names_resource_version(document) || attempt == patch_attempts) throw;
    }
  }
}

void check_api_version(const Json& object, const std::string& expected) {
  const std::string api_version = object.value("apiVersion", "");
  if (api_version != expected) {
    throw ApiError(api_errors::bad_request("the API version in the data (" + api_version +
                                           ") does not match the expected API version (" + expected + ")"));
  }
}

}  // namespace rr::apiserver_detail
