#include <doctest/doctest.h>

#include "rr/node/container_config.hpp"

using rr::Json;
using rr::node::ImageConfig;

namespace {

using Env = std::vector<std::pair<std::string, std::string>>;

std::optional<std::string> value(const Env& env, const std::string& name) {
  for (const auto& [k, v] : env) {
    if (k == name) return v;
  }
  return std::nullopt;
}

const Json pod = Json::parse(R"J({
  "metadata": {"name": "web", "namespace": "team", "uid": "u-1", "labels": {"app": "web"}},
  "spec": {"nodeName": "rrgen-node", "containers": []},
  "status": {"podIP": "127.0.0.1"}
})J");

std::optional<Json> objects(std::string_view kind, const std::string& name) {
  if (kind == "ConfigMap" && name == "settings") return Json::parse(R"J({"data": {"MODE": "fast", "LEVEL": "3"}})J");
  if (kind == "Secret" && name == "creds") return Json::parse(R"J({"data": {"password": "aHVudGVyMg=="}})J");
  return std::nullopt;
}

}  // namespace

TEST_CASE("$(VAR) expansion as Kubernetes' expansion package does it") {
  const auto vars = [](const std::string& n) -> std::optional<std::string> {
    if (n == "A") return std::string("alpha");
    return std::nullopt;
  };
  CHECK(rr::node::expand("$(A)-$(B)", vars) == "alpha-$(B)");
  CHECK(rr::node::expand("$$(A)", vars) == "$(A)");
  CHECK(rr::node::expand("$A $(A", vars) == "$A $(A");
  CHECK(rr::node::expand("cost: 5$", vars) == "cost: 5$");
}

TEST_CASE("the container's environment: image, service, envFrom, env with valueFrom and references") {
  const Json container = Json::parse(R"J({
    "name": "app",
    "envFrom": [{"configMapRef": {"name": "settings"}, "prefix": "CFG_"}],
    "env": [
      {"name": "POD", "valueFrom": {"fieldRef": {"fieldPath": "metadata.name"}}},
      {"name": "NS", "valueFrom": {"fieldRef": {"fieldPath": "metadata.namespace"}}},
      {"name": "IP", "valueFrom": {"fieldRef": {"fieldPath": "status.podIP"}}},
      {"name": "NODE", "valueFrom": {"fieldRef": {"fieldPath": "spec.nodeName"}}},
      {"name": "APP", "valueFrom": {"fieldRef": {"fieldPath": "metadata.labels['app']"}}},
      {"name": "PASSWORD", "valueFrom": {"secretKeyRef": {"name": "creds", "key": "password"}}},
      {"name": "URL", "value": "http://$(POD).$(NS):$(KUBERNETES_SERVICE_PORT)/$(UNKNOWN)"},
      {"name": "PATH", "value": "/opt/bin:$(PATH)"},
      {"name": "MISSING", "valueFrom": {"configMapKeyRef": {"name": "nope", "key": "k", "optional": true}}}
    ]})J");
  ImageConfig image;
  image.env = {"PATH=/usr/bin:/bin", "LANG=C"};
  const Env env = rr::node::container_env(pod, container, image, rr::node::kubernetes_service_env("127.0.0.1", 6443),
                                          objects);
  CHECK(value(env, "LANG") == "C");
  CHECK(value(env, "CFG_MODE") == "fast");
  CHECK(value(env, "POD") == "web");
  CHECK(value(env, "NS") == "team");
  CHECK(value(env, "IP") == "127.0.0.1");
  CHECK(value(env, "NODE") == "rrgen-node");
  CHECK(value(env, "APP") == "web");
  CHECK(value(env, "PASSWORD") == "hunter2");
  CHECK(value(env, "URL") == "http://web.team:6443/$(UNKNOWN)");
  // The image's PATH is not the container's to refer to: only env entries and the kubelet's own.
  CHECK(value(env, "PATH") == "/opt/bin:$(PATH)");
  CHECK(value(env, "KUBERNETES_SERVICE_HOST") == "127.0.0.1");
  CHECK(value(env, "KUBERNETES_PORT_6443_TCP") == "tcp://127.0.0.1:6443");
  CHECK_FALSE(value(env, "MISSING"));
  CHECK(env.front().first == "PATH");  // the image's variables keep their place
}

TEST_CASE("env references that cannot be met are CreateContainerConfigError's messages") {
  ImageConfig image;
  auto env_of = [&](const char* entry) {
    return rr::node::container_env(pod, Json::parse(std::string(R"J({"name":"c","env":[)J") + entry + "]}"), image, {},
                                   objects);
  };
  CHECK_THROWS_WITH_AS(env_of(R"J({"name":"X","valueFrom":{"configMapKeyRef":{"name":"nope","key":"k"}}})J"),
                       "configmap \"nope\" not found", rr::node::ContainerConfigError);
  CHECK_THROWS_WITH_AS(env_of(R"J({"name":"X","valueFrom":{"configMapKeyRef":{"name":"settings","key":"k"}}})J"),
                       "couldn't find key k in ConfigMap team/settings", rr::node::ContainerConfigError);
  CHECK_THROWS_WITH_AS(env_of(R"J({"name":"X","valueFrom":{"secretKeyRef":{"name":"other","key":"k"}}})J"),
                       "secret \"other\" not found", rr::node::ContainerConfigError);
}

TEST_CASE("command and args over the image's Entrypoint and Cmd, as the kubelet combines them") {
  ImageConfig image;
  image.entrypoint = {"/entry", "$(X)"};
  image.cmd = {"default-arg"};
  const Env env = {{"X", "x-value"}};
  auto command = [&](const char* container) { return rr::node::container_command(Json::parse(container), image, env); };
  using V = std::vector<std::string>;
  CHECK(command("{}") == V{"/entry", "$(X)", "default-arg"});  // the image's own words are not expanded
  CHECK(command(R"J({"args": ["a", "$(X)"]})J") == V{"/entry", "$(X)", "a", "x-value"});
  CHECK(command(R"J({"command": ["/other", "$(X)"]})J") == V{"/other", "x-value"});  // Cmd goes with Entrypoint
  CHECK(command(R"J({"command": ["/other"], "args": ["$$(X)"]})J") == V{"/other", "$(X)"});
  image.entrypoint.clear();
  CHECK(command("{}") == V{"default-arg"});
}
