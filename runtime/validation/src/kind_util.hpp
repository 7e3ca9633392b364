// Small readers the built-in kinds' validators share: a member of the right JSON type or nothing
// (a member of the wrong type is the decoder's 400, never a 422 here), Go-style field paths, and
// upstream's immutable-field check.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rr/core/json.hpp"
#include "rr/validation/field_error.hpp"

namespace rr::validation::detail {

const Json& absent_json();
// The member when it has the asked type, else nullptr.
const Json* object_at(const Json& object, std::string_view key);
const Json* array_at(const Json& object, std::string_view key);
// A JSON integer member (an int32/int64 field), else nullopt.
std::optional<std::int64_t> int_at(const Json& object, std::string_view key);
// Present and not null: a Go pointer or a non-empty slice/map after decoding.
bool is_set(const Json& object, std::string_view key);
// len() of a list or map member: 0 when absent, null or of another type.
std::size_t size_at(const Json& object, std::string_view key);
// The member, or null when absent (for comparisons that treat absent and null alike).
const Json& value_at(const Json& object, std::string_view key);

std::string key(std::string_view path, std::string_view name);  // path + "[name]" (field.Path.Key)

// ValidateImmutableField: Invalid(path, new value, "field is immutable") when the two differ.
void immutable_field(ErrorList& errs, const Json& now, const Json& old, std::string path);

// A finding whose value is a named Go string type (core.Protocol, core.ServiceType, ...): the API
// server renders those through encoding/json, not %q.
FieldError typed(FieldError e, std::string_view value);

// kind and name of an object reference: each Required when empty, else a path segment name.
void kind_and_name(ErrorList& errs, const Json& ref, const std::string& path);

// ValidateNonSpecialIP (Endpoints addresses, external IPs): a valid IP, not unspecified, loopback
// or link-local.
void non_special_ip(ErrorList& errs, std::string_view ip_text, const std::string& path);

// Invalid findings, one per message, all showing the same string value.
void invalid_each(ErrorList& errs, const std::string& path, std::string_view value, std::vector<std::string> messages);

}  // namespace rr::validation::detail
