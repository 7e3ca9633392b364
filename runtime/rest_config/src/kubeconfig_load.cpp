// Choosing a context and turning its cluster and user into a RestConfig, as clientcmd's
// DirectClientConfig.ClientConfig() does, except that files are read now (RestConfig carries
// PEM bytes, not paths) so a missing file is reported at load time.
#include <filesystem>
#include <set>
#include <utility>

#include "file_read.hpp"
#include "kubeconfig_exec.hpp"
#include "kubeconfig_model.hpp"
#include "rr/rest_config/kubeconfig.hpp"

namespace rr {
namespace {

using kubeconfig_detail::Cluster;
using kubeconfig_detail::Kubeconfig;
using kubeconfig_detail::Origin;
using kubeconfig_detail::User;

std::string in_quotes(std::string_view s) { return "\"" + std::string(s) + "\""; }

std::string where_of(const Origin& origin) { return "kubeconfig " + origin.file; }

// The *-data field wins over the file, as client-go's dataFromSliceOrFile.
std::string data_or_file(const std::string& data, const std::string& file, const Origin& origin,
                         std::string_view what, const std::string& where) {
  if (!data.empty()) return data;
  if (file.empty()) return {};
  return config_detail::read_file_or_throw(config_detail::resolve_against(file, origin.base_dir), what, where);
}

void apply_cluster(const Cluster& cluster, const std::string& name, RestConfig& out) {
  const std::string where = where_of(cluster.origin) + ": cluster " + in_quotes(name);
  if (cluster.server.empty()) throw ConfigError(where + ": no server is set");
  out.host = cluster.server;
  out.ca_data = data_or_file(cluster.certificate_authority_data, cluster.certificate_authority,
                             cluster.origin, "certificate-authority", where);
  out.insecure_skip_tls_verify = cluster.insecure_skip_tls_verify;
  // client-go's transport refuses the same combination ("specifying a root certificates file
  // with the insecure flag is not allowed").
  if (out.insecure_skip_tls_verify && !out.ca_data.empty())
    throw ConfigError(where + ": insecure-skip-tls-verify cannot be combined with a certificate authority");
  out.tls_server_name = cluster.tls_server_name;
  if (!cluster.proxy_url.empty()) out.proxy_url = cluster.proxy_url;
}

void apply_user(const User& user, const std::string& name, const Cluster& cluster, RestConfig& out) {
  const std::string where = where_of(user.origin) + ": user " + in_quotes(name);
  if (user.uses_auth_provider)
    throw ConfigError(where + ": auth-provider is not supported; use exec, a token, tokenFile or client certificate");
  if (user.uses_basic_auth)
    throw ConfigError(
        where +
        ": username/password (basic auth) is not supported; use exec, a token, tokenFile or client certificate");
  if (user.exec)
    out.exec = kubeconfig_detail::exec_config_of(*user.exec, user.origin, cluster.exec_extension_json, where);
  out.client_cert_data = data_or_file(user.client_certificate_data, user.client_certificate, user.origin,
                                      "client-certificate", where);
  out.client_key_data = data_or_file(user.client_key_data, user.client_key, user.origin, "client-key", where);
  // clientcmd's validateAuthInfo: a certificate needs its key and the reverse.
  if (!out.client_cert_data.empty() && out.client_key_data.empty())
    throw ConfigError(where + ": client-certificate is set but client-key / client-key-data is missing");
  if (out.client_cert_data.empty() && !out.client_key_data.empty())
    throw ConfigError(where + ": client-key is set but client-certificate / client-certificate-data is missing");
  // A literal token wins over tokenFile; tokenFile is kept either way so the transport can
  // re-read a rotated token (clientcmd's getUserIdentificationPartialConfig).
  const std::string token_file = config_detail::resolve_against(user.token_file, user.origin.base_dir);
  out.bearer_token_file = token_file;
  if (!user.token.empty()) out.bearer_token = user.token;
  else if (!token_file.empty()) out.bearer_token = config_detail::read_file_or_throw(token_file, "tokenFile", where);
}

LoadedConfig select_context(const Kubeconfig& config, std::string_view context_override,
                            const std::string& sources) {
  const std::string where = "kubeconfig " + sources;
  const std::string context_name = context_override.empty() ? config.current_context : std::string(context_override);
  if (context_name.empty()) throw ConfigError(where + ": no current-context is set and no context was given");
  const auto context = config.contexts.find(context_name);
  if (context == config.contexts.end()) throw ConfigError(where + ": context " + in_quotes(context_name) + " not found");
  const auto& ctx = context->second;
  const std::string ctx_where = where_of(ctx.origin) + ": context " + in_quotes(context_name);

  LoadedConfig loaded;
  loaded.context = context_name;
  loaded.namespace_name = ctx.namespace_name.empty() ? "default" : ctx.namespace_name;
  loaded.source = where;

  if (ctx.cluster.empty()) throw ConfigError(ctx_where + ": no cluster is set");
  const auto cluster = config.clusters.find(ctx.cluster);
  if (cluster == config.clusters.end())
    throw ConfigError(where + ": cluster " + in_quotes(ctx.cluster) + " of context " + in_quotes(context_name) + " not found");
  apply_cluster(cluster->second, ctx.cluster, loaded.config);

  if (!ctx.user.empty()) {  // no user = anonymous, as clientcmd allows
    const auto user = config.users.find(ctx.user);
    if (user == config.users.end())
      throw ConfigError(where + ": user " + in_quotes(ctx.user) + " of context " + in_quotes(context_name) + " not found");
    apply_user(user->second, ctx.user, cluster->second, loaded.config);
  }
  return loaded;
}

Origin origin_of_file(const std::string& path) {
  std::error_code ec;
  auto absolute = std::filesystem::absolute(path, ec);
  const auto dir = ec ? std::filesystem::path(path).parent_path() : absolute.parent_path();
  return Origin{path, dir.string()};
}

}  // namespace

LoadedConfig load_kubeconfig_text(std::string_view yaml, std::string_view context_override,
                                  const std::string& base_dir, std::string_view origin) {
  const Origin where{std::string(origin), base_dir};
  return select_context(kubeconfig_detail::parse_kubeconfig(yaml, where), context_override, where.file);
}

LoadedConfig load_kubeconfig_file(const std::string& path, std::string_view context_override) {
  const auto text = config_detail::try_read_file(path);
  if (!text) throw ConfigError("kubeconfig " + path + ": cannot read the file");
  const Origin origin = origin_of_file(path);
  return select_context(kubeconfig_detail::parse_kubeconfig(*text, origin), context_override, path);
}

LoadedConfig load_kubeconfig_files(const std::vector<std::string>& paths, std::string_view context_override) {
  Kubeconfig merged;
  std::string read_files;
  for (const auto& path : paths) {
    std::error_code ec;
    if (!std::filesystem::exists(path, ec)) continue;  // clientcmd skips missing entries of $KUBECONFIG
    const auto text = config_detail::try_read_file(path);
    if (!text) throw ConfigError("kubeconfig " + path + ": cannot read the file");
    kubeconfig_detail::merge_into(merged, kubeconfig_detail::parse_kubeconfig(*text, origin_of_file(path)));
    read_files += (read_files.empty() ? "" : ":") + path;
  }
  if (read_files.empty()) {
    std::string listed;
    for (const auto& path : paths) listed += (listed.empty() ? "" : ":") + path;
    throw ConfigError("kubeconfig " + listed + ": none of these files exists");
  }
  return select_context(merged, context_override, read_files);
}

std::vector<std::string> split_kubeconfig_list(std::string_view value) {
  std::vector<std::string> paths;
  std::set<std::string, std::less<>> seen;
  while (true) {
    const auto colon = value.find(':');
    const std::string_view entry = value.substr(0, colon);
    if (!entry.empty() && seen.emplace(entry).second) paths.emplace_back(entry);
    if (colon == std::string_view::npos) break;
    value.remove_prefix(colon + 1);
  }
  return paths;
}

}  // namespace rr
