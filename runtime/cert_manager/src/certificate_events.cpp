// Events on Certificates (best effort, as a recorder's are).
#include "certificate_events.hpp"

#include <chrono>
#include <cstdio>

#include "rr/client/api_error.hpp"
#include "rr/cluster/cluster.hpp"
#include "rr/core/time.hpp"

namespace rr::cert_manager {

void record_certificate_event(Cluster& cluster, const Json& certificate, const std::string& reason,
                              const std::string& message) {
  const auto kind = cluster.find_kind({"", "v1", "Event"});
  if (!kind) return;
  const auto now = cluster.now();
  const std::string ns = certificate.value("/metadata/namespace"_json_pointer, std::string());
  const std::string name = certificate.value("/metadata/name"_json_pointer, std::string());
  // client-go's recorder names an event <object>.<nanoseconds in hex>.
  char suffix[24];
  std::snprintf(suffix, sizeof suffix, "%llx",
                static_cast<unsigned long long>(
                    std::chrono::duration_cast<std::chrono::nanoseconds>(now.time_since_epoch()).count()));
  Json involved{{"apiVersion", "cert-manager.io/v1"},
                {"kind", "Certificate"},
                {"name", name},
                {"namespace", ns},
                {"uid", certificate.value("/metadata/uid"_json_pointer, std::string())},
                {"resourceVersion", certificate.value("/metadata/resourceVersion"_json_pointer, std::string())}};
  Json event{{"apiVersion", "v1"},
             {"kind", "Event"},
             {"metadata", {{"name", name + "." + suffix}, {"namespace", ns}}},
             {"involvedObject", std::move(involved)},
             {"reason", reason},
             {"message", message},
             {"type", "Normal"},
             {"source", {{"component", "cert-manager-certificates-issuing"}}},
             {"reportingComponent", "cert-manager-certificates-issuing"},
             {"firstTimestamp", Time::from(now).str()},
             {"lastTimestamp", Time::from(now).str()},
             {"count", 1}};
  try {
    cluster.create(*kind, event);
  } catch (const ApiError&) {
  }
}

}  // namespace rr::cert_manager
