#include "rr/schema_cel/typed_rules.hpp"

#include <algorithm>

#include "rr/schema_cel/cel_node_checks.hpp"

namespace rr::schema {

TypedRules::TypedRules(std::string_view schema_json) {
  CompileOptions options;
  options.node_checks = cel_node_checks();
  auto result = Schema::compile(Json::parse(schema_json), options);
  if (auto* errors = std::get_if<std::vector<FieldError>>(&result)) compile_errors_ = std::move(*errors);
  else schema_.emplace(std::get<Schema>(std::move(result)));
}

void TypedRules::check(Json object, const Json* old, std::vector<FieldError>& errors) const {
  if (!schema_) {
    errors.insert(errors.end(), compile_errors_.begin(), compile_errors_.end());
    return;
  }
  schema_->prune(object);
  std::optional<Json> old_pruned;
  if (old) schema_->prune(old_pruned.emplace(*old));
  ValidateOptions options;
  options.checks_and_junctors_only = true;
  options.caller_blocks_checks = std::any_of(errors.begin(), errors.end(), blocks_checks);
  for (auto& e : schema_->validate(object, old_pruned ? &*old_pruned : nullptr, options))
    errors.push_back(std::move(e));
}

}  // namespace rr::schema
