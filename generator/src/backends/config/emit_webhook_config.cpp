#include "backends/config/emit_webhook_config.hpp"

#include <utility>

#include "model/rbac_derive.hpp"

namespace rrgen {
namespace webhook_config {
namespace {

struct WebhookDeployNames {
  std::string service;         // "<app>-webhook-service"
  std::string issuer;          // "<app>-selfsigned-issuer"
  std::string certificate;     // "<app>-serving-cert"
  std::string secret;          // "<app>-webhook-server-cert"
  std::string mutating;        // "<app>-mutating-webhook-configuration"
  std::string validating;      // "<app>-validating-webhook-configuration"
  std::string inject_ca_from;  // "<namespace>/<app>-serving-cert"
};

WebhookDeployNames names_of(const DeployNames& d) {
  WebhookDeployNames n;
  n.service = d.app + "-webhook-service";
  n.issuer = d.app + "-selfsigned-issuer";
  n.certificate = d.app + "-serving-cert";
  n.secret = d.app + "-webhook-server-cert";
  n.mutating = d.app + "-mutating-webhook-configuration";
  n.validating = d.app + "-validating-webhook-configuration";
  n.inject_ca_from = d.namespace_ + "/" + n.certificate;
  return n;
}

Yaml app_labels(const DeployNames& d) {
  Yaml labels = Yaml::map();
  labels.set("control-plane", "controller-manager");
  labels.set("app.kubernetes.io/name", d.app);
  return labels;
}

Yaml object(const char* api_version, const char* kind, Yaml metadata) {
  Yaml doc = Yaml::map();
  doc.set("apiVersion", api_version);
  doc.set("kind", kind);
  doc.set("metadata", std::move(metadata));
  return doc;
}

Yaml inject_ca(const WebhookDeployNames& n) {
  Yaml annotations = Yaml::map();
  annotations.set("cert-manager.io/inject-ca-from", n.inject_ca_from);
  return annotations;
}

Yaml service_ref(const DeployNames& d, const WebhookDeployNames& n, const std::string& path) {
  Yaml service = Yaml::map();
  service.set("name", n.service);
  service.set("namespace", d.namespace_);
  service.set("path", path);
  Yaml client = Yaml::map();
  client.set("service", std::move(service));
  return client;
}

// One entry of webhooks: as controller-gen writes it for a +kubebuilder:webhook marker.
Yaml webhook_entry(const ResolvedSpec& spec, const DeployNames& d, const WebhookDeployNames& n,
                   const ResolvedAdmissionWebhook& w) {
  Yaml rule = Yaml::map();
  rule.set("apiGroups", Yaml::strings({spec.resource.group}));
  rule.set("apiVersions", Yaml::strings({spec.resource.version}));
  rule.set("operations", Yaml::strings(w.operations));
  rule.set("resources", Yaml::strings({spec.resource.plural}));
  Yaml entry = Yaml::map();
  entry.set("admissionReviewVersions", Yaml::strings({"v1"}));
  entry.set("clientConfig", service_ref(d, n, w.path));
  entry.set("failurePolicy", w.failure_policy);
  entry.set("name", w.name);
  entry.set("rules", Yaml::seq().push(std::move(rule)));
  entry.set("sideEffects", w.side_effects);
  entry.set("timeoutSeconds", Yaml::integer(w.timeout_seconds));
  return entry;
}

Yaml webhook_configuration(const char* kind, const std::string& name, const WebhookDeployNames& n, Yaml entry) {
  Yaml meta = Yaml::map();
  meta.set("annotations", inject_ca(n));
  meta.set("name", name);
  Yaml doc = object("admissionregistration.k8s.io/v1", kind, std::move(meta));
  doc.set("webhooks", Yaml::seq().push(std::move(entry)));
  return doc;
}

Yaml service(const DeployNames& d, const WebhookDeployNames& n) {
  Yaml meta = Yaml::map();
  meta.set("labels", app_labels(d));
  meta.set("name", n.service);
  meta.set("namespace", d.namespace_);
  Yaml port = Yaml::map();
  port.set("port", Yaml::integer(443));
  port.set("protocol", "TCP");
  port.set("targetPort", Yaml::integer(kWebhookPort));
  Yaml spec = Yaml::map();
  spec.set("ports", Yaml::seq().push(std::move(port)));
  spec.set("selector", app_labels(d));
  Yaml doc = object("v1", "Service", std::move(meta));
  doc.set("spec", std::move(spec));
  return doc;
}

// Teaches kustomize that the webhook configurations name the Service (a namePrefix or namespace
// of an overlay follows it), as kubebuilder's config/webhook/kustomizeconfig.yaml does.
Yaml webhook_kustomizeconfig() {
  Yaml name_refs = Yaml::seq();
  Yaml namespaces = Yaml::seq();
  Yaml field_specs = Yaml::seq();
  for (const char* kind : {"MutatingWebhookConfiguration", "ValidatingWebhookConfiguration"}) {
    Yaml name_spec = Yaml::map();
    name_spec.set("kind", kind);
    name_spec.set("group", "admissionregistration.k8s.io");
    name_spec.set("path", "webhooks/clientConfig/service/name");
    field_specs.push(std::move(name_spec));
    Yaml ns_spec = Yaml::map();
    ns_spec.set("kind", kind);
    ns_spec.set("group", "admissionregistration.k8s.io");
    ns_spec.set("path", "webhooks/clientConfig/service/namespace");
    ns_spec.set("create", Yaml::boolean(true));
    namespaces.push(std::move(ns_spec));
  }
  Yaml service_ref = Yaml::map();
  service_ref.set("kind", "Service");
  service_ref.set("version", "v1");
  service_ref.set("fieldSpecs", std::move(field_specs));
  name_refs.push(std::move(service_ref));
  Yaml doc = Yaml::map();
  doc.set("nameReference", std::move(name_refs));
  doc.set("namespace", std::move(namespaces));
  return doc;
}

Yaml certificates_kustomizeconfig() {
  Yaml field_spec = Yaml::map();
  field_spec.set("kind", "Certificate");
  field_spec.set("group", "cert-manager.io");
  field_spec.set("path", "spec/issuerRef/name");
  Yaml issuer = Yaml::map();
  issuer.set("kind", "Issuer");
  issuer.set("group", "cert-manager.io");
  issuer.set("fieldSpecs", Yaml::seq().push(std::move(field_spec)));
  Yaml doc = Yaml::map();
  doc.set("nameReference", Yaml::seq().push(std::move(issuer)));
  return doc;
}

Yaml kustomization_with_configurations(const std::vector<std::string>& resources) {
  Yaml k = kustomization(resources);
  k.set("configurations", Yaml::strings({"kustomizeconfig.yaml"}));
  return k;
}

std::vector<Yaml> certificates(const DeployNames& d, const WebhookDeployNames& n) {
  Yaml issuer_meta = Yaml::map();
  issuer_meta.set("labels", app_labels(d));
  issuer_meta.set("name", n.issuer);
  issuer_meta.set("namespace", d.namespace_);
  Yaml issuer = object("cert-manager.io/v1", "Issuer", std::move(issuer_meta));
  Yaml issuer_spec = Yaml::map();
  issuer_spec.set("selfSigned", Yaml::map());
  issuer.set("spec", std::move(issuer_spec));

  Yaml cert_meta = Yaml::map();
  cert_meta.set("labels", app_labels(d));
  cert_meta.set("name", n.certificate);
  cert_meta.set("namespace", d.namespace_);
  Yaml cert = object("cert-manager.io/v1", "Certificate", std::move(cert_meta));
  Yaml issuer_ref = Yaml::map();
  issuer_ref.set("kind", "Issuer");
  issuer_ref.set("name", n.issuer);
  Yaml cert_spec = Yaml::map();
  cert_spec.set("dnsNames", Yaml::strings({n.service + "." + d.namespace_ + ".svc",
                                           n.service + "." + d.namespace_ + ".svc.cluster.local"}));
  cert_spec.set("issuerRef", std::move(issuer_ref));
  cert_spec.set("secretName", n.secret);
  cert.set("spec", std::move(cert_spec));
  return {std::move(issuer), std::move(cert)};
}

std::string crd_name(const ResolvedSpec& spec) { return spec.resource.plural + "." + spec.resource.group; }

Yaml crd_patch(const ResolvedSpec& spec, Yaml metadata_extra, Yaml spec_part) {
  Yaml meta = Yaml::map();
  if (!metadata_extra.empty()) meta.set("annotations", std::move(metadata_extra));
  meta.set("name", crd_name(spec));
  Yaml doc = object("apiextensions.k8s.io/v1", "CustomResourceDefinition", std::move(meta));
  if (!spec_part.empty()) doc.set("spec", std::move(spec_part));
  return doc;
}

Yaml conversion_patch(const ResolvedSpec& spec, const DeployNames& d, const WebhookDeployNames& n) {
  Yaml webhook = Yaml::map();
  webhook.set("clientConfig", service_ref(d, n, spec.webhooks->conversion->path));
  webhook.set("conversionReviewVersions", Yaml::strings({"v1"}));
  Yaml conversion = Yaml::map();
  conversion.set("strategy", "Webhook");
  conversion.set("webhook", std::move(webhook));
  Yaml crd_spec = Yaml::map();
  crd_spec.set("conversion", std::move(conversion));
  return crd_patch(spec, Yaml::map(), std::move(crd_spec));
}

// The manager container's webhook port and the serving certificate, mounted read-only where the
// manager's --webhook-cert-dir looks by default.
Yaml manager_patch(const DeployNames& d, const WebhookDeployNames& n) {
  Yaml port = Yaml::map();
  port.set("containerPort", Yaml::integer(kWebhookPort));
  port.set("name", "webhook-server");
  port.set("protocol", "TCP");
  Yaml mount = Yaml::map();
  mount.set("mountPath", std::string(kWebhookCertDir));
  mount.set("name", "webhook-cert");
  mount.set("readOnly", Yaml::boolean(true));
  Yaml container = Yaml::map();
  container.set("name", "manager");
  container.set("ports", Yaml::seq().push(std::move(port)));
  container.set("volumeMounts", Yaml::seq().push(std::move(mount)));
  Yaml secret = Yaml::map();
  secret.set("defaultMode", Yaml::integer(420));
  secret.set("secretName", n.secret);
  Yaml volume = Yaml::map();
  volume.set("name", "webhook-cert");
  volume.set("secret", std::move(secret));
  Yaml pod = Yaml::map();
  pod.set("containers", Yaml::seq().push(std::move(container)));
  pod.set("volumes", Yaml::seq().push(std::move(volume)));
  Yaml pod_template = Yaml::map();
  pod_template.set("spec", std::move(pod));
  Yaml deploy_spec = Yaml::map();
  deploy_spec.set("template", std::move(pod_template));
  Yaml meta = Yaml::map();
  meta.set("name", d.deployment);
  meta.set("namespace", d.namespace_);
  Yaml doc = object("apps/v1", "Deployment", std::move(meta));
  doc.set("spec", std::move(deploy_spec));
  return doc;
}

bool has_admission(const ResolvedSpec& spec) {
  return spec.webhooks && (spec.webhooks->defaulting || spec.webhooks->validation);
}
bool has_conversion(const ResolvedSpec& spec) { return spec.webhooks && spec.webhooks->conversion; }

}  // namespace
}  // namespace webhook_config

std::vector<std::string> webhook_crd_patches(const ResolvedSpec& spec) {
  if (!webhook_config::has_conversion(spec)) return {};
  return {"patches/webhook_in_" + spec.resource.plural + ".yaml",
          "patches/cainjection_in_" + spec.resource.plural + ".yaml"};
}

std::vector<std::string> webhook_default_resources(const ResolvedSpec& spec) {
  if (!spec.webhooks) return {};
  return {"../webhook", "../certmanager"};
}

std::vector<std::string> webhook_default_patches(const ResolvedSpec& spec) {
  if (!spec.webhooks) return {};
  return {"manager_webhook_patch.yaml"};
}

void emit_webhook_config(const ResolvedSpec& spec, OutputSet& out) {
  using namespace webhook_config;
  if (!spec.webhooks) return;
  const DeployNames d = deploy_names(spec);
  const WebhookDeployNames n = names_of(d);
  const ResolvedWebhooks& w = *spec.webhooks;

  // The Service and the certificate serve the conversion webhook too, so they exist whenever a
  // webhook does; the configurations only for admission webhooks.
  std::vector<std::string> webhook_resources;
  if (has_admission(spec)) {
    std::vector<Yaml> configurations;
    if (w.defaulting)
      configurations.push_back(webhook_configuration("MutatingWebhookConfiguration", n.mutating, n,
                                                     webhook_entry(spec, d, n, *w.defaulting)));
    if (w.validation)
      configurations.push_back(webhook_configuration("ValidatingWebhookConfiguration", n.validating, n,
                                                     webhook_entry(spec, d, n, *w.validation)));
    out.files.push_back(
        {"config/webhook/manifests.yaml",
         manifest_file(configurations, "The admission webhooks of reconciler.yaml's webhooks:, served by the "
                                       "manager on port 9443 behind " +
                                           n.service + ".")});
    webhook_resources.push_back("manifests.yaml");
  }
  webhook_resources.push_back("service.yaml");
  out.files.push_back({"config/webhook/service.yaml",
                       manifest_file({service(d, n)}, "The manager's webhook server (port 9443) for the API server.")});
  out.files.push_back(
      {"config/webhook/kustomization.yaml", manifest_file({kustomization_with_configurations(webhook_resources)})});
  out.files.push_back(
      {"config/webhook/kustomizeconfig.yaml",
       manifest_file({webhook_kustomizeconfig()},
                     "Where kustomize finds the Service's name and namespace in the webhook configurations.")});

  out.files.push_back({"config/certmanager/certificate.yaml",
                       manifest_file(certificates(d, n), "A self-signed serving certificate for " + n.service +
                                                             " (cert-manager), in the Secret the manager mounts; "
                                                             "cert-manager injects its CA where "
                                                             "cert-manager.io/inject-ca-from names it.")});
  out.files.push_back({"config/certmanager/kustomization.yaml",
                       manifest_file({kustomization_with_configurations({"certificate.yaml"})})});
  out.files.push_back(
      {"config/certmanager/kustomizeconfig.yaml",
       manifest_file({certificates_kustomizeconfig()}, "Where kustomize finds the Issuer's name in the Certificate.")});

  if (has_conversion(spec)) {
    out.files.push_back(
        {"config/crd/patches/webhook_in_" + spec.resource.plural + ".yaml",
         manifest_file({conversion_patch(spec, d, n)},
                       "The CRD's conversion webhook (conversion: {hub: " + w.conversion->hub.version + "}).")});
    out.files.push_back(
        {"config/crd/patches/cainjection_in_" + spec.resource.plural + ".yaml",
         manifest_file({crd_patch(spec, inject_ca(n), Yaml::map())},
                       "cert-manager injects the serving certificate's CA into the conversion webhook.")});
  }
  out.files.push_back({"config/default/manager_webhook_patch.yaml",
                       manifest_file({manager_patch(d, n)}, "The manager's webhook port and serving certificate.")});
}

}  // namespace rrgen
