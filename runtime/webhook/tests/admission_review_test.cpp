#include <doctest/doctest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "rr/core/time.hpp"
#include "rr/webhook/admission_review.hpp"

using rr::Json;
using namespace rr::webhook;

namespace {

// An UPDATE as kube-apiserver 1.35 posts it (admission.k8s.io/v1, matchPolicy Equivalent, so the
// request kind differs from the kind the webhook registered for).
constexpr std::string_view update_review = R"({
  "kind": "AdmissionReview",
  "apiVersion": "admission.k8s.io/v1",
  "request": {
    "uid": "705ab4f5-6393-11e8-b7cc-42010a800002",
    "kind": {"group": "apps", "version": "v1", "kind": "Deployment"},
    "resource": {"group": "apps", "version": "v1", "resource": "deployments"},
    "subResource": "scale",
    "requestKind": {"group": "apps", "version": "v1beta1", "kind": "Deployment"},
    "requestResource": {"group": "apps", "version": "v1beta1", "resource": "deployments"},
    "requestSubResource": "scale",
    "name": "my-deployment",
    "namespace": "my-namespace",
    "operation": "UPDATE",
    "userInfo": {
      "username": "admin",
      "uid": "014fbff9a07c",
      "groups": ["system:authenticated", "my-admin-group"],
      "extra": {"some-key": ["some-value1", "some-value2"]}
    },
    "object": {"apiVersion": "autoscaling/v1", "kind": "Scale", "spec": {"replicas": 3}},
    "oldObject": {"apiVersion": "autoscaling/v1", "kind": "Scale", "spec": {"replicas": 2}},
    "options": {"apiVersion": "meta.k8s.io/v1", "kind": "UpdateOptions"},
    "dryRun": true
  }
})";

std::string review_with_request(Json request) {
  return Json{{"apiVersion", "admission.k8s.io/v1"}, {"kind", "AdmissionReview"}, {"request", std::move(request)}}
      .dump();
}

std::string decode_error(std::string_view body) {
  try {
    (void)decode_admission_review_request(body);
  } catch (const ReviewError& e) {
    return e.what();
  }
  return "(decoded)";
}

std::string response_error(std::string_view body) {
  try {
    (void)decode_admission_review_response(body);
  } catch (const ReviewError& e) {
    return e.what();
  }
  return "(decoded)";
}

}  // namespace

TEST_CASE("an AdmissionReview request decodes every member the API server sends") {
  const AdmissionRequest request = decode_admission_review_request(update_review);
  CHECK(request.uid == "705ab4f5-6393-11e8-b7cc-42010a800002");
  CHECK(request.kind == rr::GroupVersionKind{"apps", "v1", "Deployment"});
  CHECK(request.resource == GroupVersionResource{"apps", "v1", "deployments"});
  CHECK(request.sub_resource == "scale");
  REQUIRE(request.request_kind);
  CHECK(*request.request_kind == rr::GroupVersionKind{"apps", "v1beta1", "Deployment"});
  REQUIRE(request.request_resource);
  CHECK(*request.request_resource == GroupVersionResource{"apps", "v1beta1", "deployments"});
  CHECK(request.request_sub_resource == "scale");
  CHECK(request.name == "my-deployment");
  CHECK(request.namespace_ == "my-namespace");
  CHECK(request.operation == Operation::Update);
  CHECK(request.user_info.username == "admin");
  CHECK(request.user_info.uid == "014fbff9a07c");
  CHECK(request.user_info.groups == std::vector<std::string>{"system:authenticated", "my-admin-group"});
  CHECK(request.user_info.extra.at("some-key") == std::vector<std::string>{"some-value1", "some-value2"});
  CHECK(request.object == Json::parse(R"({"apiVersion":"autoscaling/v1","kind":"Scale","spec":{"replicas":3}})"));
  CHECK(request.old_object["spec"]["replicas"] == 2);
  CHECK(request.dry_run);
  CHECK(request.options["kind"] == "UpdateOptions");
}

TEST_CASE("a CREATE has no oldObject and a DELETE no object: both read as null") {
  const AdmissionRequest create = decode_admission_review_request(review_with_request(
      {{"uid", "u1"}, {"operation", "CREATE"}, {"object", {{"kind", "Pod"}}}, {"oldObject", nullptr}}));
  CHECK(create.operation == Operation::Create);
  CHECK(create.old_object.is_null());
  CHECK_FALSE(create.request_kind);
  CHECK_FALSE(create.dry_run);
  const AdmissionRequest remove = decode_admission_review_request(
      review_with_request({{"uid", "u2"}, {"operation", "DELETE"}}));
  CHECK(remove.operation == Operation::Delete);
  CHECK(remove.object.is_null());
  CHECK(remove.options.is_null());
}

TEST_CASE("bad AdmissionReview requests are refused saying what and where") {
  CHECK(decode_error("{not json") == "AdmissionReview: the body is not valid JSON");
  CHECK(decode_error("[]") == "AdmissionReview: expected a JSON object, got array");
  CHECK(
      decode_error(R"({"apiVersion":"admission.k8s.io/v1beta1","kind":"AdmissionReview","request":{"uid":"u"}})") ==
      R"(AdmissionReview: expected apiVersion "admission.k8s.io/v1" and kind "AdmissionReview", got apiVersion "admission.k8s.io/v1beta1" and kind "AdmissionReview")");
  CHECK(
      decode_error(R"({"apiVersion":"admission.k8s.io/v1","kind":"ConversionReview"})") ==
      R"(AdmissionReview: expected apiVersion "admission.k8s.io/v1" and kind "AdmissionReview", got apiVersion "admission.k8s.io/v1" and kind "ConversionReview")");
  CHECK(decode_error(R"({"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview"})") ==
        "AdmissionReview: request is missing");
  CHECK(decode_error(review_with_request({{"operation", "CREATE"}})) == "AdmissionReview: request.uid is missing");
  CHECK(decode_error(review_with_request({{"uid", 7}})) ==
        "AdmissionReview: request.uid: expected a string, got number");
  CHECK(decode_error(review_with_request({{"uid", "u"}, {"operation", "PATCH"}})) ==
        R"(AdmissionReview: request.operation: "PATCH" is not one of CREATE, UPDATE, DELETE, CONNECT)");
  CHECK(decode_error(review_with_request({{"uid", "u"}, {"operation", "CREATE"}, {"object", "x"}})) ==
        "AdmissionReview: request.object: expected an object, got string");
  CHECK(decode_error(review_with_request(
            {{"uid", "u"}, {"operation", "CREATE"}, {"userInfo", {{"groups", Json::array({"a", 1})}}}})) ==
        "AdmissionReview: request.userInfo.groups[1]: expected a string, got number");
  CHECK(decode_error(
            review_with_request({{"uid", "u"}, {"operation", "CREATE"}, {"userInfo", {{"extra", {{"k", "v"}}}}}})) ==
        "AdmissionReview: request.userInfo.extra.k: expected an array of strings, got string");
  CHECK(decode_error(review_with_request({{"uid", "u"}, {"operation", "CREATE"}, {"dryRun", "yes"}})) ==
        "AdmissionReview: request.dryRun: expected a boolean, got string");
  CHECK(decode_error(review_with_request({{"uid", "u"}, {"operation", "CREATE"}, {"kind", {{"group", 1}}}})) ==
        "AdmissionReview: request.kind.group: expected a string, got number");
}

TEST_CASE("a response encodes its patch as base64 JSONPatch, status without kind, warnings and audit annotations") {
  AdmissionResponse response;
  response.uid = "705ab4f5";
  response.allowed = false;
  rr::Status status;
  status.message = "spec.replicas must be odd";
  status.reason = "Forbidden";
  status.code = 403;
  response.status = status;
  response.patch = Json::parse(R"([{"op":"add","path":"/metadata/labels","value":{"a":"b"}}])");
  response.warnings = {"deprecated field spec.x"};
  response.audit_annotations = {{"mutated", "true"}};
  const Json wire = Json::parse(encode_admission_review_response(response));
  const std::string patch_base64 =
      rr::Bytes::encode(R"([{"op":"add","path":"/metadata/labels","value":{"a":"b"}}])").str();
  CHECK(wire == Json::parse(R"({
    "apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview",
    "response": {
      "uid": "705ab4f5", "allowed": false,
      "status": {"metadata": {}, "message": "spec.replicas must be odd", "reason": "Forbidden", "code": 403},
      "patch": ")" + patch_base64 +
                            R"(", "patchType": "JSONPatch",
      "warnings": ["deprecated field spec.x"], "auditAnnotations": {"mutated": "true"}
    }})"));
  CHECK(decode_admission_review_response(wire.dump()) == response);
}

TEST_CASE("an allowed response without patch has neither patch nor patchType") {
  AdmissionResponse response;
  response.uid = "u";
  const Json wire = Json::parse(encode_admission_review_response(response));
  CHECK(wire["response"] == Json::parse(R"({"uid":"u","allowed":true})"));
}

TEST_CASE("a request survives encode and decode, as the local cluster sends it") {
  const AdmissionRequest request = decode_admission_review_request(update_review);
  CHECK(decode_admission_review_request(encode_admission_review_request(request)) == request);
  const Json wire = Json::parse(encode_admission_review_request(request));
  CHECK(wire["request"]["operation"] == "UPDATE");
  CHECK(wire["request"]["requestKind"]["version"] == "v1beta1");
}

TEST_CASE("bad AdmissionReview responses are refused as the API server refuses them") {
  const auto with = [](Json response) {
    return Json{{"apiVersion", "admission.k8s.io/v1"}, {"kind", "AdmissionReview"}, {"response", std::move(response)}}
        .dump();
  };
  CHECK(response_error(R"({"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview"})") ==
        "AdmissionReview: response is missing");
  CHECK(response_error(with({{"allowed", true}})) == "AdmissionReview: response.uid is missing");
  CHECK(response_error(with({{"uid", "u"}, {"allowed", true}, {"patch", "W10="}})) ==
        "AdmissionReview: response.patch: present without patchType");
  CHECK(response_error(with({{"uid", "u"}, {"allowed", true}, {"patch", "W10="}, {"patchType", "Merge"}})) ==
        R"(AdmissionReview: response.patchType: "Merge" is not JSONPatch)");
  CHECK(response_error(with({{"uid", "u"}, {"allowed", true}, {"patch", "%%%"}, {"patchType", "JSONPatch"}})) ==
        "AdmissionReview: response.patch: not valid base64");
  CHECK(response_error(with(
            {{"uid", "u"}, {"allowed", true}, {"patch", rr::Bytes::encode("{}").str()}, {"patchType", "JSONPatch"}})) ==
        "AdmissionReview: response.patch: not a JSON array of patch operations");
  CHECK(decode_admission_review_response(
            with({{"uid", "u"}, {"allowed", true}, {"patch", "W10="}, {"patchType", "JSONPatch"}}))
            .patch == Json::array());
}

TEST_CASE("operation names are the API server's") {
  CHECK(operation_name(Operation::Create) == "CREATE");
  CHECK(operation_name(Operation::Update) == "UPDATE");
  CHECK(operation_name(Operation::Delete) == "DELETE");
  CHECK(operation_name(Operation::Connect) == "CONNECT");
}
