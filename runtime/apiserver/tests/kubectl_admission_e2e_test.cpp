// Real kubectl against a CRD's own schema admission: no generated type is registered, so every
// default, pruned field, refusal and message below comes from the CRD (rr::schema and its CEL
// rules), as a real API server would give them.
#include <doctest/doctest.h>

#include "kubectl_support.hpp"

using namespace rr;
using namespace rr::apiserver_test;

namespace {

const std::string sprocket_crd_file = std::string(RR_APISERVER_TEST_CRDS) + "/sprockets.yaml";

struct SprocketCluster {
  SprocketCluster() : t(ApiServerOptions{}, GizmoCluster::with_namespaces()), kubectl(*t.server) {
    apply_crd(kubectl, sprocket_crd_file, "sprockets.test.rrgen.dev");
  }
  // `kubectl apply` of a Sprocket whose spec is `spec_yaml` (indented two spaces).
  Run apply(const std::string& name, const std::string& spec_yaml, const std::string& flags = "") {
    const std::string text = "apiVersion: test.rrgen.dev/v1\nkind: Sprocket\nmetadata:\n  name: " + name + "\nspec:\n" +
                             spec_yaml;
    return kubectl("apply " + flags + " -f " + kubectl.write(name + ".yaml", text));
  }
  Json get(const std::string& name) { return Json::parse(kubectl("get sprocket " + name + " -o json").output); }
  TestServer t;
  Kubectl kubectl;
};

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// kubectl failed and printed every one of `parts`.
void refused_with(const Run& run, std::initializer_list<std::string> parts) {
  INFO(run.output);
  CHECK(run.code != 0);
  for (const auto& part : parts) CHECK(has(run.output, part));
}

}  // namespace

TEST_CASE("kubectl: defaults from the CRD appear in get, inside list items too") {
  SKIP_WITHOUT_KUBECTL();
  SprocketCluster s;
  Run applied = s.apply("s1", "  teeth: 12\n  ports:\n  - name: http\n");
  INFO(applied.output);
  REQUIRE(applied.code == 0);
  const Json object = s.get("s1");
  CHECK(object["spec"]["minTeeth"] == 1);
  CHECK(object["spec"]["material"] == "steel");
  CHECK(object["spec"]["ports"][0]["protocol"] == "TCP");
  Run yaml = s.kubectl("get sprocket s1 -o yaml");
  CHECK(has(yaml.output, "material: steel"));
}

TEST_CASE("kubectl: a CEL rule's message (with fieldPath) and a messageExpression refuse the apply") {
  SKIP_WITHOUT_KUBECTL();
  SprocketCluster s;
  refused_with(s.apply("s1", "  teeth: 5\n  minTeeth: 10\n"),
               {"The Sprocket \"s1\" is invalid", "spec.minTeeth", "minTeeth must not exceed teeth"});
  refused_with(s.apply("s2", "  teeth: 5\n  finish: rust\n"), {"spec: Forbidden: finish rust is not allowed"});
  CHECK(s.kubectl("get sprocket s1").code != 0);  // nothing stored
}

TEST_CASE("kubectl: every schema cause is reported at once") {
  SKIP_WITHOUT_KUBECTL();
  SprocketCluster s;
  refused_with(s.apply("s1", "  teeth: 900\n  material: wood\n  finish: Shiny\n"),
               {"spec.teeth: Invalid value: 900: spec.teeth in body should be less than or equal to 500",
                "spec.material: Unsupported value: \"wood\": supported values: \"steel\", \"brass\"",
                "spec.finish: Invalid value: \"Shiny\": spec.finish in body should match '^[a-z]+$'"});
  refused_with(s.apply("s2", "  minTeeth: 1\n"), {"spec.teeth: Required value"});
}

TEST_CASE("kubectl: a transition rule refuses a change and ratcheting lets an unchanged invalid value through") {
  SKIP_WITHOUT_KUBECTL();
  SprocketCluster s;
  REQUIRE(s.apply("s1", "  teeth: 12\n  material: brass\n").code == 0);
  Run changed = s.apply("s1", "  teeth: 12\n  material: steel\n");
  INFO(changed.output);
  CHECK(changed.code != 0);
  CHECK(has(changed.output, "material is immutable"));
  // A value stored before a rule existed (seeded past admission) does not block an unrelated update.
  Json object = s.get("s1");
  object["spec"]["finish"] = "UPPER";  // breaks the pattern
  object["metadata"].erase("resourceVersion");
  object["metadata"].erase("managedFields");
  s.t.cluster->seed(s.t.cluster->find_kind({"test.rrgen.dev", "v1", "Sprocket"}).value(), object);
  Run label = s.kubectl("label sprocket s1 team=gears");
  INFO(label.output);
  CHECK(label.code == 0);
  Run teeth = s.kubectl("patch sprocket s1 --type=merge -p '{\"spec\":{\"teeth\":13}}'");
  INFO(teeth.output);
  CHECK(teeth.code == 0);
  Run finish = s.kubectl("patch sprocket s1 --type=merge -p '{\"spec\":{\"finish\":\"ALSO\"}}'");
  CHECK(finish.code != 0);  // a changed invalid value is refused
  CHECK(has(finish.output, "spec.finish"));
}

TEST_CASE("kubectl: unknown fields are refused with --validate=strict, warned with warn, pruned with false") {
  SKIP_WITHOUT_KUBECTL();
  SprocketCluster s;
  Run strict = s.apply("s1", "  teeth: 3\n  colour: red\n", "--validate=strict");
  INFO(strict.output);
  CHECK(strict.code != 0);
  CHECK(has(strict.output, "strict decoding error: unknown field \"spec.colour\""));
  Run warned = s.apply("s2", "  teeth: 3\n  colour: red\n", "--validate=warn");
  INFO(warned.output);
  CHECK(warned.code == 0);
  CHECK(has(warned.output, "Warning: unknown field \"spec.colour\""));
  CHECK_FALSE(s.get("s2")["spec"].contains("colour"));
  Run ignored = s.apply("s3", "  teeth: 3\n  colour: red\n", "--validate=false");
  INFO(ignored.output);
  CHECK(ignored.code == 0);
  CHECK_FALSE(has(ignored.output, "Warning"));
  CHECK_FALSE(s.get("s3")["spec"].contains("colour"));
}

TEST_CASE("kubectl: a status write is validated against the status schema") {
  SKIP_WITHOUT_KUBECTL();
  SprocketCluster s;
  REQUIRE(s.apply("s1", "  teeth: 12\n").code == 0);
  Run bad = s.kubectl("patch sprocket s1 --subresource=status --type=merge -p '{\"status\":{\"phase\":\"Bogus\"}}'");
  INFO(bad.output);
  CHECK(bad.code != 0);
  CHECK(has(bad.output, "status.phase: Unsupported value: \"Bogus\""));
  Run good = s.kubectl("patch sprocket s1 --subresource=status --type=merge -p '{\"status\":{\"phase\":\"Ready\"}}'");
  INFO(good.output);
  CHECK(good.code == 0);
  CHECK(s.get("s1")["status"]["phase"] == "Ready");
}

TEST_CASE("kubectl: a CRD whose rule does not compile is refused with the compiler's message") {
  SKIP_WITHOUT_KUBECTL();
  SprocketCluster s;
  const std::string crd = R"(apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: cogs.test.rrgen.dev
spec:
  group: test.rrgen.dev
  names: {kind: Cog, listKind: CogList, plural: cogs, singular: cog}
  scope: Namespaced
  versions:
    - name: v1
      served: true
      storage: true
      schema:
        openAPIV3Schema:
          type: object
          properties:
            spec:
              type: object
              x-kubernetes-validations:
                - rule: self.size > 1
              properties:
                count: {type: integer}
)";
  Run refused = s.kubectl("apply -f " + s.kubectl.write("cog.yaml", crd));
  INFO(refused.output);
  CHECK(refused.code != 0);
  CHECK(has(refused.output, "x-kubernetes-validations[0].rule"));
  CHECK(has(refused.output, "compilation failed"));
  CHECK(s.kubectl("get crd cogs.test.rrgen.dev").code != 0);
}

TEST_CASE("kubectl: a built-in kind's unknown field and wrong JSON type fail the decode with the API server's text") {
  SKIP_WITHOUT_KUBECTL();
  GizmoCluster g;
  const std::string misspelt = g.kubectl.write("misspelt.yaml",
                                               "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  contaners: "
                                               "[]\n  containers:\n  - name: c\n    image: nginx\n");
  Run strict = g.kubectl("create --validate=strict --dry-run=server -o json -f " + misspelt);
  INFO(strict.output);
  CHECK(strict.code != 0);
  CHECK(
      has(strict.output,
          "Pod in version \"v1\" cannot be handled as a Pod: strict decoding error: unknown field \"spec.contaners\""));
  Run warned = g.kubectl("create --validate=warn --dry-run=server -o json -f " + misspelt);
  INFO(warned.output);
  CHECK(warned.code == 0);
  CHECK(has(warned.output, "Warning: unknown field \"spec.contaners\""));
  const std::string quantity = g.kubectl.write(
      "quantity.yaml",
      "apiVersion: v1\nkind: Pod\nmetadata:\n  name: q\nspec:\n  containers:\n  - name: c\n    image: nginx\n"
      "    resources:\n      limits:\n        cpu: abc\n");
  Run bad = g.kubectl("create --dry-run=server -o json -f " + quantity);
  INFO(bad.output);
  CHECK(bad.code != 0);
  CHECK(has(bad.output, "quantities must match the regular expression"));
}
