// Real kubectl and admission policies: `kubectl apply` of policies and their bindings, a Deployment
// with too many replicas refused with the API server's text, a Warn binding's warning printed by
// kubectl, a MutatingAdmissionPolicy's label on the created Deployment.
#include <doctest/doctest.h>

#include "kubectl_support.hpp"

using namespace rr;
using namespace rr::apiserver_test;

namespace {

const char* policies_yaml = R"(apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata:
  name: max-replicas
spec:
  failurePolicy: Fail
  matchConstraints:
    resourceRules:
    - apiGroups: ["apps"]
      apiVersions: ["v1"]
      operations: ["CREATE", "UPDATE"]
      resources: ["deployments"]
  validations:
  - expression: "object.spec.replicas <= 5"
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata:
  name: max-replicas-binding
spec:
  policyName: max-replicas
  validationActions: [Deny]
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata:
  name: few-replicas
spec:
  matchConstraints:
    resourceRules:
    - apiGroups: ["apps"]
      apiVersions: ["v1"]
      operations: ["CREATE", "UPDATE"]
      resources: ["deployments"]
  validations:
  - expression: "object.spec.replicas <= 2"
    messageExpression: "'replicas ' + string(object.spec.replicas) + ' is more than 2'"
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata:
  name: few-replicas-warn
spec:
  policyName: few-replicas
  validationActions: [Warn]
---
apiVersion: admissionregistration.k8s.io/v1beta1
kind: MutatingAdmissionPolicy
metadata:
  name: add-team-label
spec:
  failurePolicy: Fail
  reinvocationPolicy: IfNeeded
  matchConstraints:
    resourceRules:
    - apiGroups: ["apps"]
      apiVersions: ["v1"]
      operations: ["CREATE"]
      resources: ["deployments"]
  mutations:
  - patchType: ApplyConfiguration
    applyConfiguration:
      expression: >
        Object{metadata: Object.metadata{labels: {"team": "blue"}}}
---
apiVersion: admissionregistration.k8s.io/v1beta1
kind: MutatingAdmissionPolicyBinding
metadata:
  name: add-team-label
spec:
  policyName: add-team-label
)";

bool printed(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("kubectl: a ValidatingAdmissionPolicy refuses too many replicas, a Warn binding warns, a MAP adds a label") {
  SKIP_WITHOUT_KUBECTL();
  TestServer t;
  Kubectl kubectl(*t.server);
  const Run applied = kubectl("apply -f " + kubectl.write("policies.yaml", policies_yaml));
  INFO(applied.output);
  REQUIRE(applied.code == 0);
  CHECK(printed(applied.output, "validatingadmissionpolicy.admissionregistration.k8s.io/max-replicas created"));

  const Run refused = kubectl("create deployment web --image=nginx --replicas=7");
  INFO(refused.output);
  CHECK(refused.code != 0);
  CHECK(printed(refused.output,
                "deployments.apps \"web\" is forbidden: ValidatingAdmissionPolicy 'max-replicas' with binding "
                "'max-replicas-binding' denied request: failed expression: object.spec.replicas <= 5"));
  CHECK(kubectl("get deployment web").code != 0);  // nothing stored

  const Run warned = kubectl("create deployment api --image=nginx --replicas=3");
  INFO(warned.output);
  CHECK(warned.code == 0);
  CHECK(printed(warned.output, "Warning: Validation failed for ValidatingAdmissionPolicy 'few-replicas' with binding "
                               "'few-replicas-warn': replicas 3 is more than 2"));
  CHECK(printed(warned.output, "deployment.apps/api created"));
  // The MutatingAdmissionPolicy added its label; kubectl's own label is kept.
  const Run labels = kubectl("get deployment api -o jsonpath={.metadata.labels}");
  INFO(labels.output);
  CHECK(Json::parse(labels.output) == Json{{"app", "api"}, {"team", "blue"}});

  // Scaling up past the limit is an UPDATE the policy refuses too.
  const Run scaled = kubectl("scale deployment api --replicas=9");
  INFO(scaled.output);
  CHECK(scaled.code != 0);
  CHECK(printed(scaled.output, "denied request: failed expression: object.spec.replicas <= 5"));
}
