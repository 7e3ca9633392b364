// apply_generated_rbac(): see the header.
#include "generated_rbac.hpp"

#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "rr/client/api_error.hpp"
#include "rr/cluster/cluster.hpp"
#include "yaml_json.hpp"

namespace rr::e2e {

namespace {

std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read " + path.string());
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

void create(Cluster& cluster, const Json& object) {
  const auto kind = cluster.find_kind(GroupVersionKind::from(object.value("apiVersion", ""), object.value("kind", "")));
  if (!kind) throw std::runtime_error("no kind for " + object.dump());
  try {
    cluster.create(*kind, object);
  } catch (const ApiError& e) {
    if (!is_already_exists(e.status())) throw;
  }
}

}  // namespace

OperatorIdentity apply_generated_rbac(Cluster& cluster, const std::string& config_dir) {
  std::vector<Json> documents;
  for (const auto& entry : std::filesystem::directory_iterator(std::filesystem::path(config_dir) / "rbac")) {
    if (entry.path().extension() != ".yaml" || entry.path().filename() == "kustomization.yaml") continue;
    for (Json& doc : apiserver_detail::yaml_documents(read_text(entry.path()))) documents.push_back(std::move(doc));
  }
  OperatorIdentity identity;
  for (const Json& doc : documents) {
    if (doc.value("kind", "") == "ServiceAccount") {
      const std::string ns = doc.value("/metadata/namespace"_json_pointer, std::string());
      const std::string name = doc.value("/metadata/name"_json_pointer, std::string());
      identity.token = StaticToken{"operator-token-" + ns + "-" + name,
                                   "system:serviceaccount:" + ns + ":" + name,
                                   {"system:serviceaccounts", "system:serviceaccounts:" + ns}};
      create(cluster, Json{{"apiVersion", "v1"}, {"kind", "Namespace"}, {"metadata", {{"name", ns}}}});
    }
    if (doc.value("kind", "") == "Role" || doc.value("kind", "") == "ClusterRole") {
      identity.rules += static_cast<int>(doc.value("rules", Json::array()).size());
    }
  }
  if (identity.token.user.empty()) throw std::runtime_error(config_dir + "/rbac names no ServiceAccount");
  for (const Json& doc : documents) create(cluster, doc);
  return identity;
}

}  // namespace rr::e2e
