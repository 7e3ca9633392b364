// The columns of the Tables `kubectl get` asks for: those a CRD version declares
// (additionalPrinterColumns, as apiextensions-apiserver's tableconvertor reads them) and those of
// the built-in kinds, as the kube-apiserver's printers make them (printer_columns_<area>.cpp).
#pragma once
#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "rr/client/kind.hpp"
#include "rr/core/json.hpp"

namespace rr::apiserver_detail {

using PrintClock = std::chrono::system_clock;

struct PrinterColumn {
  std::string name{};
  std::string type{};  // integer, number, boolean, string, date
  std::string format{};
  std::string description{};
  std::int64_t priority = 0;
  // The cell of one object at time `now`; null for none (kubectl prints <none>).
  std::function<Json(const Json& object, PrintClock::time_point now)> cell{};
};

// Name, then the version's additionalPrinterColumns, or Name and Age (type date) when it declares
// none. A column whose jsonPath is outside the supported subset has only empty cells.
std::vector<PrinterColumn> crd_printer_columns(const Json& crd, std::string_view version);

// The columns the kube-apiserver prints for a built-in kind (pkg/printers/internalversion), the
// wide ones at priority 1: Pod, Service, Endpoints, ConfigMap, Secret, ServiceAccount, Namespace,
// Node, PersistentVolume(Claim), Event (core and events.k8s.io), Deployment, StatefulSet,
// DaemonSet, ReplicaSet, Job, CronJob, Ingress, EndpointSlice, Lease, (Cluster)RoleBinding; Name
// and Created At for Role, ClusterRole and CustomResourceDefinition (the default convertor's);
// Name and Age for any other kind.
std::vector<PrinterColumn> builtin_printer_columns(const GroupVersionKind& gvk);

// Kubernetes' duration.HumanDuration ("45s", "3m20s", "5h", "2d3h", "3y"); "<invalid>" when more
// than a second in the future.
std::string human_duration(std::chrono::nanoseconds elapsed);

// metatable.ConvertToHumanReadableDateType on an RFC 3339 text: the age at `now`; "<unknown>"
// for an empty text, "<invalid>" for one that does not parse.
std::string age_of(std::string_view timestamp, PrintClock::time_point now);

// A CRD column's cell from the first value its path found (cellForJSONValue, and the jsonpath
// printer's text for type string). Null when the value does not fit the type.
Json cell_for_value(std::string_view type, const Json& value, PrintClock::time_point now);

}  // namespace rr::apiserver_detail
