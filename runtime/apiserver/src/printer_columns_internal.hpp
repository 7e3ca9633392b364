// What the built-in kinds' column sets share: JSON accessors, the column builders and the cell
// formats of the kube-apiserver's printers (labels, selectors, container lists), and the column set
// of each kind, defined in printer_columns_<area>.cpp.
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "printer_columns.hpp"

namespace rr::apiserver_detail {

// The value at a JSON pointer, or null when the path is missing.
const Json& at(const Json& object, const std::string& pointer);
std::string string_at(const Json& object, const std::string& pointer);
std::int64_t int_at(const Json& object, const std::string& pointer);
// The value at `pointer` as the default's type when present, else the default (what the real
// server's defaulting would have stored: the local cluster keeps objects as they were sent).
std::int64_t int_or(const Json& object, const std::string& pointer, std::int64_t fallback);
std::string string_or(const Json& object, const std::string& pointer, std::string fallback);
bool is_set(const Json& object, const std::string& pointer);          // present and not null
std::size_t size_at(const Json& object, const std::string& pointer);  // of an array or object; 0 else
std::optional<PrintClock::time_point> time_at(const Json& object, const std::string& pointer);
// A scalar as Go's fmt prints it ("" for null); objects and arrays as JSON.
std::string text_of(const Json& value);

std::string joined(const std::vector<std::string>& parts, const char* separator = ",");
// "a,b,c + 2 more..." past `max` of `count` entries; "<unset>" when there are none.
std::string list_with_more(const std::vector<std::string>& shown, std::size_t count, std::size_t max);

// The status of the first condition of `type` in the array at `pointer` ("" when there is none).
std::string condition_status(const Json& object, const std::string& pointer, std::string_view type);

using Cell = std::function<Json(const Json& object)>;
using TimedCell = std::function<Json(const Json& object, PrintClock::time_point now)>;

PrinterColumn column(std::string name, std::string type, std::string description, std::int64_t priority,
                     TimedCell cell);
PrinterColumn typed_column(std::string name, std::string type, std::string description, std::int64_t priority,
                           Cell cell);
PrinterColumn text_column(std::string name, std::string description, std::int64_t priority, Cell cell);
// A number read at `pointer` (0 when missing), in a column of `type`.
PrinterColumn int_column(std::string name, std::string type, std::string description, std::string pointer);

PrinterColumn name_column(std::int64_t priority = 0);
PrinterColumn age_column();  // creationTimestamp's age as text (type string)
// Name and Created At (type date, the RFC 3339 creation time): rest.NewDefaultTableConvertor's
// columns, for the kinds the kube-apiserver has no printer for.
std::vector<PrinterColumn> default_columns();
// The age at `now` of the time at `pointer` ("<unknown>" when missing).
std::string age_at(const Json& object, const std::string& pointer, PrintClock::time_point now);

// labels.FormatLabels: "a=b,c=d" sorted by key, "<none>" when empty.
std::string format_labels(const Json& labels);
// A LabelSelector as labels.Selector's String(): requirements sorted by key, "" when empty.
std::string selector_string(const Json& selector);
// metav1.FormatLabelSelector: selector_string, "<none>" when empty.
std::string format_selector(const Json& selector);

// Containers and Images at priority 1 from the pod spec at `pod_spec`, then Selector from the
// LabelSelector at `selector` (none when empty); `raw_selector`: "" rather than "<none>".
void add_template_columns(std::vector<PrinterColumn>& columns, const std::string& pod_spec,
                          const std::string& selector = "", bool raw_selector = false);

// The column sets of the kube-apiserver's printers (pkg/printers/internalversion).
std::vector<PrinterColumn> pod_columns();
std::vector<PrinterColumn> deployment_columns();
std::vector<PrinterColumn> stateful_set_columns();
std::vector<PrinterColumn> daemon_set_columns();
std::vector<PrinterColumn> replica_set_columns();
std::vector<PrinterColumn> job_columns();
std::vector<PrinterColumn> cron_job_columns();
std::vector<PrinterColumn> service_columns();
std::vector<PrinterColumn> ingress_columns();
std::vector<PrinterColumn> endpoints_columns();
std::vector<PrinterColumn> endpoint_slice_columns();
std::vector<PrinterColumn> config_map_columns();
std::vector<PrinterColumn> secret_columns();
std::vector<PrinterColumn> service_account_columns();
std::vector<PrinterColumn> namespace_columns();
std::vector<PrinterColumn> node_columns();
std::vector<PrinterColumn> lease_columns();
std::vector<PrinterColumn> persistent_volume_columns();
std::vector<PrinterColumn> persistent_volume_claim_columns();
std::vector<PrinterColumn> event_columns();            // core/v1
std::vector<PrinterColumn> events_v1_event_columns();  // events.k8s.io (the same printer)
std::vector<PrinterColumn> role_binding_columns();     // RoleBinding and ClusterRoleBinding
std::vector<PrinterColumn> pod_disruption_budget_columns();

}  // namespace rr::apiserver_detail
