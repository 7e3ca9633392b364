#include "rr/schema_cel/cel_node_checks.hpp"

#include "rr/schema_cel/cel_rules.hpp"

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
    rules_->check(self, old_self, path, out, options);
  }

 private:
  std::unique_ptr<CelRules> rules_;
};

}  // namespace

NodeCheckFactory cel_node_checks() {
  return [](const Json& node_schema, const std::string& schema_path, const NodeContext& context,
            std::vector<FieldError>& compile_errors) -> std::unique_ptr<NodeCheck> {
    CompileContext compile_context;
    compile_context.resource_root = context.resource_root;
    compile_context.uncorrelatable_within = context.uncorrelatable_within;
    auto rules = CelRules::compile(node_schema, schema_path, compile_errors, compile_context);
    if (!rules) return nullptr;
    return std::make_unique<CelNodeCheck>(std::move(rules));
  };
}

}  // namespace rr::schema
