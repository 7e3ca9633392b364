#include "access_reviews.hpp"

#include "json_members.hpp"

namespace rr::apiserver_detail {

namespace {

[[noreturn]] void invalid(const ReviewResource& resource, const std::string& field, const std::string& detail) {
  throw ApiError(api_errors::invalid(
      resource.kind, resource.group, "",
      {StatusCause{.type = "FieldValueInvalid", .message = field + ": Invalid value: " + detail, .field = field}}));
}

// An access review's spec as the attributes it asks about (ResourceAttributes or
// NonResourceAttributes: exactly one).
RequestAttributes asked_attributes(const ReviewResource& resource, const Json& spec) {
  const bool has_resource = spec.contains("resourceAttributes") && spec["resourceAttributes"].is_object();
  const bool has_non_resource = spec.contains("nonResourceAttributes") && spec["nonResourceAttributes"].is_object();
  if (has_resource == has_non_resource) {
    invalid(resource, "spec.resourceAttributes",
            "exactly one of nonResourceAttributes or resourceAttributes must be specified");
  }
  RequestAttributes out;
  if (has_non_resource) {
    const Json& attributes = spec["nonResourceAttributes"];
    out.resource_request = false;
    out.verb = member_string(attributes, "verb");
    out.path = member_string(attributes, "path");
    return out;
  }
  const Json& attributes = spec["resourceAttributes"];
  out.verb = member_string(attributes, "verb");
  out.group = member_string(attributes, "group");
  out.resource = member_string(attributes, "resource");
  out.subresource = member_string(attributes, "subresource");
  out.namespace_ = member_string(attributes, "namespace");
  out.name = member_string(attributes, "name");
  return out;
}

Json access_status(const Decision& decision) {
  Json status = {{"allowed", decision.allowed}};
  if (!decision.reason.empty()) status["reason"] = decision.reason;
  return status;
}

Json rules_status(const RulesReview& rules) {
  Json resource_rules = Json::array();
  for (const auto& rule : rules.resource_rules) resource_rules.push_back(to_json(rule));
  Json non_resource_rules = Json::array();
  for (const auto& rule : rules.non_resource_rules) non_resource_rules.push_back(to_json(rule));
  Json status = {{"resourceRules", resource_rules}, {"nonResourceRules", non_resource_rules}, {"incomplete", false}};
  if (!rules.evaluation_error.empty()) status["evaluationError"] = rules.evaluation_error;
  return status;
}

}  // namespace

const std::vector<ReviewResource>& review_resources() {
  static const std::vector<ReviewResource> table = {
      {"authentication.k8s.io", "v1", "selfsubjectreviews", "SelfSubjectReview", false},
      {"authentication.k8s.io", "v1", "tokenreviews", "TokenReview", false},  // token_review.cpp answers it
      {"authorization.k8s.io", "v1", "localsubjectaccessreviews", "LocalSubjectAccessReview", true},
      {"authorization.k8s.io", "v1", "selfsubjectaccessreviews", "SelfSubjectAccessReview", false},
      {"authorization.k8s.io", "v1", "selfsubjectrulesreviews", "SelfSubjectRulesReview", false},
      {"authorization.k8s.io", "v1", "subjectaccessreviews", "SubjectAccessReview", false},
  };
  return table;
}

const ReviewResource* find_review_resource(const std::string& group, const std::string& version,
                                           const std::string& plural) {
  for (const auto& resource : review_resources()) {
    if (resource.group == group && resource.version == version && resource.plural == plural) return &resource;
  }
  return nullptr;
}

Json answer_review(const ReviewResource& resource, const Json& body, const UserInfo& requester,
                   const Authorizer& authorizer, const std::string& path_namespace) {
  if (!body.is_object()) throw ApiError(api_errors::bad_request("the request body is not a " + resource.kind));
  Json out = body;
  out["apiVersion"] = resource.group + "/" + resource.version;
  out["kind"] = resource.kind;
  if (!out.contains("metadata") || !out["metadata"].is_object()) out["metadata"] = Json::object();
  if (!out.contains("spec") || !out["spec"].is_object()) out["spec"] = Json::object();
  const Json& spec = out["spec"];

  if (resource.kind == "SelfSubjectReview") {
    Json user_info = {{"username", requester.name}, {"groups", requester.groups}};
    if (!requester.uid.empty()) user_info["uid"] = requester.uid;
    if (!requester.extra.empty()) user_info["extra"] = requester.extra;
    out["status"] = {{"userInfo", user_info}};
  } else if (resource.kind == "SelfSubjectRulesReview") {
    out["status"] = rules_status(authorizer.rules_for(requester, member_string(spec, "namespace")));
  } else if (resource.kind == "SelfSubjectAccessReview") {
    RequestAttributes asked = asked_attributes(resource, spec);
    asked.user = requester;
    out["status"] = access_status(authorizer.authorize(asked));
  } else {  // SubjectAccessReview, LocalSubjectAccessReview: the spec names the user
    RequestAttributes asked = asked_attributes(resource, spec);
    asked.user = UserInfo{member_string(spec, "user"), member_strings(spec, "groups")};
    if (asked.user.name.empty() && asked.user.groups.empty()) {
      invalid(resource, "spec.user", "\"\": at least one of user or group must be specified");
    }
    if (resource.namespaced) {
      if (!asked.resource_request) {
        invalid(resource, "spec.nonResourceAttributes", "disallowed on this kind of request");
      }
      if (asked.namespace_ != path_namespace) {
        invalid(resource, "spec.resourceAttributes.namespace",
                "\"" + asked.namespace_ + "\": must match metadata.namespace");
      }
      out["metadata"]["namespace"] = path_namespace;
    }
    out["status"] = access_status(authorizer.authorize(asked));
  }
  return out;
}

}  // namespace rr::apiserver_detail
