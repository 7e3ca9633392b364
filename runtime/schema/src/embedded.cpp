#include "embedded.hpp"

#include <algorithm>
#include <cctype>

#include "error_text.hpp"
#include "rr/core/go_quote.hpp"
#include "schema_json.hpp"

namespace rr::schema {
namespace {

// apimachinery's IsDNS1035Label, on the kind lower-cased.
std::vector<std::string> dns1035_label(const std::string& s) {
  std::vector<std::string> errs;
  if (s.size() > 63) errs.push_back("must be no more than 63 characters");
  auto alnum = [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); };
  const bool ok = !s.empty() && s.front() >= 'a' && s.front() <= 'z' && alnum(s.back()) &&
                  std::all_of(s.begin(), s.end(), [&](char c) { return alnum(c) || c == '-'; });
  if (!ok)
    errs.push_back(
        "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic "
        "character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation "
        "is '[a-z]([-a-z0-9]*[a-z0-9])?')");
  return errs;
}

// apimachinery's path.IsValidPathSegmentName (prefix: IsValidPathSegmentPrefix, for generateName).
std::vector<std::string> path_segment(const std::string& s, bool prefix) {
  std::vector<std::string> errs;
  if (!prefix && (s == "." || s == "..")) return {"may not be '" + s + "'"};
  if (s.find('/') != std::string::npos) errs.push_back("may not contain '/'");
  if (s.find('%') != std::string::npos) errs.push_back("may not contain '%'");
  return errs;
}

std::string child(const std::string& path, std::string_view key) {
  return path.empty() ? std::string(key) : path + "." + std::string(key);
}

void type_meta(const Json& value, const std::string& path, std::vector<FieldError>& out) {
  for (const char* key : {"apiVersion", "kind"})
    if (!value.contains(key)) out.push_back(field_error(child(path, key), FieldErrorType::Required, {}, {}));
  if (const Json* v = member(value, "apiVersion")) {
    const std::string at = child(path, "apiVersion");
    if (!v->is_string()) {
      out.push_back(field_error(at, FieldErrorType::Invalid, go_value(*v), "must be a string"));
    } else if (v->get_ref<const std::string&>().empty()) {
      out.push_back(field_error(at, FieldErrorType::Required, {}, {}));
    } else if (const auto& gv = v->get_ref<const std::string&>(); std::count(gv.begin(), gv.end(), '/') > 1) {
      out.push_back(field_error(at, FieldErrorType::Invalid, go_quote(gv), "unexpected GroupVersion string: " + gv));
    }
  }
  if (const Json* v = member(value, "kind")) {
    const std::string at = child(path, "kind");
    if (!v->is_string()) {
      out.push_back(field_error(at, FieldErrorType::Invalid, go_value(*v), "must be a string"));
    } else if (v->get_ref<const std::string&>().empty()) {
      out.push_back(field_error(at, FieldErrorType::Required, {}, {}));
    } else {
      std::string lower = v->get<std::string>();
      std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
      std::string joined;
      for (const auto& e : dns1035_label(lower)) joined += (joined.empty() ? "" : ",") + e;
      if (!joined.empty())
        out.push_back(field_error(at, FieldErrorType::Invalid, go_quote(v->get_ref<const std::string&>()),
                                  "may have mixed case, but should otherwise match: " + joined));
    }
  }
}

}  // namespace

void check_embedded(const Json& value, const std::string& path, std::vector<FieldError>& out) {
  type_meta(value, path, out);
  const Json* meta = member(value, "metadata");
  if (!meta) return;
  const std::string at = child(path, "metadata");
  if (!meta->is_object()) {
    out.push_back(field_error(at, FieldErrorType::Invalid, go_value(*meta), "must be an object"));
    return;
  }
  for (const auto& [key, prefix] : {std::pair{"name", false}, std::pair{"generateName", true}})
    if (const Json* n = member(*meta, key); n && n->is_string() && !n->get_ref<const std::string&>().empty())
      for (const auto& e : path_segment(n->get<std::string>(), prefix))
        out.push_back(
            field_error(at + "." + key, FieldErrorType::Invalid, go_quote(n->get_ref<const std::string&>()), e));
}

}  // namespace rr::schema
