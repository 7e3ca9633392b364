// ServiceAccountAdmission: plugin/pkg/admission/serviceaccount's Admit and Validate over the
// cluster's JSON objects, with its messages. The account is read from the store the plugin runs
// under; the `default` one is waited for a little (the lock released), as upstream retries it,
// since NamespaceDefaults makes it just after its namespace.
#include "rr/kube_controllers/service_account_admission.hpp"

#include <algorithm>
#include <chrono>
#include <random>
#include <set>
#include <thread>

#include "rr/client/api_error.hpp"
#include "rr/validation/names.hpp"

namespace rr::kube_controllers {

namespace {

constexpr const char* default_account = "default";
constexpr const char* token_mount_path = "/var/run/secrets/kubernetes.io/serviceaccount";
constexpr const char* token_volume_prefix = "kube-api-access-";
constexpr const char* mirror_annotation = "kubernetes.io/config.mirror";
constexpr const char* enforce_annotation = "kubernetes.io/enforce-mountable-secrets";
// Upstream looks the `default` account up 10 times, 100-200 ms apart, before giving up.
constexpr int default_account_attempts = 10;
constexpr auto default_account_interval = std::chrono::milliseconds(100);

const GroupVersionKind service_account_gvk{"", "v1", "ServiceAccount"};
const GroupVersionKind namespace_gvk{"", "v1", "Namespace"};

std::string text(const Json& object, const char* key) {
  auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

Json array_at(const Json& object, const char* key) {
  auto it = object.find(key);
  return it != object.end() && it->is_array() ? *it : Json::array();
}

bool applies(const AdmissionAttributes& a) {
  return a.kind.gvk.group.empty() && a.kind.gvk.kind == "Pod" && a.subresource.empty() && a.object &&
         a.object->is_object() && a.operation == AdmissionOperation::Create;
}

bool is_mirror(const Json& pod) {
  const Json* annotations = pod.contains("metadata") ? &pod["metadata"] : nullptr;
  return annotations && annotations->contains("annotations") && (*annotations)["annotations"].is_object() &&
         (*annotations)["annotations"].contains(mirror_annotation);
}

// admission.NewForbidden's name: the object's, else its generateName (mutation runs before the
// name is generated upstream; here it already was, so a generated name is recognised by shape).
std::string name_for_errors(const Json& pod) {
  const Json meta = pod.value("metadata", Json::object());
  const std::string name = text(meta, "name"), base = text(meta, "generateName");
  if (!base.empty() && (name.empty() || (name.size() == base.size() + 5 && name.rfind(base, 0) == 0))) return base;
  return name.empty() ? "Unknown" : name;
}

[[noreturn]] void forbid(const Json& pod, const std::string& reason) {
  throw ApiError(api_errors::forbidden("pods", "", name_for_errors(pod), reason));
}

// The stored account, waiting a little for `default` while its namespace exists (not offline,
// where no controller will make it: the wait cost rrgen validate 1.8 s per Pod).
const Json* find_account(const AdmissionAttributes& a, const std::string& name, bool wait) {
  const ObjectKey key{a.namespace_, name};
  const Json* found = a.store->find(service_account_gvk, key);
  if (found || !wait || name != default_account || !a.unlocked || !a.store->find(namespace_gvk, {"", a.namespace_})) {
    return found;
  }
  for (int i = 1; i < default_account_attempts && !found; ++i) {
    a.unlocked([] { std::this_thread::sleep_for(default_account_interval); });
    found = a.store->find(service_account_gvk, key);
  }
  return found;
}

const Json& account_or_forbid(const AdmissionAttributes& a, const Json& pod, const std::string& name, bool assume) {
  static const Json kEmptyAccount = Json::object();
  const Json* account = find_account(a, name, /*wait=*/!assume);
  // Offline, an account that could exist is assumed to; one whose name no account can have is
  // refused as a cluster refuses it.
  if (!account && assume && validation::is_dns1123_subdomain(name).empty()) return kEmptyAccount;
  if (!account) {
    forbid(pod, "error looking up service account " + a.namespace_ + "/" + name + ": serviceaccount \"" + name +
                    "\" not found");
  }
  return *account;
}

bool should_automount(const Json& account, const Json& spec) {
  auto pod = spec.find("automountServiceAccountToken");
  if (pod != spec.end() && pod->is_boolean()) return pod->get<bool>();
  auto sa = account.find("automountServiceAccountToken");
  if (sa != account.end() && sa->is_boolean()) return sa->get<bool>();
  return true;
}

Json token_volume(const std::string& name) {
  static const Json source = Json::parse(R"({"projected": {"defaultMode": 420, "sources": [
      {"serviceAccountToken": {"expirationSeconds": 3607, "path": "token"}},
      {"configMap": {"name": "kube-root-ca.crt", "items": [{"key": "ca.crt", "path": "ca.crt"}]}},
      {"downwardAPI": {"items": [{"path": "namespace", "fieldRef": {"apiVersion": "v1", "fieldPath": "metadata.namespace"}}]}}
  ]}})");
  Json volume = source;
  volume["name"] = name;
  return volume;
}

// mountServiceAccountToken: an existing kube-api-access-* volume is reused; every init container
// and container without a mount at the token path gets one; the volume is added when one did.
void mount_token(Json& spec, const std::string& suffix) {
  std::string volume_name;
  for (const Json& volume : array_at(spec, "volumes")) {
    if (text(volume, "name").rfind(token_volume_prefix, 0) == 0) {
      volume_name = text(volume, "name");
      break;
    }
  }
  const bool has_volume = !volume_name.empty();
  if (!has_volume) volume_name = token_volume_prefix + suffix;
  const Json mount = {{"name", volume_name}, {"readOnly", true}, {"mountPath", token_mount_path}};
  bool needed = false;
  for (const char* list : {"initContainers", "containers"}) {
    auto containers = spec.find(list);
    if (containers == spec.end() || !containers->is_array()) continue;
    for (Json& container : *containers) {
      if (!container.is_object()) continue;
      const Json mounts = array_at(container, "volumeMounts");
      const bool taken = std::any_of(mounts.begin(), mounts.end(), [](const Json& m) {
        return m.is_object() && text(m, "mountPath") == token_mount_path;
      });
      if (taken) continue;
      if (!container.contains("volumeMounts") || !container["volumeMounts"].is_array()) {
        container["volumeMounts"] = Json::array();
      }
      container["volumeMounts"].push_back(mount);
      needed = true;
    }
  }
  if (needed && !has_volume) {
    if (!spec.contains("volumes") || !spec["volumes"].is_array()) spec["volumes"] = Json::array();
    spec["volumes"].push_back(token_volume(volume_name));
  }
}

std::set<std::string> names_of(const Json& account, const char* key) {
  std::set<std::string> out;
  for (const Json& ref : array_at(account, key)) out.insert(text(ref, "name"));
  return out;
}

// limitSecretReferences, for an account that enforces its mountable secrets.
void limit_secret_references(const Json& account, const Json& pod) {
  const Json& spec = pod["spec"];
  const std::string sa = text(account.value("metadata", Json::object()), "name");
  const auto mountable = names_of(account, "secrets");
  const std::string tail = " is not allowed because service account " + sa + " does not reference that secret";
  for (const Json& volume : array_at(spec, "volumes")) {
    if (!volume.contains("secret") || !volume["secret"].is_object()) continue;
    const std::string secret = text(volume["secret"], "secretName");
    if (!mountable.count(secret)) forbid(pod, "volume with secret.secretName=\"" + secret + "\"" + tail);
  }
  for (const auto& [list, what] :
       {std::pair{"initContainers", "init container "}, std::pair{"containers", "container "}}) {
    for (const Json& container : array_at(spec, list)) {
      const std::string name = text(container, "name");
      for (const Json& env : array_at(container, "env")) {
        const Json ref = env.value("/valueFrom/secretKeyRef"_json_pointer, Json());
        if (!ref.is_object() || mountable.count(text(ref, "name"))) continue;
        forbid(pod, what + name + " with envVar " + text(env, "name") + " referencing secret.secretName=\"" +
                        text(ref, "name") + "\"" + tail);
      }
      for (const Json& from : array_at(container, "envFrom")) {
        const Json ref = from.value("secretRef", Json());
        if (!ref.is_object() || mountable.count(text(ref, "name"))) continue;
        forbid(pod, what + name + " with envFrom referencing secret.secretName=\"" + text(ref, "name") + "\"" + tail);
      }
    }
  }
  const auto pull = names_of(account, "imagePullSecrets");
  const Json refs = array_at(spec, "imagePullSecrets");
  for (std::size_t i = 0; i < refs.size(); ++i) {
    const std::string name = text(refs[i], "name");
    if (pull.count(name)) continue;
    forbid(pod, "imagePullSecrets[" + std::to_string(i) + "].name=\"" + name +
                    "\" is not allowed because service account " + sa + " does not reference that imagePullSecret");
  }
}

// The mirror pod checks (a kubelet's static pod): no account, no secret, no token projection.
void validate_mirror(const Json& pod) {
  const Json spec = pod.value("spec", Json::object());
  if (!text(spec, "serviceAccountName").empty()) forbid(pod, "a mirror pod may not reference service accounts");
  bool secrets = !array_at(spec, "imagePullSecrets").empty();
  for (const char* list : {"initContainers", "containers", "ephemeralContainers"}) {
    for (const Json& container : array_at(spec, list)) {
      for (const Json& env : array_at(container, "env")) {
        secrets = secrets || env.contains("/valueFrom/secretKeyRef"_json_pointer);
      }
      for (const Json& from : array_at(container, "envFrom")) secrets = secrets || from.contains("secretRef");
    }
  }
  bool token = false;
  for (const Json& volume : array_at(spec, "volumes")) {
    secrets = secrets || volume.contains("secret");
    for (const Json& source : volume.value("/projected/sources"_json_pointer, Json::array())) {
      secrets = secrets || source.contains("secret");
      token = token || source.contains("serviceAccountToken");
    }
  }
  if (secrets) forbid(pod, "a mirror pod may not reference secrets");
  if (token) forbid(pod, "a mirror pod may not use ServiceAccountToken volume projections");
}

// utilrand.String's alphabet (no vowels, no look-alikes), as generateName's suffixes.
std::string random_suffix() {
  static constexpr char alphabet[] = "bcdfghjklmnpqrstvwxz2456789";
  static thread_local std::mt19937 random{std::random_device{}()};
  std::string s;
  for (int i = 0; i < 5; ++i) s += alphabet[random() % (sizeof alphabet - 1)];
  return s;
}

}  // namespace

ServiceAccountAdmission::ServiceAccountAdmission(std::function<std::string()> suffix, bool assume_missing_accounts)
    : suffix_(suffix ? std::move(suffix) : random_suffix), assume_missing_accounts_(assume_missing_accounts) {}

// Only Pods: other kinds' writes are not defaulted a second time for it.
bool ServiceAccountAdmission::mutates(const StoreReader&) { return false; }

bool ServiceAccountAdmission::mutates_kind(const StoreReader&, const GroupVersionKind& gvk) {
  return gvk.group.empty() && gvk.kind == "Pod";
}

void ServiceAccountAdmission::mutate(const AdmissionAttributes& a) {
  if (!applies(a)) return;
  Json& pod = *a.object;
  if (is_mirror(pod)) return;  // its spec stays as the kubelet wrote it; validate() checks it
  if (!pod.contains("spec") || !pod["spec"].is_object()) pod["spec"] = Json::object();
  Json& spec = pod["spec"];
  if (text(spec, "serviceAccountName").empty()) spec["serviceAccountName"] = default_account;
  const Json account = account_or_forbid(a, pod, text(spec, "serviceAccountName"), assume_missing_accounts_);
  if (should_automount(account, spec)) mount_token(spec, suffix_());
  if (array_at(spec, "imagePullSecrets").empty()) {
    Json pull = Json::array();
    for (const Json& ref : array_at(account, "imagePullSecrets")) pull.push_back({{"name", text(ref, "name")}});
    if (!pull.empty()) spec["imagePullSecrets"] = std::move(pull);
  }
}

void ServiceAccountAdmission::validate(const AdmissionAttributes& a) {
  if (!applies(a)) return;
  const Json& pod = *a.object;
  if (is_mirror(pod)) return validate_mirror(pod);
  static const Json no_spec = Json::object();
  const Json& spec = pod.contains("spec") && pod["spec"].is_object() ? pod["spec"] : no_spec;
  const std::string account_name = text(spec, "serviceAccountName");
  if (account_name.empty()) {
    forbid(pod, "no service account specified for pod " + a.namespace_ + "/" +
                    text(pod.value("metadata", Json::object()), "name"));
  }
  const Json& account = account_or_forbid(a, pod, account_name, assume_missing_accounts_);
  const Json annotations = account.value("/metadata/annotations"_json_pointer, Json::object());
  const std::string enforce = annotations.is_object() ? text(annotations, enforce_annotation) : std::string();
  // strconv.ParseBool's true spellings.
  if (enforce == "1" || enforce == "t" || enforce == "T" || enforce == "true" || enforce == "TRUE" ||
      enforce == "True") {
    limit_secret_references(account, pod);
  }
}

}  // namespace rr::kube_controllers
