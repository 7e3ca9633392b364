// The manager's flags: every flag in both syntaxes, defaults, bad values, unknown flags, help.
#include <doctest/doctest.h>

#include <chrono>
#include <string>
#include <vector>

#include "rr/manager/manager_options.hpp"

using namespace std::chrono_literals;
using rr::FlagError;
using rr::ManagerOptions;

namespace {

std::string parse_error(const std::vector<std::string>& arguments) {
  try {
    (void)ManagerOptions::parse(arguments);
  } catch (const FlagError& e) {
    return e.what();
  }
  return "accepted";
}

}  // namespace

TEST_CASE("defaults are controller-runtime's") {
  const ManagerOptions o = ManagerOptions::parse(std::vector<std::string>{});
  CHECK(o.kubeconfig.empty());
  CHECK(o.context.empty());
  CHECK_FALSE(o.leader_elect);
  CHECK(o.leader_election_id.empty());
  CHECK(o.leader_election_namespace.empty());
  CHECK(o.lease_duration == 15s);
  CHECK(o.renew_deadline == 10s);
  CHECK(o.retry_period == 2s);
  CHECK(o.metrics_bind_address == ":8443");  // kubebuilder's config/default value: HTTPS by default
  CHECK(o.metrics_secure);
  CHECK(o.metrics_cert_path.empty());
  CHECK(o.metrics_cert_name == "tls.crt");
  CHECK(o.metrics_cert_key == "tls.key");
  CHECK(o.health_probe_bind_address == ":8081");
  CHECK(o.graceful_shutdown_timeout == 30s);
  CHECK(o.log_level == rr::LogLevel::Info);
  CHECK_FALSE(o.log_development);
  CHECK(o.effective_log_level() == rr::LogLevel::Info);
  CHECK(o.max_concurrent_reconciles == 1);
  CHECK(o.kube_api_qps == 20.0F);
  CHECK(o.kube_api_burst == 30);
  CHECK(o.webhook_port == 9443);
  CHECK(o.webhook_cert_dir == "/tmp/k8s-webhook-server/serving-certs");
  CHECK_FALSE(o.show_help);
  CHECK(o.args.empty());
}

TEST_CASE("every flag with --flag=value") {
  const ManagerOptions o = ManagerOptions::parse(std::vector<std::string>{"--kubeconfig=/tmp/kc",
                                                                          "--context=kind",
                                                                          "--leader-elect=true",
                                                                          "--leader-election-id=op-lock",
                                                                          "--leader-election-namespace=op-system",
                                                                          "--leader-elect-lease-duration=1m30s",
                                                                          "--leader-elect-renew-deadline=45s",
                                                                          "--leader-elect-retry-period=500ms",
                                                                          "--metrics-bind-address=127.0.0.1:0",
                                                                          "--health-probe-bind-address=[::1]:9090",
                                                                          "--graceful-shutdown-timeout=-1s",
                                                                          "--zap-log-level=error",
                                                                          "--zap-devel=true",
                                                                          "--max-concurrent-reconciles=4",
                                                                          "--webhook-port=0",
                                                                          "--webhook-cert-dir=/certs",
                                                                          "--kube-api-qps=50.5",
                                                                          "--kube-api-burst=100",
                                                                          "--metrics-secure=false",
                                                                          "--metrics-cert-path=/m",
                                                                          "--metrics-cert-name=c.pem",
                                                                          "--metrics-cert-key=k.pem"});
  CHECK(o.kubeconfig == "/tmp/kc");
  CHECK_FALSE(o.metrics_secure);
  CHECK(o.metrics_cert_path == "/m");
  CHECK(o.metrics_cert_name == "c.pem");
  CHECK(o.metrics_cert_key == "k.pem");
  CHECK(o.context == "kind");
  CHECK(o.leader_elect);
  CHECK(o.leader_election_id == "op-lock");
  CHECK(o.leader_election_namespace == "op-system");
  CHECK(o.lease_duration == 90s);
  CHECK(o.renew_deadline == 45s);
  CHECK(o.retry_period == 500ms);
  CHECK(o.metrics_bind_address == "127.0.0.1:0");
  CHECK(o.health_probe_bind_address == "[::1]:9090");
  CHECK(o.graceful_shutdown_timeout == -1s);
  CHECK(o.log_level == rr::LogLevel::Error);
  CHECK(o.log_development);
  CHECK(o.effective_log_level() == rr::LogLevel::Error);  // an explicit level wins over --zap-devel
  CHECK(o.max_concurrent_reconciles == 4);
  CHECK(o.kube_api_qps == 50.5F);
  CHECK(o.kube_api_burst == 100);
  CHECK(o.webhook_port == 0);
  CHECK(o.webhook_cert_dir == "/certs");
}

TEST_CASE("every value flag with --flag value, and single-dash flags as Go accepts them") {
  const ManagerOptions o = ManagerOptions::parse(std::vector<std::string>{"--kubeconfig",
                                                                          "/tmp/kc",
                                                                          "--context",
                                                                          "kind",
                                                                          "--leader-elect",
                                                                          "--leader-election-id",
                                                                          "op-lock",
                                                                          "-leader-election-namespace",
                                                                          "op-system",
                                                                          "--leader-elect-lease-duration",
                                                                          "20s",
                                                                          "--leader-elect-renew-deadline",
                                                                          "12s",
                                                                          "--leader-elect-retry-period",
                                                                          "3s",
                                                                          "--metrics-bind-address",
                                                                          "0",
                                                                          "--health-probe-bind-address",
                                                                          ":9091",
                                                                          "--graceful-shutdown-timeout",
                                                                          "0",
                                                                          "--zap-log-level",
                                                                          "debug",
                                                                          "-zap-devel",
                                                                          "--max-concurrent-reconciles",
                                                                          "2",
                                                                          "--webhook-port",
                                                                          "10443",
                                                                          "--webhook-cert-dir",
                                                                          "/c"});
  CHECK(o.kubeconfig == "/tmp/kc");
  CHECK(o.context == "kind");
  CHECK(o.leader_elect);
  CHECK(o.leader_election_id == "op-lock");
  CHECK(o.leader_election_namespace == "op-system");
  CHECK(o.lease_duration == 20s);
  CHECK(o.renew_deadline == 12s);
  CHECK(o.retry_period == 3s);
  CHECK(o.metrics_bind_address == "0");
  CHECK(o.health_probe_bind_address == ":9091");
  CHECK(o.graceful_shutdown_timeout == 0s);
  CHECK(o.log_level == rr::LogLevel::Debug);
  CHECK(o.log_development);
  CHECK(o.max_concurrent_reconciles == 2);
  CHECK(o.webhook_port == 10443);
  CHECK(o.webhook_cert_dir == "/c");
}

TEST_CASE("booleans: bare means true, =value takes Go's spellings, and a later flag wins") {
  CHECK(ManagerOptions::parse(std::vector<std::string>{"--leader-elect"}).leader_elect);
  CHECK_FALSE(ManagerOptions::parse(std::vector<std::string>{"--leader-elect", "--leader-elect=false"}).leader_elect);
  for (const char* yes : {"1", "t", "T", "true", "TRUE", "True"}) {
    CHECK(ManagerOptions::parse(std::vector<std::string>{std::string("--zap-devel=") + yes}).log_development);
  }
  for (const char* no : {"0", "f", "F", "false", "FALSE", "False"}) {
    CHECK_FALSE(ManagerOptions::parse(std::vector<std::string>{std::string("--zap-devel=") + no}).log_development);
  }
  // --zap-devel alone: development logs at debug.
  CHECK(ManagerOptions::parse(std::vector<std::string>{"--zap-devel"}).effective_log_level() == rr::LogLevel::Debug);
  // A boolean takes no separate value: "false" is the first positional argument.
  const ManagerOptions o = ManagerOptions::parse(std::vector<std::string>{"--leader-elect", "false"});
  CHECK(o.leader_elect);
  CHECK(o.args == std::vector<std::string>{"false"});
}

TEST_CASE("positional arguments end the flags, as do --") {
  const ManagerOptions a = ManagerOptions::parse(std::vector<std::string>{"--leader-elect", "run", "--kubeconfig=x"});
  CHECK(a.args == std::vector<std::string>{"run", "--kubeconfig=x"});
  CHECK(a.kubeconfig.empty());
  const ManagerOptions b = ManagerOptions::parse(std::vector<std::string>{"--", "--kubeconfig=x"});
  CHECK(b.args == std::vector<std::string>{"--kubeconfig=x"});
}

TEST_CASE("parse(argc, argv) skips the program name") {
  const char* argv[] = {"operator", "--leader-elect", "--leader-election-id=x", nullptr};
  const ManagerOptions o = ManagerOptions::parse(3, argv);
  CHECK(o.leader_elect);
  CHECK(o.leader_election_id == "x");
}

TEST_CASE("errors name the flag and the reason") {
  CHECK(parse_error({"--x"}) == "unknown flag --x");
  CHECK(parse_error({"--leader-elect-lease=1s"}) == "unknown flag --leader-elect-lease");
  CHECK(parse_error({"--kubeconfig"}) == "flag needs an argument: --kubeconfig");
  CHECK(parse_error({"--leader-elect-lease-duration=abc"}) ==
        "invalid value for --leader-elect-lease-duration: time: invalid duration \"abc\"");
  CHECK(parse_error({"--leader-elect-renew-deadline", "10"}) ==
        "invalid value for --leader-elect-renew-deadline: time: missing unit in duration \"10\"");
  CHECK(parse_error({"--leader-elect-retry-period=2d"}) ==
        "invalid value for --leader-elect-retry-period: time: unknown unit \"d\" in duration \"2d\"");
  CHECK(parse_error({"--graceful-shutdown-timeout=soon"}) ==
        "invalid value for --graceful-shutdown-timeout: time: invalid duration \"soon\"");
  CHECK(parse_error({"--leader-elect=maybe"}) ==
        "invalid value for --leader-elect: parse error: \"maybe\" is not a boolean");
  CHECK(parse_error({"--zap-log-level=loud"}) ==
        "invalid value for --zap-log-level: unrecognized level: \"loud\" (want debug, info or error)");
  CHECK(parse_error({"--reconcile-timeout=-1s"}) == "invalid value for --reconcile-timeout: must not be negative");
  CHECK(parse_error({"--max-concurrent-reconciles=0"}) ==
        "invalid value for --max-concurrent-reconciles: must be at least 1, got 0");
  CHECK(parse_error({"--max-concurrent-reconciles=two"}) ==
        "invalid value for --max-concurrent-reconciles: parse error: \"two\" is not an integer");
  CHECK(parse_error({"--kube-api-qps=0"}) ==
        "invalid value for --kube-api-qps: 0 is not a rate: give a positive number, or a negative one for no limit");
  CHECK(parse_error({"--kube-api-qps=fast"}) ==
        "invalid value for --kube-api-qps: parse error: \"fast\" is not a number");
  CHECK(parse_error({"--kube-api-qps=inf"}) ==
        "invalid value for --kube-api-qps: parse error: \"inf\" is not a number");
  CHECK(parse_error({"--kube-api-qps=5qps"}) ==
        "invalid value for --kube-api-qps: parse error: \"5qps\" is not a number");
  CHECK(parse_error({"--kube-api-burst=0"}) == "invalid value for --kube-api-burst: must be at least 1, got 0");
  CHECK(ManagerOptions::parse(std::vector<std::string>{"--kube-api-qps", "-1"}).kube_api_qps == -1.0F);
  CHECK(parse_error({"--webhook-port=65536"}) ==
        "invalid value for --webhook-port: port must be 0 to 65535, got 65536");
  CHECK(parse_error({"--webhook-port=x"}) == "invalid value for --webhook-port: parse error: \"x\" is not an integer");
  CHECK(parse_error({"--metrics-bind-address=8080"}) ==
        "invalid value for --metrics-bind-address: address 8080: missing port in address");
  CHECK(parse_error({"--health-probe-bind-address=:http"}) ==
        "invalid value for --health-probe-bind-address: address :http: invalid port");
  CHECK(parse_error({"--health-probe-bind-address=::1:80"}) ==
        "invalid value for --health-probe-bind-address: address ::1:80: too many colons in address");
  CHECK(parse_error({"---leader-elect"}) == "bad flag syntax: ---leader-elect");
  CHECK(parse_error({"--=x"}) == "bad flag syntax: --=x");
}

TEST_CASE("help: -h and --help set show_help, and usage lists every flag with its default") {
  CHECK(ManagerOptions::parse(std::vector<std::string>{"-h"}).show_help);
  CHECK(ManagerOptions::parse(std::vector<std::string>{"--help"}).show_help);
  CHECK(ManagerOptions::parse(std::vector<std::string>{"--kubeconfig=x", "-help"}).show_help);
  const std::string usage = ManagerOptions::usage("my-operator");
  CHECK(usage.rfind("Usage of my-operator:\n", 0) == 0);
  for (const char* flag : {"--kubeconfig string",
                           "--context string",
                           "--leader-elect\n",
                           "--leader-election-id string",
                           "--leader-election-namespace string",
                           "--leader-elect-lease-duration duration",
                           "--leader-elect-renew-deadline duration",
                           "--leader-elect-retry-period duration",
                           "--metrics-bind-address string",
                           "--health-probe-bind-address string",
                           "--graceful-shutdown-timeout duration",
                           "--zap-log-level level",
                           "--zap-devel\n",
                           "--max-concurrent-reconciles int",
                           "--use-priority-queue\n",
                           "--reconcile-timeout duration",
                           "--webhook-port int",
                           "--webhook-cert-dir string",
                           "--kube-api-qps float",
                           "--kube-api-burst int",
                           "--metrics-secure\n",
                           "--metrics-cert-path string",
                           "--metrics-cert-name string",
                           "--metrics-cert-key string",
                           "-h, --help"}) {
    CHECK_MESSAGE(usage.find(flag) != std::string::npos, flag);
  }
  for (const char* def : {"(default 15s)", "(default 10s)", "(default 2s)", "(default \":8443\")", "(default true)",
                          "(default \"tls.crt\")", "(default \"tls.key\")", "(default \":8081\")", "(default 30s)",
                          "(default info)", "(default 1)", "(default 9443)", "(default 20)", "(default 30)",
                          "(default \"/tmp/k8s-webhook-server/serving-certs\")"}) {
    CHECK_MESSAGE(usage.find(def) != std::string::npos, def);
  }
}

TEST_CASE("parse_bind_address") {
  CHECK_FALSE(rr::parse_bind_address("0").has_value());
  CHECK_FALSE(rr::parse_bind_address("").has_value());
  const auto any = rr::parse_bind_address(":8080");
  REQUIRE(any.has_value());
  CHECK(any->host == "0.0.0.0");
  CHECK(any->port == 8080);
  const auto loopback = rr::parse_bind_address("127.0.0.1:0");
  REQUIRE(loopback.has_value());
  CHECK(loopback->host == "127.0.0.1");
  CHECK(loopback->port == 0);
  const auto v6 = rr::parse_bind_address("[::1]:9090");
  REQUIRE(v6.has_value());
  CHECK(v6->host == "::1");
  CHECK(v6->port == 9090);
  CHECK_THROWS_AS((void)rr::parse_bind_address("localhost:65536"), std::invalid_argument);
  CHECK_THROWS_AS((void)rr::parse_bind_address("localhost:"), std::invalid_argument);
}

TEST_CASE("controller flags: --use-priority-queue is on by default, --reconcile-timeout off") {
  const ManagerOptions defaults = ManagerOptions::parse(std::vector<std::string>{});
  CHECK(defaults.use_priority_queue);
  CHECK(defaults.reconcile_timeout == std::chrono::nanoseconds(0));
  const ManagerOptions set = ManagerOptions::parse(
      std::vector<std::string>{"--use-priority-queue=false", "--reconcile-timeout=1m30s"});
  CHECK_FALSE(set.use_priority_queue);
  CHECK(set.reconcile_timeout == std::chrono::seconds(90));
}

TEST_CASE("cache flags: --namespaces lists the namespaces the cache watches") {
  CHECK(ManagerOptions::parse(std::vector<std::string>{}).namespaces.empty());
  const ManagerOptions two = ManagerOptions::parse(std::vector<std::string>{"--namespaces=team-a, team-b"});
  CHECK(two.namespaces == std::vector<std::string>{"team-a", "team-b"});
  CHECK(ManagerOptions::parse(std::vector<std::string>{"--namespaces", "one"}).namespaces ==
        std::vector<std::string>{"one"});
  CHECK(parse_error({"--namespaces=a,,b"}) ==
        "invalid value for --namespaces: \"\" is not a namespace name (a DNS-1123 label)");
  CHECK(parse_error({"--namespaces=Team"}) ==
        "invalid value for --namespaces: \"Team\" is not a namespace name (a DNS-1123 label)");
  const std::string usage = ManagerOptions::usage("op");
  CHECK(usage.find("--namespaces string") != std::string::npos);
}

TEST_CASE("cache flags: --namespace-selector chooses namespaces by label, never with --namespaces") {
  CHECK(ManagerOptions::parse(std::vector<std::string>{}).namespace_selector.empty());
  CHECK(ManagerOptions::parse(std::vector<std::string>{"--namespace-selector=team in (a, b),!legacy"})
            .namespace_selector == "team in (a, b),!legacy");
  CHECK(parse_error({"--namespace-selector=team in (a"}).starts_with("invalid value for --namespace-selector: "));
  CHECK(parse_error({"--namespaces=a", "--namespace-selector=team=a"}) ==
        "--namespaces and --namespace-selector exclude each other: give a list of namespaces or a selector");
  CHECK(ManagerOptions::usage("op").find("--namespace-selector string") != std::string::npos);
}

TEST_CASE("event flags: --events-api is events.k8s.io/v1 unless core/v1 is asked for") {
  CHECK_FALSE(ManagerOptions::parse(std::vector<std::string>{}).core_v1_events);
  CHECK(ManagerOptions::parse(std::vector<std::string>{"--events-api=core/v1"}).core_v1_events);
  CHECK_FALSE(ManagerOptions::parse(std::vector<std::string>{"--events-api=events.k8s.io/v1"}).core_v1_events);
  CHECK(parse_error({"--events-api=v1"}) ==
        "invalid value for --events-api: must be events.k8s.io/v1 or core/v1, not \"v1\"");
  CHECK(ManagerOptions::usage("op").find("(default \"events.k8s.io/v1\")") != std::string::npos);
}
