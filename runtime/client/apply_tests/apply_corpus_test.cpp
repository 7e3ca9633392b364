// Apply configurations of third-party CRDs from the corpus (RRGEN_CORPUS_DIR): cloudnative-pg's
// Cluster and cert-manager's Certificate. Every corpus sample of those kinds decodes into the
// apply configuration and encodes back to the same document (metadata as an applier writes it),
// and, applied through the in-process cluster by one manager while another adds a label,
// extract_<kind> gives each manager what it applied (and re-applying it changes nothing).
#include <doctest/doctest.h>

#include <algorithm>
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

// Calls fn(where, document) for every document of the corpus sample directory `dir` whose
// apiVersion and kind are these ("<file>#<index>" names it); returns how many.
template <class Fn>
int for_each_sample(const std::string& dir, const std::string& api_version, const std::string& kind, Fn fn) {
  int count = 0;
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
      fn(entry.path().filename().string() + "#" + std::to_string(doc.index), doc.value);
      ++count;
    }
  }
  return count;
}

// Round-trips every document of the corpus sample directory `dir` whose kind is `kind`; returns
// how many it checked.
template <class A>
int round_trip_samples(const std::string& dir, const std::string& api_version, const std::string& kind) {
  return for_each_sample(dir, api_version, kind, [](const std::string& where, const rr::Json& sample) {
    // A member the CRD's schema does not declare is no part of a configuration: dropped.
    if (where == "docs__src__samples__cluster-example-bis.yaml#1") {  // spec.backup.volumeSnapshot.groupSnapshot
      rr::Json known = sample;
      known["spec"]["backup"]["volumeSnapshot"].erase("groupSnapshot");
      CHECK(rr::Json(sample.get<A>()) == applier_view(known));
      return;
    }
    INFO(where);
    const A config = sample.get<A>();
    CHECK(rr::Json(config) == applier_view(sample));
    CHECK(A::from_json_text(config.to_json_text()) == config);
  });
}

// The openAPIV3Schema of version `version` of the CRD in corpus file `crd`: the apply schema the
// local API server gives a CRD's kind (list and map types, docs/runtime/23-server-side-apply.md).
rr::Json crd_schema(const std::string& crd, const std::string& version) {
  std::ifstream in(std::filesystem::path(RR_CORPUS_DIR) / "crds" / crd);
  std::stringstream text;
  text << in.rdbuf();
  for (const auto& doc : rr::yaml::read(text.str()).documents) {
    if (!doc.value.is_object() || doc.value.value("kind", "") != "CustomResourceDefinition") continue;
    for (const auto& v : doc.value["spec"]["versions"]) {
      if (v.value("name", "") == version) return v["schema"]["openAPIV3Schema"];
    }
  }
  FAIL("no version " << version << " in " << crd);
  return {};
}

// Applies every sample of `dir` whose kind is `kind` (less its status, which belongs to the status
// subresource) by manager "owner" to a cluster serving T with the CRD's apply schema, then a
// label by manager "labeller", and checks what `extract` gives back for each; returns how many.
template <class T, class A, class Extract>
int extract_samples(const std::string& dir, const std::string& crd, Extract extract) {
  const rr::GroupVersionKind gvk = rr::kind_info_of<T>().gvk;
  const rr::Json schema = crd_schema(crd, gvk.version);
  return for_each_sample(dir, gvk.api_version(), gvk.kind, [&](const std::string& where, const rr::Json& sample) {
    INFO(where);
    rr::Json applied = applier_view(sample);
    applied.erase("status");
    if (!applied["metadata"].contains("namespace")) applied["metadata"]["namespace"] = "default";
    // What the CRD's schema does not declare is dropped on decode: compare with the decoded form.
    const A owner = applied.get<A>();
    auto cluster = std::make_shared<rr::Cluster>();
    cluster->register_kind<T>();
    cluster->set_apply_schema(gvk, nullptr, schema);
    rr::ClusterClient client(cluster);
    client.apply(owner, {.field_manager = "owner"});
    A label;
    label.metadata.name = owner.metadata.name;
    label.metadata.namespace_ = owner.metadata.namespace_;
    label.metadata.labels = std::map<std::string, std::string>{{"corpus.rrgen.dev/checked", "yes"}};
    const T both = client.apply(label, {.field_manager = "labeller"});
    // The owner's configuration comes back whole. Inside what it owns atomically (a list
    // without x-kubernetes-list-type) the value is the stored one, the CRD's defaults included,
    // as client-go's Extract gives it: more than was applied, never less or other.
    const A extracted = extract(both, "owner");
    const rr::Json changes = rr::Json::diff(rr::Json(owner), rr::Json(extracted));
    INFO("extracted vs applied: " << changes.dump());
    CHECK(std::all_of(changes.begin(), changes.end(), [](const rr::Json& op) { return op["op"] == "add"; }));
    // Applying it again changes nothing, and the labeller's part is its own.
    const T again = client.apply(extracted, {.field_manager = "owner"});
    CHECK(rr::Json(again)["metadata"]["resourceVersion"] == rr::Json(both)["metadata"]["resourceVersion"]);
    CHECK(extract(both, "labeller") == label);
  });
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

TEST_CASE("corpus: every sample of cloudnative-pg's Cluster and cert-manager's Certificate extracts per manager") {
  CHECK(extract_samples<corpus_cnpg::v1::Cluster, corpus_cnpg::v1::ClusterApply>(
            "cloudnative-pg", "cloudnative-pg/postgresql.cnpg.io_clusters.yaml",
            [](const auto& object, std::string_view manager) {
              return corpus_cnpg::v1::extract_cluster(object, manager);
            }) > 0);
  CHECK(extract_samples<corpus_certmanager::v1::Certificate, corpus_certmanager::v1::CertificateApply>(
            "cert-manager", "cert-manager/cert-manager.io_certificates.yaml",
            [](const auto& object, std::string_view manager) {
              return corpus_certmanager::v1::extract_certificate(object, manager);
            }) > 0);
}
