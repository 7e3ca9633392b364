// cert-manager's issuance policies, Secret and status, over JSON objects.
#include "certificates.hpp"

#include <cstdint>

#include "rr/core/go_quote.hpp"
#include "rr/core/time.hpp"
#include "secret_data.hpp"

namespace rr::cert_manager {
namespace {

constexpr const char* annotation_prefix = "cert-manager.io/";
// Not cert-manager's: what it reads from its CertificateRequests, which the subset does not create.
constexpr const char* spec_hash_annotation = "cert-manager.rrgen.dev/issued-spec";

std::string joined(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& item : items) out += (out.empty() ? "" : ",") + item;
  return out;
}

// FNV-1a of the fields an issued certificate is made from: a change of any means a re-issue.
std::string spec_fingerprint(const CertificateSpec& spec) {
  std::string text = spec.common_name + "|" + joined(spec.dns_names) + "|" + joined(spec.ip_addresses) + "|" +
                     joined(spec.uris) + "|" + joined(spec.organizations) + "|" + joined(spec.organizational_units) +
                     "|" + std::to_string(spec.duration.count()) + "|" + (spec.is_ca ? "ca" : "leaf") + "|" +
                     joined(spec.usages) + "|" + std::to_string(static_cast<int>(spec.private_key.algorithm)) + "/" +
                     std::to_string(spec.private_key.size) + "/" +
                     std::to_string(static_cast<int>(spec.private_key.encoding));
  std::uint64_t hash = 14695981039346656037ULL;
  for (unsigned char c : text) {
    hash ^= c;
    hash *= 1099511628211ULL;
  }
  char buffer[17];
  std::snprintf(buffer, sizeof buffer, "%016llx", static_cast<unsigned long long>(hash));
  return buffer;
}

std::string annotation(const Json& object, const std::string& key) {
  const Json* annotations = object.contains("metadata") && object["metadata"].contains("annotations")
                                ? &object["metadata"]["annotations"]
                                : nullptr;
  if (annotations == nullptr || !annotations->is_object()) return {};
  auto it = annotations->find(key);
  return it != annotations->end() && it->is_string() ? it->get<std::string>() : std::string();
}

bool has_annotation(const Json& object, const std::string& key) {
  return object.contains("metadata") && object["metadata"].contains("annotations") &&
         object["metadata"]["annotations"].is_object() && object["metadata"]["annotations"].contains(key);
}

std::int64_t generation_of(const Json& object) {
  return object.value("/metadata/generation"_json_pointer, std::int64_t{0});
}

std::string time_text(Clock::time_point tp) { return Time::from(tp).str(); }

Json status_of(const Json& certificate) {
  auto it = certificate.find("status");
  return it != certificate.end() && it->is_object() ? *it : Json::object();
}

void remove_condition(Json& status, const std::string& type) {
  if (!status.contains("conditions") || !status["conditions"].is_array()) return;
  Json kept = Json::array();
  for (const auto& c : status["conditions"]) {
    if (!(c.is_object() && c.value("type", std::string()) == type)) kept.push_back(c);
  }
  status["conditions"] = std::move(kept);
}

std::string issuer_ref_text(const std::string& name, std::string kind, std::string group) {
  if (kind.empty()) kind = "Issuer";
  if (group.empty()) group = "cert-manager.io";
  return kind + "." + group + "/" + name;
}

}  // namespace

void set_condition(Json& status, const std::string& type, const std::string& value, const std::string& reason,
                   const std::string& message, std::int64_t observed_generation, Clock::time_point now) {
  if (!status.contains("conditions") || !status["conditions"].is_array()) status["conditions"] = Json::array();
  Json condition{{"type", type},
                 {"status", value},
                 {"reason", reason},
                 {"message", message},
                 {"observedGeneration", observed_generation},
                 {"lastTransitionTime", time_text(now)}};
  for (auto& existing : status["conditions"]) {
    if (!existing.is_object() || existing.value("type", std::string()) != type) continue;
    if (existing.value("status", std::string()) == value && existing.contains("lastTransitionTime")) {
      condition["lastTransitionTime"] = existing["lastTransitionTime"];
    }
    existing = std::move(condition);
    return;
  }
  status["conditions"].push_back(std::move(condition));
}

IssuanceTrigger issuance_needed(const Json& certificate, const CertificateSpec& spec, const std::optional<Json>& secret,
                                Clock::time_point now) {
  auto trigger = [](std::string reason, std::string message) {
    return IssuanceTrigger{true, std::move(reason), std::move(message)};
  };
  if (!secret) return trigger("DoesNotExist", "Issuing certificate as Secret does not exist");
  if (!secret->contains("data") || !(*secret)["data"].is_object() || (*secret)["data"].empty()) {
    return trigger("MissingData", "Issuing certificate as Secret does not contain any data");
  }
  auto key = secret_value(*secret, "tls.key");
  if (!key) return trigger("MissingData", "Issuing certificate as Secret does not contain a private key");
  auto cert = secret_value(*secret, "tls.crt");
  if (!cert) return trigger("MissingData", "Issuing certificate as Secret does not contain a certificate");
  std::string error;
  auto facts = read_certificate(*cert, error);
  if (!facts) {
    return trigger("InvalidCertificate", "Issuing certificate as Secret contains an invalid certificate: " + error);
  }
  if (!key_pair_matches(*cert, *key, error)) {
    if (error.find("private key PEM") != std::string::npos) {
      return trigger("InvalidKeyPair", "Issuing certificate as Secret contains invalid private key data: " + error);
    }
    return trigger("InvalidKeyPair",
                   "Issuing certificate as Secret contains a private key that does not match the certificate");
  }
  const std::string name_key = std::string(annotation_prefix) + "issuer-name";
  const std::string kind_key = std::string(annotation_prefix) + "issuer-kind";
  const std::string group_key = std::string(annotation_prefix) + "issuer-group";
  if (has_annotation(*secret, name_key) || has_annotation(*secret, kind_key) || has_annotation(*secret, group_key)) {
    const std::string name = annotation(*secret, name_key);
    const std::string kind = annotation(*secret, kind_key);
    const std::string group = annotation(*secret, group_key);
    if (name != spec.issuer_ref.name || (kind.empty() ? "Issuer" : kind) != spec.issuer_ref.kind ||
        (group.empty() ? "cert-manager.io" : group) != spec.issuer_ref.group) {
      return trigger("IncorrectIssuer", "Issuing certificate as Secret was previously issued by " +
                                            go_quote(issuer_ref_text(name, kind, group)));
    }
  }
  const std::string certificate_name = certificate.value("/metadata/name"_json_pointer, std::string());
  const std::string cert_name_key = std::string(annotation_prefix) + "certificate-name";
  if (has_annotation(*secret, cert_name_key) && annotation(*secret, cert_name_key) != certificate_name) {
    return trigger("IncorrectCertificate",
                   "Secret was issued for " + go_quote(annotation(*secret, cert_name_key)) +
                       ". If this message is not transient, you might have two conflicting Certificates pointing to "
                       "the same secret.");
  }
  if (!key_matches_spec(*key, spec.private_key)) {
    return trigger("SecretMismatch", "Existing private key is not up to date for spec: [spec.privateKey]");
  }
  std::vector<std::string> changed;
  auto compare = [&](const char* key_name, const std::string& wanted, const char* field) {
    if (annotation(*secret, std::string(annotation_prefix) + key_name) != wanted) changed.push_back(field);
  };
  compare("common-name", spec.common_name, "spec.commonName");
  compare("alt-names", joined(spec.dns_names), "spec.dnsNames");
  compare("ip-sans", joined(spec.ip_addresses), "spec.ipAddresses");
  compare("uri-sans", joined(spec.uris), "spec.uris");
  if (changed.empty() && annotation(*secret, spec_hash_annotation) != spec_fingerprint(spec)) changed.push_back("spec");
  if (!changed.empty()) {
    std::string list;
    for (const auto& c : changed) list += (list.empty() ? "" : " ") + c;
    return trigger("RequestChanged", "Fields on existing CertificateRequest resource not up to date: [" + list + "]");
  }
  if (now >= facts->not_after) {
    return trigger("Expired", "Certificate expired on " + time_text(facts->not_after));
  }
  if (now >= renewal_time(spec, facts->not_before, facts->not_after)) {
    return trigger("Renewing",
                   "Renewing certificate as renewal was scheduled at " +
                       status_of(certificate)
                           .value("renewalTime", time_text(renewal_time(spec, facts->not_before, facts->not_after))));
  }
  return {};
}

Clock::time_point renewal_time(const CertificateSpec& spec, Clock::time_point not_before, Clock::time_point not_after) {
  const auto lifetime = std::chrono::duration_cast<std::chrono::seconds>(not_after - not_before);
  std::chrono::seconds before = lifetime / 3;
  if (spec.renew_before && *spec.renew_before < lifetime) before = *spec.renew_before;
  return std::chrono::time_point_cast<std::chrono::seconds>(not_after - before);
}

Json issued_secret(const Json& certificate, const CertificateSpec& spec, const IssuedCertificate& issued,
                   const std::string& ca_pem, const std::optional<Json>& existing) {
  Json secret = existing
                    ? *existing
                    : Json{{"apiVersion", "v1"},
                           {"kind", "Secret"},
                           {"metadata",
                            {{"name", spec.secret_name},
                             {"namespace", certificate.value("/metadata/namespace"_json_pointer, std::string())}}}};
  secret["type"] = "kubernetes.io/tls";
  if (!secret.contains("data") || !secret["data"].is_object()) secret["data"] = Json::object();
  secret["data"]["tls.crt"] = Bytes::encode(issued.certificate_pem).str();
  secret["data"]["tls.key"] = Bytes::encode(issued.private_key_pem).str();
  secret["data"]["ca.crt"] = Bytes::encode(ca_pem).str();
  secret.erase("stringData");
  Json& metadata = secret["metadata"];
  if (!metadata.contains("annotations") || !metadata["annotations"].is_object())
    metadata["annotations"] = Json::object();
  if (!metadata.contains("labels") || !metadata["labels"].is_object()) metadata["labels"] = Json::object();
  Json& annotations = metadata["annotations"];
  const std::string p = annotation_prefix;
  annotations[p + "certificate-name"] = certificate.value("/metadata/name"_json_pointer, std::string());
  annotations[p + "issuer-name"] = spec.issuer_ref.name;
  annotations[p + "issuer-kind"] = spec.issuer_ref.kind;
  annotations[p + "issuer-group"] = spec.issuer_ref.group;
  annotations[p + "common-name"] = spec.common_name;
  annotations[p + "alt-names"] = joined(spec.dns_names);
  annotations[p + "ip-sans"] = joined(spec.ip_addresses);
  annotations[p + "uri-sans"] = joined(spec.uris);
  annotations[spec_hash_annotation] = spec_fingerprint(spec);
  metadata["labels"]["controller.cert-manager.io/fao"] = "true";
  for (const auto& [k, v] : spec.secret_annotations) annotations[k] = v;
  for (const auto& [k, v] : spec.secret_labels) metadata["labels"][k] = v;
  return secret;
}

std::optional<Json> secret_template_applied(const CertificateSpec& spec, const Json& secret) {
  Json updated = secret;
  Json& metadata = updated["metadata"];
  for (const auto& [k, v] : spec.secret_annotations) metadata["annotations"][k] = v;
  for (const auto& [k, v] : spec.secret_labels) metadata["labels"][k] = v;
  if (updated == secret) return std::nullopt;
  return updated;
}

Json issued_status(const Json& certificate, const CertificateSpec& spec, const IssuedCertificate& issued,
                   Clock::time_point now) {
  Json status = status_of(certificate);
  const std::int64_t revision = status.value("revision", std::int64_t{0}) + 1;
  remove_condition(status, "Issuing");
  set_condition(status, "Ready", "True", "Ready", "Certificate is up to date and has not expired",
                generation_of(certificate), now);
  status["notBefore"] = time_text(issued.not_before);
  status["notAfter"] = time_text(issued.not_after);
  status["renewalTime"] = time_text(renewal_time(spec, issued.not_before, issued.not_after));
  status["revision"] = revision;
  status.erase("lastFailureTime");
  return status;
}

Json waiting_status(const Json& certificate, const IssuanceTrigger& trigger, Clock::time_point now) {
  Json status = status_of(certificate);
  const auto generation = generation_of(certificate);
  set_condition(status, "Issuing", "True", trigger.reason, trigger.message, generation, now);
  // A renewal keeps the certificate that is still valid Ready (cert-manager's readiness checks
  // the Secret, not the pending issuance); anything else makes it not Ready.
  if (trigger.reason != "Renewing")
    set_condition(status, "Ready", "False", trigger.reason, trigger.message, generation, now);
  return status;
}

Json up_to_date_status(const Json& certificate, const CertificateSpec& spec, const Json& secret,
                       Clock::time_point now) {
  Json status = status_of(certificate);
  remove_condition(status, "Issuing");
  set_condition(status, "Ready", "True", "Ready", "Certificate is up to date and has not expired",
                generation_of(certificate), now);
  std::string error;
  if (auto cert = secret_value(secret, "tls.crt")) {
    if (auto facts = read_certificate(*cert, error)) {
      status["notBefore"] = time_text(facts->not_before);
      status["notAfter"] = time_text(facts->not_after);
      status["renewalTime"] = time_text(renewal_time(spec, facts->not_before, facts->not_after));
    }
  }
  return status;
}

Json invalid_status(const Json& certificate, const std::string& message, Clock::time_point now) {
  Json status = status_of(certificate);
  remove_condition(status, "Issuing");
  set_condition(status, "Ready", "False", "InvalidSpec", message, generation_of(certificate), now);
  return status;
}

}  // namespace rr::cert_manager
