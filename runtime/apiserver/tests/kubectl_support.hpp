// Real kubectl in tests: a runner with its own kubeconfig and discovery cache, and helpers to
// wait for a condition and to read kubectl's tables. Tests skip (with a message) without kubectl.
#pragma once
#include <doctest/doctest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "rr/apiserver/dev_certificates.hpp"
#include "test_server.hpp"

namespace rr::apiserver_test {

using namespace std::chrono_literals;

inline bool kubectl_available() { return std::system("command -v kubectl > /dev/null 2>&1") == 0; }

#define SKIP_WITHOUT_KUBECTL()                                          \
  if (!kubectl_available()) {                                           \
    MESSAGE("kubectl is not on PATH: kubectl end-to-end test skipped"); \
    return;                                                             \
  }

struct Run {
  int code = -1;
  std::string output;
};

// kubectl with its own kubeconfig and discovery cache in a temp directory.
class Kubectl {
 public:
  Kubectl(const ApiServer& server, const KubeconfigUser* user = nullptr) {
    std::string pattern = (std::filesystem::temp_directory_path() / "rr-apiserver-e2e-XXXXXX").string();
    dir_ = ::mkdtemp(pattern.data());
    if (user) {
      server.write_kubeconfig(dir_ + "/kubeconfig", *user);
    } else {
      server.write_kubeconfig(dir_ + "/kubeconfig");
    }
  }
  ~Kubectl() { std::filesystem::remove_all(dir_); }

  // Runs `kubectl <args>` (bounded by 30 s), stdout and stderr together.
  Run operator()(const std::string& args) const {
    Run run;
    FILE* pipe = ::popen((env() + "timeout 30 kubectl --request-timeout=20s " + args + " 2>&1").c_str(), "r");
    if (!pipe) return run;
    char buffer[4096];
    while (std::size_t n = std::fread(buffer, 1, sizeof buffer, pipe)) run.output.append(buffer, n);
    const int status = ::pclose(pipe);
    run.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return run;
  }

  // Starts `kubectl <args>` in the background for at most `seconds`, output to file `name`.
  void background(const std::string& args, const std::string& name, int seconds) const {
    const std::string command = "(" + env() + "timeout " + std::to_string(seconds) + " kubectl " + args + " > '" +
                                path(name) + "' 2>&1 &)";
    REQUIRE(std::system(command.c_str()) == 0);
  }

  std::string write(const std::string& name, const std::string& text) const {
    std::ofstream(path(name)) << text;
    return path(name);
  }

  std::string read(const std::string& name) const {
    std::ifstream in(path(name));
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
  }

  std::string path(const std::string& name) const { return dir_ + "/" + name; }

 private:
  std::string env() const { return "KUBECONFIG='" + path("kubeconfig") + "' KUBECACHEDIR='" + path("cache") + "' "; }
  std::string dir_;
};

// A server certificate and no client CA: a bearer token is the only credential (kubectl sends one
// only over TLS).
inline TlsOptions token_only_tls(const DevCertificates& certs) {
  TlsOptions tls;
  tls.cert_pem = certs.server_cert_pem;
  tls.key_pem = certs.server_key_pem;
  tls.ca_pem = certs.ca_pem;
  return tls;
}

template <class F>
bool eventually(F&& condition, std::chrono::milliseconds timeout) {
  const auto until = std::chrono::steady_clock::now() + timeout;
  while (std::chrono::steady_clock::now() < until) {
    if (condition()) return true;
    std::this_thread::sleep_for(50ms);
  }
  return condition();
}

inline const std::string gizmo_crd_file = std::string(RR_APISERVER_TEST_CRDS) + "/gizmos.yaml";

inline std::string gizmo_yaml(const std::string& name, int size, const std::string& extra_metadata = "") {
  return "apiVersion: test.rrgen.dev/v1\nkind: Gizmo\nmetadata:\n  name: " + name + "\n" + extra_metadata +
         "spec:\n  size: " + std::to_string(size) + "\n  color: blue\n";
}

// `kubectl apply` of a CRD file, then waits until the CRD named `name` is Established.
inline void apply_crd(const Kubectl& kubectl, const std::string& file, const std::string& name) {
  Run applied = kubectl("apply -f " + file);
  INFO(applied.output);
  REQUIRE(applied.code == 0);
  Run established = kubectl("wait --for condition=Established --timeout=10s crd/" + name);
  INFO(established.output);
  REQUIRE(established.code == 0);
}

// A plain-HTTP cluster with the test CRD applied by kubectl and Established.
struct GizmoCluster {
  GizmoCluster() : t(ApiServerOptions{}, with_namespaces()), kubectl(*t.server) {}
  static ClusterOptions with_namespaces() {
    ClusterOptions options;
    options.require_namespaces = true;
    return options;
  }
  void install_crd() { apply_crd(kubectl, gizmo_crd_file, "gizmos.test.rrgen.dev"); }
  TestServer t;
  Kubectl kubectl;
};

// kubectl's table output as the words of each line (empty cells vanish).
inline std::vector<std::vector<std::string>> table_rows(const std::string& output) {
  std::istringstream lines(output);
  std::vector<std::vector<std::string>> rows;
  for (std::string line; std::getline(lines, line);) {
    std::istringstream words(line);
    rows.emplace_back(std::istream_iterator<std::string>(words), std::istream_iterator<std::string>());
  }
  return rows;
}

}  // namespace rr::apiserver_test
