// Schema::compile: the structural checks, then the tree (patterns compiled once, the NodeChecks
// made), then each default checked against its own node as the API server checks it.
#include <algorithm>

#include "engine.hpp"
#include "error_text.hpp"
#include "structural.hpp"

namespace rr::schema {
namespace {

const Json* member(const Json& node, const char* key) {
  auto it = node.find(key);
  return it == node.end() ? nullptr : &*it;
}

bool flag(const Json& node, const char* key) {
  const Json* v = member(node, key);
  return v && v->is_boolean() && v->get<bool>();
}

template <class T>
void read_number(const Json& node, const char* key, std::optional<T>& out) {
  if (const Json* v = member(node, key); v && v->is_number()) out = v->get<T>();
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

class Builder {
 public:
  Builder(const CompileOptions& options, std::vector<FieldError>& errors) : options_(options), errors_(errors) {}

  std::unique_ptr<Node> build(const Json& s, const std::string& at, bool junctor) {
    auto n = std::make_unique<Node>();
    if (!s.is_object()) return n;
    if (const Json* t = member(s, "type"); t && t->is_string()) n->type = t->get<std::string>();
    n->nullable = flag(s, "nullable");
    n->int_or_string = flag(s, "x-kubernetes-int-or-string");
    n->preserve_unknown = flag(s, "x-kubernetes-preserve-unknown-fields");
    n->embedded = flag(s, "x-kubernetes-embedded-resource");
    if (const Json* d = member(s, "default")) n->default_value = *d;
    if (const Json* props = member(s, "properties"); props && props->is_object())
      for (const auto& [name, child] : props->items())
        n->properties.emplace(name, build(child, at + ".properties[" + name + "]", junctor));
    if (const Json* ap = member(s, "additionalProperties")) {
      if (ap->is_object()) n->additional = build(*ap, at + ".additionalProperties", junctor);
      else if (ap->is_boolean() && ap->get<bool>()) n->additional = std::make_unique<Node>();
      if (n->additional && ap->is_boolean()) n->additional->preserve_unknown = true;
    }
    if (const Json* items = member(s, "items"); items && items->is_object())
      n->items = build(*items, at + ".items", junctor);
    if (const Json* req = member(s, "required"); req && req->is_array())
      for (const Json& r : *req)
        if (r.is_string()) n->required.push_back(r.get<std::string>());
    list_semantics(s, *n);
    value_validations(s, *n, at);
    junctors(s, *n, at);
    if (!junctor && options_.node_checks && member(s, "x-kubernetes-validations"))
      n->check = options_.node_checks(s, at, errors_);
    return n;
  }

 private:
  void list_semantics(const Json& s, Node& n) {
    if (const Json* lt = member(s, "x-kubernetes-list-type"); lt && lt->is_string()) {
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
    if (const Json* f = member(s, "format"); f && f->is_string()) n.format = format_of(f->get<std::string>());
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
  std::vector<FieldError>& errors_;
};

// A default must survive pruning unchanged and validate against its node (upstream validates
// defaults with the same validator as objects, at "<node>.default").
void check_defaults(const Node& n, const std::string& at, std::vector<FieldError>& errors) {
  if (n.default_value && !(n.default_value->is_null() && n.nullable)) {
    Json pruned = *n.default_value;
    std::vector<std::string> removed;
    prune_value(n, pruned, n.embedded, "", removed);
    if (!removed.empty())
      errors.push_back(field_error(at + ".default", FieldErrorType::Invalid, {}, "must not have unknown fields"));
    Validator v(at + ".default");
    ValidationRun run;
    run.ratcheting = false;
    validate_value(n, *n.default_value, nullptr, v, run, errors);
  }
  for (const auto& [name, child] : n.properties) check_defaults(*child, at + ".properties[" + name + "]", errors);
  if (n.items) check_defaults(*n.items, at + ".items", errors);
  if (n.additional) check_defaults(*n.additional, at + ".additionalProperties", errors);
}

}  // namespace

std::variant<Schema, std::vector<FieldError>> Schema::compile(const Json& openapi_v3_schema,
                                                              const CompileOptions& options) {
  std::vector<FieldError> errors;
  check_structural(openapi_v3_schema, options.schema_path, errors);
  if (!errors.empty()) return errors;
  std::shared_ptr<const Node> root = Builder(options, errors).build(openapi_v3_schema, options.schema_path, false);
  check_defaults(*root, options.schema_path, errors);
  if (!errors.empty()) return errors;
  return Schema(std::move(root));
}

}  // namespace rr::schema
