// The CRDs, with cert-manager's names, short names, categories and printer columns.
#include "crds.hpp"

#include <cctype>
#include <string>

namespace rr::cert_manager {
namespace {

Json string_type() { return Json{{"type", "string"}}; }
Json strings() { return Json{{"type", "array"}, {"items", string_type()}}; }
Json string_map() { return Json{{"type", "object"}, {"additionalProperties", string_type()}}; }
Json open_object(Json properties = Json::object()) {
  Json node{{"type", "object"}, {"x-kubernetes-preserve-unknown-fields", true}};
  if (!properties.empty()) node["properties"] = std::move(properties);
  return node;
}

Json column(const char* name, const char* type, const char* path, int priority = 0) {
  Json c{{"name", name}, {"type", type}, {"jsonPath", path}};
  if (priority != 0) c["priority"] = priority;
  return c;
}

Json ready_column() { return column("Ready", "string", ".status.conditions[?(@.type==\"Ready\")].status"); }
Json status_column() { return column("Status", "string", ".status.conditions[?(@.type==\"Ready\")].message", 1); }
Json age_column() { return column("Age", "date", ".metadata.creationTimestamp"); }

Json crd(const KindInfo& kind, Json short_names, Json spec_schema, Json columns) {
  Json names{{"plural", kind.plural},
             {"singular",
              [&] {
                std::string s = kind.gvk.kind;
                for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
                return s;
              }()},
             {"kind", kind.gvk.kind},
             {"listKind", kind.list_kind},
             {"categories", Json::array({"cert-manager"})}};
  if (!short_names.empty()) names["shortNames"] = std::move(short_names);
  Json schema{{"type", "object"},
              {"properties",
               {{"apiVersion", string_type()},
                {"kind", string_type()},
                {"metadata", {{"type", "object"}}},
                {"spec", std::move(spec_schema)},
                {"status", open_object()}}}};
  Json version{{"name", "v1"},
               {"served", true},
               {"storage", true},
               {"subresources", {{"status", Json::object()}}},
               {"additionalPrinterColumns", std::move(columns)},
               {"schema", {{"openAPIV3Schema", std::move(schema)}}}};
  return Json{
      {"apiVersion", "apiextensions.k8s.io/v1"},
      {"kind", "CustomResourceDefinition"},
      {"metadata",
       {{"name", kind.plural + "." + kind.gvk.group},
        {"labels", {{"app.kubernetes.io/name", "cert-manager"}, {"app.kubernetes.io/managed-by", "rrgen-cluster"}}}}},
      {"spec",
       {{"group", kind.gvk.group},
        {"names", std::move(names)},
        {"scope", kind.namespaced() ? "Namespaced" : "Cluster"},
        {"versions", Json::array({std::move(version)})}}}};
}

Json certificate_spec_schema() {
  Json private_key = open_object({{"algorithm", {{"type", "string"}, {"enum", {"RSA", "ECDSA", "Ed25519"}}}},
                                  {"encoding", {{"type", "string"}, {"enum", {"PKCS1", "PKCS8"}}}},
                                  {"size", {{"type", "integer"}}},
                                  {"rotationPolicy", {{"type", "string"}, {"enum", {"Never", "Always"}}}}});
  Json issuer_ref{{"type", "object"},
                  {"required", {"name"}},
                  {"properties", {{"name", string_type()}, {"kind", string_type()}, {"group", string_type()}}}};
  Json spec = open_object(
      {{"secretName", string_type()},
       {"commonName", string_type()},
       {"dnsNames", strings()},
       {"ipAddresses", strings()},
       {"uris", strings()},
       {"duration", string_type()},
       {"renewBefore", string_type()},
       {"isCA", {{"type", "boolean"}}},
       {"usages", strings()},
       {"subject", open_object({{"organizations", strings()}, {"organizationalUnits", strings()}})},
       {"privateKey", std::move(private_key)},
       {"issuerRef", std::move(issuer_ref)},
       {"secretTemplate",
        {{"type", "object"}, {"properties", {{"labels", string_map()}, {"annotations", string_map()}}}}}});
  spec["required"] = {"issuerRef", "secretName"};
  return spec;
}

Json issuer_spec_schema() {
  return open_object({{"selfSigned", open_object()},
                      {"ca", open_object({{"secretName", string_type()}})},
                      {"acme", open_object()},
                      {"vault", open_object()},
                      {"venafi", open_object()}});
}

}  // namespace

KindInfo certificate_kind() {
  return KindInfo{{"cert-manager.io", "v1", "Certificate"}, "certificates", "CertificateList", Scope::Namespaced, true};
}
KindInfo issuer_kind() {
  return KindInfo{{"cert-manager.io", "v1", "Issuer"}, "issuers", "IssuerList", Scope::Namespaced, true};
}
KindInfo cluster_issuer_kind() {
  return KindInfo{
      {"cert-manager.io", "v1", "ClusterIssuer"}, "clusterissuers", "ClusterIssuerList", Scope::Cluster, true};
}

std::vector<Json> cert_manager_crds() {
  const Json issuer_columns = Json::array({ready_column(), status_column(), age_column()});
  return {crd(certificate_kind(), Json::array({"cert", "certs"}), certificate_spec_schema(),
              Json::array({ready_column(), column("Secret", "string", ".spec.secretName"),
                           column("Issuer", "string", ".spec.issuerRef.name", 1), status_column(), age_column()})),
          crd(issuer_kind(), Json::array(), issuer_spec_schema(), issuer_columns),
          crd(cluster_issuer_kind(), Json::array(), issuer_spec_schema(), issuer_columns)};
}

}  // namespace rr::cert_manager
