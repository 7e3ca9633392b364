// GET, PUT and PATCH of <resource>/<name>/scale: the replicas of a Deployment, ReplicaSet,
// StatefulSet, ReplicationController or custom resource as an autoscaling/v1 Scale (what
// `kubectl scale` and the HorizontalPodAutoscaler use).
#include "body_codec.hpp"
#include "builtin_resources.hpp"
#include "rest_handler.hpp"
#include "rr/client/patch.hpp"
#include "rr/cluster/cluster.hpp"
#include "scale_subresource.hpp"
#include "yaml_json.hpp"

namespace rr::apiserver_detail {

namespace {

Json patch_document(PatchType type, const std::string& body) {
  try {
    if (type == PatchType::Apply) {
      auto docs = yaml_documents(body);
      if (docs.size() != 1) throw std::runtime_error("expected one YAML document");
      return std::move(docs.front());
    }
    return Json::parse(body);
  } catch (const std::exception& e) {
    throw ApiError(api_errors::bad_request(std::string("error decoding patch: ") + e.what()));
  }
}

// The Scale after a patch. Scale has no lists: a strategic merge or an apply is a merge here.
Json patched_scale(const Json& current, PatchType type, const std::string& body) {
  const Json patch = patch_document(type, body);
  try {
    return type == PatchType::JsonPatch ? apply_json_patch(current, patch) : apply_merge_patch(current, patch);
  } catch (const std::exception& e) {
    throw ApiError(api_errors::bad_request(e.what()));
  }
}

}  // namespace

std::optional<ScalePaths> RestHandler::scale_paths(const KindInfo& kind) const {
  if (const KindCodec* row = builtin_resource(kind)) {
    return row->resource.has_scale ? std::optional<ScalePaths>(ScalePaths{}) : std::nullopt;
  }
  if (auto crd = crd_of(kind)) return crd_scale_paths(*crd, kind.gvk.version);
  return std::nullopt;
}

HttpReply RestHandler::scale(const HttpRequest& request, const KindInfo& kind, const ScalePaths& paths,
                             const Route& route, const RequestQuery& query) const {
  const ObjectKey key{route.namespace_, route.name};
  Json object = cluster_->get(kind, key);
  if (request.method == "GET") return object_reply(request, scale_of(object, paths));

  Json wanted;
  if (request.method == "PUT") {
    wanted = decode_body(request.content_type, request.body);
    const std::string name = wanted.value("/metadata/name"_json_pointer, std::string());
    if (!name.empty() && name != route.name) {
      throw ApiError(api_errors::bad_request("the name of the object (" + name +
                                             ") does not match the name on the URL (" + route.name + ")"));
    }
  } else if (request.method == "PATCH") {
    const auto type = patch_type_of(request.content_type);
    if (!type) {
      return status_reply(unsupported_patch_type());
    }
    wanted = patched_scale(scale_of(object, paths), *type, request.body);
  } else {
    return status_reply(api_errors::method_not_supported(kind.resource_group() + "/scale", request.method));
  }

  const Json::json_pointer replicas_at("/spec/replicas");
  const Json replicas = wanted.contains(replicas_at) ? wanted.at(replicas_at) : Json(0);
  if (!replicas.is_number_integer() || replicas.get<std::int64_t>() < 0) {
    throw ApiError(api_errors::invalid(
        "Scale", "autoscaling", route.name,
        {StatusCause{.type = "FieldValueInvalid",
                     .message = "Invalid value: " + replicas.dump() + ": must be greater than or equal to 0",
                     .field = "spec.replicas"}}));
  }
  // A resourceVersion in the Scale is a precondition on the object, as on any update.
  if (const std::string rv = wanted.value("/metadata/resourceVersion"_json_pointer, std::string()); !rv.empty()) {
    object["metadata"]["resourceVersion"] = rv;
  }
  object[paths.spec_replicas] = replicas;
  const Json updated = cluster_->update(kind, object,
                                        WriteOptions{.dry_run = query.dry_run, .field_manager = query.field_manager});
  return object_reply(request, scale_of(updated, paths));
}

}  // namespace rr::apiserver_detail
