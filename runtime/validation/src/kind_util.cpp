#include "kind_util.hpp"

#include "go_text.hpp"
#include "ip_address.hpp"
#include "rr/validation/names.hpp"

namespace rr::validation::detail {

const Json& absent_json() {
  static const Json kNull;
  return kNull;
}

const Json* object_at(const Json& object, std::string_view key) {
  const Json* v = member(object, key);
  return v && v->is_object() ? v : nullptr;
}

const Json* array_at(const Json& object, std::string_view key) {
  const Json* v = member(object, key);
  return v && v->is_array() ? v : nullptr;
}

std::optional<std::int64_t> int_at(const Json& object, std::string_view key) {
  const Json* v = member(object, key);
  if (!v || !v->is_number_integer()) return std::nullopt;
  return v->get<std::int64_t>();
}

bool is_set(const Json& object, std::string_view key) {
  const Json* v = member(object, key);
  return v && !v->is_null();
}

std::size_t size_at(const Json& object, std::string_view key) {
  const Json* v = member(object, key);
  return v && (v->is_array() || v->is_object()) ? v->size() : 0;
}

const Json& value_at(const Json& object, std::string_view key) {
  const Json* v = member(object, key);
  return v ? *v : absent_json();
}

std::string key(std::string_view path, std::string_view name) {
  return std::string(path) + "[" + std::string(name) + "]";
}

void immutable_field(ErrorList& errs, const Json& now, const Json& old, std::string path) {
  if (now != old) errs.push_back(invalid_json(std::move(path), go_json(now), "field is immutable"));
}

FieldError typed(FieldError e, std::string_view value) {
  e.value = go_json_string(value);
  return e;
}

void kind_and_name(ErrorList& errs, const Json& ref, const std::string& path) {
  for (const char* f : {"kind", "name"}) {
    const std::string_view v = string_member(ref, f);
    if (v.empty()) {
      errs.push_back(required(child(path, f)));
    } else {
      invalid_each(errs, child(path, f), v, is_valid_path_segment_name(v));
    }
  }
}

void non_special_ip(ErrorList& errs, std::string_view ip_text, const std::string& path) {
  const auto ip = parse_ip_sloppy(ip_text);
  if (!ip) return errs.push_back(invalid(path, ip_text, "must be a valid IP address"));
  if (ip->is_unspecified())
    errs.push_back(invalid(path, ip_text, "may not be unspecified (" + std::string(ip_text) + ")"));
  if (ip->is_loopback())
    errs.push_back(invalid(path, ip_text, "may not be in the loopback range (127.0.0.0/8, ::1/128)"));
  if (ip->is_link_local_unicast()) {
    errs.push_back(invalid(path, ip_text, "may not be in the link-local range (169.254.0.0/16, fe80::/10)"));
  }
  if (ip->is_link_local_multicast()) {
    errs.push_back(invalid(path, ip_text, "may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)"));
  }
}

void invalid_each(ErrorList& errs, const std::string& path, std::string_view value, std::vector<std::string> messages) {
  for (std::string& m : messages) errs.push_back(invalid(path, value, std::move(m)));
}

}  // namespace rr::validation::detail
