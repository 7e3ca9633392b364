// admission.k8s.io/v1 AdmissionReview, both directions (see admission_review.hpp).
#include "rr/webhook/admission_review.hpp"

#include <array>
#include <nlohmann/json.hpp>
#include <utility>

#include "review_fields.hpp"
#include "rr/core/time.hpp"

namespace rr::webhook {
namespace {

constexpr std::string_view api_version = "admission.k8s.io/v1";
constexpr std::string_view review_kind = "AdmissionReview";
constexpr std::array<std::pair<Operation, std::string_view>, 4> operations = {{
    {Operation::Create, "CREATE"},
    {Operation::Update, "UPDATE"},
    {Operation::Delete, "DELETE"},
    {Operation::Connect, "CONNECT"},
}};

GroupVersionKind read_gvk(const review::Fields& fields) {
  return {fields.string("group"), fields.string("version"), fields.string("kind")};
}

GroupVersionResource read_gvr(const review::Fields& fields) {
  return {fields.string("group"), fields.string("version"), fields.string("resource")};
}

Json gvk_json(const GroupVersionKind& gvk) {
  return {{"group", gvk.group}, {"version", gvk.version}, {"kind", gvk.kind}};
}

Json gvr_json(const GroupVersionResource& gvr) {
  return {{"group", gvr.group}, {"version", gvr.version}, {"resource", gvr.resource}};
}

Operation read_operation(const review::Fields& fields) {
  const std::string name = fields.string("operation");
  for (const auto& [operation, spelled] : operations) {
    if (name == spelled) return operation;
  }
  fields.fail("operation", "\"" + name + "\" is not one of CREATE, UPDATE, DELETE, CONNECT");
}

// RawExtension members: any JSON object, or absent.
Json raw_object(const review::Fields& fields, std::string_view name) {
  const Json* value = fields.object(name);
  return value == nullptr ? Json() : *value;
}

void put_if_set(Json& json, const char* name, const std::string& value) {
  if (!value.empty()) json[name] = value;
}

Json user_info_json(const UserInfo& user) {
  Json json = Json::object();
  put_if_set(json, "username", user.username);
  put_if_set(json, "uid", user.uid);
  if (!user.groups.empty()) json["groups"] = user.groups;
  if (!user.extra.empty()) json["extra"] = user.extra;
  return json;
}

std::string wrap(const char* section_name, Json body) {
  Json review = {{"apiVersion", api_version}, {"kind", review_kind}};
  review[section_name] = std::move(body);
  return review.dump();
}

}  // namespace

std::string_view operation_name(Operation operation) {
  for (const auto& [known, spelled] : operations) {
    if (known == operation) return spelled;
  }
  return "UNKNOWN";
}

AdmissionRequest decode_admission_review_request(std::string_view body) {
  const Json section = review::open_review(body, api_version, review_kind, "request");
  const review::Fields fields(section, "AdmissionReview: request");
  AdmissionRequest request;
  request.uid = fields.required_string("uid");
  if (const auto kind = fields.nested("kind")) request.kind = read_gvk(*kind);
  if (const auto resource = fields.nested("resource")) request.resource = read_gvr(*resource);
  request.sub_resource = fields.string("subResource");
  if (const auto kind = fields.nested("requestKind")) request.request_kind = read_gvk(*kind);
  if (const auto resource = fields.nested("requestResource")) request.request_resource = read_gvr(*resource);
  request.request_sub_resource = fields.string("requestSubResource");
  request.name = fields.string("name");
  request.namespace_ = fields.string("namespace");
  request.operation = read_operation(fields);
  if (const auto user = fields.nested("userInfo")) {
    request.user_info = {user->string("username"), user->string("uid"), user->strings("groups"),
                         user->string_lists("extra")};
  }
  request.object = raw_object(fields, "object");
  request.old_object = raw_object(fields, "oldObject");
  request.dry_run = fields.boolean("dryRun");
  request.options = raw_object(fields, "options");
  return request;
}

std::string encode_admission_review_request(const AdmissionRequest& request) {
  Json json = {{"uid", request.uid},
               {"kind", gvk_json(request.kind)},
               {"resource", gvr_json(request.resource)},
               {"operation", operation_name(request.operation)},
               {"userInfo", user_info_json(request.user_info)},
               {"object", request.object},
               {"oldObject", request.old_object},
               {"dryRun", request.dry_run}};
  put_if_set(json, "subResource", request.sub_resource);
  if (request.request_kind) json["requestKind"] = gvk_json(*request.request_kind);
  if (request.request_resource) json["requestResource"] = gvr_json(*request.request_resource);
  put_if_set(json, "requestSubResource", request.request_sub_resource);
  put_if_set(json, "name", request.name);
  put_if_set(json, "namespace", request.namespace_);
  json["options"] = request.options;
  return wrap("request", std::move(json));
}

std::string encode_admission_review_response(const AdmissionResponse& response) {
  Json json = {{"uid", response.uid}, {"allowed", response.allowed}};
  if (response.status) json["status"] = review::status_json(*response.status, "");
  if (!response.patch.is_null()) {
    json["patch"] = Bytes::encode(response.patch.dump()).str();
    json["patchType"] = "JSONPatch";
  }
  if (!response.warnings.empty()) json["warnings"] = response.warnings;
  if (!response.audit_annotations.empty()) json["auditAnnotations"] = response.audit_annotations;
  return wrap("response", std::move(json));
}

AdmissionResponse decode_admission_review_response(std::string_view body) {
  const Json section = review::open_review(body, api_version, review_kind, "response");
  const review::Fields fields(section, "AdmissionReview: response");
  AdmissionResponse response;
  response.uid = fields.required_string("uid");
  response.allowed = fields.boolean("allowed");
  if (const Json* status = fields.object("status")) response.status = review::status_of(*status);
  const std::string patch = fields.string("patch");
  const std::string patch_type = fields.string("patchType");
  if (!patch.empty()) {
    if (patch_type.empty()) fields.fail("patch", "present without patchType");
    if (patch_type != "JSONPatch") fields.fail("patchType", "\"" + patch_type + "\" is not JSONPatch");
    const std::optional<std::string> bytes = Bytes(patch).decode();
    if (!bytes) fields.fail("patch", "not valid base64");
    response.patch = Json::parse(*bytes, nullptr, /*allow_exceptions=*/false);
    if (!response.patch.is_array()) fields.fail("patch", "not a JSON array of patch operations");
  }
  response.warnings = fields.strings("warnings");
  response.audit_annotations = fields.string_map("auditAnnotations");
  return response;
}

}  // namespace rr::webhook
