// Kubernetes' authorizer library (authz.go): Authorizer -> path()/group() -> PathCheck /
// GroupCheck -> resource() -> ResourceCheck (subresource, namespace, name) -> check(verb) ->
// Decision (allowed, reason, errored, error); serviceAccount(ns, name) checks as that account.
// One opaque class carries every stage: the attributes gathered so far and the decider.
#include <memory>
#include <string>

#include "functions.hpp"
#include "rr/cel/authz.hpp"

namespace rr::cel {

namespace {

enum class Stage { Authorizer, PathCheck, GroupCheck, ResourceCheck, Decision };

class AuthzValue final : public Opaque {
 public:
  AuthzValue(Stage s, std::shared_ptr<const AuthorizeFn> fn, AuthzAttributes a)
      : stage(s), authorize(std::move(fn)), attributes(std::move(a)) {}
  std::string type_name() const override {
    switch (stage) {
      case Stage::Authorizer: return "kubernetes.authorization.Authorizer";
      case Stage::PathCheck: return "kubernetes.authorization.PathCheck";
      case Stage::GroupCheck: return "kubernetes.authorization.GroupCheck";
      case Stage::ResourceCheck: return "kubernetes.authorization.ResourceCheck";
      case Stage::Decision: return "kubernetes.authorization.Decision";
    }
    return "";
  }
  // Checks are not comparable values upstream either; identity is enough.
  bool equals(const Opaque& other) const override { return this == &other; }
  std::string to_string() const override { return type_name(); }

  Stage stage;
  std::shared_ptr<const AuthorizeFn> authorize;
  AuthzAttributes attributes;
  AuthzDecision decision;
};

Value make(Stage stage, std::shared_ptr<const AuthorizeFn> fn, AuthzAttributes a) {
  return Value(std::shared_ptr<const Opaque>(std::make_shared<AuthzValue>(stage, std::move(fn), std::move(a))));
}

const AuthzValue* receiver(std::span<const Value> a, Stage stage) {
  if (a.empty() || a[0].kind() != Kind::Opaque) return nullptr;
  const auto* v = dynamic_cast<const AuthzValue*>(&a[0].as_opaque());
  return v && v->stage == stage ? v : nullptr;
}

bool string_args(std::span<const Value> a, std::size_t count) {
  if (a.size() != count + 1) return false;
  for (std::size_t i = 1; i < a.size(); ++i)
    if (a[i].kind() != Kind::String) return false;
  return true;
}

// A step that sets one attribute and moves to the next stage.
template <Stage From, Stage To, std::string AuthzAttributes::*Field>
Value step(std::span<const Value> a, const char* fn) {
  const AuthzValue* v = receiver(a, From);
  if (!v || !string_args(a, 1)) return no_overload(fn, a);
  AuthzAttributes next = v->attributes;
  next.*Field = a[1].as_string();
  return make(To, v->authorize, std::move(next));
}

Value path(std::span<const Value> a) {
  Value out = step<Stage::Authorizer, Stage::PathCheck, &AuthzAttributes::path>(a, "path");
  if (out.kind() == Kind::Opaque) {
    auto* v = const_cast<AuthzValue*>(static_cast<const AuthzValue*>(&out.as_opaque()));
    v->attributes.resource_request = false;  // a fresh value no one else holds yet
  }
  return out;
}
Value group(std::span<const Value> a) {
  return step<Stage::Authorizer, Stage::GroupCheck, &AuthzAttributes::group>(a, "group");
}
Value resource(std::span<const Value> a) {
  return step<Stage::GroupCheck, Stage::ResourceCheck, &AuthzAttributes::resource>(a, "resource");
}
Value subresource(std::span<const Value> a) {
  return step<Stage::ResourceCheck, Stage::ResourceCheck, &AuthzAttributes::subresource>(a, "subresource");
}
Value namespace_(std::span<const Value> a) {
  return step<Stage::ResourceCheck, Stage::ResourceCheck, &AuthzAttributes::namespace_>(a, "namespace");
}
Value name(std::span<const Value> a) {
  return step<Stage::ResourceCheck, Stage::ResourceCheck, &AuthzAttributes::name>(a, "name");
}

Value service_account(std::span<const Value> a) {
  const AuthzValue* v = receiver(a, Stage::Authorizer);
  if (!v || !string_args(a, 2)) return no_overload("serviceAccount", a);
  AuthzAttributes next = v->attributes;
  next.user = "system:serviceaccount:" + a[1].as_string() + ":" + a[2].as_string();
  return make(Stage::Authorizer, v->authorize, std::move(next));
}

Value check(std::span<const Value> a) {
  const AuthzValue* v = receiver(a, Stage::ResourceCheck);
  if (!v) v = receiver(a, Stage::PathCheck);
  if (!v || !string_args(a, 1)) return no_overload("check", a);
  AuthzAttributes attributes = v->attributes;
  attributes.verb = a[1].as_string();
  auto out = std::make_shared<AuthzValue>(Stage::Decision, v->authorize, attributes);
  if (*v->authorize) out->decision = (*v->authorize)(attributes);
  else out->decision.error = "no authorizer";
  return Value(std::shared_ptr<const Opaque>(std::move(out)));
}

const AuthzDecision* decision_of(std::span<const Value> a) {
  const AuthzValue* v = receiver(a, Stage::Decision);
  return v && a.size() == 1 ? &v->decision : nullptr;
}
Value allowed(std::span<const Value> a) {
  const AuthzDecision* d = decision_of(a);
  return d ? Value(d->allowed) : no_overload("allowed", a);
}
Value reason(std::span<const Value> a) {
  const AuthzDecision* d = decision_of(a);
  return d ? Value(d->reason) : no_overload("reason", a);
}
Value errored(std::span<const Value> a) {
  const AuthzDecision* d = decision_of(a);
  return d ? Value(!d->error.empty()) : no_overload("errored", a);
}
Value error(std::span<const Value> a) {
  const AuthzDecision* d = decision_of(a);
  return d ? Value(d->error) : no_overload("error", a);
}

}  // namespace

Value authorizer_value(AuthorizeFn authorize) {
  return make(Stage::Authorizer, std::make_shared<const AuthorizeFn>(std::move(authorize)), {});
}

Value request_resource_check(AuthorizeFn authorize, AuthzAttributes request) {
  request.resource_request = true;
  return make(Stage::ResourceCheck, std::make_shared<const AuthorizeFn>(std::move(authorize)), std::move(request));
}

void register_authz(FunctionTable& t) {
  t.add("path", path, false, true);
  t.add("group", group, false, true);
  t.add("resource", resource, false, true);
  t.add("subresource", subresource, false, true);
  t.add("namespace", namespace_, false, true);
  t.add("name", name, false, true);
  t.add("serviceAccount", service_account, false, true);
  t.add("check", check, false, true);
  t.add("allowed", allowed, false, true);
  t.add("reason", reason, false, true);
  t.add("errored", errored, false, true);
  t.add("error", error, false, true);
}

}  // namespace rr::cel
