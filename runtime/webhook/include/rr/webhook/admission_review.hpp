// admission.k8s.io/v1 AdmissionReview: the request the API server posts to an admission webhook
// and the response the webhook sends back, both directions (the webhook decodes requests and
// encodes responses; the local cluster, acting as the API server, does the opposite).
#pragma once
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rr/client/api_error.hpp"
#include "rr/client/kind.hpp"
#include "rr/core/json.hpp"
#include "rr/webhook/review_error.hpp"

namespace rr::webhook {

enum class Operation { Create, Update, Delete, Connect };
std::string_view operation_name(Operation);  // "CREATE", "UPDATE", "DELETE", "CONNECT"

struct GroupVersionResource {
  std::string group, version, resource;
  bool operator==(const GroupVersionResource&) const = default;
};

struct UserInfo {
  std::string username, uid;
  std::vector<std::string> groups;
  std::map<std::string, std::vector<std::string>> extra;
  bool operator==(const UserInfo&) const = default;
};

struct AdmissionRequest {
  std::string uid;
  GroupVersionKind kind;
  GroupVersionResource resource;
  std::string sub_resource;
  std::optional<GroupVersionKind> request_kind;
  std::optional<GroupVersionResource> request_resource;
  std::string request_sub_resource;
  std::string name;
  std::string namespace_;
  Operation operation = Operation::Create;
  UserInfo user_info;
  Json object;      // null when absent (DELETE)
  Json old_object;  // null when absent (CREATE)
  bool dry_run = false;
  Json options;  // CreateOptions, UpdateOptions or DeleteOptions; null when absent
  bool operator==(const AdmissionRequest&) const = default;
};

struct AdmissionResponse {
  std::string uid;
  bool allowed = true;
  std::optional<Status> status;  // `status` on the wire (metav1.Status, no kind/apiVersion)
  Json patch;                    // an RFC 6902 array; null: no patch
  std::vector<std::string> warnings;
  std::map<std::string, std::string> audit_annotations;
  bool operator==(const AdmissionResponse&) const = default;
};

// The webhook's side. Decoding refuses (ReviewError) a body that is not JSON, a review of another
// apiVersion or kind, a missing request or uid, and members of the wrong type.
AdmissionRequest decode_admission_review_request(std::string_view body);
// The patch goes out base64-encoded with patchType "JSONPatch".
std::string encode_admission_review_response(const AdmissionResponse& response);

// The API server's side.
std::string encode_admission_review_request(const AdmissionRequest& request);
// The patch comes back decoded from base64 and parsed; a patch without patchType "JSONPatch", or
// a patch that is not a JSON array, is a ReviewError (the API server refuses both).
AdmissionResponse decode_admission_review_response(std::string_view body);

}  // namespace rr::webhook
