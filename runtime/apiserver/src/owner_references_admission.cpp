// OwnerReferencesPermissionEnforcement (see the header); upstream: plugin/pkg/admission/gc.
#include "owner_references_admission.hpp"

#include <vector>

#include "rr/client/api_error.hpp"
#include "rr/client/quote.hpp"
#include "rr/cluster/cluster.hpp"

namespace rr::apiserver_detail {

namespace {

Json owner_references(const Json* object) {
  if (!object) return Json::array();
  const Json refs = object->value("/metadata/ownerReferences"_json_pointer, Json::array());
  return refs.is_array() ? refs : Json::array();
}

bool blocking(const Json& ref) { return ref.is_object() && ref.value("blockOwnerDeletion", false); }

// The blocking references of `object` that `old` did not hold as blocking (by UID).
std::vector<Json> new_blocking_references(const Json& object, const Json* old) {
  const Json before = owner_references(old);
  std::vector<Json> out;
  for (const Json& ref : owner_references(&object)) {
    if (!blocking(ref)) continue;
    const std::string uid = ref.value("uid", std::string());
    bool was_blocking = false;
    for (const Json& prior : before) {
      if (prior.is_object() && prior.value("uid", std::string()) == uid) was_blocking = blocking(prior);
    }
    if (!was_blocking) out.push_back(ref);
  }
  return out;
}

Status forbidden(const KindInfo& kind, const Json& object, const std::string& reason) {
  return api_errors::forbidden(kind.plural, kind.gvk.group, object.value("/metadata/name"_json_pointer, std::string()),
                               reason);
}

}  // namespace

void confirm_owner_references(const Authorizer& authorizer, const Cluster& cluster, const UserInfo& user,
                              const KindInfo& kind, const std::string& namespace_, const Json& object,
                              const Json* old) {
  if (!authorizer.enforcing()) return;
  const Json refs = owner_references(&object);
  const bool changing = old ? refs != owner_references(old) : !refs.empty();
  if (!changing) return;
  const std::string name = object.value("/metadata/name"_json_pointer, std::string());
  if (old) {
    const Decision may_delete = authorizer.authorize(RequestAttributes{.user = user,
                                                                       .verb = "delete",
                                                                       .group = kind.gvk.group,
                                                                       .resource = kind.plural,
                                                                       .namespace_ = namespace_,
                                                                       .name = name});
    if (!may_delete.allowed) {
      throw ApiError(forbidden(
          kind, object, "cannot set an ownerRef on a resource you can't delete: " + may_delete.reason + ", <nil>"));
    }
  }
  for (const Json& ref : new_blocking_references(object, old)) {
    const std::string api_version = ref.value("apiVersion", std::string());
    const std::string ref_kind = ref.value("kind", std::string());
    std::optional<KindInfo> owner;
    try {
      owner = cluster.find_kind(GroupVersionKind::from(api_version, ref_kind));
    } catch (const std::invalid_argument&) {
    }
    if (!owner) {
      throw ApiError(forbidden(kind, object,
                               "cannot set blockOwnerDeletion in this case because cannot find RESTMapping for "
                               "APIVersion " +
                                   api_version + " Kind " + ref_kind + ": no matches for kind " + go_quote(ref_kind) +
                                   " in version " + go_quote(api_version)));
    }
    const Decision may_finalize = authorizer.authorize(RequestAttributes{.user = user,
                                                                         .verb = "update",
                                                                         .group = owner->gvk.group,
                                                                         .resource = owner->plural,
                                                                         .subresource = "finalizers",
                                                                         .namespace_ = namespace_,
                                                                         .name = ref.value("name", std::string())});
    if (!may_finalize.allowed) {
      throw ApiError(forbidden(kind, object,
                               "cannot set blockOwnerDeletion if an ownerReference refers to a resource you can't "
                               "set finalizers on: " +
                                   may_finalize.reason + ", <nil>"));
    }
  }
}

}  // namespace rr::apiserver_detail
