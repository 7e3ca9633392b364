#include <doctest/doctest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "rr/webhook/conversion_review.hpp"

using rr::Json;
using namespace rr::webhook;

namespace {

constexpr std::string_view request_review = R"({
  "apiVersion": "apiextensions.k8s.io/v1",
  "kind": "ConversionReview",
  "request": {
    "uid": "705ab4f5-6393-11e8-b7cc-42010a800002",
    "desiredAPIVersion": "example.com/v1",
    "objects": [
      {"kind": "CronTab", "apiVersion": "example.com/v1beta1", "metadata": {"name": "local-crontab", "namespace": "default"},
       "hostPort": "localhost:1234"},
      {"kind": "CronTab", "apiVersion": "example.com/v1beta1", "metadata": {"name": "remote-crontab"},
       "hostPort": "example.com:2345"}
    ]
  }
})";

std::string request_error(std::string_view body) {
  try {
    (void)decode_conversion_review_request(body);
  } catch (const ReviewError& e) {
    return e.what();
  }
  return "(decoded)";
}

std::string conversion_response_error(std::string_view body) {
  try {
    (void)decode_conversion_review_response(body);
  } catch (const ReviewError& e) {
    return e.what();
  }
  return "(decoded)";
}

}  // namespace

TEST_CASE("a ConversionReview request decodes uid, desired version and the objects in order") {
  const ConversionRequest request = decode_conversion_review_request(request_review);
  CHECK(request.uid == "705ab4f5-6393-11e8-b7cc-42010a800002");
  CHECK(request.desired_api_version == "example.com/v1");
  REQUIRE(request.objects.size() == 2);
  CHECK(request.objects[0]["metadata"]["name"] == "local-crontab");
  CHECK(request.objects[1]["hostPort"] == "example.com:2345");
  CHECK(decode_conversion_review_request(encode_conversion_review_request(request)) == request);
}

TEST_CASE("a successful conversion response has result Success and the converted objects") {
  ConversionResponse response{
      .uid = "u1", .converted_objects = {Json{{"apiVersion", "example.com/v1"}}}, .failure = {}};
  const Json wire = Json::parse(encode_conversion_review_response(response));
  CHECK(wire == Json::parse(R"({"apiVersion":"apiextensions.k8s.io/v1","kind":"ConversionReview",
    "response":{"uid":"u1","convertedObjects":[{"apiVersion":"example.com/v1"}],
                "result":{"metadata":{},"status":"Success"}}})"));
  CHECK(decode_conversion_review_response(wire.dump()) == response);
}

TEST_CASE("a failed conversion response has result Failure with the message and no objects") {
  ConversionResponse response;
  response.uid = "u1";
  response.failure.emplace().message = "cannot convert";
  const Json wire = Json::parse(encode_conversion_review_response(response));
  CHECK(wire["response"] == Json::parse(R"({"uid":"u1","convertedObjects":[],
    "result":{"metadata":{},"status":"Failure","message":"cannot convert"}})"));
  CHECK(decode_conversion_review_response(wire.dump()) == response);
}

TEST_CASE("a failure carries no objects, whatever the response says") {
  const ConversionResponse response = decode_conversion_review_response(R"({"apiVersion":"apiextensions.k8s.io/v1",
    "kind":"ConversionReview","response":{"uid":"u","convertedObjects":[{}],"result":{"status":"Failure","message":"m"}}})");
  REQUIRE(response.failure);
  CHECK(response.failure->message == "m");
  CHECK(response.converted_objects.empty());
}

TEST_CASE("bad ConversionReviews are refused saying what and where") {
  CHECK(
      request_error(R"({"apiVersion":"apiextensions.k8s.io/v1beta1","kind":"ConversionReview"})") ==
      R"(ConversionReview: expected apiVersion "apiextensions.k8s.io/v1" and kind "ConversionReview", got apiVersion "apiextensions.k8s.io/v1beta1" and kind "ConversionReview")");
  CHECK(request_error(R"({"apiVersion":"apiextensions.k8s.io/v1","kind":"ConversionReview","request":[]})") ==
        "ConversionReview: request: expected an object, got array");
  CHECK(
      request_error(
          R"({"apiVersion":"apiextensions.k8s.io/v1","kind":"ConversionReview","request":{"desiredAPIVersion":"v1"}})") ==
      "ConversionReview: request.uid is missing");
  CHECK(request_error(R"({"apiVersion":"apiextensions.k8s.io/v1","kind":"ConversionReview","request":{"uid":"u"}})") ==
        "ConversionReview: request.desiredAPIVersion is missing");
  CHECK(request_error(R"({"apiVersion":"apiextensions.k8s.io/v1","kind":"ConversionReview",
    "request":{"uid":"u","desiredAPIVersion":"v1","objects":[{},3]}})") ==
        "ConversionReview: request.objects[1]: expected an object, got number");
  CHECK(conversion_response_error(R"({"apiVersion":"apiextensions.k8s.io/v1","kind":"ConversionReview",
    "response":{"uid":"u","convertedObjects":[]}})") ==
        R"(ConversionReview: response.result.status: expected "Success" or "Failure", got "")");
}
