// Conversion of custom resources between the served versions of their CRD, as the API server
// does it: objects are stored in the storage version and read, listed, watched and written in
// any served version. Strategy None changes apiVersion only; strategy Webhook sends a
// ConversionReview v1 to spec.conversion.webhook.clientConfig (one review per list), keeps the
// objects' metadata except labels and annotations, and checks what comes back.
#pragma once
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "rr/cluster/cluster.hpp"
#include "rr/core/json.hpp"
#include "webhook_client.hpp"

namespace rr::apiserver_detail {

struct CrdConversion {
  std::string group, kind;
  std::string storage_version;
  std::optional<WebhookClientConfig> webhook;  // nullopt: strategy None
};

// How a CRD converts; nullopt when it serves one version only (nothing ever converts).
std::optional<CrdConversion> crd_conversion(const Json& crd);

// Objects, each in its own apiVersion, in `api_version` (e.g. "stable.example.com/v1"), in the
// same order. A failure is the API server's 500 "conversion webhook for <group/version>,
// Kind=<kind> failed: <why>" (rr::ApiError).
std::vector<Json> convert_objects(const CrdConversion& conversion, std::vector<Json> objects,
                                  const std::string& api_version, const StoreReader& store);
// The same, with the ConversionReview posted by `post` (review in, response body out; throws
// WebhookCallError): the admission dispatcher resolves the webhook under the cluster's lock and
// posts without it.
using ConversionPost = std::function<std::string(const std::string& review)>;
std::vector<Json> convert_objects(const CrdConversion& conversion, std::vector<Json> objects,
                                  const std::string& api_version, const ConversionPost& post);

// The version a request for a custom resource named, while the conversion handler makes its
// cluster calls in the storage version (per thread, for the duration of the scope): admission
// webhooks match the request's version and get the object in the version they are called with.
class RequestedVersionScope {
 public:
  explicit RequestedVersionScope(std::string version);
  ~RequestedVersionScope();
  RequestedVersionScope(const RequestedVersionScope&) = delete;
  RequestedVersionScope& operator=(const RequestedVersionScope&) = delete;
  static const std::string* current();  // nullptr outside a scope

 private:
  std::string version_;
  const std::string* previous_;
};

// A StoreReader over the Cluster's verbs, for calls made outside the cluster's lock.
class ClusterReader : public StoreReader {
 public:
  explicit ClusterReader(const Cluster& cluster) : cluster_(cluster) {}
  const Json* find(const GroupVersionKind& gvk, const ObjectKey& key) const override;
  std::vector<const Json*> all(const GroupVersionKind& gvk) const override;

 private:
  const Cluster& cluster_;
  mutable std::vector<std::unique_ptr<Json>> held_;
};

}  // namespace rr::apiserver_detail
