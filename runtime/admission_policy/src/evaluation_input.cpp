#include "evaluation_input.hpp"

#include "match_resources.hpp"

namespace rr::admission_policy::detail {

namespace {

// cel.CreateAdmissionRequest: the AdmissionRequest without its objects.
Json request_of(const AdmissionAttributes& a) {
  const GroupVersionKind& gvk = a.kind.gvk;
  const Json kind{{"group", gvk.group}, {"version", gvk.version}, {"kind", gvk.kind}};
  const Json resource{{"group", gvk.group}, {"version", gvk.version}, {"resource", a.kind.plural}};
  const char* options_kind = a.operation == AdmissionOperation::Create   ? "CreateOptions"
                             : a.operation == AdmissionOperation::Update ? "UpdateOptions"
                                                                         : "DeleteOptions";
  return Json{{"uid", ""},
              {"kind", kind},
              {"resource", resource},
              {"subResource", a.subresource},
              {"requestKind", kind},
              {"requestResource", resource},
              {"requestSubResource", a.subresource},
              {"name", a.name},
              {"namespace", a.namespace_},
              {"operation", detail::operation_text(a.operation)},
              {"userInfo", user_json(a.user)},
              {"dryRun", a.dry_run},
              {"options", Json{{"kind", options_kind}, {"apiVersion", "meta.k8s.io/v1"}}}};
}

// cel.CreateNamespaceObject: the namespace's spec, status and metadata without managedFields and
// ownerReferences; null for a cluster-scoped write and for a Namespace itself.
Json namespace_object(const AdmissionAttributes& a) {
  if (a.namespace_.empty() || a.kind.gvk == namespace_gvk) return nullptr;
  const Json* ns = a.store->find(namespace_gvk, ObjectKey{"", a.namespace_});
  if (!ns) return nullptr;
  Json out = *ns;
  if (out.contains("metadata")) {
    out["metadata"].erase("managedFields");
    out["metadata"].erase("ownerReferences");
  }
  return out;
}

}  // namespace

EvaluationInput evaluation_input(const AdmissionAttributes& a, const PolicyOptions::Authorize& fn) {
  EvaluationInput in;
  in.object = a.object ? *a.object : Json(nullptr);
  in.old_object = a.old_object ? *a.old_object : Json(nullptr);
  in.request = request_of(a);
  in.namespace_object = namespace_object(a);
  auto authorize = [fn, user = a.user ? std::optional<RequestUser>(*a.user) : std::nullopt](
                       const cel::AuthzAttributes& attributes) {
    if (!fn) return cel::AuthzDecision{.allowed = false, .reason = "", .error = "no authorizer"};
    return fn(user ? &*user : nullptr, attributes);
  };
  in.authorizer = cel::authorizer_value(authorize);
  in.request_resource_check = cel::request_resource_check(authorize, cel::AuthzAttributes{.user = "",
                                                                                          .resource_request = true,
                                                                                          .group = a.kind.gvk.group,
                                                                                          .resource = a.kind.plural,
                                                                                          .subresource = a.subresource,
                                                                                          .namespace_ = a.namespace_,
                                                                                          .name = a.name,
                                                                                          .verb = "",
                                                                                          .path = ""});
  return in;
}

}  // namespace rr::admission_policy::detail
