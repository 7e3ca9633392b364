// rrgen-cluster: an in-memory Kubernetes API server on 127.0.0.1 that kubectl and operators can
// use. Serves HTTPS with a throw-away CA (plain HTTP only with --insecure-http), prints the URL,
// writes a kubeconfig, serves until SIGINT or SIGTERM.
#include <unistd.h>

#include <csignal>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "discovery.hpp"
#include "rr/apiserver/api_server.hpp"
#include "rr/apiserver/dev_certificates.hpp"
#include "rr/apiserver/kubectl_skew.hpp"
#include "rr/apiserver/workload_simulator.hpp"
#include "rr/cert_manager/cert_manager.hpp"
#include "rr/cluster/cluster.hpp"
#include "rr/kube_controllers/namespace_defaults.hpp"
#include "rr/node/node_agent.hpp"
#include "yaml_json.hpp"

namespace {

constexpr std::string_view usage =
    "usage: rrgen-cluster [--port N] [--insecure-http] [--token TOKEN]... [--user-token TOKEN,USER[,GROUP...]]...\n"
    "                     [--authorization-mode RBAC|AlwaysAllow] [--kubeconfig-out FILE]\n"
    "                     [--crds FILE...] [--simulate-workloads] [--images DIR]... [--node-state-dir DIR]\n"
    "                     [--cert-manager]\n"
    "                     [--fail-rate R --fail-codes 500,429,409] [--latency-ms N]\n"
    "                     [--drop-watch-rate R] [--drop-watch-after N] [--expire-rate R] [--seed N]\n"
    "                     [--refuse-watch-list]\n";

struct Flags {
  rr::ApiServerOptions server;
  bool tls = true;  // --insecure-http: plain HTTP, no authentication
  bool simulate_workloads = false;
  std::string kubeconfig_out = "rrgen-cluster.kubeconfig";
  std::vector<std::string> crd_files;
  // OCI image layouts the node agent runs pods from (none: no agent).
  std::vector<std::string> image_dirs;
  std::string node_state_dir;
  // The cert-manager subset: its CRDs, issuers, Certificates and CA injection (rr::cert_manager).
  bool cert_manager = false;
};

[[noreturn]] void fail(const std::string& message) {
  std::cerr << "rrgen-cluster: " << message << "\n" << usage;
  std::exit(2);
}

double rate(const std::string& text, const std::string& flag) {
  try {
    std::size_t used = 0;
    const double r = std::stod(text, &used);
    if (used == text.size() && r >= 0 && r <= 1) return r;
  } catch (const std::exception&) {
  }
  fail(flag + " needs a number between 0 and 1, got \"" + text + "\"");
}

long long integer(const std::string& text, const std::string& flag) {
  try {
    std::size_t used = 0;
    const long long n = std::stoll(text, &used);
    if (used == text.size() && n >= 0) return n;
  } catch (const std::exception&) {
  }
  fail(flag + " needs a non-negative integer, got \"" + text + "\"");
}

Flags parse_flags(int argc, char** argv) {
  Flags flags;
  const std::vector<std::string> args(argv + 1, argv + argc);
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& flag = args[i];
    auto value = [&]() -> const std::string& {
      if (i + 1 >= args.size()) fail(flag + " needs a value");
      return args[++i];
    };
    if (flag == "--help" || flag == "-h") {
      std::cout << usage;
      std::exit(0);
    } else if (flag == "--port") {
      const long long port = integer(value(), flag);
      if (port > 65535) fail("--port must be at most 65535");
      flags.server.port = static_cast<int>(port);
    } else if (flag == "--tls") {
      flags.tls = true;  // the default; kept for scripts written when it was not
    } else if (flag == "--insecure-http") {
      flags.tls = false;
    } else if (flag == "--token") {
      flags.server.bearer_tokens.push_back(value());
    } else if (flag == "--user-token") {
      // The API server's token-file row: token, user, then groups.
      std::stringstream row(value());
      rr::StaticToken token;
      std::getline(row, token.token, ',');
      std::getline(row, token.user, ',');
      for (std::string group; std::getline(row, group, ',');) token.groups.push_back(group);
      if (token.token.empty() || token.user.empty()) fail("--user-token takes TOKEN,USER[,GROUP...]");
      flags.server.static_tokens.push_back(std::move(token));
    } else if (flag == "--authorization-mode") {
      const std::string& mode = value();
      if (mode != "AlwaysAllow" && mode != "RBAC") fail("--authorization-mode takes AlwaysAllow or RBAC");
      flags.server.authorization = mode == "RBAC" ? rr::AuthorizationMode::RBAC : rr::AuthorizationMode::AlwaysAllow;
    } else if (flag == "--kubeconfig-out") {
      flags.kubeconfig_out = value();
    } else if (flag == "--crds") {
      flags.crd_files.push_back(value());
      while (i + 1 < args.size() && args[i + 1].rfind("--", 0) != 0) flags.crd_files.push_back(args[++i]);
    } else if (flag == "--images") {
      flags.image_dirs.push_back(value());
    } else if (flag == "--node-state-dir") {
      flags.node_state_dir = value();
    } else if (flag == "--cert-manager") {
      flags.cert_manager = true;
    } else if (flag == "--simulate-workloads") {
      flags.simulate_workloads = true;
    } else if (flag == "--refuse-watch-list") {
      // As a server without the WatchList feature: a watch with sendInitialEvents gets 422.
      flags.server.faults.refuse_watch_list = true;
    } else if (flag == "--fail-rate") {
      flags.server.faults.fail_rate = rate(value(), flag);
    } else if (flag == "--fail-codes") {
      flags.server.faults.fail_codes.clear();
      std::stringstream list(value());
      for (std::string code; std::getline(list, code, ',');) {
        const long long c = integer(code, flag);
        if (c < 400 || c > 599) fail("--fail-codes takes HTTP error codes (400-599)");
        flags.server.faults.fail_codes.push_back(static_cast<int>(c));
      }
    } else if (flag == "--latency-ms") {
      flags.server.faults.latency = std::chrono::milliseconds(integer(value(), flag));
    } else if (flag == "--drop-watch-rate") {
      flags.server.faults.drop_watch_rate = rate(value(), flag);
    } else if (flag == "--drop-watch-after") {
      flags.server.faults.drop_watch_after_events = static_cast<std::uint64_t>(integer(value(), flag));
    } else if (flag == "--expire-rate") {
      flags.server.faults.expire_rate = rate(value(), flag);
    } else if (flag == "--seed") {
      flags.server.faults.seed = static_cast<std::uint64_t>(integer(value(), flag));
    } else {
      fail("unknown argument " + flag);
    }
  }
  return flags;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// Creates the CRDs of the files and waits until their kinds are served.
void apply_crds(rr::Cluster& cluster, const std::vector<std::string>& files) {
  const auto crd_kind = cluster.find_kind({"apiextensions.k8s.io", "v1", "CustomResourceDefinition"});
  std::vector<std::string> kinds;
  for (const auto& file : files) {
    for (const rr::Json& doc : rr::apiserver_detail::yaml_documents(read_file(file))) {
      if (doc.value("kind", "") != "CustomResourceDefinition") {
        throw std::runtime_error(file + ": not a CustomResourceDefinition: " + doc.value("kind", "(no kind)"));
      }
      cluster.create(*crd_kind, doc);
      kinds.push_back(doc.value("/spec/names/plural"_json_pointer, std::string()) + "." +
                      doc.value("/spec/group"_json_pointer, std::string()));
    }
  }
  for (const auto& name : kinds) {
    for (int i = 0; i < 500; ++i) {
      const rr::Json crd = cluster.get(*crd_kind, {"", name});
      if (crd.contains("status")) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    std::cout << "crd " << name << " established\n";
  }
}

}  // namespace

int main(int argc, char** argv) {
  Flags flags = parse_flags(argc, argv);
  if ((!flags.server.bearer_tokens.empty() || !flags.server.static_tokens.empty()) && !flags.tls) {
    std::cerr << "rrgen-cluster: warning: kubectl sends tokens only over TLS; drop --insecure-http\n";
  }
  // Signals are taken by sigwait below; every thread started from here on inherits the mask.
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);

  try {
    auto cluster = std::make_shared<rr::Cluster>(rr::ClusterOptions{
        .clock = {}, .watch_history = 10000, .require_namespaces = true, .counter_generate_name = false,
        .seed = flags.server.faults.seed});
    if (flags.tls) {
      const rr::DevCertificates certs = rr::make_dev_certificates();
      flags.server.tls = rr::tls_options(certs);
      flags.server.kubeconfig_user = rr::kubeconfig_user(certs);
    }
    rr::ApiServer server(cluster, flags.server);
    server.start();
    apply_crds(*cluster, flags.crd_files);
    // What kube-controller-manager puts in every namespace (default ServiceAccount, kube-root-ca.crt).
    rr::kube_controllers::NamespaceDefaults namespace_defaults(cluster,
                                                               {.root_ca_pem = server.serving_ca_pem(), .log = {}});
    std::unique_ptr<rr::cert_manager::CertManager> cert_manager;
    if (flags.cert_manager) {
      cert_manager = std::make_unique<rr::cert_manager::CertManager>(cluster);
      if (!cert_manager->wait_until_served(std::chrono::seconds(5))) {
        throw std::runtime_error("cert-manager.io/v1 kinds not served after 5s");
      }
      std::cout << "cert-manager subset: Issuer, ClusterIssuer (selfSigned, ca), Certificate, CA injection\n";
    }
    std::shared_ptr<rr::node::NodeAgent> agent;
    if (!flags.image_dirs.empty()) {
      rr::node::NodeAgentOptions node;
      node.image_dirs.assign(flags.image_dirs.begin(), flags.image_dirs.end());
      node.state_dir = flags.node_state_dir;
      node.service_port = server.port();
      node.mint_token = server.token_minter();
      node.ca_pem = server.serving_ca_pem();
      agent = std::make_shared<rr::node::NodeAgent>(cluster, std::move(node));
      server.set_pod_log_source(agent);
      std::cout << "node agent " << agent->node_name() << " runs the pods of the images in";
      for (const auto& dir : flags.image_dirs) std::cout << " " << dir;
      std::cout << "\n";
    }
    std::unique_ptr<rr::WorkloadSimulator> simulator;
    if (flags.simulate_workloads) {
      simulator = std::make_unique<rr::WorkloadSimulator>(
          cluster, agent ? agent->predicate() : std::function<bool(const rr::Json&)>());
    }
    server.write_kubeconfig(flags.kubeconfig_out);
    std::cout << "rrgen-cluster serving " << server.url() << "\n"
              << "kubeconfig written to " << flags.kubeconfig_out << "\n"
              << "  export KUBECONFIG=" << flags.kubeconfig_out << "\n"
              << std::flush;
    // For a person at a terminal: which kubectl will warn about version skew (scripts and tests,
    // reading a pipe, do not pay for running kubectl).
    if (isatty(STDOUT_FILENO) != 0) {
      if (auto note = rr::kubectl_skew_note()) std::cout << *note << "\n" << std::flush;
    }
    int signal = 0;
    sigwait(&signals, &signal);
    std::cout << "rrgen-cluster: stopping (signal " << signal << ")\n" << std::flush;
    simulator.reset();
    cert_manager.reset();
    namespace_defaults.stop();
    if (agent) agent->stop();
    server.stop();
  } catch (const std::exception& e) {
    std::cerr << "rrgen-cluster: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
