#include "rr/schema_cel/cel_node_checks.hpp"

#include "decl_type.hpp"
#include "rr/cel/cost.hpp"
#include "schema_members.hpp"

namespace rr::schema {

namespace {

class CelNodeCheck final : public NodeCheck {
 public:
  explicit CelNodeCheck(std::unique_ptr<CelRules> rules) : rules_(std::move(rules)) {}
  void check(const Json& self, const Json* old_self, const std::string& path, const CheckContext& context,
             std::vector<FieldError>& out) const override {
    CheckOptions options;
    options.ratcheting = context.ratcheting;
    options.ancestor_unchanged = context.ancestor_unchanged;
    options.warnings = context.warnings;
    options.budget = context.budget;
    rules_->check(self, old_self, path, out, options);
  }

 private:
  std::unique_ptr<CelRules> rules_;
};

// How many times a node can occur in one object (apiextensions' getExpressionCost): the product of
// the enclosing lists' maxItems and maps' maxProperties when every one has a bound; otherwise as
// many of the node's smallest value as fit in one request (its MaxCardinality: request size /
// (min serialized size + 1)), whatever the nesting.
std::uint64_t cardinality(const Json& node_schema, const std::vector<const Json*>& enclosing) {
  std::uint64_t product = 1;
  for (const Json* collection : enclosing) {
    const auto bound = detail::int_member(*collection, collection->contains("items") ? "maxItems" : "maxProperties");
    if (!bound) {
      const auto decl = detail::decl_type(node_schema, false, "self");
      const std::int64_t min_size = decl ? decl->min_serialized_size : 0;
      return static_cast<std::uint64_t>(detail::kMaxRequestSizeBytes / (min_size + 1));
    }
    product = rr::cel::cost_times_cardinality(product, static_cast<std::uint64_t>(*bound));
  }
  return product;
}

}  // namespace

NodeCheckFactory cel_node_checks(CostTally* tally) {
  return [tally](const Json& node_schema, const std::string& schema_path, const NodeContext& context,
                 std::vector<FieldError>& compile_errors) -> std::unique_ptr<NodeCheck> {
    CompileContext compile_context;
    compile_context.resource_root = context.resource_root;
    compile_context.uncorrelatable_within = context.uncorrelatable_within;
    compile_context.cardinality = cardinality(node_schema, context.enclosing_collections);
    compile_context.tally = tally;
    auto rules = CelRules::compile(node_schema, schema_path, compile_errors, compile_context);
    if (!rules) return nullptr;
    return std::make_unique<CelNodeCheck>(std::move(rules));
  };
}

std::variant<Schema, std::vector<FieldError>> compile_crd_schema(const Json& openapi_v3_schema,
                                                                 const std::string& schema_path) {
  CostTally tally;
  CompileOptions options;
  options.node_checks = cel_node_checks(&tally);
  options.schema_path = schema_path;
  auto compiled = Schema::compile(openapi_v3_schema, options);
  std::vector<FieldError> over_cost;
  tally.check(schema_path, over_cost);
  if (over_cost.empty()) return compiled;
  if (auto* errors = std::get_if<std::vector<FieldError>>(&compiled)) {
    errors->insert(errors->end(), over_cost.begin(), over_cost.end());
    return compiled;
  }
  return over_cost;
}

}  // namespace rr::schema
