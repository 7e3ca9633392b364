// Reading a review's JSON with errors that say where: each accessor takes the member's path for
// the message ("request.userInfo.groups[2]") and throws ReviewError on a wrong type. Absent and
// null members read as empty, as Go's decoder leaves them.
#pragma once
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rr/client/api_error.hpp"
#include "rr/core/json.hpp"
#include "rr/webhook/review_error.hpp"

namespace rr::webhook::review {

// Parses `body`, checks apiVersion and kind and returns its `section_name` member ("request" or
// "response"), which must be an object.
Json open_review(std::string_view body, std::string_view api_version, std::string_view kind,
                 std::string_view section_name);

class Fields {
 public:
  // `object` must be a JSON object; `where` prefixes every message ("AdmissionReview: request").
  Fields(const Json& object, std::string where) : object_(object), where_(std::move(where)) {}

  std::string string(std::string_view name) const;
  std::string required_string(std::string_view name) const;  // "<path> is missing" when empty
  bool boolean(std::string_view name) const;
  std::vector<std::string> strings(std::string_view name) const;
  std::map<std::string, std::string> string_map(std::string_view name) const;
  std::map<std::string, std::vector<std::string>> string_lists(std::string_view name) const;
  const Json* object(std::string_view name) const;  // nullptr: absent or null
  std::optional<Fields> nested(std::string_view name) const;
  std::vector<Json> objects(std::string_view name) const;  // a list of JSON objects
  Json any(std::string_view name) const;                   // raw; null when absent
  [[noreturn]] void fail(std::string_view name, std::string_view what) const;
  std::string path(std::string_view name) const { return where_ + "." + std::string(name); }

 private:
  const Json* member(std::string_view name) const;
  const Json& object_;
  std::string where_;
};

// metav1.Status without kind/apiVersion, as the `status` of an AdmissionResponse or the `result`
// of a ConversionResponse carries it.
Json status_json(const Status& status, std::string_view outcome);
Status status_of(const Json& json);

}  // namespace rr::webhook::review
