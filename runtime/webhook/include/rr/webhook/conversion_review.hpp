// apiextensions.k8s.io/v1 ConversionReview: the API server asks a CRD's conversion webhook to
// convert objects to `desired_api_version`; the webhook answers with the converted objects, in
// order, or a failure.
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rr/client/api_error.hpp"
#include "rr/core/json.hpp"
#include "rr/webhook/review_error.hpp"

namespace rr::webhook {

struct ConversionRequest {
  std::string uid;
  std::string desired_api_version;
  std::vector<Json> objects;
  bool operator==(const ConversionRequest&) const = default;
};

struct ConversionResponse {
  std::string uid;
  std::vector<Json> converted_objects;
  std::optional<Status> failure;  // result.status "Failure" with its message; none: "Success"
  bool operator==(const ConversionResponse&) const = default;
};

// Decoders throw ReviewError on a body that is not a ConversionReview of apiextensions.k8s.io/v1.
ConversionRequest decode_conversion_review_request(std::string_view body);
std::string encode_conversion_review_response(const ConversionResponse& response);
std::string encode_conversion_review_request(const ConversionRequest& request);
ConversionResponse decode_conversion_review_response(std::string_view body);

}  // namespace rr::webhook
