// core/v1 ConfigMap and Secret (pkg/apis/core/validation ValidateConfigMap, ValidateSecret and
// their updates). Keys are IsConfigMapKey; the values of both kinds together may hold 1 MiB.
#include <string>

#include "core_kinds.hpp"
#include "kind_util.hpp"
#include "rr/core/go_quote.hpp"
#include "rr/core/time.hpp"
#include "rr/validation/ports.hpp"

namespace rr::validation::detail {
namespace {

constexpr std::int64_t kMaxSecretSize = 1024 * 1024;
const std::string kImmutableWhenSet = "field is immutable when `immutable` is set";

// Decoded length of standard base64 text; invalid text counts as written (the decoder refuses it).
std::int64_t decoded_size(const std::string& base64) {
  std::size_t n = base64.size();
  if (n % 4 != 0) return static_cast<std::int64_t>(n);
  std::size_t pad = 0;
  while (pad < 2 && n > pad && base64[n - 1 - pad] == '=') ++pad;
  return static_cast<std::int64_t>(n / 4 * 3 - pad);
}

bool immutable_set(const Json& object) {
  const Json* v = member(object, "immutable");
  return v && v->is_boolean() && v->get<bool>();
}

// A map member, absent and null read as {}. (Upstream's reflect.DeepEqual tells a nil map from an
// empty one; a stored object cannot keep that difference across a JSON round trip, so it is not
// kept here either.)
const Json& map_of(const Json& object, std::string_view key) {
  static const Json kEmpty = Json::object();
  const Json* v = object_at(object, key);
  return v ? *v : kEmpty;
}

// Secret data as upstream validates it: stringData has been merged into data (its values win).
struct SecretData {
  Json raw = Json::object();  // key -> decoded bytes
};

SecretData secret_data(const Json& secret) {
  SecretData d;
  for (const auto& [k, v] : map_of(secret, "data").items()) {
    if (!v.is_string()) continue;
    d.raw[k] = Bytes(v.get<std::string>()).decode().value_or(std::string());
  }
  for (const auto& [k, v] : map_of(secret, "stringData").items()) {
    if (v.is_string()) d.raw[k] = v;
  }
  return d;
}

// Go's quoteChar, as its JSON syntax errors show a character.
std::string go_quote_char(char c) {
  if (c == '\'') return "'\\''";
  if (c == '"') return "'\"'";
  const std::string q = go_quote(std::string_view(&c, 1));
  return "'" + q.substr(1, q.size() - 2) + "'";
}

// The error text of Go's json.Unmarshal into a map[string]interface{} for what upstream checks
// most: empty input, a document of another type, and a malformed start (other syntax errors get a
// generic text).
std::optional<std::string> json_object_error(const std::string& text) {
  std::size_t i = 0;
  while (i < text.size() && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r')) ++i;
  if (i == text.size()) return "unexpected end of JSON input";
  const char c = text[i];
  const bool starts_value = c == '{' || c == '[' || c == '"' || c == '-' || (c >= '0' && c <= '9') || c == 't' ||
                            c == 'f' || c == 'n';
  if (!starts_value) return "invalid character " + go_quote_char(c) + " looking for beginning of value";
  Json parsed;
  try {
    parsed = Json::parse(text);
  } catch (const Json::exception&) {
    return "unexpected end of JSON input";
  }
  if (parsed.is_object() || parsed.is_null()) return std::nullopt;
  const char* kind = parsed.is_array()     ? "array"
                     : parsed.is_string()  ? "string"
                     : parsed.is_boolean() ? "bool"
                                           : "number";
  return std::string("json: cannot unmarshal ") + kind + " into Go value of type map[string]interface {}";
}

}  // namespace

ErrorList validate_config_map(const Json& cm) {
  ErrorList errs;
  const Json& data = map_of(cm, "data");
  const Json& binary = map_of(cm, "binaryData");
  std::int64_t total = 0;
  for (const auto& [k, v] : data.items()) {
    invalid_each(errs, key("data", k), k, is_config_map_key(k));
    if (binary.contains(k)) errs.push_back(invalid(key("data", k), k, "duplicate of key present in binaryData"));
    if (v.is_string()) total += static_cast<std::int64_t>(v.get_ref<const std::string&>().size());
  }
  for (const auto& [k, v] : binary.items()) {
    invalid_each(errs, key("binaryData", k), k, is_config_map_key(k));
    if (v.is_string()) total += decoded_size(v.get<std::string>());
  }
  // The path is the empty root: the finding is about the whole object.
  if (total > kMaxSecretSize) errs.push_back(too_long("", kMaxSecretSize));
  return errs;
}

ErrorList validate_config_map_update(const Json& cm, const Json& old) {
  ErrorList errs;
  if (immutable_set(old)) {
    if (!immutable_set(cm)) errs.push_back(forbidden("immutable", kImmutableWhenSet));
    if (map_of(cm, "data") != map_of(old, "data")) errs.push_back(forbidden("data", kImmutableWhenSet));
    if (map_of(cm, "binaryData") != map_of(old, "binaryData"))
      errs.push_back(forbidden("binaryData", kImmutableWhenSet));
  }
  append(errs, validate_config_map(cm));
  return errs;
}

ErrorList validate_secret(const Json& secret) {
  ErrorList errs;
  const SecretData d = secret_data(secret);
  std::int64_t total = 0;
  for (const auto& [k, v] : d.raw.items()) {
    invalid_each(errs, key("data", k), k, is_config_map_key(k));
    total += static_cast<std::int64_t>(v.get_ref<const std::string&>().size());
  }
  if (total > kMaxSecretSize) errs.push_back(too_long("data", kMaxSecretSize));
  const std::string_view type = string_member(secret, "type");
  const auto has = [&](const char* k) { return d.raw.contains(k); };
  if (type == "kubernetes.io/service-account-token") {
    // Only the ServiceAccount's name is required: its uid and token are filled in later.
    const Json& annotations = value_at(value_at(secret, "metadata"), "annotations");
    if (string_member(annotations, "kubernetes.io/service-account.name").empty()) {
      errs.push_back(required("metadata.annotations[kubernetes.io/service-account.name]"));
    }
  } else if (type == "kubernetes.io/dockercfg" || type == "kubernetes.io/dockerconfigjson") {
    const char* k = type == "kubernetes.io/dockercfg" ? ".dockercfg" : ".dockerconfigjson";
    if (!has(k)) {
      errs.push_back(required(key("data", k)));
    } else if (auto error = json_object_error(d.raw[k].get<std::string>())) {
      errs.push_back(invalid(key("data", k), "<secret contents redacted>", *error));
    }
  } else if (type == "kubernetes.io/basic-auth") {
    // Either may be empty, but one must be present.
    if (!has("username") && !has("password")) {
      errs.push_back(required("data[username]"));
      errs.push_back(required("data[password]"));
    }
  } else if (type == "kubernetes.io/ssh-auth") {
    if (!has("ssh-privatekey") || d.raw["ssh-privatekey"].get<std::string>().empty()) {
      errs.push_back(required("data[ssh-privatekey]"));
    }
  } else if (type == "kubernetes.io/tls") {
    if (!has("tls.crt")) errs.push_back(required("data[tls.crt]"));
    if (!has("tls.key")) errs.push_back(required("data[tls.key]"));
  }
  return errs;
}

ErrorList validate_secret_update(const Json& secret, const Json& old) {
  ErrorList errs;
  immutable_field(errs, value_at(secret, "type"), value_at(old, "type"), "type");
  if (immutable_set(old)) {
    if (!immutable_set(secret)) errs.push_back(forbidden("immutable", kImmutableWhenSet));
    if (secret_data(secret).raw != secret_data(old).raw) errs.push_back(forbidden("data", kImmutableWhenSet));
  }
  append(errs, validate_secret(secret));
  return errs;
}

}  // namespace rr::validation::detail
