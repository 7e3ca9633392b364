// The cert-manager subset over an in-process rr::Cluster: issuers' readiness, Certificates issued
// into Secrets (checked with OpenSSL), re-issued and renewed, and the CA injector.
#include <doctest/doctest.h>
#include <openssl/bio.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <thread>

#include "crds.hpp"
#include "rr/cert_manager/cert_manager.hpp"
#include "rr/client/api_error.hpp"
#include "rr/cluster/cluster.hpp"
#include "rr/core/time.hpp"

using namespace std::chrono_literals;
using rr::Json;
using namespace rr::cert_manager;

namespace {

const rr::KindInfo secrets{{"", "v1", "Secret"}, "secrets", "SecretList", rr::Scope::Namespaced, false};
const rr::KindInfo events{{"", "v1", "Event"}, "events", "EventList", rr::Scope::Namespaced, false};
const rr::KindInfo validating{{"admissionregistration.k8s.io", "v1", "ValidatingWebhookConfiguration"},
                              "validatingwebhookconfigurations",
                              "ValidatingWebhookConfigurationList",
                              rr::Scope::Cluster,
                              false};
const rr::KindInfo mutating{{"admissionregistration.k8s.io", "v1", "MutatingWebhookConfiguration"},
                            "mutatingwebhookconfigurations",
                            "MutatingWebhookConfigurationList",
                            rr::Scope::Cluster,
                            false};
const rr::KindInfo crds{{"apiextensions.k8s.io", "v1", "CustomResourceDefinition"},
                        "customresourcedefinitions",
                        "CustomResourceDefinitionList",
                        rr::Scope::Cluster,
                        true};

struct X509Free {
  void operator()(X509* x) const { X509_free(x); }
};
using Cert = std::unique_ptr<X509, X509Free>;

Cert parse_cert(const std::string& pem) {
  BIO* bio = BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size()));
  Cert cert(PEM_read_bio_X509(bio, nullptr, nullptr, nullptr));
  BIO_free(bio);
  return cert;
}

std::string decoded(const Json& secret, const std::string& key) {
  return rr::Bytes(secret["data"].value(key, std::string())).decode().value_or("");
}

std::vector<std::string> dns_sans(X509* cert) {
  std::vector<std::string> out;
  auto* names = static_cast<GENERAL_NAMES*>(X509_get_ext_d2i(cert, NID_subject_alt_name, nullptr, nullptr));
  for (int i = 0; names != nullptr && i < sk_GENERAL_NAME_num(names); ++i) {
    const GENERAL_NAME* name = sk_GENERAL_NAME_value(names, i);
    if (name->type == GEN_DNS) {
      out.emplace_back(reinterpret_cast<const char*>(ASN1_STRING_get0_data(name->d.dNSName)),
                       static_cast<std::size_t>(ASN1_STRING_length(name->d.dNSName)));
    }
  }
  GENERAL_NAMES_free(names);
  return out;
}

bool key_matches(const Json& secret) {
  const std::string key_pem = decoded(secret, "tls.key");
  BIO* bio = BIO_new_mem_buf(key_pem.data(), static_cast<int>(key_pem.size()));
  EVP_PKEY* key = PEM_read_bio_PrivateKey(bio, nullptr, nullptr, nullptr);
  BIO_free(bio);
  Cert cert = parse_cert(decoded(secret, "tls.crt"));
  const bool ok = key != nullptr && cert && X509_check_private_key(cert.get(), key) == 1;
  EVP_PKEY_free(key);
  return ok;
}

// Whether `leaf` verifies against `ca` alone (the CA as the only trust anchor).
bool verifies(const std::string& leaf_pem, const std::string& ca_pem) {
  Cert leaf = parse_cert(leaf_pem), ca = parse_cert(ca_pem);
  if (!leaf || !ca) return false;
  X509_STORE* store = X509_STORE_new();
  X509_STORE_add_cert(store, ca.get());
  X509_STORE_CTX* ctx = X509_STORE_CTX_new();
  X509_STORE_CTX_init(ctx, store, leaf.get(), nullptr);
  const bool ok = X509_verify_cert(ctx) == 1;
  X509_STORE_CTX_free(ctx);
  X509_STORE_free(store);
  return ok;
}

const Json* condition(const Json& object, const std::string& type) {
  if (!object.contains("status") || !object["status"].contains("conditions")) return nullptr;
  for (const auto& c : object["status"]["conditions"]) {
    if (c.value("type", std::string()) == type) return &c;
  }
  return nullptr;
}

bool has_condition(const Json& object, const std::string& type, const std::string& status) {
  const Json* c = condition(object, type);
  return c != nullptr && c->value("status", std::string()) == status;
}

struct Local {
  std::shared_ptr<rr::Cluster> cluster;
  std::unique_ptr<CertManager> manager;

  explicit Local(rr::ClusterOptions cluster_options = {})
      : cluster(std::make_shared<rr::Cluster>(std::move(cluster_options))) {
    for (const auto& kind :
         {secrets, validating, mutating, crds, certificate_kind(), issuer_kind(), cluster_issuer_kind()}) {
      cluster->register_kind(kind);
    }
    CertManagerOptions options;
    options.log = [](const std::string&) {};
    manager = std::make_unique<CertManager>(cluster, options);
  }

  Json create(const rr::KindInfo& kind, const std::string& ns, const std::string& name, Json spec) {
    Json object{{"apiVersion", kind.gvk.group + "/" + kind.gvk.version},
                {"kind", kind.gvk.kind},
                {"metadata", {{"name", name}}},
                {"spec", std::move(spec)}};
    if (!ns.empty()) object["metadata"]["namespace"] = ns;
    return cluster->create(kind, object);
  }

  void issuer(const std::string& name, Json spec, const std::string& ns = "default") {
    create(ns.empty() ? cluster_issuer_kind() : issuer_kind(), ns, name, std::move(spec));
  }

  void certificate(const std::string& name, Json spec, const std::string& ns = "default") {
    create(certificate_kind(), ns, name, std::move(spec));
  }

  // The object once `done` holds, polling for up to `timeout`; the last seen one otherwise.
  Json wait(const rr::KindInfo& kind, const std::string& ns, const std::string& name,
            const std::function<bool(const Json&)>& done, std::chrono::milliseconds timeout = 10s) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    Json last;
    while (std::chrono::steady_clock::now() < deadline) {
      try {
        last = cluster->get(kind, {ns, name});
        if (done(last)) return last;
      } catch (const rr::ApiError&) {
      }
      std::this_thread::sleep_for(20ms);
    }
    return last;
  }

  Json ready_certificate(const std::string& name, const std::string& ns = "default") {
    return wait(certificate_kind(), ns, name, [](const Json& c) { return has_condition(c, "Ready", "True"); });
  }
  Json secret(const std::string& name, const std::string& ns = "default") {
    return wait(secrets, ns, name, [](const Json&) { return true; });
  }
};

Json self_signed() { return Json{{"selfSigned", Json::object()}}; }

}  // namespace

TEST_CASE("the CRDs are installed with cert-manager's names and columns") {
  Local local;
  Json crd = local.wait(crds, "", "certificates.cert-manager.io", [](const Json&) { return true; });
  REQUIRE(crd.is_object());
  CHECK(crd["spec"]["names"]["shortNames"] == Json::array({"cert", "certs"}));
  const Json& version = crd["spec"]["versions"][0];
  CHECK(version["name"] == "v1");
  CHECK(version["subresources"].contains("status"));
  std::vector<std::string> columns;
  for (const auto& c : version["additionalPrinterColumns"]) columns.push_back(c["name"]);
  CHECK(columns == std::vector<std::string>{"Ready", "Secret", "Issuer", "Status", "Age"});
  CHECK(local.cluster->get(crds, {"", "issuers.cert-manager.io"})["spec"]["scope"] == "Namespaced");
  CHECK(local.cluster->get(crds, {"", "clusterissuers.cert-manager.io"})["spec"]["scope"] == "Cluster");
}

TEST_CASE("a self-signed Certificate is issued into a TLS Secret") {
  Local local;
  local.issuer("selfsigned", self_signed());
  local.certificate("serving", {{"secretName", "serving-tls"},
                                {"dnsNames", {"svc.ns.svc", "svc.ns.svc.cluster.local"}},
                                {"ipAddresses", {"127.0.0.1"}},
                                {"duration", "24h"},
                                {"subject", {{"organizations", {"rrgen"}}}},
                                {"issuerRef", {{"name", "selfsigned"}}}});
  Json certificate = local.ready_certificate("serving");
  const Json* ready = condition(certificate, "Ready");
  REQUIRE(ready != nullptr);
  CHECK((*ready)["reason"] == "Ready");
  CHECK((*ready)["message"] == "Certificate is up to date and has not expired");
  CHECK(certificate["status"]["revision"] == 1);
  CHECK(condition(certificate, "Issuing") == nullptr);
  // Settled: the passes its own writes cause change nothing more.
  const std::string version = certificate["metadata"]["resourceVersion"];
  std::this_thread::sleep_for(300ms);
  CHECK(local.cluster->get(certificate_kind(), {"default", "serving"})["metadata"]["resourceVersion"] == version);

  Json secret = local.secret("serving-tls");
  CHECK(secret["type"] == "kubernetes.io/tls");
  CHECK(key_matches(secret));
  CHECK(decoded(secret, "ca.crt") == decoded(secret, "tls.crt"));  // self-signed: its own CA
  const Json& annotations = secret["metadata"]["annotations"];
  CHECK(annotations["cert-manager.io/certificate-name"] == "serving");
  CHECK(annotations["cert-manager.io/issuer-name"] == "selfsigned");
  CHECK(annotations["cert-manager.io/issuer-kind"] == "Issuer");
  CHECK(annotations["cert-manager.io/issuer-group"] == "cert-manager.io");
  CHECK(annotations["cert-manager.io/alt-names"] == "svc.ns.svc,svc.ns.svc.cluster.local");
  CHECK(annotations["cert-manager.io/ip-sans"] == "127.0.0.1");

  Cert cert = parse_cert(decoded(secret, "tls.crt"));
  REQUIRE(cert);
  CHECK(dns_sans(cert.get()) == std::vector<std::string>{"svc.ns.svc", "svc.ns.svc.cluster.local"});
  int days = 0, seconds = 0;
  ASN1_TIME_diff(&days, &seconds, X509_get0_notBefore(cert.get()), X509_get0_notAfter(cert.get()));
  CHECK(days * 86400 + seconds == 24 * 3600);
  CHECK(verifies(decoded(secret, "tls.crt"), decoded(secret, "ca.crt")));
  // renewBefore unset: a third of the lifetime before notAfter.
  auto not_after = rr::Time(certificate["status"]["notAfter"].get<std::string>()).time_point();
  auto renewal = rr::Time(certificate["status"]["renewalTime"].get<std::string>()).time_point();
  REQUIRE(not_after);
  REQUIRE(renewal);
  CHECK(*not_after - *renewal == 8h);
  Json issuer = local.wait(issuer_kind(), "default", "selfsigned",
                           [](const Json& i) { return has_condition(i, "Ready", "True"); });
  CHECK((*condition(issuer, "Ready"))["reason"] == "IsReady");
}

TEST_CASE("a ca Issuer signs with its Secret's key pair; its chain verifies") {
  Local local;
  local.issuer("selfsigned", self_signed());
  local.certificate("root", {{"secretName", "root-ca"},
                             {"isCA", true},
                             {"commonName", "rrgen root"},
                             {"privateKey", {{"algorithm", "ECDSA"}, {"size", 384}}},
                             {"issuerRef", {{"name", "selfsigned"}}}});
  local.ready_certificate("root");
  local.issuer("root-issuer", {{"ca", {{"secretName", "root-ca"}}}});
  Json issuer = local.wait(issuer_kind(), "default", "root-issuer",
                           [](const Json& i) { return has_condition(i, "Ready", "True"); });
  CHECK((*condition(issuer, "Ready"))["reason"] == "KeyPairVerified");
  CHECK((*condition(issuer, "Ready"))["message"] == "Signing CA verified");

  local.certificate("leaf", {{"secretName", "leaf-tls"},
                             {"dnsNames", {"leaf.example"}},
                             {"privateKey", {{"algorithm", "Ed25519"}, {"encoding", "PKCS8"}}},
                             {"issuerRef", {{"name", "root-issuer"}, {"kind", "Issuer"}}}});
  local.ready_certificate("leaf");
  Json leaf = local.secret("leaf-tls");
  Json root = local.secret("root-ca");
  CHECK(decoded(leaf, "ca.crt") == decoded(root, "tls.crt"));
  CHECK(verifies(decoded(leaf, "tls.crt"), decoded(root, "tls.crt")));
  CHECK(key_matches(leaf));
  CHECK(decoded(leaf, "tls.key").starts_with("-----BEGIN PRIVATE KEY-----"));
  CHECK(decoded(root, "tls.key").starts_with("-----BEGIN EC PRIVATE KEY-----"));  // PKCS1 (SEC1) by default
  std::this_thread::sleep_for(300ms);                                             // neither is issued again
  CHECK(local.cluster->get(certificate_kind(), {"default", "leaf"})["status"]["revision"] == 1);
  CHECK(local.cluster->get(certificate_kind(), {"default", "root"})["status"]["revision"] == 1);
}

TEST_CASE("a ClusterIssuer reads its ca Secret in the cluster resource namespace") {
  Local local;
  local.issuer("bootstrap", self_signed(), "");
  local.certificate("cluster-root",
                    {{"secretName", "cluster-root"},
                     {"isCA", true},
                     {"commonName", "cluster root"},
                     {"issuerRef", {{"name", "bootstrap"}, {"kind", "ClusterIssuer"}}}},
                    "cert-manager");
  local.ready_certificate("cluster-root", "cert-manager");
  local.issuer("cluster-ca", {{"ca", {{"secretName", "cluster-root"}}}}, "");
  local.certificate("app", {{"secretName", "app-tls"},
                            {"dnsNames", {"app.example"}},
                            {"issuerRef", {{"name", "cluster-ca"}, {"kind", "ClusterIssuer"}}}});
  local.ready_certificate("app");
  CHECK(verifies(decoded(local.secret("app-tls"), "tls.crt"),
                 decoded(local.secret("cluster-root", "cert-manager"), "tls.crt")));
  CHECK(local.secret("app-tls")["metadata"]["annotations"]["cert-manager.io/issuer-kind"] == "ClusterIssuer");
}

TEST_CASE("a Certificate waits for its Issuer and is issued once it exists") {
  Local local;
  local.certificate("early",
                    {{"secretName", "early-tls"}, {"dnsNames", {"e.example"}}, {"issuerRef", {{"name", "later"}}}});
  Json waiting = local.wait(certificate_kind(), "default", "early", [](const Json& c) {
    return has_condition(c, "Ready", "False") && has_condition(c, "Issuing", "True");
  });
  REQUIRE(condition(waiting, "Ready") != nullptr);
  CHECK((*condition(waiting, "Ready"))["reason"] == "DoesNotExist");
  CHECK((*condition(waiting, "Ready"))["message"] == "Issuing certificate as Secret does not exist");
  std::this_thread::sleep_for(200ms);
  CHECK_THROWS_AS(local.cluster->get(secrets, {"default", "early-tls"}), rr::ApiError);

  local.issuer("later", self_signed());
  Json issued = local.ready_certificate("early");
  CHECK(has_condition(issued, "Ready", "True"));
  CHECK(condition(issued, "Issuing") == nullptr);
}

TEST_CASE("a changed spec and a deleted Secret are re-issued") {
  Local local;
  local.issuer("selfsigned", self_signed());
  local.certificate(
      "web", {{"secretName", "web-tls"}, {"dnsNames", {"one.example"}}, {"issuerRef", {{"name", "selfsigned"}}}});
  local.ready_certificate("web");

  Json certificate = local.cluster->get(certificate_kind(), {"default", "web"});
  certificate["spec"]["dnsNames"] = Json::array({"one.example", "two.example"});
  local.cluster->update(certificate_kind(), certificate);
  Json reissued = local.wait(certificate_kind(), "default", "web", [](const Json& c) {
    return c["status"].value("revision", 0) == 2 && has_condition(c, "Ready", "True");
  });
  CHECK(reissued["status"]["revision"] == 2);
  Cert cert = parse_cert(decoded(local.secret("web-tls"), "tls.crt"));
  REQUIRE(cert);
  CHECK(dns_sans(cert.get()) == std::vector<std::string>{"one.example", "two.example"});

  local.cluster->remove(secrets, {"default", "web-tls"});
  Json recreated = local.wait(certificate_kind(), "default", "web", [](const Json& c) {
    return c["status"].value("revision", 0) == 3 && has_condition(c, "Ready", "True");
  });
  CHECK(recreated["status"]["revision"] == 3);
  CHECK(key_matches(local.secret("web-tls")));
}

TEST_CASE("a Secret whose key is removed or corrupt is re-issued; secretTemplate is applied") {
  Local local;
  local.issuer("selfsigned", self_signed());
  local.certificate("t", {{"secretName", "t-tls"},
                          {"dnsNames", {"t.example"}},
                          {"secretTemplate", {{"labels", {{"team", "a"}}}, {"annotations", {{"note", "x"}}}}},
                          {"issuerRef", {{"name", "selfsigned"}}}});
  local.ready_certificate("t");
  Json secret = local.secret("t-tls");
  CHECK(secret["metadata"]["labels"]["team"] == "a");
  CHECK(secret["metadata"]["annotations"]["note"] == "x");
  secret["data"]["tls.key"] = rr::Bytes::encode("not a key").str();
  local.cluster->update(secrets, secret);
  Json again = local.wait(certificate_kind(), "default", "t",
                          [](const Json& c) { return c["status"].value("revision", 0) == 2; });
  CHECK(again["status"]["revision"] == 2);
  CHECK(key_matches(local.secret("t-tls")));

  secret = local.secret("t-tls");
  secret["data"].erase("tls.crt");
  local.cluster->update(secrets, secret);
  Json third = local.wait(certificate_kind(), "default", "t",
                          [](const Json& c) { return c["status"].value("revision", 0) == 3; });
  CHECK(third["status"]["revision"] == 3);
  CHECK(key_matches(local.secret("t-tls")));
}

TEST_CASE("a Certificate is renewed when its renewal time passes") {
  Local local;
  local.issuer("selfsigned", self_signed());
  // One hour, renewed one second after issuance.
  local.certificate("short", {{"secretName", "short-tls"},
                              {"dnsNames", {"s.example"}},
                              {"duration", "1h"},
                              {"renewBefore", "59m59s"},
                              {"issuerRef", {{"name", "selfsigned"}}}});
  Json first = local.ready_certificate("short");
  auto renewal = rr::Time(first["status"]["renewalTime"].get<std::string>()).time_point();
  auto not_before = rr::Time(first["status"]["notBefore"].get<std::string>()).time_point();
  REQUIRE(renewal);
  CHECK(*renewal - *not_before == 1s);
  const std::string first_cert = decoded(local.secret("short-tls"), "tls.crt");
  Json renewed = local.wait(certificate_kind(), "default", "short",
                            [](const Json& c) { return c["status"].value("revision", 0) >= 2; });
  CHECK(renewed["status"].value("revision", 0) >= 2);
  CHECK(decoded(local.secret("short-tls"), "tls.crt") != first_cert);
}

TEST_CASE("a renewal follows the cluster's clock: moved past renewalTime, a resync renews") {
  auto now = std::make_shared<std::atomic<std::int64_t>>(
      std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch()).count());
  rr::ClusterOptions options;
  options.clock = [now] { return std::chrono::system_clock::time_point(std::chrono::seconds(now->load())); };
  Local local(options);
  local.issuer("selfsigned", self_signed());
  local.certificate("long",
                    {{"secretName", "long-tls"}, {"dnsNames", {"l.example"}}, {"issuerRef", {{"name", "selfsigned"}}}});
  Json first = local.ready_certificate("long");
  auto not_before = rr::Time(first["status"]["notBefore"].get<std::string>()).time_point();
  auto renewal = rr::Time(first["status"]["renewalTime"].get<std::string>()).time_point();
  REQUIRE(not_before);
  REQUIRE(renewal);
  CHECK(*renewal - *not_before == 1440h);  // 2160h, renewed a third before the end
  std::this_thread::sleep_for(200ms);
  CHECK(local.cluster->get(certificate_kind(), {"default", "long"})["status"]["revision"] == 1);
  *now += std::chrono::duration_cast<std::chrono::seconds>(1441h).count();
  local.manager->resync();
  Json renewed = local.wait(certificate_kind(), "default", "long",
                            [](const Json& c) { return c["status"].value("revision", 0) == 2; });
  CHECK(renewed["status"]["revision"] == 2);
  CHECK(rr::Time(renewed["status"]["notBefore"].get<std::string>()).time_point() > *renewal);
}

TEST_CASE("rotationPolicy Never keeps the private key across a re-issue") {
  Local local;
  local.issuer("selfsigned", self_signed());
  local.certificate("keep", {{"secretName", "keep-tls"},
                             {"dnsNames", {"k.example"}},
                             {"privateKey", {{"rotationPolicy", "Never"}, {"algorithm", "ECDSA"}}},
                             {"issuerRef", {{"name", "selfsigned"}}}});
  local.ready_certificate("keep");
  const std::string key = decoded(local.secret("keep-tls"), "tls.key");
  Json certificate = local.cluster->get(certificate_kind(), {"default", "keep"});
  certificate["spec"]["dnsNames"] = Json::array({"k2.example"});
  local.cluster->update(certificate_kind(), certificate);
  local.wait(certificate_kind(), "default", "keep",
             [](const Json& c) { return c["status"].value("revision", 0) == 2; });
  CHECK(decoded(local.secret("keep-tls"), "tls.key") == key);
}

TEST_CASE("invalid input: Ready False with a clear message") {
  Local local;
  local.issuer("selfsigned", self_signed());
  local.certificate("bad-duration", {{"secretName", "x"},
                                     {"dnsNames", {"x.example"}},
                                     {"duration", "soon"},
                                     {"issuerRef", {{"name", "selfsigned"}}}});
  local.certificate("no-names", {{"secretName", "y"}, {"issuerRef", {{"name", "selfsigned"}}}});
  auto not_ready = [&](const std::string& name) {
    Json c = local.wait(certificate_kind(), "default", name,
                        [](const Json& o) { return has_condition(o, "Ready", "False"); });
    REQUIRE(condition(c, "Ready") != nullptr);
    CHECK((*condition(c, "Ready"))["reason"] == "InvalidSpec");
    return (*condition(c, "Ready"))["message"].get<std::string>();
  };
  CHECK(not_ready("bad-duration") == "spec.duration: Invalid value: \"soon\": time: invalid duration \"soon\"");
  CHECK(not_ready("no-names").find("at least one of commonName") != std::string::npos);

  local.issuer("acme", {{"acme", {{"server", "https://acme.example"}}}});
  local.issuer("no-secret", {{"ca", {{"secretName", "missing"}}}});
  Json acme = local.wait(issuer_kind(), "default", "acme",
                         [](const Json& i) { return has_condition(i, "Ready", "False"); });
  REQUIRE(condition(acme, "Ready") != nullptr);
  CHECK((*condition(acme, "Ready"))["message"].get<std::string>().find("selfSigned and ca issuers only") !=
        std::string::npos);
  Json ca = local.wait(issuer_kind(), "default", "no-secret",
                       [](const Json& i) { return has_condition(i, "Ready", "False"); });
  REQUIRE(condition(ca, "Ready") != nullptr);
  CHECK((*condition(ca, "Ready"))["reason"] == "ErrGetKeyPair");
  CHECK((*condition(ca, "Ready"))["message"] == "Error getting keypair for CA issuer: secrets \"missing\" not found");
}

TEST_CASE("the CA injector sets caBundle on webhook configurations and a conversion CRD, again after it is cleared") {
  Local local;
  local.issuer("selfsigned", self_signed(), "system");
  local.certificate("serving-cert",
                    {{"secretName", "webhook-server-cert"},
                     {"dnsNames", {"webhook.system.svc"}},
                     {"issuerRef", {{"name", "selfsigned"}}}},
                    "system");
  local.ready_certificate("serving-cert", "system");
  const std::string ca = decoded(local.secret("webhook-server-cert", "system"), "ca.crt");
  const std::string bundle = rr::Bytes::encode(ca).str();
  const Json annotations{{"cert-manager.io/inject-ca-from", "system/serving-cert"}};
  Json webhook{{"name", "v.example"}, {"clientConfig", {{"service", {{"name", "webhook"}, {"namespace", "system"}}}}}};
  local.cluster->create(validating, {{"apiVersion", "admissionregistration.k8s.io/v1"},
                                     {"kind", "ValidatingWebhookConfiguration"},
                                     {"metadata", {{"name", "vwc"}, {"annotations", annotations}}},
                                     {"webhooks", {webhook, webhook}}});
  local.cluster->create(mutating, {{"apiVersion", "admissionregistration.k8s.io/v1"},
                                   {"kind", "MutatingWebhookConfiguration"},
                                   {"metadata", {{"name", "mwc"}, {"annotations", annotations}}},
                                   {"webhooks", {webhook}}});
  local.cluster->create(
      crds, {{"apiVersion", "apiextensions.k8s.io/v1"},
             {"kind", "CustomResourceDefinition"},
             {"metadata", {{"name", "widgets.example.dev"}, {"annotations", annotations}}},
             {"spec",
              {{"group", "example.dev"},
               {"conversion", {{"strategy", "Webhook"}, {"webhook", {{"clientConfig", webhook["clientConfig"]}}}}}}}});
  auto all_injected = [&](const Json& o) {
    for (const auto& w : o["webhooks"]) {
      if (w["clientConfig"].value("caBundle", std::string()) != bundle) return false;
    }
    return true;
  };
  CHECK(all_injected(local.wait(validating, "", "vwc", all_injected)));
  CHECK(all_injected(local.wait(mutating, "", "mwc", all_injected)));
  auto crd_injected = [&](const Json& o) {
    return o.value("/spec/conversion/webhook/clientConfig/caBundle"_json_pointer, std::string()) == bundle;
  };
  CHECK(crd_injected(local.wait(crds, "", "widgets.example.dev", crd_injected)));

  // kubectl apply of the configuration as written clears caBundle: injected again.
  Json vwc = local.cluster->get(validating, {"", "vwc"});
  for (auto& w : vwc["webhooks"]) w["clientConfig"].erase("caBundle");
  local.cluster->update(validating, vwc);
  CHECK(all_injected(local.wait(validating, "", "vwc", all_injected)));

  // A Secret named by inject-ca-from-secret is injected only when it allows it.
  local.cluster->create(validating,
                        {{"apiVersion", "admissionregistration.k8s.io/v1"},
                         {"kind", "ValidatingWebhookConfiguration"},
                         {"metadata",
                          {{"name", "from-secret"},
                           {"annotations", {{"cert-manager.io/inject-ca-from-secret", "system/webhook-server-cert"}}}}},
                         {"webhooks", {webhook}}});
  std::this_thread::sleep_for(300ms);
  CHECK_FALSE(local.cluster->get(validating, {"", "from-secret"})["webhooks"][0]["clientConfig"].contains("caBundle"));
  Json secret = local.cluster->get(secrets, {"system", "webhook-server-cert"});
  secret["metadata"]["annotations"]["cert-manager.io/allow-direct-injection"] = "true";
  local.cluster->update(secrets, secret);
  CHECK(all_injected(local.wait(validating, "", "from-secret", all_injected)));
}
