// PodDisruptionBudget columns as the kube-apiserver prints them: the budget's bound that is set
// (the other "N/A") and how many pods may be disrupted now.
#include "printer_columns_internal.hpp"

namespace rr::apiserver_detail {

namespace {

// An IntOrString bound as Go's String() prints it, "N/A" when the budget does not set it.
PrinterColumn bound_column(std::string name, std::string description, std::string pointer) {
  return text_column(std::move(name), std::move(description), 0, [pointer = std::move(pointer)](const Json& o) -> Json {
    return is_set(o, pointer) ? text_of(at(o, pointer)) : std::string("N/A");
  });
}

}  // namespace

std::vector<PrinterColumn> pod_disruption_budget_columns() {
  return {
      name_column(),
      bound_column("Min Available", "The minimum number of pods that must be available.", "/spec/minAvailable"),
      bound_column("Max Unavailable", "The maximum number of pods that may be unavailable.", "/spec/maxUnavailable"),
      int_column("Allowed Disruptions", "integer", "Calculated number of pods that may be disrupted at this time.",
                 "/status/disruptionsAllowed"),
      age_column()};
}

}  // namespace rr::apiserver_detail
