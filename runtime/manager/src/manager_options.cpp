// The manager's flags: one table gives each flag its name, help, default text and setter, so that
// parsing and usage() cannot disagree.
#include "rr/manager/manager_options.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <functional>
#include <stdexcept>

#include "rr/client/label_selector.hpp"
#include "rr/core/go_duration.hpp"
#include "rr/core/go_strconv.hpp"

namespace rr {
namespace {

enum class FlagKind { boolean, value };

struct Flag {
  std::string_view name;
  std::string_view type;  // usage: "string", "duration", "int", "level"; empty for a boolean
  std::string_view help;
  FlagKind kind;
  // Stores the value; throws std::invalid_argument with the reason when it is bad.
  std::function<void(ManagerOptions&, const std::string&)> set;
  // The default as usage() prints it ("" prints none).
  std::function<std::string(const ManagerOptions&)> default_text;
};

// Go's strconv.ParseBool.
bool parse_bool(const std::string& text) {
  if (const auto value = parse_go_bool(text)) return *value;
  throw std::invalid_argument("parse error: \"" + text + "\" is not a boolean");
}

// The whole text as one T (std::from_chars: no sign '+', no spaces); `what` names T in the error.
template <class T>
T parse_number(const std::string& text, const char* what) {
  T value{};
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size()) {
    throw std::invalid_argument("parse error: \"" + text + "\" is not " + what);
  }
  return value;
}

int parse_int(const std::string& text) { return parse_number<int>(text, "an integer"); }

int parse_positive_int(const std::string& text) {
  const int value = parse_int(text);
  if (value < 1) throw std::invalid_argument("must be at least 1, got " + text);
  return value;
}

int parse_port(const std::string& text) {
  const int value = parse_int(text);
  if (value < 0 || value > 65535) throw std::invalid_argument("port must be 0 to 65535, got " + text);
  return value;
}

// A finite number other than 0, whose meaning differs between client-go (its default) and
// rr::RateLimiter (no limit): refused rather than guessed.
float parse_qps(const std::string& text) {
  const auto value = parse_number<float>(text, "a number");
  if (!std::isfinite(value)) throw std::invalid_argument("parse error: \"" + text + "\" is not a number");
  if (value == 0)
    throw std::invalid_argument("0 is not a rate: give a positive number, or a negative one for no limit");
  return value;
}

// Shortest text that reads back as qps, as Go's flag package prints a float's default ("20").
std::string format_qps(float qps) {
  char buffer[32];  // a float's shortest form needs at most 15
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, qps);
  return std::string(buffer, result.ptr);
}

// A DNS-1123 label, as a namespace's name must be.
bool is_namespace_name(std::string_view name) {
  if (name.empty() || name.size() > 63) return false;
  auto alnum = [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); };
  if (!alnum(name.front()) || !alnum(name.back())) return false;
  return std::all_of(name.begin(), name.end(), [&](char c) { return alnum(c) || c == '-'; });
}

// "a,b,c" (spaces around names allowed); "" is every namespace.
std::vector<std::string> parse_namespaces(const std::string& text) {
  std::vector<std::string> out;
  if (text.empty()) return out;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = text.find(',', start);
    std::string name = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    const auto first = name.find_first_not_of(' ');
    const auto last = name.find_last_not_of(' ');
    name = first == std::string::npos ? std::string() : name.substr(first, last - first + 1);
    if (!is_namespace_name(name)) {
      throw std::invalid_argument("\"" + name + "\" is not a namespace name (a DNS-1123 label)");
    }
    out.push_back(std::move(name));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return out;
}

std::string join_namespaces(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& name : names) out += (out.empty() ? "" : ",") + name;
  return out;
}

LogLevel parse_level(const std::string& text) {
  if (text == "debug") return LogLevel::Debug;
  if (text == "info") return LogLevel::Info;
  if (text == "error") return LogLevel::Error;
  throw std::invalid_argument("unrecognized level: \"" + text + "\" (want debug, info or error)");
}

std::string level_name(LogLevel level) {
  switch (level) {
    case LogLevel::Debug: return "debug";
    case LogLevel::Info: return "info";
    case LogLevel::Error: return "error";
  }
  return "info";
}

std::string bind_address(const std::string& text) {
  (void)parse_bind_address(text);  // throws when malformed
  return text;
}

std::string quoted(const std::string& text) { return text.empty() ? "" : "\"" + text + "\""; }

const std::vector<Flag>& flags() {
  using O = ManagerOptions;
  using S = const std::string&;
  static const std::vector<Flag> table = {
      {"kubeconfig", "string", "Paths to a kubeconfig. Only required if out-of-cluster.", FlagKind::value,
       [](O& o, S v) { o.kubeconfig = v; }, [](const O& o) { return quoted(o.kubeconfig); }},
      {"context", "string", "The kubeconfig context to use (default: the kubeconfig's current-context).",
       FlagKind::value, [](O& o, S v) { o.context = v; }, [](const O& o) { return quoted(o.context); }},
      {"leader-elect", "",
       "Enable leader election for controller manager. Enabling this will ensure there is only one active "
       "controller manager.",
       FlagKind::boolean, [](O& o, S v) { o.leader_elect = parse_bool(v); },
       [](const O& o) { return o.leader_elect ? std::string("true") : std::string(); }},
      {"leader-election-id", "string", "Name of the Lease that holds the leader lock.", FlagKind::value,
       [](O& o, S v) { o.leader_election_id = v; }, [](const O& o) { return quoted(o.leader_election_id); }},
      {"leader-election-namespace", "string",
       "Namespace of the leader-election Lease (default: the pod's namespace when running in a cluster).",
       FlagKind::value, [](O& o, S v) { o.leader_election_namespace = v; },
       [](const O& o) { return quoted(o.leader_election_namespace); }},
      {"leader-elect-lease-duration", "duration",
       "How long non-leader candidates wait after observing a renewal before they try to take the lease.",
       FlagKind::value, [](O& o, S v) { o.lease_duration = parse_go_duration(v); },
       [](const O& o) { return format_go_duration(o.lease_duration); }},
      {"leader-elect-renew-deadline", "duration",
       "How long the leader keeps retrying to renew the lease before it gives up leadership.", FlagKind::value,
       [](O& o, S v) { o.renew_deadline = parse_go_duration(v); },
       [](const O& o) { return format_go_duration(o.renew_deadline); }},
      {"leader-elect-retry-period", "duration", "How long candidates wait between attempts to acquire or renew.",
       FlagKind::value, [](O& o, S v) { o.retry_period = parse_go_duration(v); },
       [](const O& o) { return format_go_duration(o.retry_period); }},
      {"metrics-bind-address", "string",
       "The address the metrics endpoint binds to. Use :8443 for HTTPS or :8080 for HTTP, or leave as 0 to disable "
       "the metrics service.",
       FlagKind::value, [](O& o, S v) { o.metrics_bind_address = bind_address(v); },
       [](const O& o) { return quoted(o.metrics_bind_address); }},
      {"metrics-secure", "",
       "If set, the metrics endpoint is served securely via HTTPS. Use --metrics-secure=false to use HTTP instead.",
       FlagKind::boolean, [](O& o, S v) { o.metrics_secure = parse_bool(v); },
       [](const O& o) { return o.metrics_secure ? std::string("true") : std::string(); }},
      {"metrics-cert-path", "string",
       "The directory that contains the metrics server certificate (default: a self-signed one is generated).",
       FlagKind::value, [](O& o, S v) { o.metrics_cert_path = v; },
       [](const O& o) { return quoted(o.metrics_cert_path); }},
      {"metrics-cert-name", "string", "The name of the metrics server certificate file.", FlagKind::value,
       [](O& o, S v) { o.metrics_cert_name = v; }, [](const O& o) { return quoted(o.metrics_cert_name); }},
      {"metrics-cert-key", "string", "The name of the metrics server key file.", FlagKind::value,
       [](O& o, S v) { o.metrics_cert_key = v; }, [](const O& o) { return quoted(o.metrics_cert_key); }},
      {"health-probe-bind-address", "string",
       "The address the probe endpoint (/healthz, /readyz) binds to, or 0 to disable it.", FlagKind::value,
       [](O& o, S v) { o.health_probe_bind_address = bind_address(v); },
       [](const O& o) { return quoted(o.health_probe_bind_address); }},
      {"webhook-port", "int", "The port the webhook server serves at (when the operator has webhooks).",
       FlagKind::value, [](O& o, S v) { o.webhook_port = parse_port(v); },
       [](const O& o) { return std::to_string(o.webhook_port); }},
      {"webhook-cert-dir", "string",
       "The directory holding the webhook server's serving certificate (tls.crt) and key (tls.key); they are "
       "read again when they change.",
       FlagKind::value, [](O& o, S v) { o.webhook_cert_dir = v; },
       [](const O& o) { return quoted(o.webhook_cert_dir); }},
      {"graceful-shutdown-timeout", "duration",
       "How long shutdown waits for runnables to stop; 0 does not wait, a negative value waits for ever.",
       FlagKind::value, [](O& o, S v) { o.graceful_shutdown_timeout = parse_go_duration(v); },
       [](const O& o) { return format_go_duration(o.graceful_shutdown_timeout); }},
      {"zap-log-level", "level",
       "Zap Level to configure the verbosity of logging. Can be one of 'debug', 'info', 'error'.", FlagKind::value,
       [](O& o, S v) {
         o.log_level = parse_level(v);
         o.log_level_set = true;
       },
       [](const O& o) { return level_name(o.log_level); }},
      {"zap-devel", "",
       "Development Mode defaults(encoder=consoleEncoder,logLevel=Debug). Production Mode "
       "defaults(encoder=jsonEncoder,logLevel=Info).",
       FlagKind::boolean, [](O& o, S v) { o.log_development = parse_bool(v); },
       [](const O& o) { return o.log_development ? std::string("true") : std::string(); }},
      {"max-concurrent-reconciles", "int", "How many reconciles each controller runs at once.", FlagKind::value,
       [](O& o, S v) { o.max_concurrent_reconciles = parse_positive_int(v); },
       [](const O& o) { return std::to_string(o.max_concurrent_reconciles); }},
      {"use-priority-queue", "",
       "Serve real changes before the initial list's and resyncs' requests (controller-runtime's priority "
       "queue). Use --use-priority-queue=false for one FIFO queue.",
       FlagKind::boolean, [](O& o, S v) { o.use_priority_queue = parse_bool(v); },
       [](const O& o) { return o.use_priority_queue ? std::string("true") : std::string(); }},
      {"reconcile-timeout", "duration",
       "How long one reconcile may run before it is cancelled and retried; 0 means no limit.", FlagKind::value,
       [](O& o, S v) {
         o.reconcile_timeout = parse_go_duration(v);
         if (o.reconcile_timeout.count() < 0) throw std::invalid_argument("must not be negative");
       },
       [](const O& o) {
         return o.reconcile_timeout.count() > 0 ? format_go_duration(o.reconcile_timeout) : std::string();
       }},
      {"namespaces", "string",
       "Comma-separated namespaces the cache watches, one list and watch each (a Role in each is enough); "
       "empty watches every namespace.",
       FlagKind::value, [](O& o, S v) { o.namespaces = parse_namespaces(v); },
       [](const O& o) { return quoted(join_namespaces(o.namespaces)); }},
      {"namespace-selector", "string",
       "Label selector of the namespaces the cache watches, as they come and go (a RoleBinding of the "
       "operator's namespaced ClusterRole in each; Namespaces list and watch cluster-wide); excludes --namespaces.",
       FlagKind::value,
       [](O& o, S v) {
         Selector::parse(v);  // std::invalid_argument names the fault
         o.namespace_selector = v;
       },
       [](const O& o) { return quoted(o.namespace_selector); }},
      {"events-api", "string",
       "The Event API the controllers write: events.k8s.io/v1 (series), or core/v1 for older clusters.",
       FlagKind::value,
       [](O& o, S v) {
         if (v != "events.k8s.io/v1" && v != "core/v1") {
           throw std::invalid_argument("must be events.k8s.io/v1 or core/v1, not \"" + v + "\"");
         }
         o.core_v1_events = v == "core/v1";
       },
       [](const O& o) { return quoted(o.core_v1_events ? "core/v1" : "events.k8s.io/v1"); }},
      {"kube-api-qps", "float",
       "Requests per second the operator's API client sends at most (client-side rate limit); a negative value "
       "turns the limit off.",
       FlagKind::value, [](O& o, S v) { o.kube_api_qps = parse_qps(v); },
       [](const O& o) { return format_qps(o.kube_api_qps); }},
      {"kube-api-burst", "int", "Requests the operator's API client may send at once above --kube-api-qps.",
       FlagKind::value, [](O& o, S v) { o.kube_api_burst = parse_positive_int(v); },
       [](const O& o) { return std::to_string(o.kube_api_burst); }},
  };
  return table;
}

const Flag* find_flag(std::string_view name) {
  for (const Flag& flag : flags()) {
    if (flag.name == name) return &flag;
  }
  return nullptr;
}

void set_flag(ManagerOptions& options, const Flag& flag, const std::string& value) {
  try {
    flag.set(options, value);
  } catch (const std::invalid_argument& e) {
    throw FlagError("invalid value for --" + std::string(flag.name) + ": " + e.what());
  }
}

}  // namespace

std::optional<BindAddress> parse_bind_address(std::string_view text) {
  if (text.empty() || text == "0") return std::nullopt;
  const std::size_t colon = text.rfind(':');
  if (colon == std::string_view::npos) {
    throw std::invalid_argument("address " + std::string(text) + ": missing port in address");
  }
  std::string_view host = text.substr(0, colon);
  const std::string_view port_text = text.substr(colon + 1);
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') {
    host = host.substr(1, host.size() - 2);
  } else if (host.find(':') != std::string_view::npos) {
    throw std::invalid_argument("address " + std::string(text) + ": too many colons in address");
  }
  int port = -1;
  const auto [end, ec] = std::from_chars(port_text.data(), port_text.data() + port_text.size(), port);
  if (port_text.empty() || ec != std::errc() || end != port_text.data() + port_text.size() || port < 0 ||
      port > 65535) {
    throw std::invalid_argument("address " + std::string(text) + ": invalid port");
  }
  return BindAddress{host.empty() ? std::string("0.0.0.0") : std::string(host), port};
}

ManagerOptions ManagerOptions::parse(int argc, const char* const* argv) {
  std::vector<std::string> arguments;
  for (int i = 1; i < argc; ++i) arguments.emplace_back(argv[i]);
  return parse(arguments);
}

ManagerOptions ManagerOptions::parse(const std::vector<std::string>& arguments) {
  ManagerOptions options;
  for (std::size_t i = 0; i < arguments.size(); ++i) {
    const std::string& argument = arguments[i];
    if (argument == "--") {
      options.args.assign(arguments.begin() + static_cast<std::ptrdiff_t>(i) + 1, arguments.end());
      break;
    }
    if (argument.size() < 2 || argument[0] != '-') {  // the first positional argument ends the flags
      options.args.assign(arguments.begin() + static_cast<std::ptrdiff_t>(i), arguments.end());
      break;
    }
    std::string_view body = std::string_view(argument).substr(argument[1] == '-' ? 2 : 1);
    if (body.empty() || body.front() == '-' || body.front() == '=') throw FlagError("bad flag syntax: " + argument);
    std::optional<std::string> value;
    if (const std::size_t eq = body.find('='); eq != std::string_view::npos) {
      value = std::string(body.substr(eq + 1));
      body = body.substr(0, eq);
    }
    if (body == "h" || body == "help") {
      options.show_help = true;
      continue;
    }
    const Flag* flag = find_flag(body);
    if (flag == nullptr) throw FlagError("unknown flag --" + std::string(body));
    if (flag->kind == FlagKind::boolean) {
      set_flag(options, *flag, value.value_or("true"));
      continue;
    }
    if (!value) {
      if (i + 1 >= arguments.size()) throw FlagError("flag needs an argument: --" + std::string(body));
      value = arguments[++i];
    }
    set_flag(options, *flag, *value);
  }
  if (!options.namespaces.empty() && !options.namespace_selector.empty()) {
    throw FlagError(
        "--namespaces and --namespace-selector exclude each other: give a list of namespaces or a selector");
  }
  return options;
}

std::string ManagerOptions::usage(std::string_view program) {
  const ManagerOptions defaults;
  std::string out = "Usage of " + std::string(program) + ":\n";
  for (const Flag& flag : flags()) {
    out += "  --" + std::string(flag.name);
    if (!flag.type.empty()) out += " " + std::string(flag.type);
    out += "\n    \t" + std::string(flag.help);
    if (const std::string def = flag.default_text(defaults); !def.empty()) out += " (default " + def + ")";
    out += "\n";
  }
  out += "  -h, --help\n    \tPrint this help and exit.\n";
  return out;
}

LogLevel ManagerOptions::effective_log_level() const {
  if (log_level_set) return log_level;
  return log_development ? LogLevel::Debug : LogLevel::Info;
}

}  // namespace rr
