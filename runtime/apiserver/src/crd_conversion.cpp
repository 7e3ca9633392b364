#include "crd_conversion.hpp"

#include <atomic>

#include "rr/webhook/conversion_review.hpp"

namespace rr::apiserver_detail {

namespace {

std::string api_version_of(const Json& object) {
  auto it = object.find("apiVersion");
  return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

std::string meta_text(const Json& object, const char* key) {
  auto meta = object.find("metadata");
  if (meta == object.end() || !meta->is_object()) return {};
  auto it = meta->find(key);
  return it != meta->end() && it->is_string() ? it->get<std::string>() : std::string();
}

// Go's %v of a schema.GroupVersionKind: "stable.example.com/v1, Kind=CronTab".
std::string gvk_text(const std::string& api_version, const std::string& kind) { return api_version + ", Kind=" + kind; }

// The API server answers an error of its storage codec as a Status without a reason.
[[noreturn]] void conversion_failed(const std::string& message) {
  Status s;
  s.message = message;
  s.code = 500;
  throw ApiError(std::move(s));
}

// validateConvertedObject: the webhook may not change what identifies the object.
std::string identity_change(const Json& in, const Json& out) {
  if (in.value("kind", "") != out.value("kind", "")) {
    return "must have the same kind: " + in.value("kind", "") + " != " + out.value("kind", "");
  }
  for (const char* field : {"name", "namespace", "uid"}) {
    if (meta_text(in, field) != meta_text(out, field)) {
      std::string upper = field;
      upper = upper == "uid" ? "UID" : upper;
      return "must have the same " + upper + ": " + meta_text(in, field) + " != " + meta_text(out, field);
    }
  }
  return {};
}

// restoreObjectMeta: the original metadata, with the converted labels and annotations.
void restore_metadata(const Json& original, Json& converted) {
  Json meta = original.value("metadata", Json::object());
  const Json returned = converted.value("metadata", Json::object());
  for (const char* field : {"labels", "annotations"}) {
    if (auto it = returned.find(field); it != returned.end() && !it->is_null()) meta[field] = *it;
    else meta.erase(field);
  }
  converted["metadata"] = std::move(meta);
}

std::atomic<std::uint64_t> next_uid{0};

thread_local const std::string* requested_version = nullptr;

}  // namespace

RequestedVersionScope::RequestedVersionScope(std::string version)
    : version_(std::move(version)), previous_(requested_version) {
  requested_version = &version_;
}

RequestedVersionScope::~RequestedVersionScope() { requested_version = previous_; }

const std::string* RequestedVersionScope::current() { return requested_version; }

std::optional<CrdConversion> crd_conversion(const Json& crd) {
  const Json versions = crd.value("/spec/versions"_json_pointer, Json::array());
  if (versions.size() < 2) return std::nullopt;
  CrdConversion out;
  out.group = crd.value("/spec/group"_json_pointer, std::string());
  out.kind = crd.value("/spec/names/kind"_json_pointer, std::string());
  for (const Json& version : versions) {
    if (version.value("storage", false)) out.storage_version = version.value("name", "");
  }
  if (out.storage_version.empty()) return std::nullopt;
  if (crd.value("/spec/conversion/strategy"_json_pointer, std::string("None")) == "Webhook") {
    try {
      out.webhook = webhook_client_config(crd.value("/spec/conversion/webhook/clientConfig"_json_pointer, Json()));
    } catch (const std::invalid_argument&) {
      out.webhook = WebhookClientConfig{};  // calls fail with the missing endpoint's error
    }
  }
  return out;
}

std::vector<Json> convert_objects(const CrdConversion& conversion, std::vector<Json> objects,
                                  const std::string& api_version, const StoreReader& store) {
  const ConversionPost post = [&](const std::string& review) {
    return call_webhook(*conversion.webhook, store, review, std::chrono::seconds(30));
  };
  return convert_objects(conversion, std::move(objects), api_version, post);
}

std::vector<Json> convert_objects(const CrdConversion& conversion, std::vector<Json> objects,
                                  const std::string& api_version, const ConversionPost& post) {
  std::vector<std::size_t> pending;
  for (std::size_t i = 0; i < objects.size(); ++i) {
    if (api_version_of(objects[i]) != api_version) pending.push_back(i);
  }
  if (pending.empty()) return objects;
  if (!conversion.webhook) {
    for (std::size_t i : pending) objects[i]["apiVersion"] = api_version;
    return objects;
  }
  // As the API server names it: the input's kind (a list's for a batch).
  const std::string from = gvk_text(api_version_of(objects[pending.front()]),
                                    objects.size() > 1 ? conversion.kind + "List" : conversion.kind);
  const std::string prefix = "conversion webhook for " + from;
  webhook::ConversionRequest request;
  request.uid = "rrgen-conversion-" + std::to_string(++next_uid);
  request.desired_api_version = api_version;
  for (std::size_t i : pending) request.objects.push_back(objects[i]);
  webhook::ConversionResponse response;
  try {
    const std::string body = post(webhook::encode_conversion_review_request(request));
    response = webhook::decode_conversion_review_response(body);
  } catch (const WebhookCallError& e) {
    conversion_failed(prefix + " failed: " + e.what());
  } catch (const std::exception& e) {
    conversion_failed(prefix + " failed: " + e.what());
  }
  if (response.uid != request.uid) {
    conversion_failed(prefix + " failed: expected response.uid=\"" + request.uid + "\", got \"" + response.uid + "\"");
  }
  if (response.failure) {
    conversion_failed(prefix + " failed: " +
                      (response.failure->message.empty()
                           ? std::string("response.result.status was 'Failure', not 'Success'")
                           : response.failure->message));
  }
  if (response.converted_objects.size() != pending.size()) {
    conversion_failed(prefix + " returned " + std::to_string(response.converted_objects.size()) +
                      " objects, expected " + std::to_string(pending.size()));
  }
  for (std::size_t n = 0; n < pending.size(); ++n) {
    Json& original = objects[pending[n]];
    Json converted = std::move(response.converted_objects[n]);
    const std::string at = objects.size() > 1 ? " at index " + std::to_string(n) : "";
    if (!converted.is_object() || api_version_of(converted) != api_version) {
      conversion_failed(prefix + " returned invalid " + (objects.size() > 1 ? "converted " : "") + "object" + at +
                        ": invalid groupVersion (expected " + api_version + ", received " +
                        (converted.is_object() ? api_version_of(converted) : "") + ")");
    }
    if (auto change = identity_change(original, converted); !change.empty()) {
      conversion_failed(prefix + " returned invalid " + (objects.size() > 1 ? "converted " : "") + "object" + at +
                        ": " + change);
    }
    restore_metadata(original, converted);
    original = std::move(converted);
  }
  return objects;
}

const Json* ClusterReader::find(const GroupVersionKind& gvk, const ObjectKey& key) const {
  auto kind = cluster_.find_kind(gvk);
  if (!kind) return nullptr;
  try {
    held_.push_back(std::make_unique<Json>(cluster_.get(*kind, key)));
  } catch (const ApiError&) {
    return nullptr;
  }
  return held_.back().get();
}

std::vector<const Json*> ClusterReader::all(const GroupVersionKind& gvk) const {
  std::vector<const Json*> out;
  auto kind = cluster_.find_kind(gvk);
  if (!kind) return out;
  const Json list = cluster_.list(*kind, ListOptions{});
  for (const Json& item : list["items"]) {
    held_.push_back(std::make_unique<Json>(item));
    out.push_back(held_.back().get());
  }
  return out;
}

}  // namespace rr::apiserver_detail
