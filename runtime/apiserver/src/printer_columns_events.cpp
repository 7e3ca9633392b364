// Event columns as the kube-apiserver's printEvent writes them. events.k8s.io Events are stored as
// core Events upstream and printed by the same printer; here their own field names are read.
#include <cctype>

#include "printer_columns_internal.hpp"

namespace rr::apiserver_detail {

namespace {

// Where each printed field lives in one of the two Event shapes.
struct EventFields {
  std::string object;  // involvedObject / regarding
  std::string message;
  std::string first;
  std::string last;
  std::string count;
  std::string source;
  std::string controller;
};

const EventFields core_fields{"/involvedObject", "/message", "/firstTimestamp",    "/lastTimestamp",
                              "/count",          "/source",  "/reportingComponent"};
const EventFields events_v1_fields{"/regarding",
                                   "/note",
                                   "/deprecatedFirstTimestamp",
                                   "/deprecatedLastTimestamp",
                                   "/deprecatedCount",
                                   "/deprecatedSource",
                                   "/reportingController"};

// First seen: firstTimestamp, else eventTime (a MicroTime).
std::string first_seen(const Json& e, const EventFields& f, PrintClock::time_point now) {
  return age_at(e, is_set(e, f.first) ? f.first : "/eventTime", now);
}

// Last seen: the series' last observation, else lastTimestamp, else first seen.
std::string last_seen(const Json& e, const EventFields& f, PrintClock::time_point now) {
  if (at(e, "/series").is_object()) return age_at(e, "/series/lastObservedTime", now);
  return is_set(e, f.last) ? age_at(e, f.last, now) : first_seen(e, f, now);
}

std::int64_t event_count(const Json& e, const EventFields& f) {
  if (at(e, "/series").is_object()) return int_at(e, "/series/count");
  const std::int64_t count = int_at(e, f.count);
  return count == 0 ? 1 : count;  // singleton events of the new API set none
}

// "pod/web-1": the involved object's kind in lower case, then its name when it has one.
std::string event_target(const Json& e, const EventFields& f) {
  std::string kind = string_at(e, f.object + "/kind");
  for (char& c : kind) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  const std::string name = string_at(e, f.object + "/name");
  return name.empty() ? kind : kind + "/" + name;
}

// "component, host", each falling back to the reporting controller and instance.
std::string event_source(const Json& e, const EventFields& f) {
  const std::string component = string_or(e, f.source + "/component", string_at(e, f.controller));
  const std::string host = string_or(e, f.source + "/host", string_at(e, "/reportingInstance"));
  return host.empty() ? component : component + ", " + host;
}

std::string trimmed(std::string text) {
  const auto space = [](char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; };
  while (!text.empty() && space(text.back())) text.pop_back();
  std::size_t start = 0;
  while (start < text.size() && space(text[start])) ++start;
  return text.substr(start);
}

std::vector<PrinterColumn> columns_of(const EventFields& f) {
  std::vector<PrinterColumn> columns;
  columns.push_back(column("Last Seen", "string", "When the event was last seen.", 0,
                           [f](const Json& e, PrintClock::time_point now) -> Json { return last_seen(e, f, now); }));
  columns.push_back(
      text_column("Type", "Normal or Warning.", 0, [](const Json& e) -> Json { return string_at(e, "/type"); }));
  columns.push_back(text_column("Reason", "Why the event happened.", 0,
                                [](const Json& e) -> Json { return string_at(e, "/reason"); }));
  columns.push_back(text_column("Object", "The object the event is about.", 0,
                                [f](const Json& e) -> Json { return event_target(e, f); }));
  columns.push_back(text_column("Subobject", "The field path within the object.", 1,
                                [f](const Json& e) -> Json { return string_at(e, f.object + "/fieldPath"); }));
  columns.push_back(text_column("Source", "The component that reported the event.", 1,
                                [f](const Json& e) -> Json { return event_source(e, f); }));
  columns.push_back(text_column("Message", "What happened.", 0,
                                [f](const Json& e) -> Json { return trimmed(string_at(e, f.message)); }));
  columns.push_back(column("First Seen", "string", "When the event was first seen.", 1,
                           [f](const Json& e, PrintClock::time_point now) -> Json { return first_seen(e, f, now); }));
  columns.push_back(typed_column("Count", "string", "How often the event happened.", 1,
                                 [f](const Json& e) -> Json { return event_count(e, f); }));
  columns.push_back(name_column(1));
  return columns;
}

}  // namespace

std::vector<PrinterColumn> event_columns() { return columns_of(core_fields); }

std::vector<PrinterColumn> events_v1_event_columns() { return columns_of(events_v1_fields); }

}  // namespace rr::apiserver_detail
