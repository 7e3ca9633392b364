// Issuers and Certificates: readiness, issuance, renewal, written back to the cluster.
#include <map>
#include <stdexcept>

#include "certificate_events.hpp"
#include "certificates.hpp"
#include "crds.hpp"
#include "issuers.hpp"
#include "rr/client/api_error.hpp"
#include "rr/cluster/cluster.hpp"
#include "rr/core/time.hpp"
#include "secret_data.hpp"
#include "sync.hpp"

namespace rr::cert_manager {
namespace {

const GroupVersionKind secret_gvk{"", "v1", "Secret"};

struct Pass {
  Pass(Cluster& c, const CertManagerOptions& o, const Log& l) : cluster(c), options(o), log(l) {}
  Cluster& cluster;
  const CertManagerOptions& options;
  const Log& log;
  std::optional<KindInfo> secrets = cluster.find_kind(secret_gvk);
  std::map<std::string, IssuerState> issuers;  // "Issuer/<ns>/<name>", "ClusterIssuer/<name>"
  SyncResult result;

  std::optional<Json> get_secret(const std::string& ns, const std::string& name) {
    if (!secrets) return std::nullopt;
    try {
      return cluster.get(*secrets, ObjectKey{ns, name});
    } catch (const ApiError& e) {
      if (!is_not_found(e.status())) result.retry = true;
      return std::nullopt;
    }
  }

  std::vector<Json> list(const KindInfo& kind) {
    Json items = cluster.list(kind, ListOptions{}).value("items", Json::array());
    return items.is_array() ? items.get<std::vector<Json>>() : std::vector<Json>{};
  }

  // Writes `status` when it differs from the object's; a conflict waits for the next pass.
  bool write_status(const KindInfo& kind, Json object, Json status) {
    if (object.contains("status") && object["status"] == status) return true;
    object["status"] = std::move(status);
    try {
      cluster.update_status(kind, object);
      return true;
    } catch (const ApiError& e) {
      if (!is_not_found(e.status())) result.retry = true;
      return false;
    }
  }

  void sync_issuers(const KindInfo& kind, bool cluster_scoped) {
    if (!cluster.find_kind(kind.gvk)) return;
    for (Json& issuer : list(kind)) {
      const std::string ns = issuer.value("/metadata/namespace"_json_pointer, std::string());
      const std::string name = issuer.value("/metadata/name"_json_pointer, std::string());
      IssuerState state = evaluate_issuer(
          issuer, cluster_scoped ? options.cluster_resource_namespace : ns,
          [this](const std::string& n, const std::string& s) { return get_secret(n, s); });
      Json status = issuer.contains("status") && issuer["status"].is_object() ? issuer["status"] : Json::object();
      set_condition(status, "Ready", state.ready ? "True" : "False", state.reason, state.message,
                    issuer.value("/metadata/generation"_json_pointer, std::int64_t{0}), cluster.now());
      write_status(kind, issuer, std::move(status));
      issuers[cluster_scoped ? "ClusterIssuer/" + name : "Issuer/" + ns + "/" + name] = std::move(state);
    }
  }

  const IssuerState* issuer_for(const CertificateSpec& spec, const std::string& ns) const {
    if (spec.issuer_ref.group != "cert-manager.io") return nullptr;  // an external issuer: never signed here
    const std::string key = spec.issuer_ref.kind == "ClusterIssuer" ? "ClusterIssuer/" + spec.issuer_ref.name
                            : spec.issuer_ref.kind == "Issuer"      ? "Issuer/" + ns + "/" + spec.issuer_ref.name
                                                                    : std::string();
    auto it = issuers.find(key);
    return it == issuers.end() ? nullptr : &it->second;
  }

  void note_renewal(const Json& status) {
    if (!status.contains("renewalTime") || !status["renewalTime"].is_string()) return;
    auto when = Time(status["renewalTime"].get<std::string>()).time_point();
    if (when && (!result.next_renewal || *when < *result.next_renewal)) result.next_renewal = when;
  }

  // Writes the issued Secret (create or update); false when the write failed.
  bool write_secret(const Json& secret, bool exists) {
    if (!secrets) return false;
    try {
      if (exists) {
        cluster.update(*secrets, secret);
      } else {
        cluster.create(*secrets, secret);
      }
      return true;
    } catch (const ApiError& e) {
      result.retry = true;
      log("cert-manager: writing Secret " + secret.value("/metadata/name"_json_pointer, std::string()) + ": " +
          e.what());
      return false;
    }
  }

  void sync_certificate(const KindInfo& kind, Json certificate) {
    const auto now = cluster.now();
    const std::string ns = certificate.value("/metadata/namespace"_json_pointer, std::string());
    const std::string name = certificate.value("/metadata/name"_json_pointer, std::string());
    if (certificate.contains("/metadata/deletionTimestamp"_json_pointer)) return;
    auto parsed = read_certificate_spec(certificate);
    if (!parsed.spec) {
      write_status(kind, certificate, invalid_status(certificate, parsed.error, now));
      return;
    }
    const CertificateSpec& spec = *parsed.spec;
    auto secret = get_secret(ns, spec.secret_name);
    const IssuanceTrigger trigger = issuance_needed(certificate, spec, secret, now);
    if (!trigger.needed) {
      if (auto updated = secret_template_applied(spec, *secret)) write_secret(*updated, true);
      Json status = up_to_date_status(certificate, spec, *secret, now);
      note_renewal(status);
      write_status(kind, certificate, std::move(status));
      return;
    }
    const IssuerState* issuer = issuer_for(spec, ns);
    if (issuer == nullptr || !issuer->ready) {
      Json status = waiting_status(certificate, trigger, now);
      write_status(kind, certificate, std::move(status));
      return;
    }
    std::string reuse_key;
    if (!spec.private_key.rotate && secret) {
      if (auto key = secret_value(*secret, "tls.key"); key && key_matches_spec(*key, spec.private_key))
        reuse_key = *key;
    }
    IssuedCertificate issued;
    try {
      issued = issue_certificate(spec, issuer->ca ? &*issuer->ca : nullptr, reuse_key, now);
    } catch (const std::exception& e) {
      IssuanceTrigger failed{true, "Failed", e.what()};
      write_status(kind, certificate, waiting_status(certificate, failed, now));
      return;
    }
    const std::string ca_pem = issuer->ca ? issuer->ca->certificate : issued.certificate_pem;
    record_certificate_event(cluster, certificate, "Issuing", trigger.message);
    if (!write_secret(issued_secret(certificate, spec, issued, ca_pem, secret), secret.has_value())) return;
    record_certificate_event(cluster, certificate, "Issuing", "The certificate has been successfully issued");
    log("cert-manager: issued Secret " + ns + "/" + spec.secret_name + " for Certificate " + name + " (" +
        trigger.message + ")");
    // The status of the object as it is now: the Secret is written, so the revision must count it.
    for (int attempt = 0; attempt < 3; ++attempt) {
      Json status = issued_status(certificate, spec, issued, now);
      if (write_status(kind, certificate, status)) {
        note_renewal(status);
        return;
      }
      try {
        certificate = cluster.get(kind, ObjectKey{ns, name});
      } catch (const ApiError&) {
        return;
      }
    }
  }
};

}  // namespace

SyncResult sync_certificates(Cluster& cluster, const CertManagerOptions& options, const Log& log) {
  Pass pass(cluster, options, log);
  try {
    pass.sync_issuers(issuer_kind(), false);
    pass.sync_issuers(cluster_issuer_kind(), true);
    if (auto kind = cluster.find_kind(certificate_kind().gvk)) {
      for (Json& certificate : pass.list(*kind)) pass.sync_certificate(*kind, std::move(certificate));
    }
  } catch (const ApiError& e) {
    log(std::string("cert-manager: ") + e.what());
    pass.result.retry = true;
  }
  return pass.result;
}

}  // namespace rr::cert_manager
