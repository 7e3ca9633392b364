// apiextensions.k8s.io/v1 ConversionReview, both directions (see conversion_review.hpp).
#include "rr/webhook/conversion_review.hpp"

#include <nlohmann/json.hpp>

#include "review_fields.hpp"

namespace rr::webhook {
namespace {

constexpr std::string_view kConversionApiVersion = "apiextensions.k8s.io/v1";
constexpr std::string_view kConversionReviewKind = "ConversionReview";

std::string wrap_conversion(const char* section_name, Json body) {
  Json review = {{"apiVersion", kConversionApiVersion}, {"kind", kConversionReviewKind}};
  review[section_name] = std::move(body);
  return review.dump();
}

}  // namespace

ConversionRequest decode_conversion_review_request(std::string_view body) {
  const Json section = review::open_review(body, kConversionApiVersion, kConversionReviewKind, "request");
  const review::Fields fields(section, "ConversionReview: request");
  ConversionRequest request;
  request.uid = fields.required_string("uid");
  request.desired_api_version = fields.required_string("desiredAPIVersion");
  request.objects = fields.objects("objects");
  return request;
}

std::string encode_conversion_review_request(const ConversionRequest& request) {
  return wrap_conversion(
      "request",
      {{"uid", request.uid}, {"desiredAPIVersion", request.desired_api_version}, {"objects", request.objects}});
}

std::string encode_conversion_review_response(const ConversionResponse& response) {
  Json json = {{"uid", response.uid}};
  if (response.failure) {
    json["convertedObjects"] = Json::array();
    json["result"] = review::status_json(*response.failure, "Failure");
  } else {
    json["convertedObjects"] = response.converted_objects;
    json["result"] = {{"metadata", Json::object()}, {"status", "Success"}};
  }
  return wrap_conversion("response", std::move(json));
}

ConversionResponse decode_conversion_review_response(std::string_view body) {
  const Json section = review::open_review(body, kConversionApiVersion, kConversionReviewKind, "response");
  const review::Fields fields(section, "ConversionReview: response");
  ConversionResponse response;
  response.uid = fields.required_string("uid");
  response.converted_objects = fields.objects("convertedObjects");
  const auto result = fields.nested("result");
  const std::string outcome = result ? result->string("status") : std::string();
  if (outcome == "Failure") {
    response.failure = review::status_of(*fields.object("result"));
    response.converted_objects.clear();  // the API server reads none from a failure
  } else if (outcome != "Success") {
    fields.fail("result.status", "expected \"Success\" or \"Failure\", got \"" + outcome + "\"");
  }
  return response;
}

}  // namespace rr::webhook
