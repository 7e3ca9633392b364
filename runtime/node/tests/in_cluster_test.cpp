// A real container talks to the local API server as an operator in a pod does: the agent mounts
// the ServiceAccount token the server minted (through ApiServer::token_minter()) and the serving
// CA, sets KUBERNETES_SERVICE_HOST/PORT, and rr's own in-cluster config works unchanged.
// Root and umoci only (the image holds the dynamically linked client and its libraries).
#include <doctest/doctest.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <memory>
#include <thread>

#include "rr/apiserver/api_server.hpp"
#include "rr/apiserver/builtin_kinds.hpp"
#include "rr/apiserver/dev_certificates.hpp"
#include "rr/client/api_error.hpp"
#include "rr/cluster/cluster.hpp"
#include "rr/node/node_agent.hpp"
#include "test_image.hpp"

namespace fs = std::filesystem;
using namespace std::chrono_literals;
using rr::Json;

TEST_CASE("a pod's in-cluster client reads its own pod with the token and CA the node mounted") {
  SKIP_WITHOUT_CONTAINERS();
  std::string pattern = (fs::temp_directory_path() / "rr-node-in-cluster-XXXXXX").string();
  const fs::path dir = ::mkdtemp(pattern.data());
  REQUIRE(node_test::make_test_image(dir / "images", RR_NODE_IN_CLUSTER_CLIENT, true));

  auto cluster = std::make_shared<rr::Cluster>();
  const rr::DevCertificates certs = rr::make_dev_certificates();
  rr::ApiServerOptions server_options;
  server_options.tls = rr::tls_options(certs);  // with a client CA: every request must authenticate
  auto server = std::make_unique<rr::ApiServer>(cluster, server_options);
  server->start();
  const auto kind = [&](const char* k) { return *cluster->find_kind({"", "v1", k}); };
  cluster->create(kind("ServiceAccount"), Json{{"apiVersion", "v1"},
                                               {"kind", "ServiceAccount"},
                                               {"metadata", {{"name", "default"}, {"namespace", "default"}}}});
  // The cluster authorizes with RBAC: the ServiceAccount may read pods, as an operator's Role grants.
  const auto rbac = [&](const char* k) { return *cluster->find_kind({"rbac.authorization.k8s.io", "v1", k}); };
  cluster->create(rbac("Role"), Json::parse(R"({"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "Role",
      "metadata": {"name": "pod-reader", "namespace": "default"},
      "rules": [{"apiGroups": [""], "resources": ["pods"], "verbs": ["get"]}]})"));
  cluster->create(rbac("RoleBinding"), Json::parse(R"({"apiVersion": "rbac.authorization.k8s.io/v1",
      "kind": "RoleBinding", "metadata": {"name": "pod-reader", "namespace": "default"},
      "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "Role", "name": "pod-reader"},
      "subjects": [{"kind": "ServiceAccount", "name": "default", "namespace": "default"}]})"));

  rr::node::NodeAgentOptions options;
  options.image_dirs = {dir / "images"};
  options.state_dir = dir / "state";
  options.service_port = server->port();
  options.mint_token = server->token_minter();
  options.ca_pem = server->serving_ca_pem();
  options.log = [](const std::string&) {};
  auto agent = std::make_shared<rr::node::NodeAgent>(cluster, options);

  cluster->create(
      kind("Pod"),
      Json{{"apiVersion", "v1"},
           {"kind", "Pod"},
           {"metadata", {{"name", "client"}, {"namespace", "default"}}},
           {"spec",
            {{"restartPolicy", "Never"}, {"containers", Json::array({{{"name", "main"}, {"image", "app:v1"}}})}}}});
  Json pod;
  const auto deadline = std::chrono::steady_clock::now() + 20s;
  for (; std::chrono::steady_clock::now() < deadline; std::this_thread::sleep_for(50ms)) {
    pod = cluster->get(kind("Pod"), {"default", "client"});
    const std::string phase = pod.value("/status/phase"_json_pointer, std::string());
    if (phase == "Succeeded" || phase == "Failed") break;
  }
  rr::node::PodLogOptions log_options;
  auto stream = agent->open(pod, log_options);
  std::string out;
  while (stream && stream->next(out, 200ms)) {
  }
  INFO("logs: " << out);
  CHECK(pod["status"]["phase"] == "Succeeded");
  CHECK(out == "namespace=default phase=Running\n");

  agent.reset();
  server->stop();
  fs::remove_all(dir);
}
