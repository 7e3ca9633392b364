// The NodeCheck hook: made once per node with x-kubernetes-validations, called with the node's
// value, its correlated old value and its field path.
#include <doctest/doctest.h>

#include <memory>

#include "support.hpp"

using rr::Json;
using schema_test::compiled;
using schema_test::messages;

namespace {

struct Call {
  Json self;
  bool has_old = false;
  Json old_self;
  std::string path;
  bool ancestor_unchanged = false;
};

// Records every call and reports one error at the node, so the caller sees the hook ran.
class Recorder : public rr::schema::NodeCheck {
 public:
  Recorder(std::vector<Call>& calls, std::string rule) : calls_(calls), rule_(std::move(rule)) {}
  void check(const Json& self, const Json* old_self, const std::string& path, const rr::schema::CheckContext& context,
             std::vector<rr::FieldError>& out) const override {
    calls_.push_back(Call{self, old_self != nullptr, old_self ? *old_self : Json(), path, context.ancestor_unchanged});
    out.push_back(rr::FieldError{path, rr::FieldErrorType::Invalid, path + ": Invalid value: \"object\": " + rule_});
  }

 private:
  std::vector<Call>& calls_;
  std::string rule_;
};

const char* const kNodeCheckSchema = R"({"type":"object","properties":{"spec":{"type":"object",
  "x-kubernetes-validations":[{"rule":"root"}],
  "properties":{
    "ports":{"type":"array","x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["name"],
      "items":{"type":"object","required":["name"],"x-kubernetes-validations":[{"rule":"item"}],
        "properties":{"name":{"type":"string"},"port":{"type":"integer"}}}},
    "byKey":{"type":"object","additionalProperties":{"type":"string","x-kubernetes-validations":[{"rule":"value"}]}},
    "atomic":{"type":"array","items":{"type":"string","x-kubernetes-validations":[{"rule":"atomic"}]}},
    "n":{"type":"integer"},
    "frozen":{"type":"object","x-kubernetes-map-type":"atomic","properties":{"v":{"type":"string",
      "x-kubernetes-validations":[{"rule":"frozen"}]}}}
  }}}})";

struct NodeCheckFixture {
  std::vector<Call> calls;
  std::vector<std::string> compiled_at;
  std::vector<rr::schema::NodeContext> contexts;
  rr::schema::Schema schema = make();

  rr::schema::Schema make() {
    rr::schema::CompileOptions options;
    options.node_checks = [this](const Json& node, const std::string& at, const rr::schema::NodeContext& context,
                                 std::vector<rr::FieldError>&) {
      compiled_at.push_back(at);
      contexts.push_back(context);
      return std::make_unique<Recorder>(calls, node["x-kubernetes-validations"][0]["rule"].get<std::string>());
    };
    return compiled(Json::parse(kNodeCheckSchema), options);
  }
};

}  // namespace

TEST_CASE("node checks: made once per node at compile time, at the schema path") {
  NodeCheckFixture f;
  // Children before their parent, as the tree is built.
  CHECK(f.compiled_at == std::vector<std::string>{
                             "spec.validation.openAPIV3Schema.properties[spec].properties[atomic].items",
                             "spec.validation.openAPIV3Schema.properties[spec].properties[byKey].additionalProperties",
                             "spec.validation.openAPIV3Schema.properties[spec].properties[frozen].properties[v]",
                             "spec.validation.openAPIV3Schema.properties[spec].properties[ports].items",
                             "spec.validation.openAPIV3Schema.properties[spec]"});
}

TEST_CASE("node checks: self, correlated old_self and path on update") {
  NodeCheckFixture f;
  const Json old = Json::parse(R"({"spec":{"n":1,"ports":[{"name":"a","port":1}],"byKey":{"k":"v"},"atomic":["x"]}})");
  const Json updated = Json::parse(
      R"({"spec":{"n":2,"ports":[{"name":"b","port":2},{"name":"a","port":3}],"byKey":{"k":"w"},"atomic":["y"]}})");
  const auto errors = f.schema.validate(updated, &old);
  REQUIRE(f.calls.size() == 5);
  // Children first (depth first), the node's own check after them.
  CHECK(f.calls[0].path == "spec.atomic[0]");
  CHECK_FALSE(f.calls[0].has_old);  // an atomic list's items have no old value
  CHECK(f.calls[1].path == "spec.byKey[k]");
  CHECK(f.calls[1].old_self == "v");
  CHECK(f.calls[2].path == "spec.ports[0]");
  CHECK_FALSE(f.calls[2].has_old);  // "b" is new
  CHECK(f.calls[3].path == "spec.ports[1]");
  CHECK(f.calls[3].old_self == Json::parse(R"({"name":"a","port":1})"));  // correlated by key, not index
  CHECK(f.calls[4].path == "spec");
  CHECK(f.calls[4].self == updated["spec"]);
  CHECK(f.calls[4].old_self == old["spec"]);
  CHECK(errors.size() == 5);
}

TEST_CASE(
    "node checks: they run at unchanged values too, told what ratcheting needs; blocking findings withhold them") {
  NodeCheckFixture f;
  // The check ratchets by itself (a transition rule must still see an unchanged value), so it
  // runs at byKey[k] with an equal old_self. atomic's items have no old_self; they learn whether
  // their nearest correlated ancestor, the list, is unchanged.
  const Json old = Json::parse(R"({"spec":{"n":1,"byKey":{"k":"v"},"atomic":["x"]}})");
  const Json updated = Json::parse(R"({"spec":{"n":2,"byKey":{"k":"v"},"atomic":["x","y"]}})");
  const auto errors = f.schema.validate(updated, &old);
  REQUIRE(f.calls.size() == 4);
  CHECK(f.calls[0].path == "spec.atomic[0]");
  CHECK_FALSE(f.calls[0].has_old);
  CHECK_FALSE(f.calls[0].ancestor_unchanged);  // the list changed
  CHECK(f.calls[2].path == "spec.byKey[k]");
  CHECK(f.calls[2].old_self == f.calls[2].self);
  CHECK(errors.size() == 4);
  f.calls.clear();
  const Json same_list = Json::parse(R"({"spec":{"n":2,"byKey":{"k":"v"},"atomic":["x"]}})");
  f.schema.validate(same_list, &old);
  REQUIRE(f.calls.size() == 3);
  CHECK(f.calls[0].ancestor_unchanged);  // the list is unchanged though spec is not

  f.calls.clear();
  const Json wrong = Json::parse(R"({"spec":{"n":"two"}})");
  CHECK(messages(f.schema.validate(wrong, nullptr)) ==
        std::vector<std::string>{
            "spec.n: Invalid value: \"string\": spec.n in body must be of type integer: \"string\"",
            "<nil>: Invalid value: \"null\": some validation rules were not checked because the object was invalid; "
            "correct the existing errors to complete validation"});

  // Required, enum and size findings block the checks too; Invalid bounds do not.
  const Json missing = Json::parse(R"({"spec":{"ports":[{"port":1}]}})");
  CHECK(messages(f.schema.validate(missing, nullptr)).back() ==
        "<nil>: Invalid value: \"null\": some validation rules were not checked because the object was invalid; "
        "correct the existing errors to complete validation");
  const Json checked = Json::parse(R"({"spec":{"n":1}})");
  CHECK(messages(f.schema.validate(checked, nullptr)) ==
        std::vector<std::string>{"spec: Invalid value: \"object\": root"});
}

TEST_CASE("node checks: the factory learns the resource root and the uncorrelatable list or map above a node") {
  NodeCheckFixture f;
  REQUIRE(f.contexts.size() == 5);
  for (const auto& c : f.contexts) CHECK_FALSE(c.resource_root);  // spec is not the root
  CHECK(f.contexts[0].uncorrelatable_within == "spec.validation.openAPIV3Schema.properties[spec].properties[atomic]");
  CHECK(f.contexts[1].uncorrelatable_within.empty());  // byKey's values correlate by key
  CHECK(f.contexts[2].uncorrelatable_within == "spec.validation.openAPIV3Schema.properties[spec].properties[frozen]");
  CHECK(f.contexts[3].uncorrelatable_within.empty());  // ports is a list-type map
  CHECK(f.contexts[4].uncorrelatable_within.empty());

  rr::schema::CompileOptions options;
  bool root = false;
  options.node_checks = [&root](const Json&, const std::string&, const rr::schema::NodeContext& context,
                                std::vector<rr::FieldError>&) {
    root = context.resource_root;
    return std::unique_ptr<rr::schema::NodeCheck>();
  };
  compiled(Json::parse(R"({"type":"object","x-kubernetes-validations":[{"rule":"true"}]})"), options);
  CHECK(root);
}

TEST_CASE("node checks: members of an atomic map have no old_self") {
  NodeCheckFixture f;
  const Json old = Json::parse(R"({"spec":{"frozen":{"v":"a"}}})");
  const Json updated = Json::parse(R"({"spec":{"frozen":{"v":"b"}}})");
  f.schema.validate(updated, &old);
  REQUIRE(f.calls.size() == 2);
  CHECK(f.calls[0].path == "spec.frozen.v");
  CHECK_FALSE(f.calls[0].has_old);
  CHECK(f.calls[1].has_old);  // spec itself correlates
}
