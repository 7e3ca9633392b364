#include "rr/apiserver/builtin_kinds.hpp"

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>

#include "body_codec.hpp"
#include "builtin_resources.hpp"
#include "crd_kinds.hpp"
#include "openapi_schemas.hpp"
#include "rr/admission_policy/policy_validation.hpp"
#include "rr/admission_policy/validating_policy.hpp"
#include "rr/client/api_error.hpp"
#include "rr/cluster/cluster.hpp"
#include "rr/validation/builtin.hpp"
#include "rr/validation/decoding.hpp"
#include "rr/validation/defaults.hpp"
#include "webhook_configuration.hpp"

namespace rr {

namespace {

// The API server's admission of a built-in kind: its Go defaults, then decode, the schema's
// defaults and validation through the generated type; the defaulted object is what is stored.
Cluster::AdmitFn admission_of(const KindCodec& row, GroupVersionKind gvk) {
  return [&row, gvk = std::move(gvk)](Json& object) -> std::vector<FieldError> {
    validation::apply_builtin_defaults(gvk.group, gvk.version, gvk.kind, object);
    std::string defaulted;
    auto findings = row.admit(object.dump(), defaulted);  // a DecodeError is the cluster's to report
    object = Json::parse(defaulted);
    return findings;
  };
}

Cluster::AdmissionFn main_resource_only(Cluster::AdmitFn admit) {
  return [admit = std::move(admit)](const AdmissionRequest& request) {
    AdmissionResponse response;
    if (!request.status) response.errors = admit(request.object);
    return response;
  };
}

// A kind kube-apiserver validates in Go (rr::validation's table): those findings, on the defaulted
// object, replace the schema's (the API server runs no OpenAPI validation on its own kinds). A
// value of the wrong type still fails in decoding first.
Cluster::AdmissionFn with_go_validation(const GroupVersionKind& gvk, Cluster::AdmissionFn admission) {
  if (!validation::find_builtin_validator(gvk.group, gvk.version, gvk.kind)) return admission;
  return [gvk, admission = std::move(admission)](const AdmissionRequest& request) {
    AdmissionResponse response = admission(request);
    if (request.status) return response;
    const Json* old_object = request.old_object;
    std::optional<Json> bound;
    if (old_object) bound = validation::pod_binding_base(gvk.group, gvk.kind, request.object, *old_object);
    if (bound) old_object = &*bound;
    response.errors = validation::to_core(
        validation::validate_builtin(gvk.group, gvk.version, gvk.kind, request.object, old_object));
    return response;
  };
}

// What an update of a Service keeps from the stored one when the request leaves it out
// (patchAllocatedValues): the allocated cluster IPs and node ports, so a PUT without them is not
// a change of them.
void keep_allocated(const Json& old_object, Json& object) {
  if (!old_object.contains("spec") || !old_object["spec"].is_object() || !object.contains("spec") ||
      !object["spec"].is_object()) {
    return;
  }
  const Json& before = old_object["spec"];
  Json& spec = object["spec"];
  if (spec.value("type", std::string()) == "ExternalName" || before.value("type", std::string()) == "ExternalName") {
    return;
  }
  for (const char* key : {"clusterIP", "clusterIPs", "ipFamilies", "ipFamilyPolicy", "healthCheckNodePort"}) {
    const bool absent = !spec.contains(key) || (spec[key].is_string() && spec[key].get<std::string>().empty());
    if (absent && before.contains(key)) spec[key] = before[key];
  }
  // A port that stays (same port and protocol) keeps its node port.
  if (!spec.contains("ports") || !spec["ports"].is_array() || !before.contains("ports") || !before["ports"].is_array()) {
    return;
  }
  for (Json& port : spec["ports"]) {
    if (!port.is_object() || port.contains("nodePort")) continue;
    for (const Json& old_port : before["ports"]) {
      if (old_port.is_object() && old_port.contains("nodePort") && old_port.value("port", Json()) == port.value("port", Json()) &&
          old_port.value("protocol", Json("TCP")) == port.value("protocol", Json("TCP"))) {
        port["nodePort"] = old_port["nodePort"];
      }
    }
  }
}

// A Service gets its cluster IP from the service range on its first write (10.96.0.0/12, as
// kubeadm's default), unless it is headless ("None") or an ExternalName; clusterIP and
// clusterIPs name the same first address, as the allocator leaves them.
Cluster::AdmissionFn service_admission(Cluster::AdmitFn admit) {
  auto next = std::make_shared<std::atomic<std::uint32_t>>(10);
  return [admit = std::move(admit), next](const AdmissionRequest& request) {
    AdmissionResponse response;
    if (request.status) return response;
    Json& object = request.object;
    if (request.old_object) keep_allocated(*request.old_object, object);
    response.errors = admit(object);
    if (!response.errors.empty() || !object.contains("spec") || !object["spec"].is_object()) return response;
    Json& spec = object["spec"];
    if (spec.value("type", std::string()) == "ExternalName") return response;
    const auto first_of = [](const Json& ips) {
      return ips.is_array() && !ips.empty() && ips[0].is_string() ? ips[0].get<std::string>() : std::string();
    };
    std::string ip = spec.value("clusterIP", std::string());
    if (ip.empty()) ip = first_of(spec.value("clusterIPs", Json()));
    if (ip.empty()) {
      const std::uint32_t n = next->fetch_add(1);
      ip = "10.96." + std::to_string((n >> 8) & 0xff) + "." + std::to_string(n & 0xff);
    }
    spec["clusterIP"] = ip;
    if (first_of(spec.value("clusterIPs", Json())).empty()) spec["clusterIPs"] = Json::array({ip});
    if (!spec.contains("ipFamilies")) spec["ipFamilies"] = Json::array({"IPv4"});
    if (!spec.contains("ipFamilyPolicy")) spec["ipFamilyPolicy"] = "SingleStack";
    return response;
  };
}

// Decoding first, as the API server decodes a body into the kind's Go types: unknown members are
// pruned and left to fieldValidation; a value of the wrong type fails the request with 400.
Cluster::AdmissionFn decoded_as_go(const GroupVersionKind& gvk, Cluster::AdmissionFn admission) {
  auto root = std::make_shared<std::once_flag>();
  auto name = std::make_shared<std::string>();
  return [gvk, root, name, admission = std::move(admission)](const AdmissionRequest& request) {
    const Json& definitions = apiserver_detail::builtin_definitions();
    std::call_once(*root, [&] {
      *name = validation::kind_definition(definitions, gvk.group, gvk.version, gvk.kind).value_or("");
    });
    validation::GoDecoding decoded;
    if (!name->empty()) decoded = validation::decode_as_go(request.object, definitions, *name);
    // Go names unknown fields in the order the body wrote them; the parsed object sorted them.
    if (const std::string* body = apiserver_detail::JsonBodyScope::current();
        body && decoded.unknown_fields.size() > 1) {
      validation::order_as_written(decoded.unknown_fields, *body);
    }
    if (!decoded.error.empty()) {
      throw ApiError(api_errors::bad_request(validation::cannot_be_handled(gvk.kind, gvk.version, decoded.error)));
    }
    AdmissionResponse response = admission ? admission(request) : AdmissionResponse{};
    response.unknown_fields.insert(response.unknown_fields.begin(), decoded.unknown_fields.begin(),
                                   decoded.unknown_fields.end());
    return response;
  };
}

void ensure_namespace(Cluster& cluster, const KindInfo& kind, const std::string& name) {
  try {
    Json created = cluster.create(kind, Json{{"apiVersion", "v1"}, {"kind", "Namespace"}, {"metadata", {{"name", name}}}});
    created["status"] = {{"phase", "Active"}};
    cluster.update_status(kind, created);
  } catch (const ApiError& e) {
    if (!is_already_exists(e.status())) throw;
  }
}

}  // namespace

void register_builtin_kinds(Cluster& cluster) {
  const GroupVersionKind crd{"apiextensions.k8s.io", "v1", "CustomResourceDefinition"};
  for (const KindCodec* row : apiserver_detail::stored_builtin_resources()) {
    KindInfo info = apiserver_detail::kind_info_of(*row);
    if (cluster.find_kind(info.gvk)) continue;  // registered before: it keeps its admission
    Cluster::AdmitFn admit;
    if (info.gvk == crd) {
      admit = [](Json& object) { return apiserver_detail::admit_crd(object); };
    } else if (info.gvk == apiserver_detail::mutating_webhook_configuration_gvk ||
               info.gvk == apiserver_detail::validating_webhook_configuration_gvk) {
      // The schema's checks (types), then the registry's defaults and checks of the webhooks.
      const bool mutating = info.gvk == apiserver_detail::mutating_webhook_configuration_gvk;
      admit = [base = admission_of(*row, info.gvk), mutating](Json& object) {
        auto findings = base(object);
        if (findings.empty()) findings = apiserver_detail::admit_webhook_configuration(object, mutating);
        return findings;
      };
    } else if (info.gvk == admission_policy::validating_policy_gvk ||
               info.gvk == admission_policy::validating_binding_gvk) {
      // The schema's checks, then the registry's validation (admission_policy/policy_validation.hpp).
      const bool policy = info.gvk == admission_policy::validating_policy_gvk;
      admit = [base = admission_of(*row, info.gvk), policy](Json& object) {
        auto findings = base(object);
        if (findings.empty()) {
          findings = policy ? admission_policy::validate_validating_policy(object)
                            : admission_policy::validate_validating_binding(object);
        }
        return findings;
      };
    } else if (info.gvk == GroupVersionKind{"", "v1", "Service"}) {
      Cluster::AdmissionFn admission = decoded_as_go(
          info.gvk, with_go_validation(info.gvk, service_admission(admission_of(*row, info.gvk))));
      cluster.register_kind(std::move(info), std::move(admission));
      continue;
    } else {
      admit = admission_of(*row, info.gvk);
    }
    Cluster::AdmissionFn admission = decoded_as_go(info.gvk,
                                                   with_go_validation(info.gvk, main_resource_only(std::move(admit))));
    cluster.register_kind(std::move(info), std::move(admission));
  }
  // Server-side apply types fields by the kinds' definitions (list types, map types, key defaults).
  const std::shared_ptr<const Json> definitions(std::shared_ptr<const Json>{},
                                                &apiserver_detail::builtin_definitions());
  for (const KindInfo& info : cluster.kinds()) {
    if (auto name = validation::kind_definition(*definitions, info.gvk.group, info.gvk.version, info.gvk.kind)) {
      cluster.set_apply_schema(info.gvk, definitions, Json{{"$ref", "#/components/schemas/" + *name}});
    }
  }
  const auto namespaces = cluster.find_kind(GroupVersionKind{"", "v1", "Namespace"});
  for (const char* name : {"default", "kube-system", "kube-public"}) ensure_namespace(cluster, *namespaces, name);
}

}  // namespace rr
