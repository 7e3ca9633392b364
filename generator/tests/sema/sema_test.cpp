#include "sema/sema.hpp"

#include <doctest/doctest.h>

#include <memory>
#include <string>

#include "backends/types/emit_types.hpp"
#include "load/inputs.hpp"
#include "model/model_dump.hpp"

using namespace rrgen;

namespace {

constexpr const char* kGadgetCrd = R"(apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: gadgets.example.rrgen.dev}
spec:
  group: example.rrgen.dev
  names: {kind: Gadget, plural: gadgets}
  scope: Namespaced
  versions:
    - name: v1
      served: true
      storage: true
      schema:
        openAPIV3Schema:
          type: object
          properties:
            metadata:
              type: object
              properties:
                name: {type: string, maxLength: 63}
            spec:
              type: object
              description: What the gadget should be.
              x-kubernetes-validations:
                - {rule: self.size > 0, message: size must be positive}
              properties:
                size: {type: integer, minimum: 1, default: 3}
                ports:
                  type: array
                  x-kubernetes-list-type: map
                  x-kubernetes-list-map-keys: [port]
                  items:
                    type: object
                    required: [port]
                    properties:
                      port: {type: integer, format: int32}
)";

struct Inputs {
  SourceSet sources;
  InputSet inputs;
};

const FieldDef* field(const StructDef& s, const std::string& json) {
  for (const auto& f : s.fields)
    if (f.json_name == json) return &f;
  return nullptr;
}

std::string types_text(const Model& model) {
  std::string out;
  for (const auto& f : emit_types(model, TypesOptions{"test"}).files) out += f.path + "\n" + f.content;
  return out;
}

}  // namespace

TEST_CASE("the model owns its facts: it outlives the sources and inputs it was built from") {
  Diagnostics diags;
  auto in = std::make_unique<Inputs>();
  const std::string* name = in->sources.add("memory/gadget.yaml", kGadgetCrd);
  bool recognised = false;
  for (const auto& doc : load_yaml(name, in->sources.content(name), diags)) read_document(doc, in->inputs, diags, recognised);
  const Model model = build_model(in->inputs, SemaOptions{}, diags);
  REQUIRE_FALSE(diags.has_errors());
  const std::string types_before = types_text(model);
  const std::string dump_before = dump_model_json(model);
  in.reset();

  REQUIRE(model.units.size() == 1);
  const StructDef& root = *model.units[0]->root;
  REQUIRE(root.metadata_name);
  CHECK(root.metadata_name->max_length == 63);
  CHECK_FALSE(root.metadata_generate_name);
  const FieldDef* spec = field(root, "spec");
  REQUIRE(spec);
  CHECK(format_location(spec->location) == "memory/gadget.yaml:20:13");
  REQUIRE(spec->constraints);
  CHECK(format_location(spec->constraints->location) == "memory/gadget.yaml:21:15");
  CHECK(spec->constraints->description == "What the gadget should be.");
  REQUIRE(spec->constraints->validations.size() == 1);
  CHECK(spec->constraints->validations[0].message == "size must be positive");
  const FieldDef* size = field(*spec->type.def, "size");
  const FieldDef* ports = field(*spec->type.def, "ports");
  REQUIRE((size && ports));
  CHECK(size->constraints->default_json == "3");
  CHECK(ports->constraints->list_type == ListType::Map);
  CHECK(ports->constraints->list_map_keys == std::vector<std::string>{"port"});

  CHECK(types_text(model) == types_before);
  CHECK(dump_model_json(model) == dump_before);
}
