// The dies backend on its own: which builders and methods <stem>_dies.hpp declares for CRD and
// built-in kinds, how clashing names are resolved, and that the text is deterministic. What the
// generated code does when compiled is tested in tests/compile/dies/.
#include "backends/dies/emit_dies.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <memory>
#include <string>

#include "sema/builtin_kinds.hpp"
#include "load/inputs.hpp"
#include "sema/sema.hpp"
#include "load/yaml_load.hpp"

namespace rrgen {
namespace {

// A Widget whose names collide with the die's own API: spec.name, spec.namespace, a top-level
// `label` (the die has label(k, v)), a spec member "2xx", a member whose JSON name holds a newline
// and ends in a backslash (both would break a // comment), and a status with conditions.
constexpr const char* kWidgets = R"(
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.dev}
spec:
  group: example.dev
  names: {kind: Widget, listKind: WidgetList, plural: widgets, singular: widget}
  scope: Namespaced
  versions:
    - name: v1
      served: true
      storage: true
      subresources: {status: {}}
      schema:
        openAPIV3Schema:
          type: object
          properties:
            apiVersion: {type: string}
            kind: {type: string}
            metadata: {type: object}
            label: {type: string}
            spec:
              type: object
              required: [image]
              properties:
                image: {type: string}
                name: {type: string}
                namespace: {type: string}
                replicas: {type: integer, format: int32}
                2xx: {type: boolean}
                "line\nbreak\\": {type: string}
                ports:
                  type: array
                  items: {type: object, properties: {port: {type: integer}}}
                env:
                  type: object
                  additionalProperties: {type: string}
            status:
              type: object
              properties:
                observedGeneration: {type: integer, format: int64}
                conditions:
                  type: array
                  items:
                    type: object
                    required: [type, status, lastTransitionTime, reason, message]
                    properties:
                      type: {type: string}
                      status: {type: string}
                      observedGeneration: {type: integer, format: int64}
                      lastTransitionTime: {type: string, format: date-time}
                      reason: {type: string}
                      message: {type: string}
                url: {type: string}
)";

// Another group's kind also called Widget, without spec or status.
constexpr const char* kOtherWidgets = R"(
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.other.dev}
spec:
  group: other.dev
  names: {kind: Widget, listKind: WidgetList, plural: widgets, singular: widget}
  scope: Cluster
  versions:
    - name: v1
      served: true
      storage: true
      schema:
        openAPIV3Schema:
          type: object
          properties:
            apiVersion: {type: string}
            kind: {type: string}
            metadata: {type: object}
            size: {type: integer}
)";

struct World {
  SourceSet sources;
  InputSet inputs;
  Model model;
  ResolvedSpec spec;
};

std::unique_ptr<World> world(std::vector<std::pair<std::string, std::string>> kinds) {
  auto w = std::make_unique<World>();
  Diagnostics diags;
  int i = 0;
  for (const char* text : {kWidgets, kOtherWidgets}) {
    const std::string* name = w->sources.add("crd" + std::to_string(i++) + ".yaml", text);
    for (const Node& doc : load_yaml(name, w->sources.content(name), diags)) {
      bool recognised = false;
      read_document(doc, w->inputs, diags, recognised);
    }
  }
  w->model = build_model(w->inputs, SemaOptions{"demo"}, diags);
  REQUIRE_FALSE(diags.has_errors());
  w->spec.name = "Widget";
  w->spec.file_stem = "widget";
  w->spec.cpp_namespace = "demo";
  for (const auto& wanted : kinds) {
    const std::string& group = wanted.first;
    const std::string& kind = wanted.second;
    bool found = false;
    for (const auto& u : w->model.units) {
      if (u->kind && u->kind->group == group && u->kind->kind == kind) {
        w->spec.kinds.push_back(resolved_kind_of(*u, false));
        found = true;
      }
    }
    for (const auto& k : builtin_kinds()) {
      if (k.group == group && k.kind == kind) {
        w->spec.kinds.push_back(k);
        found = true;
      }
    }
    INFO(group, "/", kind);
    REQUIRE(found);
  }
  w->spec.resource = w->spec.kinds.front();
  return w;
}

std::string header_of(const World& w) {
  OutputSet out = emit_dies(w.spec, w.model, builtin_model(), GenerateOptions{"9.9.9"});
  REQUIRE(out.files.size() == 1);
  CHECK(out.files[0].path == "widget_dies.hpp");
  return out.files[0].content;
}

// The text of one class, from "class NAME {" to its closing "};".
std::string class_text(const std::string& header, const std::string& name) {
  const auto begin = header.find("class " + name + " {");
  REQUIRE_MESSAGE(begin != std::string::npos, name);
  const auto end = header.find("\n};\n", begin);
  REQUIRE(end != std::string::npos);
  return header.substr(begin, end - begin);
}

bool has(const std::string& text, const std::string& piece) { return text.find(piece) != std::string::npos; }

TEST_CASE("dies backend: a CRD kind: metadata helpers, spec/status changers and one typed setter per member") {
  auto w = world({{"example.dev", "Widget"}, {"", "ConfigMap"}});
  const std::string h = header_of(*w);
  const std::string die = class_text(h, "WidgetDie");
  CHECK(has(die, "using object_type = ::demo::v1::Widget;"));
  CHECK(has(die, "explicit WidgetDie(object_type object)"));
  CHECK(has(die, "[[nodiscard]] static WidgetDie blank()"));
  CHECK(has(die, "operator object_type() const"));
  CHECK(has(die, "[[nodiscard]] WidgetDie name(std::string value) const {"));
  CHECK(has(die, "[[nodiscard]] WidgetDie namespace_(std::string value) const {"));
  CHECK(has(die, "[[nodiscard]] WidgetDie generation(std::int64_t value) const {"));
  CHECK(has(die, "[[nodiscard]] WidgetDie deletion_timestamp(rr::Time value) const {"));
  CHECK(has(die, "[[nodiscard]] WidgetDie label(std::string key, std::string value) const {"));
  CHECK(has(die, "[[nodiscard]] WidgetDie controlled_by(const ::demo::v1::Widget& owner) const {"));
  CHECK(has(die, "template <class F>\n  [[nodiscard]] WidgetDie spec(F&& change) const {"));
  CHECK(has(die, "template <class F>\n  [[nodiscard]] WidgetDie status(F&& change) const {"));
  CHECK(has(die, "template <class F>\n  [[nodiscard]] WidgetDie with(F&& change) const {"));
  // Typed exactly as the member's value: a required string, optional members by their value type.
  CHECK(has(die, "WidgetDie spec_image(std::string value) const {\n    WidgetDie d = *this;\n"
                 "    spec_of_(d.object_).image = std::move(value);"));
  CHECK(has(die, "WidgetDie spec_replicas(std::int32_t value) const {\n    WidgetDie d = *this;\n"
                 "    spec_of_(d.object_).replicas = value;"));
  CHECK(has(die, "WidgetDie spec_ports(std::vector<::demo::v1::WidgetSpecPorts> value) const"));
  CHECK(has(die, "WidgetDie spec_env(std::map<std::string, std::string> value) const"));
  CHECK(has(die, "WidgetDie status_url(std::string value) const"));
  CHECK(has(die, "WidgetDie conditions(std::vector<rr::Condition> value) const"));
  CHECK(has(die, "WidgetDie status_conditions(std::vector<rr::Condition> value) const"));
  CHECK(has(die, "WidgetDie observed_generation(std::int64_t value) const"));
  // spec and status are created when absent, never reset when present.
  CHECK(has(die, "static ::demo::v1::WidgetSpec& spec_of_(object_type& o) {\n    if (!o.spec) o.spec.emplace();"));
  CHECK(has(die, "static ::demo::v1::WidgetStatus& status_of_(object_type& o) {"));
  CHECK(has(h, "#include <map>"));
  CHECK(has(h, "#include \"demo/v1/widget.hpp\""));
  // A built-in kind's die is the runtime's, generated once, under the name the spec gives it.
  CHECK(has(h, "#include \"rr/testing/dies/k8s/core/v1/config_map.hpp\""));
  CHECK_FALSE(has(h, "#include \"k8s/core/v1/config_map.hpp\""));
  CHECK(has(h, "using ConfigMapDie = ::rr::testing::dies::core::v1::ConfigMapDie;"));
  CHECK_FALSE(has(h, "class ConfigMapDie"));
  CHECK(has(h, "namespace demo::dies {"));
  CHECK(has(h, "inline rr::Condition condition(std::string type, std::string status"));
}

TEST_CASE("dies backend: names that would collide are prefixed or renamed, never merged") {
  auto w = world({{"example.dev", "Widget"}});
  const std::string die = class_text(header_of(*w), "WidgetDie");
  CHECK(has(die, "WidgetDie spec_name(std::string value) const"));
  CHECK(has(die, "WidgetDie spec_namespace(std::string value) const"));  // not spec_namespace_
  CHECK(has(die, "WidgetDie spec_2xx(bool value) const"));               // not spec__2xx (reserved)
  // The top-level `label` member meets the die's label(key, value).
  CHECK(has(die, "WidgetDie label_2(std::string value) const {\n    WidgetDie d = *this;\n"
                 "    d.object_.label = std::move(value);"));
  CHECK(has(die, "WidgetDie label(std::string key, std::string value) const"));
  // The doc comment of the hostile member stays a comment on every line.
  CHECK(has(die, "WidgetDie spec_line_break(std::string value) const"));
  std::size_t at = 0;
  int lines = 0;
  while ((at = die.find("break", at)) != std::string::npos) {
    const std::size_t line_start = die.rfind('\n', at) + 1;
    const std::string line = die.substr(line_start, die.find('\n', at) - line_start);
    CAPTURE(line);
    CHECK((line.find("///") != std::string::npos || line.find("line_break") != std::string::npos));
    ++lines;
    at += 5;
  }
  CHECK(lines >= 3);
}

TEST_CASE("dies backend: two kinds with one name get distinct dies in first-use order") {
  auto w = world({{"example.dev", "Widget"}, {"other.dev", "Widget"}});
  const std::string h = header_of(*w);
  CHECK(has(class_text(h, "WidgetDie"), "using object_type = ::demo::v1::Widget;"));
  const std::string other = class_text(h, "WidgetDie2");
  CHECK(has(other, "using object_type = ::demo::v1::Widget2;"));
  CHECK(has(other, "WidgetDie2 size(std::int64_t value) const"));
  CHECK_FALSE(has(other, "spec(F&& change)"));
  CHECK(h.find("class WidgetDie {") < h.find("class WidgetDie2 {"));
}

// The runtime's dies of the built-in kinds (`rrgen dies --builtin`), one header per kind.
std::string kind_die(const std::string& path) {
  const OutputSet out = emit_kind_dies(builtin_model(), runtime_dies());
  for (const auto& f : out.files)
    if (f.path == path) return f.content;
  FAIL("no " << path);
  return {};
}

TEST_CASE("dies backend: built-in kinds: top-level setters without spec/status, spec/status with") {
  const std::string cm_header = kind_die("rr/testing/dies/k8s/core/v1/config_map.hpp");
  CHECK(has(cm_header, "namespace rr::testing::dies::core::v1 {"));
  CHECK(has(cm_header, "#include \"k8s/core/v1/config_map.hpp\""));
  const std::string cm = class_text(cm_header, "ConfigMapDie");
  CHECK(has(cm, "using object_type = ::k8s::core::v1::ConfigMap;"));
  CHECK(has(cm, "ConfigMapDie data(std::map<std::string, std::string> value) const"));
  CHECK(has(cm, "ConfigMapDie binary_data(std::map<std::string, rr::Bytes> value) const"));
  CHECK(has(cm, "ConfigMapDie immutable(bool value) const"));
  // Any kind can own a child in the shared dies.
  CHECK(has(cm, "template <class Owner>\n  [[nodiscard]] ConfigMapDie controlled_by(const Owner& owner) const {"));
  CHECK(has(cm, "ref.kind = std::string(rr::ResourceTraits<Owner>::kind);"));
  CHECK(has(cm, "ConfigMapDie controlled_by(const Owner& owner) const\n    requires requires { owner.die_release(); }\n"
                "  {\n    return controlled_by(owner.get());"));
  CHECK_FALSE(has(cm, "spec_of_"));
  const std::string secret = class_text(kind_die("rr/testing/dies/k8s/core/v1/secret.hpp"), "SecretDie");
  CHECK(has(secret, "SecretDie string_data(std::map<std::string, std::string> value) const"));
  CHECK(has(secret, "SecretDie type(std::string value) const"));
  const std::string deploy_header = kind_die("rr/testing/dies/k8s/apps/v1/deployment.hpp");
  const std::string deploy = class_text(deploy_header, "DeploymentDie");
  CHECK(has(deploy, "DeploymentDie spec_replicas(std::int32_t value) const"));
  CHECK(has(deploy, "DeploymentDie spec_template(::k8s::core::v1::PodTemplateSpec value) const"));
  CHECK(has(deploy, "DeploymentDie observed_generation(std::int64_t value) const"));
  // Deployment's conditions are apps/v1 DeploymentConditions, not metav1 Conditions.
  CHECK(has(deploy, "DeploymentDie status_conditions(std::vector<::k8s::apps::v1::DeploymentCondition> value) const"));
  CHECK_FALSE(has(deploy, "DeploymentDie conditions("));
  CHECK(has(deploy_header, "#include \"k8s/apps/v1/deployment.hpp\""));
  // Every built-in kind has its die, and a die's header stands alone.
  const OutputSet all = emit_kind_dies(builtin_model(), runtime_dies());
  REQUIRE(all.files.size() == builtin_kinds().size() + 1);
  CHECK(all.files.back().path == "rr/testing/dies.hpp");
  CHECK(has(all.files.back().content, "#include \"rr/testing/dies/k8s/apps/v1/deployment.hpp\"\n"));
  CHECK(has(deploy_header, "#pragma once\n"));
}

TEST_CASE("dies backend: a kind missing from both models still gets its metadata helpers, from its ResolvedKind") {
  auto w = world({{"example.dev", "Widget"}});
  ResolvedKind ghost;
  ghost.group = "ghost.dev";
  ghost.version = "v1";
  ghost.kind = "Ghost";
  ghost.cpp_type = "ghosts::v1::Ghost";
  ghost.header = "ghosts/v1/ghost.hpp";
  w->spec.kinds.push_back(ghost);
  const std::string h = header_of(*w);
  const std::string die = class_text(h, "GhostDie");
  CHECK(has(die, "using object_type = ::ghosts::v1::Ghost;"));
  CHECK(has(die, "GhostDie name(std::string value) const"));
  CHECK_FALSE(has(die, "spec("));
  CHECK(has(h, "#include \"ghosts/v1/ghost.hpp\""));
}

TEST_CASE("dies backend: every method is const and [[nodiscard]]; the text is deterministic and clean") {
  auto w = world({{"example.dev", "Widget"}, {"", "ConfigMap"}, {"apps", "Deployment"}});
  const std::string spec_header = header_of(*w);
  CHECK(spec_header == header_of(*w));
  const std::string h = spec_header + kind_die("rr/testing/dies/k8s/core/v1/config_map.hpp") +
                        kind_die("rr/testing/dies/k8s/apps/v1/deployment.hpp");
  CHECK(h.rfind("// Code generated by rrgen 9.9.9. DO NOT EDIT.\n", 0) == 0);
  CHECK(h.find('\r') == std::string::npos);
  CHECK(h.find(" \n") == std::string::npos);
  CHECK(h.find("__") == std::string::npos);
  std::size_t start = 0, methods = 0;
  while (start < h.size()) {
    const std::size_t end = h.find('\n', start);
    const std::string line = h.substr(start, end - start);
    start = end + 1;
    // A member function returning a die: "  [[nodiscard]] XDie name(...) const {"
    for (const char* die : {"WidgetDie ", "ConfigMapDie ", "DeploymentDie "}) {
      const auto at = line.find(die);
      if (at == std::string::npos || line.find('(') == std::string::npos || line.find("operator") != std::string::npos ||
          line.find("class ") != std::string::npos || line.find(" d = ") != std::string::npos ||
          line.find("explicit") != std::string::npos)
        continue;
      ++methods;
      CAPTURE(line);
      CHECK(line.find("[[nodiscard]]") != std::string::npos);
      // A constrained overload ends its line at `const`; its requires-clause follows.
      CHECK((line.find(") const {") != std::string::npos || line.find("static ") != std::string::npos ||
             line.ends_with(") const")));
    }
  }
  CHECK(methods > 60);
}

}  // namespace
}  // namespace rrgen
