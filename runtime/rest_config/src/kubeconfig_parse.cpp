// kubeconfig YAML -> Kubeconfig, read by rr::yaml as clientcmd reads it (sigs.k8s.io/yaml: go-yaml
// v2 scalars, a number or bool where a string is expected taken as its text). Unknown fields are
// ignored (clientcmd's decoder is not strict); wrong shapes and bad base64 are errors naming the
// file and the field.
#include <utility>

#include "kubeconfig_model.hpp"
#include "rr/core/time.hpp"
#include "rr/rest_config/rest_config.hpp"
#include "rr/yaml/reader.hpp"
#include "yaml_json.hpp"

namespace rr::kubeconfig_detail {
namespace {

[[noreturn]] void fail(const std::string& where, const std::string& what) {
  throw ConfigError(where + ": " + what);
}

std::string in_quotes(std::string_view s) { return "\"" + std::string(s) + "\""; }

// sigs.k8s.io/yaml turns a number or bool bound for a string field into its text.
std::string text_of(const Json& value, const std::string& where, std::string_view field) {
  if (value.is_null()) return {};
  if (value.is_string()) return value.get<std::string>();
  if (value.is_boolean()) return value.get<bool>() ? "true" : "false";
  if (value.is_number()) return value.dump();
  fail(where, std::string(field) + " must be a string");
}

bool bool_of(const Json& value, const std::string& where, std::string_view field) {
  if (value.is_null()) return false;
  if (!value.is_boolean()) fail(where, std::string(field) + " must be true or false");
  return value.get<bool>();
}

// Go decodes []byte fields (the *-data ones) as standard base64.
std::string base64_of(const Json& value, const std::string& where, std::string_view field) {
  const std::string text = text_of(value, where, field);
  auto decoded = Bytes(text).decode();
  if (!decoded) fail(where, std::string(field) + " is not valid base64");
  return std::move(*decoded);
}

bool present(const Json& value) { return !value.is_null(); }

// Calls on_field(key, value) for each scalar key of a mapping; null counts as an empty mapping.
template <class OnField>
void for_each_field(const Json& map, const std::string& where, std::string_view what, OnField&& on_field) {
  if (map.is_null()) return;
  if (!map.is_object()) fail(where, std::string(what) + " must be a mapping");
  for (auto it = map.begin(); it != map.end(); ++it) on_field(it.key(), *it);
}

// A member of a mapping, null when absent.
const Json& member(const Json& map, const std::string& key) {
  static const Json null;
  const auto it = map.find(key);
  return it == map.end() ? null : *it;
}

// A list of strings; null counts as empty.
std::vector<std::string> strings_of(const Json& list, const std::string& where, std::string_view field) {
  std::vector<std::string> out;
  if (list.is_null()) return out;
  if (!list.is_array()) fail(where, std::string(field) + " must be a list of strings");
  for (const auto& item : list) out.push_back(text_of(item, where, field));
  return out;
}

// exec.env: a list of {name, value}.
std::vector<std::pair<std::string, std::string>> env_of(const Json& list, const std::string& where) {
  std::vector<std::pair<std::string, std::string>> out;
  if (list.is_null()) return out;
  if (!list.is_array()) fail(where, "env must be a list of {name, value}");
  for (const auto& item : list) {
    std::pair<std::string, std::string> var;
    for_each_field(item, where, "env[]", [&](const std::string& key, const Json& v) {
      if (key == "name") var.first = text_of(v, where, "env[].name");
      else if (key == "value") var.second = text_of(v, where, "env[].value");
    });
    out.push_back(std::move(var));
  }
  return out;
}

Exec parse_exec(const Json& node, const std::string& user_where) {
  const std::string where = user_where + ": exec";
  Exec e;
  for_each_field(node, where, "exec", [&](const std::string& key, const Json& v) {
    if (key == "command") e.command = text_of(v, where, key);
    else if (key == "args") e.args = strings_of(v, where, key);
    else if (key == "env") e.env = env_of(v, where);
    else if (key == "apiVersion") e.api_version = text_of(v, where, key);
    else if (key == "installHint") e.install_hint = text_of(v, where, key);
    else if (key == "provideClusterInfo") e.provide_cluster_info = bool_of(v, where, key);
    else if (key == "interactiveMode") e.interactive_mode = text_of(v, where, key);
  });
  return e;
}

// cluster.extensions: a list of {name, extension}; only the exec plugins' one is kept.
std::string exec_extension_of(const Json& list, const std::string& where) {
  if (list.is_null()) return {};
  if (!list.is_array()) fail(where, "extensions must be a list of {name, extension}");
  for (const Json& item : list) {
    if (!item.is_object()) fail(where, "extensions must be a list of {name, extension}");
    const Json& name = member(item, "name");
    if (name.is_null() || text_of(name, where, "extensions[].name") != "client.authentication.k8s.io/exec") continue;
    const Json& extension = member(item, "extension");
    if (extension.is_null()) return {};
    return config_detail::yaml_to_json_text(extension, where + ": extensions[client.authentication.k8s.io/exec]");
  }
  return {};
}

Cluster parse_cluster(const Json& node, const std::string& where, const Origin& origin) {
  Cluster c;
  c.origin = origin;
  for_each_field(node, where, "cluster", [&](const std::string& key, const Json& v) {
    if (key == "server") c.server = text_of(v, where, key);
    else if (key == "certificate-authority") c.certificate_authority = text_of(v, where, key);
    else if (key == "certificate-authority-data") c.certificate_authority_data = base64_of(v, where, key);
    else if (key == "insecure-skip-tls-verify") c.insecure_skip_tls_verify = bool_of(v, where, key);
    else if (key == "tls-server-name") c.tls_server_name = text_of(v, where, key);
    else if (key == "proxy-url") c.proxy_url = text_of(v, where, key);
    else if (key == "extensions") c.exec_extension_json = exec_extension_of(v, where);
  });
  return c;
}

User parse_user(const Json& node, const std::string& where, const Origin& origin) {
  User u;
  u.origin = origin;
  for_each_field(node, where, "user", [&](const std::string& key, const Json& v) {
    if (key == "client-certificate") u.client_certificate = text_of(v, where, key);
    else if (key == "client-certificate-data") u.client_certificate_data = base64_of(v, where, key);
    else if (key == "client-key") u.client_key = text_of(v, where, key);
    else if (key == "client-key-data") u.client_key_data = base64_of(v, where, key);
    else if (key == "token") u.token = text_of(v, where, key);
    else if (key == "tokenFile") u.token_file = text_of(v, where, key);
    else if (key == "exec" && present(v)) u.exec = parse_exec(v, where);
    else if (key == "auth-provider") u.uses_auth_provider = present(v);
    else if (key == "username" || key == "password") u.uses_basic_auth = u.uses_basic_auth || present(v);
  });
  return u;
}

Context parse_context(const Json& node, const std::string& where, const Origin& origin) {
  Context c;
  c.origin = origin;
  for_each_field(node, where, "context", [&](const std::string& key, const Json& v) {
    if (key == "cluster") c.cluster = text_of(v, where, key);
    else if (key == "user") c.user = text_of(v, where, key);
    else if (key == "namespace") c.namespace_name = text_of(v, where, key);
  });
  return c;
}

// clusters/users/contexts are lists of {name, <body_key>: {...}}; clientcmd rejects a name that
// appears twice in one file.
template <class Entry, class Parse>
void parse_named_list(const Json& list, std::string_view list_key, std::string_view body_key, std::string_view noun,
                      const Origin& origin, std::map<std::string, Entry, std::less<>>& out, Parse&& parse) {
  const std::string file_where = "kubeconfig " + origin.file;
  if (list.is_null()) return;
  if (!list.is_array()) fail(file_where, std::string(list_key) + " must be a list");
  std::size_t index = 0;
  for (const Json& item : list) {
    const std::string item_where = file_where + ": " + std::string(list_key) + "[" + std::to_string(index++) + "]";
    if (!item.is_object()) fail(item_where, "must be a mapping with name and " + std::string(body_key));
    const std::string name = text_of(member(item, "name"), item_where, "name");
    if (name.empty()) fail(item_where, "has no name");
    const std::string where = file_where + ": " + std::string(noun) + " " + in_quotes(name);
    if (out.count(name) != 0) fail(file_where, "duplicate " + std::string(noun) + " name " + in_quotes(name));
    out.emplace(name, parse(member(item, std::string(body_key)), where, origin));
  }
}

Kubeconfig parse_document(const Json& root, const Origin& origin) {
  const std::string where = "kubeconfig " + origin.file;
  Kubeconfig config;
  if (root.is_null()) return config;  // an empty file is an empty config
  if (!root.is_object()) fail(where, "the top level must be a mapping");
  for (auto field = root.begin(); field != root.end(); ++field) {
    const std::string& key = field.key();
    const Json& v = *field;
    if (key == "current-context") config.current_context = text_of(v, where, key);
    else if (key == "clusters") parse_named_list(v, key, "cluster", "cluster", origin, config.clusters, parse_cluster);
    else if (key == "users") parse_named_list(v, key, "user", "user", origin, config.users, parse_user);
    else if (key == "contexts") parse_named_list(v, key, "context", "context", origin, config.contexts, parse_context);
  }
  return config;
}

}  // namespace

Kubeconfig parse_kubeconfig(std::string_view yaml, const Origin& origin) {
  const yaml::ReadResult read = yaml::read(yaml, /*first_only=*/true);
  if (read.error) throw ConfigError("kubeconfig " + origin.file + ": invalid YAML: " + read.error->go_text);
  return parse_document(read.documents.empty() ? Json() : read.documents.front().value, origin);
}

void merge_into(Kubeconfig& merged, Kubeconfig later) {
  if (merged.current_context.empty()) merged.current_context = std::move(later.current_context);
  merged.clusters.merge(later.clusters);  // std::map::merge keeps the existing entry on a clash
  merged.users.merge(later.users);
  merged.contexts.merge(later.contexts);
}

}  // namespace rr::kubeconfig_detail
