#include "rr/node/container_config.hpp"

#include <algorithm>

#include "rr/core/time.hpp"

namespace rr::node {

namespace {

using Env = std::vector<std::pair<std::string, std::string>>;

void set(Env& env, const std::string& name, std::string value) {
  auto it = std::find_if(env.begin(), env.end(), [&](const auto& e) { return e.first == name; });
  if (it != env.end()) it->second = std::move(value);
  else env.emplace_back(name, std::move(value));
}

std::optional<std::string> find(const Env& env, const std::string& name) {
  auto it = std::find_if(env.begin(), env.end(), [&](const auto& e) { return e.first == name; });
  if (it == env.end()) return std::nullopt;
  return it->second;
}

std::string str(const Json& object, const char* key) {
  auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

// Secret data and binaryData are base64 (an undecodable value reads as empty); ConfigMap data is text.
std::string decode_base64(std::string_view in) { return Bytes(std::string(in)).decode().value_or(std::string()); }

// The key's value of a ConfigMap (data, then binaryData) or Secret (data, base64).
std::optional<std::string> key_value(const Json& object, std::string_view kind, const std::string& key) {
  const Json data = object.value("data", Json::object());
  if (data.is_object() && data.contains(key) && data[key].is_string()) {
    const std::string v = data[key].get<std::string>();
    return kind == "Secret" ? decode_base64(v) : v;
  }
  const Json binary = object.value("binaryData", Json::object());
  if (binary.is_object() && binary.contains(key) && binary[key].is_string())
    return decode_base64(binary[key].get<std::string>());
  return std::nullopt;
}

std::string lower(std::string_view kind) { return kind == "Secret" ? "secret" : "configmap"; }

// fieldRef: what the downward API offers to env.
std::string field_value(const Json& pod, const std::string& path) {
  const Json meta = pod.value("metadata", Json::object());
  if (path == "metadata.name") return str(meta, "name");
  if (path == "metadata.namespace") return str(meta, "namespace");
  if (path == "metadata.uid") return str(meta, "uid");
  if (path == "spec.nodeName") return str(pod.value("spec", Json::object()), "nodeName");
  if (path == "spec.serviceAccountName") return str(pod.value("spec", Json::object()), "serviceAccountName");
  if (path == "status.podIP" || path == "status.hostIP") {
    return str(pod.value("status", Json::object()), path == "status.podIP" ? "podIP" : "hostIP");
  }
  for (const char* map : {"labels", "annotations"}) {
    const std::string prefix = std::string("metadata.") + map + "['";
    if (path.rfind(prefix, 0) == 0 && path.size() > prefix.size() + 2 && path.substr(path.size() - 2) == "']") {
      const std::string key = path.substr(prefix.size(), path.size() - prefix.size() - 2);
      const Json m = meta.value(map, Json::object());
      return m.is_object() ? str(m, key.c_str()) : std::string();
    }
  }
  throw ContainerConfigError("unsupported fieldRef " + path);
}

}  // namespace

std::string expand(std::string_view text, const std::function<std::optional<std::string>(const std::string&)>& vars) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '$' || i + 1 >= text.size()) {
      out += text[i];
      continue;
    }
    const char next = text[i + 1];
    if (next == '$') {  // $$ -> $ (an escaped reference stays unexpanded)
      out += '$';
      ++i;
    } else if (next == '(') {
      const auto close = text.find(')', i + 2);
      if (close == std::string_view::npos) {
        out += text.substr(i);
        return out;
      }
      const std::string name(text.substr(i + 2, close - i - 2));
      if (auto v = vars(name)) out += *v;
      else out += "$(" + name + ")";
      i = close;
    } else {
      out += '$';
    }
  }
  return out;
}

Env kubernetes_service_env(const std::string& host, int port) {
  const std::string p = std::to_string(port), url = "tcp://" + host + ":" + p;
  return {{"KUBERNETES_SERVICE_HOST", host},         {"KUBERNETES_SERVICE_PORT", p},
          {"KUBERNETES_SERVICE_PORT_HTTPS", p},      {"KUBERNETES_PORT", url},
          {"KUBERNETES_PORT_" + p + "_TCP", url},    {"KUBERNETES_PORT_" + p + "_TCP_PROTO", "tcp"},
          {"KUBERNETES_PORT_" + p + "_TCP_PORT", p}, {"KUBERNETES_PORT_" + p + "_TCP_ADDR", host}};
}

Env container_env(const Json& pod, const Json& container, const ImageConfig& image, const Env& service_env,
                  const ObjectLookup& lookup) {
  Env env;
  for (const std::string& e : image.env) {
    const auto eq = e.find('=');
    set(env, e.substr(0, eq), eq == std::string::npos ? std::string() : e.substr(eq + 1));
  }
  // The kubelet's own variables are what $(VAR) in env may refer to, with env's earlier entries.
  Env mine;
  for (const auto& [k, v] : service_env) set(mine, k, v);
  for (const Json& from : container.value("envFrom", Json::array())) {
    const std::string prefix = str(from, "prefix");
    for (const char* kind : {"ConfigMap", "Secret"}) {
      const char* ref_key = std::string_view(kind) == "Secret" ? "secretRef" : "configMapRef";
      if (!from.contains(ref_key)) continue;
      const Json ref = from[ref_key];
      const std::string name = str(ref, "name");
      auto object = lookup(kind, name);
      if (!object) {
        if (ref.value("optional", false)) continue;
        throw ContainerConfigError(lower(kind) + " \"" + name + "\" not found");
      }
      for (const char* field : {"data", "binaryData"}) {
        const Json data = object->value(field, Json::object());
        if (!data.is_object()) continue;
        for (const auto& [key, value] : data.items()) {
          if (auto v = key_value(*object, kind, key)) set(mine, prefix + key, *v);
        }
      }
    }
  }
  for (const Json& e : container.value("env", Json::array())) {
    const std::string name = str(e, "name");
    if (e.contains("value")) {
      set(mine, name, expand(str(e, "value"), [&](const std::string& var) { return find(mine, var); }));
      continue;
    }
    const Json from = e.value("valueFrom", Json::object());
    if (from.contains("fieldRef")) {
      set(mine, name, field_value(pod, str(from["fieldRef"], "fieldPath")));
    } else if (from.contains("configMapKeyRef") || from.contains("secretKeyRef")) {
      const bool secret = from.contains("secretKeyRef");
      const char* kind = secret ? "Secret" : "ConfigMap";
      const Json ref = from[secret ? "secretKeyRef" : "configMapKeyRef"];
      const std::string ref_name = str(ref, "name"), key = str(ref, "key");
      const bool optional = ref.value("optional", false);
      auto object = lookup(kind, ref_name);
      if (!object) {
        if (optional) continue;
        throw ContainerConfigError(lower(kind) + " \"" + ref_name + "\" not found");
      }
      auto v = key_value(*object, kind, key);
      if (!v) {
        if (optional) continue;
        throw ContainerConfigError("couldn't find key " + key + " in " + kind + " " +
                                   str(pod["metadata"], "namespace") + "/" + ref_name);
      }
      set(mine, name, *v);
    } else {
      set(mine, name, "");
    }
  }
  for (auto& [k, v] : mine) set(env, k, std::move(v));
  return env;
}

std::vector<std::string> container_command(const Json& container, const ImageConfig& image, const Env& env) {
  auto list = [&](const char* key) {
    std::vector<std::string> out;
    for (const Json& s : container.value(key, Json::array())) out.push_back(s.is_string() ? s.get<std::string>() : "");
    return out;
  };
  const std::vector<std::string> command = list("command"), args = list("args");
  // kuberuntime's rules: command replaces Entrypoint and drops Cmd; args replaces Cmd.
  std::vector<std::string> argv = command.empty() ? image.entrypoint : command;
  const std::vector<std::string>& tail = !args.empty() ? args : (command.empty() ? image.cmd : args);
  argv.insert(argv.end(), tail.begin(), tail.end());
  const auto vars = [&](const std::string& name) { return find(env, name); };
  // Only the container's own command and args are expanded, as the kubelet does.
  const std::size_t expanded_from = command.empty() ? image.entrypoint.size() : 0;
  const std::size_t expanded_tail_from = argv.size() - tail.size();
  for (std::size_t i = 0; i < argv.size(); ++i) {
    const bool from_pod = (i < expanded_tail_from && i >= expanded_from && !command.empty()) ||
                          (i >= expanded_tail_from && !args.empty());
    if (from_pod) argv[i] = expand(argv[i], vars);
  }
  return argv;
}

}  // namespace rr::node
