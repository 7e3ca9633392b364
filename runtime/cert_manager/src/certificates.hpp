// What a Certificate needs, decided from its spec, its Secret and the time: cert-manager's
// issuance policy chain (Secret missing, incomplete, mismatched, expiring) and the Secret and
// status it writes once issued. Pure functions; rr::cert_manager::CertManager does the I/O.
#pragma once
#include <chrono>
#include <optional>
#include <string>

#include "rr/cert_manager/certificate_spec.hpp"
#include "rr/core/json.hpp"
#include "x509_issue.hpp"

namespace rr::cert_manager {

using Clock = std::chrono::system_clock;

struct IssuanceTrigger {
  bool needed = false;
  std::string reason, message;  // cert-manager's policy reason ("DoesNotExist", "Renewing", ...)
};

// `secret`: the Secret named by spec.secretName, when it exists.
IssuanceTrigger issuance_needed(const Json& certificate, const CertificateSpec& spec, const std::optional<Json>& secret,
                                Clock::time_point now);

// When cert-manager renews: notAfter - renewBefore, or a third of the lifetime before notAfter
// when renewBefore is unset or not shorter than the lifetime; whole seconds.
Clock::time_point renewal_time(const CertificateSpec& spec, Clock::time_point not_before, Clock::time_point not_after);

// The Secret after issuance: `existing` (kept: other keys, labels, annotations) or a new one,
// with tls.crt, tls.key, ca.crt, type kubernetes.io/tls, cert-manager's annotations and the
// secretTemplate's labels and annotations.
Json issued_secret(const Json& certificate, const CertificateSpec& spec, const IssuedCertificate& issued,
                   const std::string& ca_pem, const std::optional<Json>& existing);

// The Secret's metadata brought in line with spec.secretTemplate (no re-issue, as cert-manager);
// nullopt when it already is.
std::optional<Json> secret_template_applied(const CertificateSpec& spec, const Json& secret);

// The status after an issuance (revision + 1) or while an issuance waits (Issuing True, Ready False).
Json issued_status(const Json& certificate, const CertificateSpec& spec, const IssuedCertificate& issued,
                   Clock::time_point now);
Json waiting_status(const Json& certificate, const IssuanceTrigger& trigger, Clock::time_point now);
// Ready True for a Secret that needs nothing (times read from its certificate), or Ready False
// for a spec that cannot be issued (`reason`, `message`).
Json up_to_date_status(const Json& certificate, const CertificateSpec& spec, const Json& secret, Clock::time_point now);
Json invalid_status(const Json& certificate, const std::string& message, Clock::time_point now);

// One status condition set as cert-manager does: lastTransitionTime kept while the status holds.
void set_condition(Json& status, const std::string& type, const std::string& value, const std::string& reason,
                   const std::string& message, std::int64_t observed_generation, Clock::time_point now);

}  // namespace rr::cert_manager
