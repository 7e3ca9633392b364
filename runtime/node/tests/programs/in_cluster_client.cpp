// A client inside a pod, as an operator is one: rr's in-cluster config (KUBERNETES_SERVICE_HOST/
// PORT, the token, ca.crt and namespace the node mounted) and rr::HttpClient GET the pod itself
// (named by HOSTNAME) and print its phase. Exit 1 with the error on stderr when that fails.
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>

#include "rr/core/json.hpp"
#include "rr/http_client/http_client.hpp"
#include "rr/rest_config/rest_config.hpp"

int main() {
  try {
    const rr::LoadedConfig loaded = rr::in_cluster_config();
    rr::HttpClient client(loaded.config);
    const char* name = std::getenv("HOSTNAME");
    const rr::Json pod = client.get_path("/api/v1/namespaces/" + loaded.namespace_name + "/pods/" +
                                         std::string(name ? name : ""));
    std::printf("namespace=%s phase=%s\n", loaded.namespace_name.c_str(),
                pod.value("/status/phase"_json_pointer, std::string("?")).c_str());
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "in-cluster client: %s\n", e.what());
    return 1;
  }
}
