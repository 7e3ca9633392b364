// Realistic objects for the cache benchmarks (bench_live's memory section, bench_cache).
#pragma once
#include <string>

#include "rr/core/json.hpp"

namespace bench {

// A ConfigMap: 8 data keys of 40–160 bytes, labels, annotations.
inline rr::Json realistic_config_map(int i) {
  rr::Json data = rr::Json::object();
  for (int k = 0; k < 8; ++k) {
    data["key-" + std::to_string(k)] = "value " + std::string(static_cast<std::size_t>(40 + (i + k * 37) % 120), 'x');
  }
  return rr::Json{{"apiVersion", "v1"},
                  {"kind", "ConfigMap"},
                  {"metadata",
                   {{"namespace", "default"},
                    {"name", "config-" + std::to_string(i)},
                    {"labels",
                     {{"app.kubernetes.io/name", "shop"},
                      {"app.kubernetes.io/part-of", "storefront"},
                      {"tier", i % 2 ? "backend" : "frontend"}}},
                    {"annotations",
                     {{"owner", "team-" + std::to_string(i % 7) + "@example.com"},
                      {"description", "settings of replica group " + std::to_string(i)}}}}},
                  {"data", data}};
}

// A Deployment: two containers, probes, resources, env, volumes, status.
inline rr::Json realistic_deployment(int i) {
  const std::string name = "web-" + std::to_string(i);
  rr::Json app{{"name", "app"},
               {"image", "registry.example/shop/web:1." + std::to_string(i % 40)},
               {"ports", {{{"name", "http"}, {"containerPort", 8080}, {"protocol", "TCP"}}}},
               {"env", {{{"name", "MODE"}, {"value", "production"}}, {{"name", "REPLICA_GROUP"}, {"value", name}}}},
               {"resources", {{"requests", {{"cpu", "100m"}, {"memory", "128Mi"}}}, {"limits", {{"memory", "256Mi"}}}}},
               {"readinessProbe", {{"httpGet", {{"path", "/healthz"}, {"port", 8080}}}, {"periodSeconds", 10}}},
               {"volumeMounts", {{{"name", "config"}, {"mountPath", "/etc/web"}}}}};
  rr::Json sidecar{{"name", "proxy"},
                   {"image", "registry.example/proxy:2.3"},
                   {"args", {"--listen=:9090", "--upstream=127.0.0.1:8080"}}};
  rr::Json labels{{"app", name}, {"team", "shop"}};
  rr::Json d{{"apiVersion", "apps/v1"}, {"kind", "Deployment"}};
  d["metadata"] = {{"namespace", "default"}, {"name", name}, {"labels", labels}};
  d["spec"]["replicas"] = 3;
  d["spec"]["selector"]["matchLabels"] = {{"app", name}};
  d["spec"]["template"]["metadata"]["labels"] = labels;
  d["spec"]["template"]["spec"]["containers"] = rr::Json::array({app, sidecar});
  d["spec"]["template"]["spec"]["volumes"] = rr::Json::array(
      {{{"name", "config"}, {"configMap", {{"name", "config-" + std::to_string(i)}}}}});
  d["status"] = {{"observedGeneration", 1},
                 {"replicas", 3},
                 {"readyReplicas", 3},
                 {"availableReplicas", 3},
                 {"updatedReplicas", 3}};
  return d;
}

}  // namespace bench
