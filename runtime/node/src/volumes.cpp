#include "volumes.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <random>

#include "rr/client/api_error.hpp"
#include "rr/core/time.hpp"

namespace rr::node_detail {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

namespace {

// What a volume's SetUp failed with: the kubelet's message after "MountVolume.SetUp failed ...".
struct SetUpError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

std::string field_text(const Json& o, const char* key) {
  auto it = o.find(key);
  return it != o.end() && it->is_string() ? it->get<std::string>() : std::string();
}

int mode_of(const Json& o, const char* key, int fallback) {
  auto it = o.find(key);
  return it != o.end() && it->is_number_integer() ? (it->get<int>() & 07777) : fallback;
}

// The key -> value pairs of a ConfigMap (data, binaryData) or Secret (data, base64).
std::map<std::string, std::string> object_data(const Json& object, bool secret) {
  std::map<std::string, std::string> out;
  auto take = [&](const char* field, bool base64) {
    const Json values = object.value(field, Json::object());
    if (!values.is_object()) return;
    for (const auto& [k, v] : values.items()) {
      if (!v.is_string()) continue;
      if (!base64) out[k] = v.get<std::string>();
      else if (auto bytes = Bytes(v.get<std::string>()).decode()) out[k] = *bytes;
    }
  };
  take("data", secret);
  if (!secret) take("binaryData", true);
  return out;
}

// configMap or secret (a volume or a projected source) into `payload`: every key, or `items`.
void project_object(const Json& source, bool secret, int default_mode, const node::ObjectLookup& lookup,
                    VolumePayload& payload) {
  const std::string name = field_text(source, secret ? "secretName" : "name");
  const bool optional = source.value("optional", false);
  const std::string what = secret ? "secret" : "configmap";
  std::optional<Json> object = lookup(secret ? "Secret" : "ConfigMap", name);
  if (!object) {
    if (optional) return;
    throw SetUpError(what + " \"" + name + "\" not found");
  }
  const auto data = object_data(*object, secret);
  const Json items = source.value("items", Json::array());
  if (!items.is_array() || items.empty()) {
    for (const auto& [key, value] : data) payload[key] = {value, default_mode};
    return;
  }
  for (const Json& item : items) {
    const std::string key = field_text(item, "key"), path = field_text(item, "path");
    auto it = data.find(key);
    if (it == data.end()) {
      if (optional) continue;
      throw SetUpError(secret ? "references non-existent secret key: " + key
                              : "configmap references non-existent config key: " + key);
    }
    check_payload_path(path);
    payload[path] = {it->second, mode_of(item, "mode", default_mode)};
  }
}

// fieldpath.FormatMap: sorted `key="value"` lines.
std::string format_map(const Json& map) {
  std::vector<std::string> lines;
  if (!map.is_object()) return {};
  for (const auto& [k, v] : map.items())
    lines.push_back(k + "=" + Json(v.is_string() ? v.get<std::string>() : "").dump());
  std::sort(lines.begin(), lines.end());
  std::string out;
  for (std::size_t i = 0; i < lines.size(); ++i) out += (i ? "\n" : "") + lines[i];
  return out;
}

// A downwardAPI item's fieldRef on the pod's metadata.
std::string field_value(const Json& pod, const std::string& path) {
  const Json meta = pod.value("metadata", Json::object());
  if (path == "metadata.name" || path == "metadata.namespace" || path == "metadata.uid") {
    return field_text(meta, path.substr(9).c_str());
  }
  if (path == "metadata.labels") return format_map(meta.value("labels", Json::object()));
  if (path == "metadata.annotations") return format_map(meta.value("annotations", Json::object()));
  for (const char* map : {"labels", "annotations"}) {
    const std::string prefix = std::string("metadata.") + map + "['";
    if (path.rfind(prefix, 0) == 0 && path.size() > prefix.size() + 2 && path.substr(path.size() - 2) == "']") {
      return field_text(meta.value(map, Json::object()),
                        path.substr(prefix.size(), path.size() - prefix.size() - 2).c_str());
    }
  }
  throw SetUpError("unsupported fieldPath: " + path);
}

void project_downward(const Json& source, int default_mode, const Json& pod, VolumePayload& payload) {
  for (const Json& item : source.value("items", Json::array())) {
    const std::string path = field_text(item, "path");
    check_payload_path(path);
    if (!item.contains("fieldRef")) throw SetUpError("downwardAPI item " + path + ": only fieldRef is supported");
    payload[path] = {field_value(pod, field_text(item["fieldRef"], "fieldPath")), mode_of(item, "mode", default_mode)};
  }
}

// The 5 characters the API server's generateName appends (utilrand.String's alphabet).
std::string random_suffix() {
  static constexpr char alphabet[] = "bcdfghjklmnpqrstvwxz2456789";
  static std::mt19937 random{std::random_device{}()};
  std::string s;
  for (int i = 0; i < 5; ++i) s += alphabet[random() % (sizeof alphabet - 1)];
  return s;
}

// A volume's name as the API validates it (a DNS-1123 label): it names a directory here.
bool valid_volume_name(const std::string& name) {
  if (name.empty() || name.size() > 63 || name.front() == '-' || name.back() == '-') return false;
  return std::all_of(name.begin(), name.end(),
                     [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-'; });
}

}  // namespace

PodVolumes::PodVolumes(fs::path dir, node::ObjectLookup lookup, node::TokenMinter minter, std::string ca_pem,
                       std::function<Clock::time_point()> now)
    : dir_(std::move(dir)),
      lookup_(std::move(lookup)),
      minter_(std::move(minter)),
      ca_pem_(std::move(ca_pem)),
      now_(now ? std::move(now) : [] { return Clock::now(); }) {}

// The ServiceAccount admission's kube-api-access volume, for a pod that did not pass through it
// (a cluster without the API server's plugin): unless the pod or its ServiceAccount says
// automountServiceAccountToken: false. Without a minter the agent cannot mint tokens: no volume.
void PodVolumes::decide_token_volume(const Json& pod) {
  decided_ = true;
  const Json spec = pod.value("spec", Json::object());
  if (!minter_) return;
  // Admitted: the pod's own kube-api-access-* volume and mounts are set up as any other.
  for (const Json& volume : spec.value("volumes", Json::array())) {
    if (volume.is_object() && field_text(volume, "name").rfind("kube-api-access-", 0) == 0) return;
  }
  const std::string account = field_text(spec, "serviceAccountName").empty() ? "default"
                                                                             : field_text(spec, "serviceAccountName");
  // The admission refuses a pod whose ServiceAccount does not exist; a pod that bypassed it runs
  // without the volume (a cluster without rr::kube_controllers has no `default` ones).
  const std::optional<Json> sa = lookup_("ServiceAccount", account);
  if (!sa) return;
  auto automount = spec.find("automountServiceAccountToken");
  if (automount != spec.end() && automount->is_boolean()) {
    if (!automount->get<bool>()) return;
  } else if (sa->value("automountServiceAccountToken", true) == false) {
    return;
  }
  token_volume_ = "kube-api-access-" + random_suffix();
  token_volume_spec_ = Json::parse(R"({"projected": {"defaultMode": 420, "sources": [
      {"serviceAccountToken": {"expirationSeconds": 3607, "path": "token"}},
      {"configMap": {"name": "kube-root-ca.crt", "items": [{"key": "ca.crt", "path": "ca.crt"}]}},
      {"downwardAPI": {"items": [{"path": "namespace", "fieldRef": {"apiVersion": "v1", "fieldPath": "metadata.namespace"}}]}}
  ]}})");
  token_volume_spec_["name"] = token_volume_;
}

VolumePayload PodVolumes::projected(const std::string& volume, const Json& sources, int default_mode, const Json& pod,
                                    Clock::time_point now, std::optional<Clock::time_point>& refresh) {
  VolumePayload payload;
  const Json meta = pod.value("metadata", Json::object());
  for (const Json& source : sources) {
    if (source.contains("configMap")) {
      // kube-root-ca.crt is what the root CA publisher puts in every namespace; where it is
      // missing (a cluster without the publisher, or a plain-HTTP one that has no CA to publish)
      // the agent's CA stands in, empty when there is none.
      if (field_text(source["configMap"], "name") == "kube-root-ca.crt" && !lookup_("ConfigMap", "kube-root-ca.crt")) {
        const Json stand_in = {{"data", {{"ca.crt", ca_pem_}}}};
        node::ObjectLookup ca = [&](std::string_view, const std::string&) { return std::optional<Json>(stand_in); };
        project_object(source["configMap"], false, default_mode, ca, payload);
      } else {
        project_object(source["configMap"], false, default_mode, lookup_, payload);
      }
    } else if (source.contains("secret")) {
      Json secret = source["secret"];
      secret["secretName"] = field_text(secret, "name");
      project_object(secret, true, default_mode, lookup_, payload);
    } else if (source.contains("downwardAPI")) {
      project_downward(source["downwardAPI"], default_mode, pod, payload);
    } else if (source.contains("serviceAccountToken")) {
      const Json& t = source["serviceAccountToken"];
      const std::string path = field_text(t, "path");
      check_payload_path(path);
      auto cached = tokens_.find(volume + "/" + path);
      if (cached != tokens_.end() && now < cached->second.refresh) {
        payload[path] = {cached->second.value, default_mode};
        refresh = refresh ? std::min(*refresh, cached->second.refresh) : cached->second.refresh;
        continue;
      }
      if (!minter_) throw SetUpError("failed to fetch token: the node cannot mint ServiceAccount tokens");
      const std::int64_t seconds = std::max<std::int64_t>(t.value("expirationSeconds", std::int64_t{3600}), 600);
      Json request = {{"apiVersion", "authentication.k8s.io/v1"},
                      {"kind", "TokenRequest"},
                      {"spec",
                       {{"expirationSeconds", seconds},
                        {"boundObjectRef",
                         {{"apiVersion", "v1"},
                          {"kind", "Pod"},
                          {"name", field_text(meta, "name")},
                          {"uid", field_text(meta, "uid")}}}}}};
      if (!field_text(t, "audience").empty()) request["spec"]["audiences"] = Json::array({field_text(t, "audience")});
      const std::string account = field_text(pod.value("spec", Json::object()), "serviceAccountName");
      Json answer;
      try {
        answer = minter_(field_text(meta, "namespace"), account.empty() ? "default" : account, request);
      } catch (const ApiError& e) {
        throw SetUpError("failed to fetch token: " + e.status().message);
      } catch (const std::exception& e) {
        throw SetUpError(std::string("failed to fetch token: ") + e.what());
      }
      const std::string token = answer.value("/status/token"_json_pointer, std::string());
      if (token.empty()) throw SetUpError("failed to fetch token: the TokenRequest has no status.token");
      payload[path] = {token, default_mode};
      // The kubelet's token manager: refresh at 80% of the lifetime, or after 24 hours.
      const auto lifetime = std::chrono::seconds(answer.value("/spec/expirationSeconds"_json_pointer, seconds));
      const auto at = now + std::min<std::chrono::system_clock::duration>(lifetime * 8 / 10, 24h);
      refresh = refresh ? std::min(*refresh, at) : at;
      tokens_[volume + "/" + path] = {token, at};
    }
  }
  return payload;
}

void PodVolumes::sync(const Json& pod) {
  if (!decided_) decide_token_volume(pod);
  Json volumes = pod.value("/spec/volumes"_json_pointer, Json::array());
  if (!token_volume_.empty()) volumes.push_back(token_volume_spec_);
  const auto now = now_();
  for (const Json& volume : volumes) {
    const std::string name = field_text(volume, "name");
    auto due = next_sync_.find(name);
    if (due != next_sync_.end() && now < due->second) continue;
    const fs::path dir = dir_ / name;
    try {
      if (!valid_volume_name(name)) throw SetUpError("invalid volume name");
      std::optional<Clock::time_point> refresh;
      VolumePayload payload;
      if (volume.contains("emptyDir")) {
        const std::string medium = field_text(volume["emptyDir"], "medium");
        if (!medium.empty()) throw SetUpError("emptyDir medium \"" + medium + "\" is not supported by this node");
        fs::create_directories(dir);
        ::chmod(dir.c_str(), 0777);  // the kubelet's emptyDir mode: any container user may write
        next_sync_[name] = Clock::time_point::max();
        continue;
      }
      if (volume.contains("configMap")) {
        project_object(volume["configMap"], false, mode_of(volume["configMap"], "defaultMode", 0644), lookup_, payload);
      } else if (volume.contains("secret")) {
        project_object(volume["secret"], true, mode_of(volume["secret"], "defaultMode", 0644), lookup_, payload);
      } else if (volume.contains("downwardAPI")) {
        project_downward(volume["downwardAPI"], mode_of(volume["downwardAPI"], "defaultMode", 0644), pod, payload);
      } else if (volume.contains("projected")) {
        payload = projected(name, volume["projected"].value("sources", Json::array()),
                            mode_of(volume["projected"], "defaultMode", 0644), pod, now, refresh);
      } else {
        // hostPath, persistentVolumeClaim, ...: no plugin on this node.
        throw SetUpError("volume type not supported by this node");
      }
      auto written = written_.find(name);
      if (written == written_.end() || written->second != payload) {
        write_atomically(dir, payload);
        written_[name] = payload;
      }
      // ConfigMaps and Secrets are looked at again each minute (the kubelet's sync period).
      next_sync_[name] = refresh ? std::min(*refresh, now + 60s) : now + 60s;
      failed_.erase(name);
    } catch (const std::exception& e) {
      failed_[name] = "MountVolume.SetUp failed for volume \"" + name + "\" : " + e.what();
      next_sync_[name] = now + 1s;  // tried again soon, not on every round
    }
  }
  failure_.reset();
  for (const Json& volume : volumes) {
    auto it = failed_.find(field_text(volume, "name"));
    if (it != failed_.end()) {
      failure_ = it->second;
      break;
    }
  }
}

std::vector<VolumeBind> PodVolumes::mounts(const Json& container) const {
  std::vector<VolumeBind> out;
  bool token_path_taken = false;
  for (const Json& m : container.value("volumeMounts", Json::array())) {
    const std::string name = field_text(m, "name"), path = field_text(m, "mountPath"), sub = field_text(m, "subPath");
    if (path == service_account_mount_path) token_path_taken = true;
    const fs::path dir = dir_ / name;
    std::error_code ec;
    if (!valid_volume_name(name) || !fs::is_directory(dir, ec)) {
      throw node::ContainerConfigError("cannot find volume \"" + name + "\" to mount into container \"" +
                                       field_text(container, "name") + "\"");
    }
    if (path.empty() || path[0] != '/') throw node::ContainerConfigError("mountPath \"" + path + "\" is not absolute");
    fs::path source = dir;
    if (!sub.empty()) {
      if (sub[0] == '/' || fs::path(sub).lexically_normal().string().rfind("..", 0) == 0) {
        throw node::ContainerConfigError("failed to prepare subPath for volumeMount \"" + name + "\" of container \"" +
                                         field_text(container, "name") + "\"");
      }
      source = dir / sub;
      // An emptyDir's subPath is made as a directory; in a configMap or secret it must exist.
      if (!written_.count(name) && !fs::exists(source, ec)) fs::create_directories(source, ec);
      source = fs::canonical(source, ec);
      const auto root = fs::canonical(dir, ec);
      if (ec || source.string().rfind(root.string(), 0) != 0) {
        throw node::ContainerConfigError("failed to prepare subPath for volumeMount \"" + name + "\" of container \"" +
                                         field_text(container, "name") + "\"");
      }
    }
    // API data volumes are always read-only (the kubelet's ReadOnlyAPIDataVolumes).
    const bool api_data = written_.count(name) > 0;
    out.push_back({source, path, m.value("readOnly", false) || api_data});
  }
  if (!token_volume_.empty() && !token_path_taken)
    out.push_back({dir_ / token_volume_, service_account_mount_path, true});
  return out;
}

void PodVolumes::remove() {
  std::error_code ec;
  fs::remove_all(dir_, ec);
}

}  // namespace rr::node_detail
