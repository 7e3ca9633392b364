#include "sema/spec_webhooks_resolve.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include "load/spec_reader.hpp"
#include "sema/builtin_kinds.hpp"
#include "sema/spec_resolve.hpp"

namespace rrgen {
namespace webhooks_resolve {
namespace {

std::string quote(std::string_view s) { return "'" + std::string(s) + "'"; }

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

// "v1, v1beta1 and v1alpha1"
std::string versions_text(const std::vector<ResolvedKind>& kinds) {
  std::string out;
  for (std::size_t i = 0; i < kinds.size(); ++i)
    out += (i == 0 ? "" : i + 1 == kinds.size() ? " and " : ", ") + kinds[i].version;
  return out;
}

// The served versions of the resource's CRD, in the CRD's order (unserved versions have no unit).
std::vector<ResolvedKind> served_versions(const ResolvedKind& resource, const Model& crds) {
  std::vector<ResolvedKind> out;
  for (const auto& unit : crds.units) {
    if (unit->kind && unit->kind->served && unit->kind->group == resource.group && unit->kind->kind == resource.kind)
      out.push_back(resolved_kind_of(*unit, false));
  }
  return out;
}

// kubebuilder's path and name: /mutate-<group, '.' as '-'>-<version>-<kind lower case>, and
// m<kind>-<version>.<group> (kubebuilder ends names in its own .kb.io; the group is the CRD's own
// domain, so two operators' webhooks never share a name).
ResolvedAdmissionWebhook admission(const SpecAdmissionWebhook& w, const ResolvedKind& resource, bool mutating) {
  ResolvedAdmissionWebhook out;
  out.location = w.location;
  const std::vector<SpecOperation> ops = w.operations.empty()
                                             ? std::vector<SpecOperation>{SpecOperation::Create, SpecOperation::Update}
                                             : w.operations;
  for (SpecOperation op : {SpecOperation::Create, SpecOperation::Update, SpecOperation::Delete}) {
    if (std::find(ops.begin(), ops.end(), op) == ops.end()) continue;
    out.operations.push_back(op == SpecOperation::Create   ? "CREATE"
                             : op == SpecOperation::Update ? "UPDATE"
                                                           : "DELETE");
  }
  out.failure_policy = w.failure_policy;
  out.side_effects = w.side_effects;
  out.timeout_seconds = w.timeout_seconds;
  std::string group = resource.group;
  std::replace(group.begin(), group.end(), '.', '-');
  const std::string kind = lower(resource.kind);
  out.path = !w.path.empty()
                 ? w.path
                 : std::string(mutating ? "/mutate-" : "/validate-") + group + "-" + resource.version + "-" + kind;
  out.name = std::string(mutating ? "m" : "v") + kind + "-" + resource.version + "." + resource.group;
  return out;
}

}  // namespace
}  // namespace webhooks_resolve

std::optional<ResolvedWebhooks> resolve_webhooks(const SpecWebhooks& webhooks, const ResolvedKind& resource,
                                                 const Model& crds, Diagnostics& diags) {
  using namespace webhooks_resolve;
  if (resource.builtin) {
    diags.error(webhooks.location, "spec-webhook-builtin",
                "webhooks need a CRD, and the resource " + kind_ref_text(resource) +
                    " is a built-in kind (the API server admits and converts it itself)");
    return std::nullopt;
  }
  ResolvedWebhooks out;
  out.location = webhooks.location;
  if (webhooks.defaulting) out.defaulting = admission(*webhooks.defaulting, resource, true);
  if (webhooks.validation) out.validation = admission(*webhooks.validation, resource, false);
  if (!webhooks.conversion) return out;

  const SpecConversionWebhook& c = *webhooks.conversion;
  const std::vector<ResolvedKind> served = served_versions(resource, crds);
  if (served.size() < 2) {
    diags.error(c.location, "spec-conversion-versions",
                "conversion needs at least two served versions, and the CRD of " + resource.kind + " (" +
                    resource.group + ") serves only " + versions_text(served));
    return std::nullopt;
  }
  auto hub = std::find_if(served.begin(), served.end(), [&](const ResolvedKind& k) { return k.version == c.hub; });
  if (hub == served.end()) {
    if (!c.hub.empty())
      diags.error(c.hub_location, "spec-unknown-hub",
                  "hub " + quote(c.hub) + " is not a served version of " + resource.kind + "; its CRD serves " +
                      versions_text(served));
    return std::nullopt;
  }
  ResolvedConversion conversion;
  conversion.location = c.location;
  conversion.hub = *hub;
  for (const ResolvedKind& k : served)
    if (k.version != c.hub) conversion.spokes.push_back(k);
  conversion.path = c.path.empty() ? "/convert" : c.path;
  out.conversion = std::move(conversion);
  return out;
}

}  // namespace rrgen
