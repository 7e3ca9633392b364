// The in-process cluster and generated validate() refuse what the API server refuses in Go: a
// built-in kind's own validation (with the stored object on update) and ObjectMeta's rules, with
// the API server's messages, so a table test catches an invalid child before a real cluster does.
#include <doctest/doctest.h>

#include <algorithm>
#include <memory>
#include <string>

#include "k8s/apps/v1/deployment.hpp"
#include "rr/client/api_error.hpp"
#include "rr/cluster/cluster.hpp"
#include "rrtest/v1/test_resource.hpp"

namespace {

using k8s::apps::v1::Deployment;

Deployment deployment(const std::string& template_app) {
  return Deployment::from_json_text(R"({"metadata":{"namespace":"default","name":"web"},)"
                                    R"("spec":{"selector":{"matchLabels":{"app":"web"}},)"
                                    R"("template":{"metadata":{"labels":{"app":")" +
                                    template_app + R"("}},"spec":{"containers":[{"name":"web","image":"nginx"}]}}}})");
}

std::string messages_of(const std::vector<rr::FieldError>& errors) {
  std::string text;
  for (const auto& e : errors) text += e.message + "\n";
  return text;
}

std::string refusal(const std::function<void()>& write) {
  try {
    write();
  } catch (const rr::ApiError& e) {
    return std::to_string(e.status().code) + " " + e.status().message;
  }
  return "admitted";
}

}  // namespace

TEST_CASE("in-process cluster: a built-in kind gets the API server's Go validation on create and update") {
  auto cluster = std::make_shared<rr::Cluster>();
  cluster->register_kind<Deployment>();
  rr::ClusterClient client(cluster);

  CHECK(refusal([&] { client.create(deployment("other")); }) ==
        "422 Deployment.apps \"web\" is invalid: spec.template.metadata.labels: Invalid value: "
        "{\"app\":\"other\"}: `selector` does not match template `labels`");

  const Deployment created = client.create(deployment("web"));
  // Validated on a defaulted copy: the stored object has no Go default the test did not write.
  const auto& container = created.spec->template_.spec->containers.front();
  CHECK(!container.termination_message_path);
  CHECK(!container.image_pull_policy);

  Deployment moved = created;
  moved.spec->selector.match_labels = std::map<std::string, std::string>{{"app", "web"}, {"tier", "front"}};
  moved.spec->template_.metadata->labels = std::map<std::string, std::string>{{"app", "web"}, {"tier", "front"}};
  const std::string refused = refusal([&] { client.update(moved); });
  CHECK(refused.starts_with("422 Deployment.apps \"web\" is invalid: spec.selector: Invalid value: "));
  CHECK(refused.ends_with("field is immutable"));
}

TEST_CASE("generated validate(): a built-in kind reports the API server's findings, not its schema's") {
  CHECK(deployment("web").validate().empty());
  const auto errors = deployment("other").validate();
  CAPTURE(messages_of(errors));
  REQUIRE(errors.size() == 1);
  CHECK(errors[0].path == "spec.template.metadata.labels");
}

TEST_CASE("generated validate(): every kind checks the ObjectMeta members it sets") {
  rrtest::v1::TestResource r;
  CHECK(r.validate().empty());  // no name or namespace yet: the client and the server fill those
  r.metadata.name = "Upper";
  r.metadata.labels = std::map<std::string, std::string>{{"team", "a b"}};
  r.metadata.finalizers = std::vector<std::string>{"no-slash"};
  const auto errors = r.validate();
  CAPTURE(messages_of(errors));
  const auto has = [&](std::string_view path) {
    return std::any_of(errors.begin(), errors.end(), [&](const rr::FieldError& e) { return e.path == path; });
  };
  CHECK(has("metadata.name"));
  CHECK(has("metadata.labels"));
  CHECK(std::any_of(errors.begin(), errors.end(), [](const rr::FieldError& e) {
    return e.message.find("a lowercase RFC 1123 subdomain must consist of") != std::string::npos;
  }));
}
