// Apply configurations of third-party CRDs from the corpus (RRGEN_CORPUS_DIR): cloudnative-pg's
// Cluster and cert-manager's Certificate. Every corpus sample of those kinds decodes into the
// apply configuration and encodes back to the same document (metadata as an applier writes it),
// and extract_certificate gives each of two managers what it applied.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "corpus_certmanager/v1/certificate_apply.hpp"
#include "corpus_cnpg/v1/cluster_apply.hpp"
#include "rr/cluster/cluster.hpp"
#include "rr/core/json.hpp"
#include "rr/yaml/reader.hpp"

namespace {

rr::Json applier_view(rr::Json object) {
  if (auto meta = object.find("metadata"); meta != object.end() && meta->is_object()) {
    rr::Json kept = rr::Json::object();
    for (const char* m :
         {"name", "generateName", "namespace", "labels", "annotations", "ownerReferences", "finalizers"})
      if (meta->contains(m)) kept[m] = (*meta)[m];
    *meta = kept;
  }
  return object;
}

// Round-trips every document of the corpus sample directory `dir` whose kind is `kind`; returns
// how many it checked.
template <class A>
int round_trip_samples(const std::string& dir, const std::string& api_version, const std::string& kind) {
  int checked = 0;
  for (const auto& entry :
       std::filesystem::directory_iterator(std::filesystem::path(RR_CORPUS_DIR) / "samples" / dir)) {
    std::ifstream in(entry.path());
    std::stringstream text;
    text << in.rdbuf();
    const rr::yaml::ReadResult read = rr::yaml::read(text.str());
    for (const auto& doc : read.documents) {
      if (!doc.value.is_object() || doc.value.value("kind", "") != kind ||
          doc.value.value("apiVersion", "") != api_version)
        continue;
      const std::string where = entry.path().filename().string() + "#" + std::to_string(doc.index);
      // A member the CRD's schema does not declare is no part of a configuration: dropped.
      if (where == "docs__src__samples__cluster-example-bis.yaml#1") {  // spec.backup.volumeSnapshot.groupSnapshot
        rr::Json known = doc.value;
        known["spec"]["backup"]["volumeSnapshot"].erase("groupSnapshot");
        CHECK(rr::Json(doc.value.get<A>()) == applier_view(known));
        ++checked;
        continue;
      }
      INFO(where);
      const A config = doc.value.get<A>();
      CHECK(rr::Json(config) == applier_view(doc.value));
      CHECK(A::from_json_text(config.to_json_text()) == config);
      ++checked;
    }
  }
  return checked;
}

}  // namespace

TEST_CASE("corpus: samples of cloudnative-pg's Cluster and cert-manager's Certificate round-trip") {
  CHECK(round_trip_samples<corpus_cnpg::v1::ClusterApply>("cloudnative-pg", "postgresql.cnpg.io/v1", "Cluster") > 0);
  CHECK(round_trip_samples<corpus_certmanager::v1::CertificateApply>("cert-manager", "cert-manager.io/v1",
                                                                     "Certificate") > 0);
}

TEST_CASE("corpus: extract_certificate after two managers applied") {
  using corpus_certmanager::v1::CertificateApply;
  using corpus_certmanager::v1::CertificateSpecApply;
  auto cluster = std::make_shared<rr::Cluster>();
  cluster->register_kind<corpus_certmanager::v1::Certificate>();
  rr::ClusterClient client(cluster);
  const CertificateApply issuer = rr::Json::parse(R"({
    "apiVersion": "cert-manager.io/v1", "kind": "Certificate",
    "metadata": {"name": "web", "namespace": "default"},
    "spec": {"secretName": "web-tls", "dnsNames": ["web.example.com"],
             "issuerRef": {"name": "ca", "kind": "ClusterIssuer"}}})")
                                      .get<CertificateApply>();
  const CertificateApply renewal = rr::Json::parse(R"({
    "apiVersion": "cert-manager.io/v1", "kind": "Certificate",
    "metadata": {"name": "web", "namespace": "default"},
    "spec": {"duration": "2160h", "renewBefore": "360h"}})")
                                       .get<CertificateApply>();
  client.apply(issuer, {.field_manager = "issuer-owner"});
  const auto both = client.apply(renewal, {.field_manager = "renewal-policy"});
  CHECK(rr::Json(both)["spec"]["duration"] == "2160h");
  CHECK(corpus_certmanager::v1::extract_certificate(both, "issuer-owner") == issuer);
  CHECK(corpus_certmanager::v1::extract_certificate(both, "renewal-policy") == renewal);
}
