// Schema::compile: the API server's checks of a CRD schema, and the tree (patterns compiled once,
// the NodeChecks made) that validation, defaulting and pruning walk.
#include <algorithm>
#include <cstdint>
#include <limits>
#include <set>

#include "engine.hpp"
#include "error_text.hpp"
#include "schema_json.hpp"
#include "structural.hpp"

namespace rr::schema {
namespace {

void read_number(const Json& node, const char* key, std::optional<double>& out) {
  if (const Json* v = member(node, key); v && v->is_number()) out = v->get<double>();
}

// A size bound (minLength, maxItems, ...): any JSON number, saturated to int64 as a fraction or a
// bound past 2^63 cannot be a count (a plain conversion would be undefined behaviour).
void read_number(const Json& node, const char* key, std::optional<std::int64_t>& out) {
  const Json* v = member(node, key);
  if (!v || !v->is_number()) return;
  constexpr auto kMax = std::numeric_limits<std::int64_t>::max();
  if (v->is_number_unsigned()) {
    out = v->get<std::uint64_t>() > static_cast<std::uint64_t>(kMax) ? kMax : v->get<std::int64_t>();
  } else if (v->is_number_integer()) {
    out = v->get<std::int64_t>();
  } else {
    const double d = v->get<double>();
    out = d >= 9.2e18 ? kMax : d <= -9.2e18 ? std::numeric_limits<std::int64_t>::min() : static_cast<std::int64_t>(d);
  }
}

// The formats of kube-openapi's strfmt registry that rr::Validator checks; others pass.
Format format_of(const std::string& name) {
  static const std::pair<const char*, Format> table[] = {
      {"date-time", Format::DateTime}, {"datetime", Format::DateTime},
      {"date", Format::Date},          {"byte", Format::Byte},
      {"ipv4", Format::IPv4},          {"ipv6", Format::IPv6},
      {"uuid", Format::UUID},          {"duration", Format::Duration},
      {"hostname", Format::Hostname},  {"uri", Format::URI},
      {"cidr", Format::CIDR},          {"mac", Format::MAC}};
  for (const auto& [k, f] : table)
    if (name == k) return f;
  return Format::None;
}

// apiextensions' supported formats (formats.go); it strips any other before validating, so only
// these take part in kube-openapi's type check. Names compare without '-' (date-time = datetime).
bool supported_format(std::string name) {
  static const std::set<std::string, std::less<>> kSupported = {
      "bsonobjectid", "uri",      "email",    "hostname", "ipv4",     "ipv6",   "cidr",     "mac",
      "uuid",         "uuid3",    "uuid4",    "uuid5",    "isbn",     "isbn10", "isbn13",   "creditcard",
      "ssn",          "hexcolor", "rgbcolor", "byte",     "password", "date",   "duration", "datetime"};
  name.erase(std::remove(name.begin(), name.end(), '-'), name.end());
  return kSupported.count(name) > 0;
}

class Builder {
 public:
  Builder(const CompileOptions& options, std::vector<FieldError>& errors, std::vector<FieldError>& check_errors)
      : options_(options), errors_(errors), check_errors_(check_errors) {}

  // `context.uncorrelatable_within` is the outermost list or atomic map above `s` whose parts CEL
  // cannot correlate; the root's context says resource_root.
  std::unique_ptr<Node> build(const Json& s, const std::string& at, bool junctor, NodeContext context = {}) {
    auto n = std::make_unique<Node>();
    if (!s.is_object()) return n;
    if (const Json* t = member(s, "type"); t && t->is_string()) n->type = t->get<std::string>();
    n->nullable = flag(s, "nullable");
    n->int_or_string = flag(s, "x-kubernetes-int-or-string");
    n->preserve_unknown = flag(s, "x-kubernetes-preserve-unknown-fields");
    n->embedded = flag(s, "x-kubernetes-embedded-resource");
    n->atomic_map = string_member(s, "x-kubernetes-map-type") == "atomic";
    if (const Json* d = member(s, "default")) n->default_value = *d;
    NodeContext below{false, context.uncorrelatable_within, context.enclosing_collections};
    NodeContext collected = below;  // inside this node's items or map values
    collected.enclosing_collections.push_back(&s);
    if (const Json* props = member(s, "properties"); props && props->is_object()) {
      NodeContext members = below;
      if (members.uncorrelatable_within.empty() && string_member(s, "x-kubernetes-map-type") == "atomic")
        members.uncorrelatable_within = at;
      for (const auto& [name, child] : props->items())
        n->properties.emplace(name, build(child, at + ".properties[" + name + "]", junctor, members));
    }
    // additionalProperties: true allows any member, with no schema below it (pruning empties objects).
    if (const Json* ap = member(s, "additionalProperties")) {
      n->additional_is_schema = ap->is_object();
      if (ap->is_object()) n->additional = build(*ap, at + ".additionalProperties", junctor, collected);
      else if (*ap == true) n->additional = std::make_unique<Node>();
    }
    if (const Json* items = member(s, "items"); items && items->is_object()) {
      NodeContext item = collected;
      if (item.uncorrelatable_within.empty() && string_member(s, "x-kubernetes-list-type") != "map")
        item.uncorrelatable_within = at;
      n->items = build(*items, at + ".items", junctor, item);
    }
    if (const Json* req = member(s, "required"); req && req->is_array())
      for (const Json& r : *req)
        if (r.is_string()) n->required.push_back(r.get<std::string>());
    list_semantics(s, *n);
    value_validations(s, *n, at);
    junctors(s, *n, at);
    if (!junctor && options_.node_checks && member(s, "x-kubernetes-validations"))
      n->check = options_.node_checks(s, at, context, check_errors_);
    return n;
  }

 private:
  void list_semantics(const Json& s, Node& n) {
    if (const Json* lt = member(s, "x-kubernetes-list-type"); lt && lt->is_string()) {
      if (*lt == "atomic") n.list_type = ListType::Atomic;
      if (*lt == "set") n.list_type = ListType::Set;
      if (*lt == "map") n.list_type = ListType::Map;
    }
    if (const Json* keys = member(s, "x-kubernetes-list-map-keys"); keys && keys->is_array())
      for (const Json& k : *keys)
        if (k.is_string()) n.list_map_keys.push_back(k.get<std::string>());
  }

  void value_validations(const Json& s, Node& n, const std::string& at) {
    read_number(s, "minimum", n.minimum);
    read_number(s, "maximum", n.maximum);
    read_number(s, "multipleOf", n.multiple_of);
    n.exclusive_minimum = flag(s, "exclusiveMinimum");
    n.exclusive_maximum = flag(s, "exclusiveMaximum");
    read_number(s, "minLength", n.min_length);
    read_number(s, "maxLength", n.max_length);
    read_number(s, "minItems", n.min_items);
    read_number(s, "maxItems", n.max_items);
    read_number(s, "minProperties", n.min_properties);
    read_number(s, "maxProperties", n.max_properties);
    if (const Json* e = member(s, "enum"); e && e->is_array())
      for (const Json& v : *e) n.enum_json.push_back(v.dump());
    if (const Json* p = member(s, "pattern"); p && p->is_string()) {
      n.pattern = std::make_unique<Pattern>(p->get<std::string>());
      if (!n.pattern->ok())
        errors_.push_back(field_error(at + ".pattern", FieldErrorType::Invalid, p->dump(),
                                      "must be a valid regular expression, but isn't: " + n.pattern->error()));
    }
    if (const Json* f = member(s, "format"); f && f->is_string()) {
      n.format = format_of(f->get<std::string>());
      if (supported_format(f->get<std::string>())) n.format_name = f->get<std::string>();
    }
  }

  void junctors(const Json& s, Node& n, const std::string& at) {
    auto list = [&](const char* key, std::vector<std::unique_ptr<Node>>& out) {
      if (const Json* l = member(s, key); l && l->is_array())
        for (std::size_t i = 0; i < l->size(); ++i)
          out.push_back(build((*l)[i], at + "." + key + "[" + std::to_string(i) + "]", true));
    };
    list("allOf", n.all_of);
    list("anyOf", n.any_of);
    list("oneOf", n.one_of);
    if (const Json* x = member(s, "not")) n.not_ = build(*x, at + ".not", true);
  }

  const CompileOptions& options_;
  std::vector<FieldError>& errors_;  // structural: patterns RE2 refuses
  std::vector<FieldError>& check_errors_;
};

}  // namespace

std::variant<Schema, std::vector<FieldError>> Schema::compile(const Json& openapi_v3_schema,
                                                              const CompileOptions& options) {
  // Upstream's order: structural findings (or, when there are none, the defaults'), then the
  // OpenAPI schema's; the NodeChecks' compile errors only when everything else is clean.
  std::vector<FieldError> errors = structural_errors(openapi_v3_schema, options.schema_path);
  std::vector<FieldError> check_errors;
  std::shared_ptr<const Node> root;
  if (errors.empty()) {
    Builder builder(options, errors, check_errors);
    root = builder.build(openapi_v3_schema, options.schema_path, false, NodeContext{true, {}, {}});
    if (errors.empty()) errors = default_errors(*root, options.schema_path);
  }
  for (auto& e : openapi_errors(openapi_v3_schema, options.schema_path)) errors.push_back(std::move(e));
  if (errors.empty()) errors = std::move(check_errors);
  if (!errors.empty()) return errors;
  return Schema(std::move(root));
}

}  // namespace rr::schema
