#include "kubeconfig.hpp"

#include <yaml-cpp/yaml.h>

#include "rr/core/time.hpp"

namespace rr::apiserver_detail {

std::string kubeconfig_text(const std::string& server_url, const std::string& cluster_name, const std::string& ca_pem,
                            const KubeconfigUser& user) {
  YAML::Emitter out;
  out << YAML::BeginMap;
  out << YAML::Key << "apiVersion" << YAML::Value << "v1";
  out << YAML::Key << "kind" << YAML::Value << "Config";
  out << YAML::Key << "clusters" << YAML::Value << YAML::BeginSeq << YAML::BeginMap;
  out << YAML::Key << "name" << YAML::Value << cluster_name;
  out << YAML::Key << "cluster" << YAML::Value << YAML::BeginMap;
  out << YAML::Key << "server" << YAML::Value << server_url;
  if (!ca_pem.empty()) out << YAML::Key << "certificate-authority-data" << YAML::Value << Bytes::encode(ca_pem).str();
  out << YAML::EndMap << YAML::EndMap << YAML::EndSeq;
  out << YAML::Key << "users" << YAML::Value << YAML::BeginSeq << YAML::BeginMap;
  out << YAML::Key << "name" << YAML::Value << user.name;
  out << YAML::Key << "user" << YAML::Value << YAML::BeginMap;
  if (!user.token.empty()) out << YAML::Key << "token" << YAML::Value << user.token;
  if (!user.client_certificate_pem.empty()) {
    out << YAML::Key << "client-certificate-data" << YAML::Value << Bytes::encode(user.client_certificate_pem).str();
    out << YAML::Key << "client-key-data" << YAML::Value << Bytes::encode(user.client_key_pem).str();
  }
  out << YAML::EndMap << YAML::EndMap << YAML::EndSeq;
  out << YAML::Key << "contexts" << YAML::Value << YAML::BeginSeq << YAML::BeginMap;
  out << YAML::Key << "name" << YAML::Value << cluster_name;
  out << YAML::Key << "context" << YAML::Value << YAML::BeginMap;
  out << YAML::Key << "cluster" << YAML::Value << cluster_name;
  out << YAML::Key << "user" << YAML::Value << user.name;
  out << YAML::Key << "namespace" << YAML::Value << "default";
  out << YAML::EndMap << YAML::EndMap << YAML::EndSeq;
  out << YAML::Key << "current-context" << YAML::Value << cluster_name;
  out << YAML::EndMap;
  return std::string(out.c_str()) + "\n";
}

}  // namespace rr::apiserver_detail
