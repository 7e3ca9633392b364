// validate() and apply_defaults() of the built-in kinds follow the rules the schemas carry, which
// are the API server's: required members (an object lacking one decodes, validate() reports it),
// enumerations, list-map keys that must be unique, and the one real default (ports' protocol: TCP).
#include <doctest/doctest.h>

#include <algorithm>
#include <string>

#include "k8s/apps/v1/deployment.hpp"
#include "k8s/core/v1/config_map.hpp"
#include "k8s/core/v1/service.hpp"
#include "rr/core/errors.hpp"
#include "rr/core/json.hpp"

namespace {

// A minimal valid Deployment whose first container is spliced in.
std::string deployment_with_container(const std::string& container) {
  return R"({"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web","namespace":"shop"},)"
         R"("spec":{"replicas":2,"selector":{"matchLabels":{"app":"web"}},)"
         R"("template":{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[)" +
         container + "]}}}}";
}

bool has_error(const std::vector<rr::FieldError>& errors, const std::string& path, rr::FieldErrorType type) {
  return std::any_of(errors.begin(), errors.end(), [&](const rr::FieldError& e) { return e.path == path && e.type == type; });
}

}  // namespace

TEST_CASE("Deployment: a container without a name decodes, stays without one, and validate() reports it") {
  // The real API marks Container.name required (and has no minimum on spec.replicas).
  const std::string doc = deployment_with_container(R"({"image":"nginx:1.27"})");
  const auto d = k8s::apps::v1::Deployment::from_json_text(doc);
  CHECK(rr::Json::parse(d.to_json_text()) == rr::Json::parse(doc));
  const auto errors = d.validate();
  REQUIRE(errors.size() == 1);
  CHECK(errors[0].message == "spec.template.spec.containers[0].name: Required value");
}

TEST_CASE("Deployment: a selector and a template with containers are required, as the API server says") {
  // The API server's Go validation, not the schema: the template is a Go struct (never absent), so
  // what is missing is its containers, and its (absent) labels do not match the selector.
  const auto d = k8s::apps::v1::Deployment::from_json_text(
      R"({"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},"spec":{"replicas":1}})");
  const auto errors = d.validate();
  CHECK(has_error(errors, "spec.selector", rr::FieldErrorType::Required));
  CHECK(has_error(errors, "spec.template.spec.containers", rr::FieldErrorType::Required));
  CHECK(!has_error(errors, "spec.template", rr::FieldErrorType::Required));
}

TEST_CASE("Deployment: validate() reports an unsupported imagePullPolicy and duplicate container ports") {
  const auto good = k8s::apps::v1::Deployment::from_json_text(
      deployment_with_container(R"({"name":"web","image":"nginx:1.27","imagePullPolicy":"IfNotPresent",)"
                                R"("ports":[{"containerPort":80,"protocol":"TCP"},{"containerPort":80,"protocol":"UDP"}]})"));
  CHECK(good.validate().empty());

  // Kubernetes' schemas declare no enum for imagePullPolicy (the values are listed only in its
  // description): any string decodes and re-encodes unchanged, and validate() refuses it as the
  // API server's Go validation does. A repeated containerPort/protocol is only a warning there
  // (the schema's list-map key is not checked for built-in kinds), so it is no finding.
  const auto bad = k8s::apps::v1::Deployment::from_json_text(
      deployment_with_container(R"({"name":"web","image":"nginx:1.27","imagePullPolicy":"Sometimes",)"
                                R"("ports":[{"containerPort":80,"protocol":"TCP"},{"name":"again","containerPort":80,"protocol":"TCP"}]})"));
  const auto& container = bad.spec->template_.spec->containers.front();
  CHECK(*container.image_pull_policy == "Sometimes");
  const auto errors = bad.validate();
  std::string messages;
  for (const auto& e : errors) messages += e.message + "\n";
  CAPTURE(messages);
  REQUIRE(errors.size() == 1);
  CHECK(errors[0].message ==
        "spec.template.spec.containers[0].imagePullPolicy: Unsupported value: \"Sometimes\": supported values: "
        "\"Always\", \"IfNotPresent\", \"Never\"");
}

TEST_CASE("apply_defaults(): ports get protocol TCP as the API server defaults them, nothing else is invented") {
  auto d = k8s::apps::v1::Deployment::from_json_text(
      deployment_with_container(R"({"name":"web","image":"nginx:1.27","ports":[{"containerPort":8080}]})"));
  const std::string before = d.to_json_text();
  d.apply_defaults();
  const auto& port = d.spec->template_.spec->containers.front().ports->front();
  REQUIRE(port.protocol);
  CHECK(*port.protocol == "TCP");
  auto expected = rr::Json::parse(before);
  expected["spec"]["template"]["spec"]["containers"][0]["ports"][0]["protocol"] = "TCP";
  CHECK(rr::Json::parse(d.to_json_text()) == expected);

  auto svc = k8s::core::v1::Service::from_json_text(R"({"apiVersion":"v1","kind":"Service","metadata":{"name":"s"},)"
                                                    R"("spec":{"ports":[{"port":80},{"port":53,"protocol":"UDP"}]}})");
  svc.apply_defaults();
  CHECK(*svc.spec->ports->at(0).protocol == "TCP");
  CHECK(*svc.spec->ports->at(1).protocol == "UDP");

  auto cm = k8s::core::v1::ConfigMap::from_json_text(R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c"}})");
  const auto cm_before = cm;
  cm.apply_defaults();
  CHECK(cm == cm_before);
}
