#include "admission_dispatcher.hpp"

#include <algorithm>
#include <set>

#include "crd_conversion.hpp"
#include "rr/admission_policy/request_attributes.hpp"
#include "rr/cel/program.hpp"
#include "rr/client/patch.hpp"
#include "rr/webhook/admission_review.hpp"

namespace rr::apiserver_detail {

namespace {

using admission_policy::labels_of;
using admission_policy::operation_text;
using admission_policy::user_json;

const GroupVersionKind namespace_gvk{"", "v1", "Namespace"};


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

// rules.Matcher: operation, group, version (any when `version` is null), resource and
// subresource ("*", "*/*", "pods/*", "*/status"), scope.
bool rule_matches(const WebhookRule& rule, const AdmissionAttributes& a, const std::string* version) {
  const KindInfo& kind = a.kind;
  if (!listed(rule.operations, operation_text(a.operation))) return false;
  if (!listed(rule.api_groups, kind.gvk.group)) return false;
  if (version && !listed(rule.api_versions, *version)) return false;
  if (rule.scope == "Cluster" && kind.namespaced()) return false;
  if (rule.scope == "Namespaced" && !kind.namespaced()) return false;
  return std::any_of(rule.resources.begin(), rule.resources.end(), [&](const std::string& written) {
    const std::size_t slash = written.find('/');
    const std::string resource = written.substr(0, slash);
    const std::string sub = slash == std::string::npos ? "" : written.substr(slash + 1);
    return (resource == "*" || resource == kind.plural) && (sub == "*" || sub == a.subresource);
  });
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

webhook::GroupVersionResource resource_of(const KindInfo& kind, const std::string& version) {
  return webhook::GroupVersionResource{kind.gvk.group, version, kind.plural};
}

GroupVersionKind in_version(const KindInfo& kind, const std::string& version) {
  return GroupVersionKind{kind.gvk.group, version, kind.gvk.kind};
}

Json kind_json(const GroupVersionKind& gvk) {
  return Json{{"group", gvk.group}, {"version", gvk.version}, {"kind", gvk.kind}};
}

Json resource_json(const webhook::GroupVersionResource& r) {
  return Json{{"group", r.group}, {"version", r.version}, {"resource", r.resource}};
}

// The `request` variable of matchConditions: the AdmissionRequest as the webhook would get it.
Json request_variable(const AdmissionAttributes& a, const std::string& version, const std::string& requested) {
  return Json{{"kind", kind_json(in_version(a.kind, version))},
              {"resource", resource_json(resource_of(a.kind, version))},
              {"subResource", a.subresource},
              {"requestKind", kind_json(in_version(a.kind, requested))},
              {"requestResource", resource_json(resource_of(a.kind, requested))},
              {"requestSubResource", a.subresource},
              {"name", a.name},
              {"namespace", a.namespace_},
              {"operation", operation_text(a.operation)},
              {"userInfo", user_json(a.user)},
              {"dryRun", a.dry_run}};
}

const GroupVersionKind crd_gvk{"apiextensions.k8s.io", "v1", "CustomResourceDefinition"};

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

namespace {
thread_local bool webhooks_off = false;
}  // namespace

WebhooksOffScope::WebhooksOffScope() : previous_(webhooks_off) { webhooks_off = true; }
WebhooksOffScope::~WebhooksOffScope() { webhooks_off = previous_; }
bool WebhooksOffScope::active() { return webhooks_off; }

bool AdmissionDispatcher::mutates(const StoreReader& store) {
  return !webhooks_off && !store.all(mutating_webhook_configuration_gvk).empty();
}

AdmissionDispatcher::Target AdmissionDispatcher::target_of(const AdmissionAttributes& a) const {
  Target t;
  t.version = t.requested = a.kind.gvk.version;
  if (a.kind.gvk.group.empty()) return t;
  const Json* crd = a.store->find(crd_gvk, ObjectKey{"", a.kind.plural + "." + a.kind.gvk.group});
  if (!crd) return t;
  t.crd = *crd;
  for (const Json& v : t.crd->value("/spec/versions"_json_pointer, Json::array())) {
    if (v.value("served", true)) t.served.push_back(v.value("name", ""));
  }
  // A request the conversion handler makes in the storage version names its own version.
  if (const std::string* requested = RequestedVersionScope::current();
      requested && std::find(t.served.begin(), t.served.end(), *requested) != t.served.end()) {
    t.requested = *requested;
  }
  return t;
}

std::optional<std::string> AdmissionDispatcher::call_version(const AdmissionWebhook& hook, const AdmissionAttributes& a,
                                                             const Target& t) const {
  for (const auto& rule : hook.rules) {
    if (rule_matches(rule, a, &t.requested)) return t.requested;
  }
  if (hook.exact_match) return std::nullopt;
  // matchPolicy Equivalent: the resource in another version the rule names, converted to it.
  for (const auto& rule : hook.rules) {
    if (!rule_matches(rule, a, nullptr)) continue;
    if (t.served.empty()) return t.version;  // a built-in kind: sent in its own version (no conversion)
    for (const auto& version : rule.api_versions) {
      if (version == "*") return t.requested;
      if (std::find(t.served.begin(), t.served.end(), version) != t.served.end()) return version;
    }
  }
  return std::nullopt;
}

AdmissionDispatcher::Versioned AdmissionDispatcher::versioned(const AdmissionAttributes& a, const Target& t,
                                                              const std::string& version) const {
  Versioned v{version, a.object ? *a.object : Json(), a.old_object ? *a.old_object : Json()};
  if (version == t.version || !t.crd) return v;
  auto conversion = crd_conversion(*t.crd);
  if (!conversion) return v;
  std::vector<Json> objects;
  if (a.object) objects.push_back(v.object);
  if (a.old_object) objects.push_back(v.old_object);
  objects = convert(*conversion, std::move(objects), a, a.kind.gvk.group + "/" + version);
  std::size_t next = 0;
  if (a.object) v.object = std::move(objects[next++]);
  if (a.old_object) v.old_object = std::move(objects[next]);
  return v;
}

std::vector<Json> AdmissionDispatcher::convert(const CrdConversion& conversion, std::vector<Json> objects,
                                               const AdmissionAttributes& a, const std::string& api_version) const {
  ConversionPost post;
  std::optional<WebhookEndpoint> endpoint;
  if (conversion.webhook) {
    try {
      endpoint = resolve_webhook(*conversion.webhook, *a.store, "");  // under the lock
    } catch (const WebhookCallError& e) {
      throw ApiError(api_errors::internal_error("conversion webhook for " + api_version + " failed: " + e.what()));
    }
    post = [&](const std::string& review) {
      std::string body;
      a.unlocked([&] { body = post_webhook(*endpoint, review, std::chrono::seconds(30)); });
      return body;
    };
  }
  return convert_objects(conversion, std::move(objects), api_version, post);
}

bool AdmissionDispatcher::selected(const AdmissionWebhook& hook, const AdmissionAttributes& a) const {
  return namespace_matches(hook, a) && object_matches(hook, a);
}

bool AdmissionDispatcher::conditions_match(const AdmissionWebhook& hook, const AdmissionAttributes& a, const Target& t,
                                           const Versioned& v) const {
  if (hook.match_conditions.empty()) return true;
  cel::Activation vars;
  vars.set_json("object", v.object);
  vars.set_json("oldObject", v.old_object);
  vars.set_json("request", request_variable(a, v.version, t.requested));
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

bool AdmissionDispatcher::call(const AdmissionWebhook& hook, const AdmissionAttributes& a, const Target& t,
                               const Versioned& v, bool mutating) {
  if (a.dry_run && hook.side_effects != "None" && hook.side_effects != "NoneOnDryRun") {
    throw ApiError(api_errors::bad_request("admission webhook \"" + hook.name + "\" does not support dry run"));
  }
  webhook::AdmissionRequest request;
  request.uid = "rrgen-admission-" + std::to_string(++next_uid_);
  request.kind = in_version(a.kind, v.version);
  request.resource = resource_of(a.kind, v.version);
  request.sub_resource = a.subresource;
  request.request_kind = in_version(a.kind, t.requested);
  request.request_resource = resource_of(a.kind, t.requested);
  request.request_sub_resource = a.subresource;
  request.name = a.name;
  request.namespace_ = a.namespace_;
  request.operation = operation_of(a.operation);
  if (a.user) request.user_info = webhook::UserInfo{a.user->name, a.user->uid, a.user->groups, a.user->extra};
  if (a.object) request.object = v.object;
  if (a.old_object) request.old_object = v.old_object;
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
    patched = apply_json_patch(v.object, response.patch);
  } catch (const std::exception& e) {
    throw ApiError(api_errors::internal_error(e.what()));
  }
  if (patched == v.object) return false;
  if (v.version != t.version) {
    // Back to the version the write is stored in.
    if (auto conversion = t.crd ? crd_conversion(*t.crd) : std::nullopt) {
      patched = std::move(convert(*conversion, {std::move(patched)}, a, a.kind.gvk.api_version()).front());
    }
  }
  if (patched == *a.object) return false;
  *a.object = std::move(patched);
  return true;
}

void AdmissionDispatcher::mutate(const AdmissionAttributes& a) {
  if (webhooks_off) return;
  const auto hooks = webhooks(*a.store, true);
  if (hooks.empty()) return;
  const Target t = target_of(a);
  std::set<std::string> invoked_reinvocable, reinvoke;
  bool changed_any = false;
  for (const auto& hook : hooks) {
    const auto changed = invoke(*hook, a, t, true);
    if (!changed) continue;
    if (*changed) {
      // A change: every IfNeeded webhook that ran before it sees the object again.
      reinvoke.insert(invoked_reinvocable.begin(), invoked_reinvocable.end());
      changed_any = true;
    }
    if (hook->reinvoke_if_needed) invoked_reinvocable.insert(hook->uid);
  }
  if (!changed_any || reinvoke.empty()) return;
  for (const auto& hook : hooks) {
    if (reinvoke.contains(hook->uid)) invoke(*hook, a, t, true);
  }
}

void AdmissionDispatcher::validate(const AdmissionAttributes& a) {
  if (webhooks_off) return;
  const auto hooks = webhooks(*a.store, false);
  if (hooks.empty()) return;
  const Target t = target_of(a);
  for (const auto& hook : hooks) invoke(*hook, a, t, false);
}

std::optional<bool> AdmissionDispatcher::invoke(const AdmissionWebhook& hook, const AdmissionAttributes& a,
                                                const Target& t, bool mutating) {
  const auto version = call_version(hook, a, t);
  if (!version || !selected(hook, a)) return std::nullopt;
  const Versioned v = versioned(a, t, *version);
  if (!conditions_match(hook, a, t, v)) return std::nullopt;
  return call(hook, a, t, v, mutating);
}

}  // namespace rr::apiserver_detail
