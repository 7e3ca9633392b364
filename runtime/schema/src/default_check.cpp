// compile()'s check of defaults, as structuraldefaulting.ValidateDefaults does it: each default
// (in properties and items; never under additionalProperties) must come out of pruning unchanged
// and validate against its own node, with the findings placed under "<node>.default".
#include "engine.hpp"
#include "error_text.hpp"

namespace rr::schema {
namespace {

// A finding of validating the default alone (paths relative to it) moved under `base`.
FieldError relocate(FieldError e, const std::string& base) {
  const std::string& rel = e.path;
  std::string at = base;
  if (!rel.empty()) at += rel[0] == '[' ? rel : "." + rel;
  std::string message = e.message;
  if (message.rfind("<nil>: ", 0) == 0) {
    message = at + message.substr(5);
  } else if (!rel.empty() && message.rfind(rel + ": ", 0) == 0) {
    message = at + message.substr(rel.size());
  } else if (rel.empty()) {
    // kube-openapi names the default itself "": its messages read " in body should ...".
    if (auto body = message.find(": body "); body != std::string::npos) message.replace(body, 7, ":  in body ");
    message = at + ": " + message;
  }
  return FieldError{std::move(at), e.type, std::move(message)};
}

void check(const Node& n, const std::string& at, std::vector<FieldError>& out) {
  if (n.default_value) {
    const std::string base = at + ".default";
    Json pruned = *n.default_value;
    std::vector<std::string> removed;
    prune_value(n, pruned, false, "", removed);
    if (!removed.empty())
      out.push_back(
          field_error(base, FieldErrorType::Invalid, go_value(*n.default_value), "must not have unknown fields"));
    ValidateOptions options;
    options.ratcheting = false;
    for (auto& e : validate_tree(n, *n.default_value, nullptr, options, {}, false))
      out.push_back(relocate(std::move(e), base));
  }
  if (n.items) check(*n.items, at + ".items", out);
  for (const auto& [name, child] : n.properties) check(*child, at + ".properties[" + name + "]", out);
}

}  // namespace

std::vector<FieldError> default_errors(const Node& root, const std::string& schema_path) {
  std::vector<FieldError> out;
  check(root, schema_path, out);
  return out;
}

}  // namespace rr::schema
