// A pod's volumes on disk, as the kubelet writes them: files, modes, items, optional sources,
// FailedMount messages, the kube-api-access token volume and its refresh, and the mounts a
// container gets. No root needed: nothing is mounted here.
#include <doctest/doctest.h>
#include <stdlib.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "volumes.hpp"

namespace fs = std::filesystem;
using rr::Json;
using rr::node_detail::PodVolumes;

namespace volumes_test {

struct VolumeDir {
  fs::path path;
  VolumeDir() {
    std::string pattern = (fs::temp_directory_path() / "rr-node-volumes-XXXXXX").string();
    path = ::mkdtemp(pattern.data());
  }
  ~VolumeDir() { fs::remove_all(path); }
};

std::string read_text(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

int file_mode(const fs::path& p) {
  struct stat st {};
  if (::stat(p.c_str(), &st) != 0) return -1;
  return static_cast<int>(st.st_mode & 07777);
}

Json volume_objects_json = Json::parse(R"J({
  "ConfigMap/settings": {"data": {"mode": "fast", "level": "3"}, "binaryData": {"blob": "AAE="}},
  "Secret/creds": {"data": {"password": "aHVudGVyMg==", "user": "YWRtaW4="}},
  "ServiceAccount/quiet": {"automountServiceAccountToken": false},
  "ServiceAccount/default": {},
  "ServiceAccount/builder": {}
})J");

std::optional<Json> volume_objects(std::string_view kind, const std::string& name) {
  const std::string key = std::string(kind) + "/" + name;
  if (volume_objects_json.contains(key)) return volume_objects_json[key];
  return std::nullopt;
}

Json pod_with(Json volumes, Json spec_extra = Json::object()) {
  Json pod = Json::parse(R"J({
    "metadata": {"name": "web", "namespace": "team", "uid": "u-1", "labels": {"app": "web", "tier": "front"}},
    "spec": {"containers": [{"name": "main"}]}
  })J");
  pod["spec"]["volumes"] = std::move(volumes);
  pod["spec"].update(spec_extra);
  return pod;
}

// A minter that counts its calls and remembers the last request.
struct Minter {
  int calls = 0;
  Json last_request;
  std::string last_ns, last_account;
  rr::node::TokenMinter fn() {
    return [this](const std::string& ns, const std::string& account, const Json& request) {
      ++calls;
      last_ns = ns;
      last_account = account;
      last_request = request;
      return Json{{"spec", {{"expirationSeconds", request["spec"]["expirationSeconds"]}}},
                  {"status", {{"token", "token-" + std::to_string(calls)}}}};
    };
  }
};

}  // namespace volumes_test

using namespace volumes_test;

TEST_CASE("configMap and secret volumes: every key with defaultMode 0644, the atomic writer's layout") {
  VolumeDir tmp;
  PodVolumes volumes(tmp.path, volume_objects, {}, "");
  volumes.sync(pod_with(Json::parse(R"J([
    {"name": "cfg", "configMap": {"name": "settings"}},
    {"name": "sec", "secret": {"secretName": "creds", "defaultMode": 256}}
  ])J")));
  REQUIRE_FALSE(volumes.failure());
  CHECK(read_text(tmp.path / "cfg/mode") == "fast");
  CHECK(read_text(tmp.path / "cfg/level") == "3");
  CHECK(read_text(tmp.path / "cfg/blob") == std::string("\0\1", 2));
  CHECK(file_mode(tmp.path / "cfg/mode") == 0644);
  CHECK(read_text(tmp.path / "sec/password") == "hunter2");
  CHECK(file_mode(tmp.path / "sec/password") == 0400);
  // key -> ..data/key -> ..<timestamp>/key
  CHECK(fs::is_symlink(tmp.path / "cfg/mode"));
  CHECK(fs::read_symlink(tmp.path / "cfg/mode") == "..data/mode");
  CHECK(fs::is_symlink(tmp.path / "cfg/..data"));
  CHECK(fs::read_symlink(tmp.path / "cfg/..data").string().rfind("..", 0) == 0);
}

TEST_CASE("items choose keys, name paths and modes; optional sources may be missing") {
  VolumeDir tmp;
  PodVolumes volumes(tmp.path, volume_objects, {}, "");
  volumes.sync(pod_with(Json::parse(R"J([
    {"name": "cfg", "configMap": {"name": "settings", "items": [{"key": "mode", "path": "conf/m.txt", "mode": 384}]}},
    {"name": "gone", "configMap": {"name": "absent", "optional": true}},
    {"name": "somekeys", "secret": {"secretName": "creds", "optional": true,
                                    "items": [{"key": "nokey", "path": "x"}, {"key": "user", "path": "u"}]}}
  ])J")));
  REQUIRE_FALSE(volumes.failure());
  CHECK(read_text(tmp.path / "cfg/conf/m.txt") == "fast");
  CHECK(file_mode(tmp.path / "cfg/conf/m.txt") == 0600);
  CHECK_FALSE(fs::exists(tmp.path / "cfg/level"));
  CHECK(fs::is_directory(tmp.path / "gone"));
  CHECK(fs::is_empty(tmp.path / "gone/..data"));
  CHECK(read_text(tmp.path / "somekeys/u") == "admin");
  CHECK_FALSE(fs::exists(tmp.path / "somekeys/x"));
}

TEST_CASE("a missing ConfigMap, Secret or key that is not optional: the kubelet's FailedMount message") {
  VolumeDir tmp;
  PodVolumes volumes(tmp.path, volume_objects, {}, "");
  volumes.sync(pod_with(Json::parse(R"J([{"name": "cfg", "configMap": {"name": "absent"}}])J")));
  REQUIRE(volumes.failure());
  CHECK(*volumes.failure() == "MountVolume.SetUp failed for volume \"cfg\" : configmap \"absent\" not found");

  PodVolumes secret(tmp.path / "2", volume_objects, {}, "");
  secret.sync(pod_with(Json::parse(R"J([{"name": "s", "secret": {"secretName": "nope"}}])J")));
  CHECK(secret.failure().value_or("") == "MountVolume.SetUp failed for volume \"s\" : secret \"nope\" not found");

  PodVolumes key(tmp.path / "3", volume_objects, {}, "");
  key.sync(pod_with(
      Json::parse(R"J([{"name": "c", "configMap": {"name": "settings", "items": [{"key": "k", "path": "k"}]}}])J")));
  CHECK(key.failure().value_or("") ==
        "MountVolume.SetUp failed for volume \"c\" : configmap references non-existent config key: k");

  PodVolumes bad_path(tmp.path / "4", volume_objects, {}, "");
  bad_path.sync(pod_with(Json::parse(
      R"J([{"name": "c", "configMap": {"name": "settings", "items": [{"key": "mode", "path": "../x"}]}}])J")));
  CHECK(bad_path.failure().value_or("") == "MountVolume.SetUp failed for volume \"c\" : invalid path \"../x\"");

  PodVolumes bad_name(tmp.path / "5", volume_objects, {}, "");
  bad_name.sync(pod_with(Json::parse(R"J([{"name": "../../escape", "emptyDir": {}}])J")));
  CHECK(bad_name.failure().value_or("") ==
        "MountVolume.SetUp failed for volume \"../../escape\" : invalid volume name");
  CHECK_FALSE(fs::exists(tmp.path.parent_path() / "escape"));
  CHECK_FALSE(fs::exists(tmp.path / "x"));
}

TEST_CASE("a refresh swaps the payload whole: stale keys and the old directory go") {
  VolumeDir tmp;
  rr::node_detail::write_atomically(tmp.path, {{"a", {"1", 0644}}, {"b", {"2", 0644}}});
  const fs::path first = fs::read_symlink(tmp.path / "..data");
  rr::node_detail::write_atomically(tmp.path, {{"a", {"3", 0644}}});
  CHECK(read_text(tmp.path / "a") == "3");
  CHECK_FALSE(fs::is_symlink(tmp.path / "b"));
  CHECK_FALSE(fs::exists(tmp.path / first));
  CHECK_THROWS(rr::node_detail::write_atomically(tmp.path, {{"/abs", {"x", 0644}}}));
  CHECK(read_text(tmp.path / "a") == "3");  // a refused payload leaves the last one
}

TEST_CASE("the kube-api-access volume: a bound token, ca.crt and namespace, mounted read-only in every container") {
  VolumeDir tmp;
  Minter minter;
  PodVolumes volumes(tmp.path, volume_objects, minter.fn(), "-----BEGIN CERTIFICATE-----\n");
  const Json pod = pod_with(Json::array(), {{"serviceAccountName", "builder"}});
  volumes.sync(pod);
  REQUIRE_FALSE(volumes.failure());
  const std::string name = volumes.token_volume();
  REQUIRE(name.rfind("kube-api-access-", 0) == 0);
  CHECK(name.size() == std::string("kube-api-access-").size() + 5);
  CHECK(read_text(tmp.path / name / "token") == "token-1");
  CHECK(file_mode(tmp.path / name / "token") == 0644);
  CHECK(read_text(tmp.path / name / "ca.crt") == "-----BEGIN CERTIFICATE-----\n");
  CHECK(read_text(tmp.path / name / "namespace") == "team");
  CHECK(minter.last_ns == "team");
  CHECK(minter.last_account == "builder");
  CHECK(minter.last_request["spec"]["expirationSeconds"] == 3607);
  CHECK(minter.last_request["spec"]["boundObjectRef"] ==
        Json{{"apiVersion", "v1"}, {"kind", "Pod"}, {"name", "web"}, {"uid", "u-1"}});
  CHECK_FALSE(minter.last_request["spec"].contains("audiences"));

  const auto mounts = volumes.mounts(Json{{"name", "main"}});
  REQUIRE(mounts.size() == 1);
  CHECK(mounts[0].target == "/var/run/secrets/kubernetes.io/serviceaccount");
  CHECK(mounts[0].source == tmp.path / name);
  CHECK(mounts[0].read_only);
  volumes.sync(pod);
  CHECK(minter.calls == 1);  // not due yet
}

TEST_CASE("automountServiceAccountToken false on the pod or its ServiceAccount, or no such account: no token volume") {
  VolumeDir tmp;
  Minter minter;
  PodVolumes off(tmp.path / "a", volume_objects, minter.fn(), "");
  off.sync(pod_with(Json::array(), {{"automountServiceAccountToken", false}}));
  CHECK(off.token_volume().empty());
  PodVolumes quiet(tmp.path / "b", volume_objects, minter.fn(), "");
  quiet.sync(pod_with(Json::array(), {{"serviceAccountName", "quiet"}}));
  CHECK(quiet.token_volume().empty());
  PodVolumes pod_wins(tmp.path / "c", volume_objects, minter.fn(), "");
  pod_wins.sync(pod_with(Json::array(), {{"serviceAccountName", "quiet"}, {"automountServiceAccountToken", true}}));
  CHECK_FALSE(pod_wins.token_volume().empty());
  PodVolumes no_minter(tmp.path / "d", volume_objects, {}, "");
  no_minter.sync(pod_with(Json::array()));
  CHECK(no_minter.token_volume().empty());
  PodVolumes no_account(tmp.path / "e", volume_objects, minter.fn(), "");
  no_account.sync(pod_with(Json::array(), {{"serviceAccountName", "absent"}}));
  CHECK(no_account.token_volume().empty());
  CHECK(minter.calls == 1);
}

TEST_CASE("projected: token with audience and expiry (min 600 s), refreshed at 80% of its life; downwardAPI") {
  VolumeDir tmp;
  Minter minter;
  auto now = std::chrono::system_clock::now();
  PodVolumes volumes(tmp.path, volume_objects, minter.fn(), "", [&] { return now; });
  const Json pod = pod_with(Json::parse(R"J([{"name": "p", "projected": {"defaultMode": 288, "sources": [
      {"serviceAccountToken": {"audience": "vault", "expirationSeconds": 60, "path": "vault/token"}},
      {"secret": {"name": "creds", "items": [{"key": "user", "path": "user"}]}},
      {"downwardAPI": {"items": [{"path": "labels", "fieldRef": {"fieldPath": "metadata.labels"}},
                                 {"path": "name", "fieldRef": {"fieldPath": "metadata.name"}, "mode": 256}]}}
  ]}}])J"),
                            {{"automountServiceAccountToken", false}});
  volumes.sync(pod);
  REQUIRE_FALSE(volumes.failure());
  CHECK(minter.last_request["spec"]["audiences"] == Json::array({"vault"}));
  CHECK(minter.last_request["spec"]["expirationSeconds"] == 600);
  CHECK(read_text(tmp.path / "p/vault/token") == "token-1");
  CHECK(file_mode(tmp.path / "p/vault/token") == 0440);
  CHECK(read_text(tmp.path / "p/user") == "admin");
  CHECK(read_text(tmp.path / "p/labels") == "app=\"web\"\ntier=\"front\"");
  CHECK(read_text(tmp.path / "p/name") == "web");
  CHECK(file_mode(tmp.path / "p/name") == 0400);

  now += std::chrono::seconds(470);  // < 80% of 600 s
  volumes.sync(pod);
  CHECK(minter.calls == 1);
  now += std::chrono::seconds(20);  // past 480 s
  volumes.sync(pod);
  CHECK(minter.calls == 2);
  CHECK(read_text(tmp.path / "p/vault/token") == "token-2");
}

TEST_CASE("a token that cannot be minted is FailedMount with the kubelet's words") {
  VolumeDir tmp;
  PodVolumes volumes(
      tmp.path, volume_objects,
      [](const std::string&, const std::string&, const Json&) -> Json {
        throw std::runtime_error("serviceaccounts \"default\" not found");
      },
      "");
  volumes.sync(pod_with(Json::array()));
  REQUIRE(volumes.failure());
  CHECK(*volumes.failure() == "MountVolume.SetUp failed for volume \"" + volumes.token_volume() +
                                  "\" : failed to fetch token: serviceaccounts \"default\" not found");
}

TEST_CASE("volumeMounts: readOnly, subPath, API data always read-only, unknown volumes refused") {
  VolumeDir tmp;
  PodVolumes volumes(tmp.path, volume_objects, {}, "");
  volumes.sync(pod_with(Json::parse(R"J([
    {"name": "cfg", "configMap": {"name": "settings"}},
    {"name": "scratch", "emptyDir": {}}
  ])J")));
  REQUIRE_FALSE(volumes.failure());
  CHECK(file_mode(tmp.path / "scratch") == 0777);
  const auto mounts = volumes.mounts(Json::parse(R"J({"name": "main", "volumeMounts": [
    {"name": "cfg", "mountPath": "/etc/app"},
    {"name": "cfg", "mountPath": "/etc/mode", "subPath": "mode"},
    {"name": "scratch", "mountPath": "/data", "readOnly": true},
    {"name": "scratch", "mountPath": "/work", "subPath": "a/b"}
  ]})J"));
  REQUIRE(mounts.size() == 4);
  CHECK(mounts[0].read_only);  // configMap: always
  CHECK(fs::is_regular_file(mounts[1].source));
  CHECK(read_text(mounts[1].source) == "fast");
  CHECK(mounts[2].read_only);
  CHECK_FALSE(mounts[3].read_only);
  CHECK(fs::is_directory(tmp.path / "scratch/a/b"));
  CHECK_THROWS_WITH_AS(volumes.mounts(Json::parse(R"J({"name": "main", "volumeMounts": [
    {"name": "other", "mountPath": "/x"}]})J")),
                       "cannot find volume \"other\" to mount into container \"main\"", rr::node::ContainerConfigError);
  CHECK_THROWS_AS(volumes.mounts(Json::parse(R"J({"name": "main", "volumeMounts": [
    {"name": "scratch", "mountPath": "/x", "subPath": "../../etc"}]})J")),
                  rr::node::ContainerConfigError);
  volumes.remove();
  CHECK_FALSE(fs::exists(tmp.path));
}

TEST_CASE("an admitted pod's own kube-api-access volume: set up as projected, mounted as written, none added") {
  VolumeDir tmp;
  Minter minter;
  PodVolumes volumes(tmp.path, volume_objects, minter.fn(), "-----BEGIN CERTIFICATE-----\n");
  // What the API server's ServiceAccount admission wrote into the pod.
  Json admitted = Json::parse(R"J([{"name": "kube-api-access-x2b4c", "projected": {"defaultMode": 420, "sources": [
      {"serviceAccountToken": {"expirationSeconds": 3607, "path": "token"}},
      {"configMap": {"name": "kube-root-ca.crt", "items": [{"key": "ca.crt", "path": "ca.crt"}]}},
      {"downwardAPI": {"items": [{"path": "namespace", "fieldRef": {"apiVersion": "v1", "fieldPath": "metadata.namespace"}}]}}
  ]}}])J");
  const Json pod = pod_with(admitted, {{"serviceAccountName", "builder"}});
  volumes.sync(pod);
  REQUIRE_FALSE(volumes.failure());
  CHECK(volumes.token_volume().empty());
  const fs::path dir = tmp.path / "kube-api-access-x2b4c";
  CHECK(read_text(dir / "token") == "token-1");
  CHECK(file_mode(dir / "token") == 0644);
  CHECK(read_text(dir / "ca.crt") == "-----BEGIN CERTIFICATE-----\n");
  CHECK(read_text(dir / "namespace") == "team");
  CHECK(minter.last_account == "builder");
  CHECK(minter.calls == 1);  // one token: no second volume of the agent's

  const Json container = Json::parse(R"J({"name": "main", "volumeMounts": [
      {"name": "kube-api-access-x2b4c", "readOnly": true, "mountPath": "/var/run/secrets/kubernetes.io/serviceaccount"}]})J");
  const auto mounts = volumes.mounts(container);
  REQUIRE(mounts.size() == 1);
  CHECK(mounts[0].target == "/var/run/secrets/kubernetes.io/serviceaccount");
  CHECK(mounts[0].source == dir);
  CHECK(mounts[0].read_only);
  // A container the admission did not give the mount (it had its own there) gets nothing more.
  CHECK(volumes.mounts(Json{{"name", "sidecar"}}).empty());
}
