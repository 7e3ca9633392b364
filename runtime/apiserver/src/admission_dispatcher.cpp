#include "admission_dispatcher.hpp"

#include <algorithm>
#include <set>

#include "rr/cel/program.hpp"
#include "rr/client/patch.hpp"
#include "rr/webhook/admission_review.hpp"

namespace rr::apiserver_detail {

namespace {

const GroupVersionKind namespace_gvk{"", "v1", "Namespace"};

std::string_view operation_text(AdmissionOperation op) {
  switch (op) {
    case AdmissionOperation::Create: return "CREATE";
    case AdmissionOperation::Update: return "UPDATE";
    case AdmissionOperation::Delete: return "DELETE";
  }
  return "";
}

webhook::Operation operation_of(AdmissionOperation op) {
  switch (op) {
    case AdmissionOperation::Create: return webhook::Operation::Create;
    case AdmissionOperation::Update: return webhook::Operation::Update;
    case AdmissionOperation::Delete: return webhook::Operation::Delete;
  }
  return webhook::Operation::Create;
}

bool listed(const std::vector<std::string>& values, std::string_view value) {
  return std::any_of(values.begin(), values.end(), [&](const std::string& v) { return v == "*" || v == value; });
}

// rules.Matcher: operation, group, version (any with matchPolicy Equivalent), resource and
// subresource ("*", "*/*", "pods/*", "*/status"), scope.
bool rule_matches(const WebhookRule& rule, const AdmissionAttributes& a, bool exact) {
  const KindInfo& kind = a.kind;
  if (!listed(rule.operations, operation_text(a.operation))) return false;
  if (!listed(rule.api_groups, kind.gvk.group)) return false;
  if (exact && !listed(rule.api_versions, kind.gvk.version)) return false;
  if (rule.scope == "Cluster" && kind.namespaced()) return false;
  if (rule.scope == "Namespaced" && !kind.namespaced()) return false;
  return std::any_of(rule.resources.begin(), rule.resources.end(), [&](const std::string& written) {
    const std::size_t slash = written.find('/');
    const std::string resource = written.substr(0, slash);
    const std::string sub = slash == std::string::npos ? "" : written.substr(slash + 1);
    return (resource == "*" || resource == kind.plural) && (sub == "*" || sub == a.subresource);
  });
}

std::map<std::string, std::string> labels_of(const Json* object) {
  if (!object || !object->is_object()) return {};
  const Json labels = object->value("/metadata/labels"_json_pointer, Json::object());
  std::map<std::string, std::string> out;
  for (const auto& [k, v] : labels.items()) {
    if (v.is_string()) out[k] = v.get<std::string>();
  }
  return out;
}

// namespace.Matcher: cluster-scoped objects other than namespaces always match; a Namespace is
// matched by its own labels.
bool namespace_matches(const AdmissionWebhook& hook, const AdmissionAttributes& a) {
  if (hook.namespace_selector.empty()) return true;
  if (a.kind.gvk == namespace_gvk)
    return hook.namespace_selector.matches(labels_of(a.object ? a.object : a.old_object));
  if (a.namespace_.empty()) return true;
  return hook.namespace_selector.matches(labels_of(a.store->find(namespace_gvk, ObjectKey{"", a.namespace_})));
}

// object.Matcher: the object's labels or the old object's.
bool object_matches(const AdmissionWebhook& hook, const AdmissionAttributes& a) {
  if (hook.object_selector.empty()) return true;
  auto matches = [&](const Json* object) { return object && hook.object_selector.matches(labels_of(object)); };
  return matches(a.object) || matches(a.old_object);
}

Json user_json(const RequestUser* user) {
  Json out = Json::object();
  if (!user) return out;
  out["username"] = user->name;
  if (!user->uid.empty()) out["uid"] = user->uid;
  if (!user->groups.empty()) out["groups"] = user->groups;
  if (!user->extra.empty()) out["extra"] = user->extra;
  return out;
}

webhook::GroupVersionResource resource_of(const KindInfo& kind) {
  return webhook::GroupVersionResource{kind.gvk.group, kind.gvk.version, kind.plural};
}

// The `request` variable of matchConditions: the AdmissionRequest as the webhook would get it.
Json request_variable(const AdmissionAttributes& a) {
  Json request{
      {"kind", {{"group", a.kind.gvk.group}, {"version", a.kind.gvk.version}, {"kind", a.kind.gvk.kind}}},
      {"resource", {{"group", a.kind.gvk.group}, {"version", a.kind.gvk.version}, {"resource", a.kind.plural}}},
      {"subResource", a.subresource},
      {"name", a.name},
      {"namespace", a.namespace_},
      {"operation", operation_text(a.operation)},
      {"userInfo", user_json(a.user)},
      {"dryRun", a.dry_run}};
  request["requestKind"] = request["kind"];
  request["requestResource"] = request["resource"];
  request["requestSubResource"] = a.subresource;
  return request;
}

std::string group_resource(const KindInfo& kind) {
  return kind.gvk.group.empty() ? kind.plural : kind.plural + "." + kind.gvk.group;
}

Status forbidden_for(const AdmissionAttributes& a, const std::string& text) {
  return api_errors::forbidden(a.kind.plural, a.kind.gvk.group, a.name, text);
}

// webhookerrors.ToStatusErr: a refusal as the client sees it.
Status denied(const AdmissionWebhook& hook, const AdmissionAttributes& a, std::optional<Status> result) {
  Status s = result ? std::move(*result) : Status{};
  if (s.code == 0) s.code = 403;
  const std::string denied_by = "admission webhook \"" + hook.name + "\" denied the request";
  std::string message = !s.message.empty()  ? denied_by + ": " + s.message
                        : !s.reason.empty() ? denied_by + ": " + s.reason
                                            : denied_by + " without explanation";
  const std::string name = a.name.empty() ? "Unknown" : a.name;
  const bool internal = s.code == 500;
  if (s.details_name.empty() && s.details_kind.empty() && s.causes.empty()) {
    if (internal) {
      s.causes.push_back(StatusCause{.type = "", .message = message, .field = ""});
    } else {
      s.details_group = a.kind.gvk.group;
      s.details_kind = a.kind.plural;
      s.details_name = name;
    }
  }
  s.message = (internal ? std::string("Internal error occurred")
                        : group_resource(a.kind) + " \"" + name + "\" is forbidden") +
              ": " + message;
  if (s.reason.empty()) s.reason = internal ? "InternalError" : "Forbidden";
  return s;
}

// A call that failed (ErrCallingWebhook) under failurePolicy Fail: 500 InternalError.
Status call_failed(const AdmissionWebhook& hook, const std::string& why) {
  return api_errors::internal_error("failed calling webhook \"" + hook.name + "\": " + why);
}

struct CallFailure {
  std::string why;
};

}  // namespace

std::vector<std::shared_ptr<const AdmissionWebhook>> AdmissionDispatcher::webhooks(const StoreReader& store,
                                                                                   bool mutating) {
  const auto& gvk = mutating ? mutating_webhook_configuration_gvk : validating_webhook_configuration_gvk;
  const std::string prefix = mutating ? "m/" : "v/";
  std::vector<std::shared_ptr<const AdmissionWebhook>> out;
  std::set<std::string> seen;
  for (const Json* configuration : store.all(gvk)) {  // sorted by name
    const std::string key = prefix + configuration->value("/metadata/name"_json_pointer, std::string());
    const std::string rv = configuration->value("/metadata/resourceVersion"_json_pointer, std::string());
    seen.insert(key);
    Compiled& compiled = cache_[key];
    if (compiled.resource_version != rv || rv.empty()) {
      compiled.resource_version = rv;
      compiled.webhooks.clear();
      try {
        for (auto& hook : webhooks_of(*configuration, mutating)) {
          compiled.webhooks.push_back(std::make_shared<const AdmissionWebhook>(std::move(hook)));
        }
      } catch (const std::exception&) {
        compiled.webhooks.clear();  // a configuration admission would have refused (seeded)
      }
    }
    out.insert(out.end(), compiled.webhooks.begin(), compiled.webhooks.end());
  }
  std::erase_if(cache_, [&](const auto& entry) {
    return entry.first.compare(0, prefix.size(), prefix) == 0 && !seen.contains(entry.first);
  });
  return out;
}

bool AdmissionDispatcher::mutates(const StoreReader& store) {
  return !store.all(mutating_webhook_configuration_gvk).empty();
}

bool AdmissionDispatcher::should_call(const AdmissionWebhook& hook, const AdmissionAttributes& a) const {
  const bool rule = std::any_of(hook.rules.begin(), hook.rules.end(),
                                [&](const WebhookRule& r) { return rule_matches(r, a, hook.exact_match); });
  if (!rule || !namespace_matches(hook, a) || !object_matches(hook, a)) return false;
  if (hook.match_conditions.empty()) return true;
  cel::Activation vars;
  vars.set_json("object", a.object ? *a.object : Json());
  vars.set_json("oldObject", a.old_object ? *a.old_object : Json());
  vars.set_json("request", request_variable(a));
  std::vector<std::string> errors;
  for (const auto& condition : hook.match_conditions) {
    if (!condition.program) {
      errors.push_back("matchCondition '" + condition.name + "' did not compile");
      continue;
    }
    const cel::Value result = condition.program->evaluate(vars);
    if (result.is_error()) {
      errors.push_back(result.error_message());
    } else if (result.kind() != cel::Kind::Bool) {
      errors.push_back("matchCondition '" + condition.name + "' must evaluate to bool");
    } else if (!result.as_bool()) {
      return false;  // any false condition skips the webhook, errors or not
    }
  }
  if (errors.empty()) return true;
  if (!hook.fail_closed) return false;
  std::string text = errors.size() == 1 ? errors.front() : "[";
  if (errors.size() > 1) {
    for (std::size_t i = 0; i < errors.size(); ++i) text += (i ? ", " : "") + errors[i];
    text += "]";
  }
  throw ApiError(forbidden_for(a, text));
}

bool AdmissionDispatcher::call(const AdmissionWebhook& hook, const AdmissionAttributes& a, bool mutating) {
  if (a.dry_run && hook.side_effects != "None" && hook.side_effects != "NoneOnDryRun") {
    throw ApiError(api_errors::bad_request("admission webhook \"" + hook.name + "\" does not support dry run"));
  }
  webhook::AdmissionRequest request;
  request.uid = "rrgen-admission-" + std::to_string(++next_uid_);
  request.kind = a.kind.gvk;
  request.resource = resource_of(a.kind);
  request.sub_resource = a.subresource;
  request.request_kind = a.kind.gvk;
  request.request_resource = resource_of(a.kind);
  request.request_sub_resource = a.subresource;
  request.name = a.name;
  request.namespace_ = a.namespace_;
  request.operation = operation_of(a.operation);
  if (a.user) request.user_info = webhook::UserInfo{a.user->name, a.user->uid, a.user->groups, a.user->extra};
  if (a.object) request.object = *a.object;
  if (a.old_object) request.old_object = *a.old_object;
  request.dry_run = a.dry_run;
  const char* options_kind = a.operation == AdmissionOperation::Create   ? "CreateOptions"
                             : a.operation == AdmissionOperation::Update ? "UpdateOptions"
                                                                         : "DeleteOptions";
  request.options = Json{{"kind", options_kind}, {"apiVersion", "meta.k8s.io/v1"}};

  webhook::AdmissionResponse response;
  try {
    // Resolved under the lock (a service is read from the store), called without it.
    const WebhookEndpoint endpoint = resolve_webhook(hook.client, *a.store,
                                                     "timeout=" + std::to_string(hook.timeout_seconds) + "s");
    const std::string review = webhook::encode_admission_review_request(request);
    std::string body;
    a.unlocked([&] { body = post_webhook(endpoint, review, std::chrono::seconds(hook.timeout_seconds)); });
    try {
      response = webhook::decode_admission_review_response(body);
    } catch (const std::exception& e) {
      throw CallFailure{std::string("received invalid webhook response: ") + e.what()};
    }
    if (response.uid != request.uid) {
      throw CallFailure{"received invalid webhook response: expected response.uid=\"" + request.uid + "\", got \"" +
                        response.uid + "\""};
    }
    if (!mutating && !response.patch.is_null()) {
      throw CallFailure{"received invalid webhook response: validating webhooks may not return patches"};
    }
  } catch (const WebhookCallError& e) {
    if (!hook.fail_closed) return false;
    throw ApiError(call_failed(hook, std::string("failed to call webhook: ") + e.what()));
  } catch (const CallFailure& failure) {
    if (!hook.fail_closed) return false;
    throw ApiError(call_failed(hook, failure.why));
  }
  if (a.warnings) {
    for (auto& w : response.warnings) a.warnings->push_back(std::move(w));
  }
  if (!response.allowed) throw ApiError(denied(hook, a, std::move(response.status)));
  if (!mutating || response.patch.is_null() || response.patch.empty()) return false;
  if (!a.object) {
    throw ApiError(
        api_errors::internal_error("admission webhook \"" + hook.name +
                                   "\" attempted to modify the object, which is not supported for this operation"));
  }
  Json patched;
  try {
    patched = apply_json_patch(*a.object, response.patch);
  } catch (const std::exception& e) {
    throw ApiError(api_errors::internal_error(e.what()));
  }
  if (patched == *a.object) return false;
  *a.object = std::move(patched);
  return true;
}

void AdmissionDispatcher::mutate(const AdmissionAttributes& a) {
  const auto hooks = webhooks(*a.store, true);
  std::set<std::string> invoked_reinvocable, reinvoke;
  bool changed_any = false;
  for (const auto& hook : hooks) {
    if (!should_call(*hook, a)) continue;
    if (call(*hook, a, true)) {
      // A change: every IfNeeded webhook that ran before it sees the object again.
      reinvoke.insert(invoked_reinvocable.begin(), invoked_reinvocable.end());
      changed_any = true;
    }
    if (hook->reinvoke_if_needed) invoked_reinvocable.insert(hook->uid);
  }
  if (!changed_any || reinvoke.empty()) return;
  for (const auto& hook : hooks) {
    if (reinvoke.contains(hook->uid) && should_call(*hook, a)) call(*hook, a, true);
  }
}

void AdmissionDispatcher::validate(const AdmissionAttributes& a) {
  for (const auto& hook : webhooks(*a.store, false)) {
    if (should_call(*hook, a)) call(*hook, a, false);
  }
}

}  // namespace rr::apiserver_detail
