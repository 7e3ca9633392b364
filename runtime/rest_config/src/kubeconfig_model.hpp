// A kubeconfig as parsed, before a context is chosen. Every entry remembers the file it came from
// (for error messages) and that file's directory (for its relative paths), so entries merged from
// several files keep resolving against their own file, as clientcmd's ResolveLocalPaths does.
#pragma once
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace rr::kubeconfig_detail {

struct Origin {
  std::string file{};      // shown in messages
  std::string base_dir{};  // relative paths resolve against it
};

struct Cluster {
  Origin origin{};
  std::string server{};
  std::string certificate_authority{};       // a path
  std::string certificate_authority_data{};  // decoded PEM
  bool insecure_skip_tls_verify{};
  std::string tls_server_name{};
  std::string proxy_url{};
  // extensions[client.authentication.k8s.io/exec].extension as JSON text, for exec plugins.
  std::string exec_extension_json{};
};

// users[].user.exec as written (clientcmd's api.ExecConfig); checked when the user is chosen.
struct Exec {
  std::string command{};
  std::vector<std::string> args{};
  std::vector<std::pair<std::string, std::string>> env{};
  std::string api_version{};
  std::string install_hint{};
  bool provide_cluster_info{};
  std::string interactive_mode{};  // "" when not written
};

struct User {
  Origin origin{};
  std::string client_certificate{};
  std::string client_certificate_data{};
  std::string client_key{};
  std::string client_key_data{};
  std::string token{};
  std::string token_file{};
  std::optional<Exec> exec{};
  bool uses_auth_provider{};
  bool uses_basic_auth{};
};

struct Context {
  Origin origin{};
  std::string cluster{};
  std::string user{};
  std::string namespace_name{};
};

struct Kubeconfig {
  std::string current_context{};
  std::map<std::string, Cluster, std::less<>> clusters{};
  std::map<std::string, User, std::less<>> users{};
  std::map<std::string, Context, std::less<>> contexts{};
};

// Parses one kubeconfig document; throws ConfigError naming origin.file on bad input.
Kubeconfig parse_kubeconfig(std::string_view yaml, const Origin& origin);

// Adds `later` under `merged` with clientcmd's precedence: existing names and a set
// current-context are kept.
void merge_into(Kubeconfig& merged, Kubeconfig later);

}  // namespace rr::kubeconfig_detail
