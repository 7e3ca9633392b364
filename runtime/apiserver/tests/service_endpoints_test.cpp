// Where the API server's calls to a Service go: the ready pods the node agent runs, else 127.0.0.1.
#include "service_endpoints.hpp"

#include <doctest/doctest.h>

#include <map>

#include "rr/node/node_agent.hpp"

namespace rr::apiserver_detail {
namespace {

class FakeStore : public StoreReader {
 public:
  std::vector<Json> pods;
  const Json* find(const GroupVersionKind&, const ObjectKey&) const override { return nullptr; }
  std::vector<const Json*> all(const GroupVersionKind& gvk) const override {
    std::vector<const Json*> out;
    if (gvk.kind == "Pod") {
      for (const Json& pod : pods) out.push_back(&pod);
    }
    return out;
  }
};

Json service(Json target_port) {
  return Json::parse(R"({"metadata":{"name":"hooks","namespace":"ops"},
    "spec":{"selector":{"app":"op"},"ports":[{"port":443,"targetPort":null}]}})")
      .patch(Json::array({{{"op", "replace"}, {"path", "/spec/ports/0/targetPort"}, {"value", target_port}}}));
}

Json pod(const std::string& name, const std::string& ip, bool ready, bool agent = true) {
  Json p = {{"metadata", {{"name", name}, {"namespace", "ops"}, {"labels", {{"app", "op"}}}}},
            {"spec",
             {{"containers",
               {{{"name", "c"},
                 {"ports",
                  {{{
                        "name",
                        "webhook",
                    },
                    {"containerPort", 9443}}}}}}}}},
            {"status", {{"podIP", ip}, {"conditions", {{{"type", "Ready"}, {"status", ready ? "True" : "False"}}}}}}};
  if (agent) p["metadata"]["finalizers"] = Json::array({node::node_agent_finalizer});
  return p;
}

TEST_CASE("a Service the node agent backs goes to a ready pod's IP and targetPort") {
  FakeStore store;
  store.pods = {pod("a", "10.88.0.2", false), pod("b", "10.88.0.6", true)};
  const ServiceTarget target = resolve_service_target(service(9443), 443, store);
  CHECK(target.address == "10.88.0.6");
  CHECK(target.port == 9443);
}

TEST_CASE("a named targetPort is the pod's container port of that name") {
  FakeStore store;
  store.pods = {pod("b", "10.88.0.6", true)};
  CHECK(resolve_service_target(service("webhook"), 443, store).port == 9443);
}

TEST_CASE("the agent's pods matched but none ready: no endpoints, as the API server says") {
  FakeStore store;
  store.pods = {pod("a", "10.88.0.2", false)};
  Json terminating = pod("b", "10.88.0.6", true);
  terminating["metadata"]["deletionTimestamp"] = "2026-01-01T00:00:00Z";
  store.pods.push_back(terminating);
  CHECK_THROWS_WITH_AS(resolve_service_target(service(9443), 443, store),
                       "no endpoints available for service \"hooks\"", ServiceUnavailable);
}

TEST_CASE("pods the agent does not run (simulated) leave the 127.0.0.1 convention") {
  FakeStore store;
  store.pods = {pod("sim", "10.244.0.9", true, false)};
  Json other_namespace = pod("b", "10.88.0.6", true);
  other_namespace["metadata"]["namespace"] = "elsewhere";
  store.pods.push_back(other_namespace);
  const ServiceTarget target = resolve_service_target(service(9443), 443, store);
  CHECK(target.address == "127.0.0.1");
  CHECK(target.port == 9443);
}

TEST_CASE("a port the Service does not have") {
  FakeStore store;
  CHECK_THROWS_WITH_AS(resolve_service_target(service(9443), 8443, store),
                       "no service port 8443 found for service \"hooks\"", ServiceUnavailable);
}

}  // namespace
}  // namespace rr::apiserver_detail
