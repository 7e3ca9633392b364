#include "authorization.hpp"

#include <algorithm>
#include <cctype>

#include "rr/client/quote.hpp"
#include "rr/cluster/cluster.hpp"

namespace rr::apiserver_detail {

namespace {


std::string lowercase(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

std::string last_value(const QueryParams& query, const std::string& key) {
  auto [first, last] = query.equal_range(key);
  return first == last ? std::string() : std::prev(last)->second;
}

// The one object a list or watch names by fieldSelector=metadata.name=<x> (as RequestInfo reads it).
std::string field_selected_name(const std::string& selector) {
  for (std::string_view prefix : {"metadata.name=", "metadata.name=="}) {
    if (selector.compare(0, prefix.size(), prefix) == 0) {
      const std::string name = selector.substr(prefix.size());
      if (name.find(',') == std::string::npos && name.find('=') == std::string::npos) return name;
    }
  }
  return {};
}

void require_allowed(const Authorizer& authorizer, const RequestAttributes& request) {
  const Decision decision = authorizer.authorize(request);
  if (!decision.allowed) throw ApiError(forbidden_status(request, decision.reason));
}

}  // namespace

Authorizer::Authorizer(std::shared_ptr<Cluster> cluster, AuthorizationMode mode)
    : mode_(mode), cache_(std::move(cluster)) {}

std::shared_ptr<const RbacView> Authorizer::objects(const std::string& namespace_) const {
  return cache_.objects(namespace_);
}

Decision Authorizer::authorize(const RequestAttributes& request) const {
  // The privileged-group authorizer runs before RBAC and gives no reason.
  const auto& groups = request.user.groups;
  if (mode_ == AuthorizationMode::AlwaysAllow ||
      std::find(groups.begin(), groups.end(), masters_group) != groups.end()) {
    return Decision{true, {}};
  }
  return rbac_authorize(objects(request.namespace_)->compiled, request);
}

RulesReview Authorizer::rules_for(const UserInfo& user, const std::string& namespace_) const {
  RulesReview out;
  if (mode_ == AuthorizationMode::AlwaysAllow) {
    out.resource_rules.push_back(PolicyRule{.verbs = {"*"}, .api_groups = {"*"}, .resources = {"*"}});
    out.non_resource_rules.push_back(PolicyRule{.verbs = {"*"}, .non_resource_urls = {"*"}});
    return out;
  }
  const GrantedRules granted = apiserver_detail::rules_for(objects(namespace_)->compiled, user);
  for (const auto& [rule, source] : granted.rules) {
    if (!rule.resources.empty()) {
      out.resource_rules.push_back(PolicyRule{.verbs = rule.verbs,
                                              .api_groups = rule.api_groups,
                                              .resources = rule.resources,
                                              .resource_names = rule.resource_names});
    }
    if (!rule.non_resource_urls.empty()) {
      out.non_resource_rules.push_back(PolicyRule{.verbs = rule.verbs, .non_resource_urls = rule.non_resource_urls});
    }
  }
  if (!granted.errors.empty()) out.evaluation_error = aggregate_errors(granted.errors);
  return out;
}

GrantedRules Authorizer::granted_rules(const UserInfo& user, const std::string& namespace_) const {
  return apiserver_detail::rules_for(objects(namespace_)->compiled, user);
}

RoleRules Authorizer::role_reference_rules(const Json& role_ref, const std::string& namespace_) const {
  return apiserver_detail::role_reference_rules(objects(namespace_)->objects, role_ref, namespace_);
}

RequestAttributes request_attributes(const std::string& method, const std::string& path, const Route& route,
                                     const QueryParams& query) {
  RequestAttributes out;
  if (route.endpoint != Endpoint::Resource) {
    out.resource_request = false;
    out.verb = lowercase(method);
    out.path = path;
    return out;
  }
  out.group = route.group;
  out.resource = route.resource;
  out.subresource = route.subresource;
  out.name = route.name;
  out.namespace_ = route.namespace_;
  if (route.resource == "namespaces" && route.group.empty() && !route.name.empty()) out.namespace_ = route.name;
  const bool collection = route.name.empty();
  const bool watch = parse_go_bool(last_value(query, "watch")).value_or(false);
  if (method == "GET") {
    out.verb = watch ? "watch" : collection ? "list" : "get";
  } else if (method == "POST") {
    out.verb = "create";
  } else if (method == "PUT") {
    out.verb = "update";
  } else if (method == "PATCH") {
    out.verb = "patch";
  } else if (method == "DELETE") {
    out.verb = collection ? "deletecollection" : "delete";
  } else {
    out.verb = lowercase(method);
  }
  if (collection && (out.verb == "list" || out.verb == "watch")) {
    out.name = field_selected_name(last_value(query, "fieldSelector"));
  }
  return out;
}

Status forbidden_status(const RequestAttributes& request, const std::string& reason) {
  std::string message;
  const std::string user = go_quote(request.user.name);
  if (!request.resource_request) {
    message = "User " + user + " cannot " + request.verb + " path " + go_quote(request.path);
  } else {
    const std::string resource = request.subresource.empty() ? request.resource
                                                             : request.resource + "/" + request.subresource;
    message = "User " + user + " cannot " + request.verb + " resource " + go_quote(resource) + " in API group " +
              go_quote(request.group) +
              (request.namespace_.empty() ? " at the cluster scope"
                                          : " in the namespace " + go_quote(request.namespace_));
  }
  if (!reason.empty()) message += ": " + reason;
  if (!request.resource_request) return api_errors::forbidden("", "", "", message);
  return api_errors::forbidden(request.resource, request.group, request.name, message);
}

UserInfo acting_user(const Authorizer& authorizer, const UserInfo& real, const Impersonation& as) {
  const std::string& as_user = as.user;
  const std::vector<std::string>& as_groups = as.groups;
  if (as_user.empty()) {
    if (!as_groups.empty() || !as.uid.empty() || !as.extra.empty()) {
      throw ApiError(api_errors::bad_request("requested impersonation of groups, a uid or extra fields without "
                                             "impersonating a user"));
    }
    return real;
  }
  auto check = [&](const std::string& resource, const std::string& namespace_, const std::string& name,
                   const std::string& group = {}, const std::string& subresource = {}) {
    require_allowed(authorizer, RequestAttributes{.user = real,
                                                  .verb = "impersonate",
                                                  .group = group,
                                                  .resource = resource,
                                                  .subresource = subresource,
                                                  .namespace_ = namespace_,
                                                  .name = name});
  };
  UserInfo acting{.name = as_user, .groups = as_groups, .uid = as.uid, .extra = as.extra};
  constexpr std::string_view sa_prefix = "system:serviceaccount:";
  const std::size_t colon = as_user.rfind(':');
  if (as_user.compare(0, sa_prefix.size(), sa_prefix) == 0 && colon > sa_prefix.size()) {
    const std::string ns = as_user.substr(sa_prefix.size(), colon - sa_prefix.size());
    check("serviceaccounts", ns, as_user.substr(colon + 1));
    if (as_groups.empty()) acting.groups = {"system:serviceaccounts", "system:serviceaccounts:" + ns};
  } else {
    check("users", "", as_user);
  }
  for (const auto& group : as_groups) check("groups", "", group);
  if (!as.uid.empty()) check("uids", "", as.uid, "authentication.k8s.io");
  for (const auto& [key, values] : as.extra) {
    for (const auto& value : values) check("userextras", "", value, "authentication.k8s.io", key);
  }
  if (as_user != anonymous_user) {
    const bool named = std::any_of(acting.groups.begin(), acting.groups.end(), [](const std::string& g) {
      return g == authenticated_group || g == unauthenticated_group;
    });
    if (!named) acting.groups.emplace_back(authenticated_group);
  } else if (std::find(acting.groups.begin(), acting.groups.end(), unauthenticated_group) == acting.groups.end()) {
    acting.groups.emplace_back(unauthenticated_group);
  }
  return acting;
}

}  // namespace rr::apiserver_detail
