// The kustomize subset behind dist/install.yaml, on small trees in memory. What it renders for
// rrgen's own trees is compared with `kubectl kustomize` by tests/kustomize; these pin each
// feature's rules and that everything else is refused.
#include "load/kustomize.hpp"

#include <doctest/doctest.h>

#include <map>

using namespace rrgen;

namespace {

using Files = std::map<std::string, std::string>;

struct Rendered {
  std::optional<std::string> text;
  std::string errors;
};

Rendered render(const Files& files, const std::string& dir = "config/default") {
  Diagnostics diags;
  Rendered r;
  r.text = kustomize_build(
      [&](const std::string& path) -> const std::string* {
        auto it = files.find(path);
        return it == files.end() ? nullptr : &it->second;
      },
      dir, diags);
  for (const Diagnostic& d : diags.all()) r.errors += format(d) + "\n";
  return r;
}

const char* kManager = R"(apiVersion: apps/v1
kind: Deployment
metadata:
  name: op-controller-manager
spec:
  template:
    spec:
      containers:
      - name: manager
        image: controller:latest
        ports:
        - {containerPort: 8080, name: metrics}
        - {containerPort: 8081, name: health}
---
apiVersion: v1
kind: Namespace
metadata:
  name: op-system
)";

const char* kObjects = R"(apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata: {name: op-validating}
webhooks:
- name: v.example.com
  clientConfig: {service: {name: op-webhook-service, path: /validate}}
---
apiVersion: v1
kind: ServiceAccount
metadata: {name: op-controller-manager}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: op-binding}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: op-role}
subjects:
- {kind: ServiceAccount, name: op-controller-manager}
- {kind: ServiceAccount, name: default}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: "007"}
data: {"on": "yes", port: "80"}
)";

Files tree() {
  return {
      {"config/manager/kustomization.yaml",
       "resources: [manager.yaml]\nimages:\n- {name: controller, newName: reg.example:5000/op, newTag: v1}\n"},
      {"config/manager/manager.yaml", kManager},
      {"config/other/kustomization.yaml", "resources: [objects.yaml]\nconfigurations: [kustomizeconfig.yaml]\n"},
      {"config/other/objects.yaml", kObjects},
      {"config/other/kustomizeconfig.yaml",
       "nameReference:\n- kind: Service\n  fieldSpecs: [{kind: ValidatingWebhookConfiguration, path: "
       "webhooks/clientConfig/service/name}]\nnamespace:\n- kind: ValidatingWebhookConfiguration\n  group: "
       "admissionregistration.k8s.io\n  path: webhooks/clientConfig/service/namespace\n  create: true\n"},
      {"config/default/kustomization.yaml",
       "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nnamespace: op-system\nresources:\n- "
       "../manager\n- ../other\npatches:\n- path: patch.yaml\n"},
      {"config/default/patch2.yaml", "- {op: move, from: /a, path: /spec}\n"},
      {"config/default/patch4.yaml", "- {op: remove, path: /metadata/name}\n"},
      {"config/default/patch3.yaml", "- {op: add, path: /spec/template/spec/containers/1/args/0, value: x}\n"},
      {"config/default/patch.yaml",
       "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: op-controller-manager}\nspec:\n  template:\n    "
       "spec:\n   "
       "   containers:\n      - name: manager\n        ports: [{containerPort: 9443, name: webhook}, {containerPort: "
       "8081, name: probes}]\n        volumeMounts: [{mountPath: /certs, name: cert}]\n      volumes: [{name: cert, "
       "secret: {secretName: op-cert}}]\n"},
  };
}

}  // namespace

TEST_CASE("kustomize: resources, patches, namespace, configurations and images, in the legacy order") {
  const Rendered r = render(tree());
  CAPTURE(r.errors);
  REQUIRE(r.text);
  CHECK(*r.text == R"(apiVersion: v1
kind: Namespace
metadata:
  name: op-system
---
apiVersion: v1
kind: ServiceAccount
metadata:
  name: op-controller-manager
  namespace: op-system
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata:
  name: op-binding
roleRef:
  apiGroup: rbac.authorization.k8s.io
  kind: ClusterRole
  name: op-role
subjects:
- kind: ServiceAccount
  name: op-controller-manager
- kind: ServiceAccount
  name: default
  namespace: op-system
---
apiVersion: v1
data:
  "on": "yes"
  port: "80"
kind: ConfigMap
metadata:
  name: "007"
  namespace: op-system
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: op-controller-manager
  namespace: op-system
spec:
  template:
    spec:
      containers:
      - image: reg.example:5000/op:v1
        name: manager
        ports:
        - containerPort: 9443
          name: webhook
        - containerPort: 8081
          name: probes
        - containerPort: 8080
          name: metrics
        volumeMounts:
        - mountPath: /certs
          name: cert
      volumes:
      - name: cert
        secret:
          secretName: op-cert
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata:
  name: op-validating
webhooks:
- clientConfig:
    service:
      name: op-webhook-service
      namespace: op-system
      path: /validate
  name: v.example.com
)");
}

TEST_CASE("kustomize: a digest replaces the tag unless newTag comes with it, as kustomize's image updater") {
  Files files = tree();
  files["config/manager/kustomization.yaml"] =
      "resources: [manager.yaml]\nimages:\n- {name: controller, newName: op, digest: sha256:ab}\n";
  Rendered r = render(files);
  REQUIRE(r.text);
  CHECK(r.text->find("image: op@sha256:ab\n") != std::string::npos);
  files["config/manager/kustomization.yaml"] =
      "resources: [manager.yaml]\nimages:\n- {name: controller, newTag: v2, digest: sha256:ab}\n";
  r = render(files);
  REQUIRE(r.text);
  CHECK(r.text->find("image: controller:v2@sha256:ab\n") != std::string::npos);
  files["config/manager/kustomization.yaml"] = "resources: [manager.yaml]\nimages:\n- {name: other, newTag: v2}\n";
  r = render(files);
  REQUIRE(r.text);
  CHECK(r.text->find("image: controller:latest\n") != std::string::npos);
}

TEST_CASE("kustomize: what the renderer does not implement is an error, never a guess") {
  struct Case {
    std::string file, text, error;
  };
  const std::string dk = "config/default/kustomization.yaml";
  const std::string head = "namespace: op-system\nresources: [../manager, ../other]\n";
  for (const Case& c : {
           Case{dk, head + "namePrefix: op-\n",
                dk +
                    ":3:1: error: 'namePrefix' is a kustomize feature rrgen's install.yaml renderer does not implement "
                    "[kustomize-unsupported]"},
           Case{dk, head + "patches:\n- patch: '{}'\n  target: {kind: Deployment}\n",
                dk + ":4:3: error: a patch other than '- path: <file>' and an optional target (inline patch, options) "
                     "[kustomize-unsupported]"},
           Case{dk, head + "patches:\n- path: patch.yaml\n  target: {labelSelector: app=op}\n",
                dk + ":5:12: error: patch target key 'labelSelector' [kustomize-unsupported]"},
           Case{dk, head + "patches:\n- path: patch.yaml\n  target: {name: op-.*}\n",
                dk + ":5:11: error: a patch target name with regular expression operators [kustomize-unsupported]"},
           Case{"config/default/patch.yaml", "- {op: add, path: /spec/replicas, value: 2}\n",
                "config/default/patch.yaml:1:1: error: a JSON 6902 patch needs a target [kustomize-bad]"},
           Case{dk, head + "patches:\n- path: patch3.yaml\n  target: {kind: Deployment}\n",
                "config/default/patch3.yaml:1:1: error: JSON patch at '/spec/template/spec/containers/1/args/0': "
                "nothing at '1' [kustomize-bad]"},
           Case{dk, head + "patches:\n- path: patch2.yaml\n  target: {kind: Deployment}\n",
                "config/default/patch2.yaml:1:1: error: JSON patch at '/spec': the operation 'move' (only add, "
                "remove and replace) [kustomize-bad]"},
           Case{"config/default/patch.yaml",
                "apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRoleBinding\nmetadata: {name: op-binding}\n"
                "subjects: [{kind: User, name: u}]\n",
                "config/default/patch.yaml:1:1: error: cannot merge the list subjects (merging it needs the kind's "
                "schema) [kustomize-unsupported]"},
           Case{
               "config/default/patch.yaml",
               "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: op-controller-manager}\n$patch: delete\n",
               "config/default/patch.yaml:1:1: error: cannot merge the directive '$patch' at  [kustomize-unsupported]"},
           Case{
               "config/default/patch.yaml",
               "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: op-controller-manager}\nspec: {paused: null, "
               "strategy: {type: null}}\n",
               "config/default/patch.yaml:1:1: error: cannot merge a new field strategy holding a null (what kustomize "
               "keeps of it is not pinned) [kustomize-unsupported]"},
           Case{dk, head + "patches:\n- path: patch4.yaml\n  target: {kind: Deployment}\n",
                "config/manager/manager.yaml:1:1: error: a patch left an object without a kind or a metadata.name "
                "[kustomize-bad]"},
           Case{"config/default/patch.yaml", "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: nobody}\n",
                "config/default/patch.yaml:1:1: error: no object Deployment 'nobody' for this patch [kustomize-bad]"},
           Case{"config/manager/manager.yaml",
                std::string(kManager) + "---\nkind: Secret\napiVersion: v1\nmetadata: "
                                        "{name: s, namespace: elsewhere}\n",
                dk + ":3:12: error: Secret 's': moving it from 'elsewhere' to 'op-system' needs kustomize's "
                     "name-reference updates, which rrgen's renderer does not implement [kustomize-unsupported]"},
           Case{"config/other/kustomizeconfig.yaml", "varReference:\n- path: spec\n",
                "config/other/kustomizeconfig.yaml:1:1: error: 'varReference' configurations are not implemented by "
                "rrgen's install.yaml renderer [kustomize-unsupported]"},
           Case{dk, "resources: [../missing]\n", dk + ":1:13: error: no file 'config/missing' [kustomize-missing]"},
           Case{dk, "resources: [../../../etc]\n",
                dk + ":1:13: error: resource '../../../etc' is not a path inside the tree [kustomize-unsupported]"},
           Case{dk, "resources: [../default]\n",
                dk + ":1:13: error: kustomization 'config/default' includes itself [kustomize-cycle]"},
           Case{"config/other/objects.yaml",
                std::string(kObjects) + "---\napiVersion: v1\nkind: ServiceAccount\n"
                                        "metadata: {name: op-controller-manager}\n",
                "config/other/objects.yaml:25:1: error: two objects ServiceAccount 'op-controller-manager' "
                "[kustomize-bad]"},
       }) {
    Files files = tree();
    files[c.file] = c.text;
    const Rendered r = render(files);
    CAPTURE(c.text);
    CHECK_FALSE(r.text);
    CHECK(r.errors == c.error + "\n");
  }
}

TEST_CASE("kustomize: patches with a target, JSON 6902 and strategic merge, as kubebuilder's config/default has them") {
  Files files = tree();
  files["config/default/kustomization.yaml"] =
      "namespace: op-system\nresources: [../manager, ../other]\npatches:\n- path: args.yaml\n  target:\n    kind: "
      "Deployment\n- path: labels.yaml\n  target: {group: apps, version: v1, name: op-controller-.anager}\n- path: "
      "args.yaml\n  target: {kind: Service}\n";
  files["config/default/args.yaml"] =
      "- op: add\n  path: /spec/template/spec/containers/0/args\n  value: [--b]\n- op: add\n  path: "
      "/spec/template/spec/containers/0/args/0\n  value: --a\n- op: add\n  path: "
      "/spec/template/spec/containers/0/args/-\n  value: --c\n- op: replace\n  path: "
      "/spec/template/spec/containers/0/ports/1/name\n  value: probes\n- op: remove\n  path: "
      "/spec/template/spec/containers/0/ports/0\n- op: add\n  path: /metadata/annotations\n  value: {a~b/c: x}\n- "
      "op: remove\n  path: /metadata/annotations/a~0b~1c\n";
  files["config/default/labels.yaml"] =
      "apiVersion: v1\nkind: Whatever\nmetadata:\n  name: ignored\n  labels: {team: ops}\nspec: {replicas: 2}\n";
  const Rendered r = render(files);
  CAPTURE(r.errors);
  REQUIRE(r.text);
  const std::size_t deployment = r.text->find("kind: Deployment");
  REQUIRE(deployment != std::string::npos);
  CHECK(r.text->substr(deployment, r.text->find("---", deployment) - deployment) == R"(kind: Deployment
metadata:
  annotations: {}
  labels:
    team: ops
  name: op-controller-manager
  namespace: op-system
spec:
  replicas: 2
  template:
    spec:
      containers:
      - args:
        - --a
        - --b
        - --c
        image: reg.example:5000/op:v1
        name: manager
        ports:
        - containerPort: 8081
          name: probes
)");
}
