// metav1.Status bodies, ApiError, the classification predicates and the API server's wording.
#include <doctest/doctest.h>

#include "rr/client/api_error.hpp"
#include "rr/core/errors.hpp"
#include "rr/core/json.hpp"

namespace {

using rr::Json;
using rr::Status;

Status status(std::string reason, std::int32_t code) {
  Status s;
  s.reason = std::move(reason);
  s.code = code;
  return s;
}

}  // namespace

TEST_CASE("Status::to_json writes the API server's body") {
  Status s;
  s.message = "Widget.example.dev \"foo\" is invalid: spec.replicas: Invalid value: 7: too many";
  s.reason = "Invalid";
  s.code = 422;
  s.details_name = "foo";
  s.details_group = "example.dev";
  s.details_kind = "Widget";
  s.details_uid = "u-1";
  s.retry_after_seconds = 3;
  s.causes = {{"FieldValueInvalid", "Invalid value: 7: too many", "spec.replicas"}, {"", "plain", ""}};
  const Json expected = Json::parse(R"({
    "kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Failure",
    "message": "Widget.example.dev \"foo\" is invalid: spec.replicas: Invalid value: 7: too many",
    "reason": "Invalid",
    "details": {
      "name": "foo", "group": "example.dev", "kind": "Widget", "uid": "u-1",
      "causes": [{"reason": "FieldValueInvalid", "message": "Invalid value: 7: too many", "field": "spec.replicas"},
                 {"message": "plain"}],
      "retryAfterSeconds": 3
    },
    "code": 422
  })");
  CHECK(s.to_json() == expected);
  CHECK(Status::from_json(s.to_json()) == s);
}

TEST_CASE("Status::to_json leaves out empty members, as Go's omitempty does") {
  CHECK(Status{}.to_json() == Json::parse(R"({"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure"})"));
  CHECK(rr::api_errors::bad_request("bad").to_json() ==
        Json::parse(R"({"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",
                        "message":"bad","reason":"BadRequest","code":400})"));
}

TEST_CASE("Status::from_json is tolerant") {
  CHECK(Status::from_json(Json::parse("[]")) == Status{});
  CHECK(Status::from_json(Json::parse("null")) == Status{});
  const Status s = Status::from_json(Json::parse(R"({
    "message": 5, "reason": "NotFound", "code": "404",
    "details": {"name": "n", "causes": [7, {"reason": "R", "field": 1}], "retryAfterSeconds": 99999999999}
  })"));
  CHECK(s.message.empty());
  CHECK(s.reason == "NotFound");
  CHECK(s.code == 0);
  CHECK(s.details_name == "n");
  REQUIRE(s.causes.size() == 1);
  CHECK(s.causes[0] == rr::StatusCause{"R", "", ""});
  CHECK_FALSE(s.retry_after_seconds.has_value());
  CHECK(Status::from_json(Json::parse(R"({"code":404,"details":"x"})")).code == 404);
}

TEST_CASE("ApiError carries the Status, and what() is the message") {
  const rr::ApiError e(rr::api_errors::not_found("widgets", "example.dev", "foo"));
  CHECK(std::string(e.what()) == "widgets.example.dev \"foo\" not found");
  CHECK(e.reason() == "NotFound");
  CHECK(e.code() == 404);
  CHECK(e.status().details_name == "foo");
  CHECK(std::string(rr::ApiError(status("Conflict", 409)).what()) == "Conflict");  // no message: the reason
}

TEST_CASE("predicates: reason first, the code only for unknown reasons") {
  struct Case {
    Status s;
    bool not_found, already_exists, conflict, invalid, forbidden, gone, bad_request;
  };
  const Case cases[] = {
      {status("NotFound", 404), true, false, false, false, false, false, false},
      {status("", 404), true, false, false, false, false, false, false},
      {status("Custom", 404), true, false, false, false, false, false, false},
      {status("NotFound", 500), true, false, false, false, false, false, false},
      {status("InternalError", 404), false, false, false, false, false, false, false},
      {status("AlreadyExists", 409), false, true, false, false, false, false, false},
      {status("Conflict", 409), false, false, true, false, false, false, false},
      {status("", 409), false, false, true, false, false, false, false},
      {status("AlreadyExists", 0), false, true, false, false, false, false, false},
      {status("Invalid", 422), false, false, false, true, false, false, false},
      {status("", 422), false, false, false, true, false, false, false},
      {status("Forbidden", 403), false, false, false, false, true, false, false},
      {status("", 403), false, false, false, false, true, false, false},
      {status("Gone", 410), false, false, false, false, false, true, false},
      {status("Expired", 410), false, false, false, false, false, true, false},
      {status("", 410), false, false, false, false, false, true, false},
      {status("BadRequest", 400), false, false, false, false, false, false, true},
      {status("", 400), false, false, false, false, false, false, true},
      {status("MethodNotAllowed", 400), false, false, false, false, false, false, false},
      {status("", 500), false, false, false, false, false, false, false},
  };
  for (const Case& c : cases) {
    CAPTURE(c.s.reason);
    CAPTURE(c.s.code);
    CHECK(rr::is_not_found(c.s) == c.not_found);
    CHECK(rr::is_already_exists(c.s) == c.already_exists);
    CHECK(rr::is_conflict(c.s) == c.conflict);
    CHECK(rr::is_invalid(c.s) == c.invalid);
    CHECK(rr::is_forbidden(c.s) == c.forbidden);
    CHECK(rr::is_gone(c.s) == c.gone);
    CHECK(rr::is_bad_request(c.s) == c.bad_request);
  }
}

TEST_CASE("api_errors: not_found, already_exists, conflict") {
  const Status nf = rr::api_errors::not_found("widgets", "example.dev", "foo");
  CHECK(nf.message == "widgets.example.dev \"foo\" not found");
  CHECK(nf.reason == "NotFound");
  CHECK(nf.code == 404);
  CHECK(nf.details_kind == "widgets");
  CHECK(nf.details_group == "example.dev");
  CHECK(nf.details_name == "foo");
  CHECK(rr::api_errors::not_found("widgets.example.dev", "example.dev", "foo") == nf);  // qualified resource
  CHECK(rr::api_errors::not_found("configmaps", "", "cm").message == "configmaps \"cm\" not found");
  CHECK(rr::api_errors::not_found("configmaps", "", "a\"b\\c\n").message == R"(configmaps "a\"b\\c\n" not found)");

  const Status ae = rr::api_errors::already_exists("widgets", "example.dev", "foo");
  CHECK(ae.message == "widgets.example.dev \"foo\" already exists");
  CHECK(ae.reason == "AlreadyExists");
  CHECK(ae.code == 409);
  CHECK(ae.details_kind == "widgets");

  const Status c =
      rr::api_errors::conflict("widgets", "example.dev", "foo", rr::api_errors::optimistic_lock_message);
  CHECK(c.message ==
        "Operation cannot be fulfilled on widgets.example.dev \"foo\": the object has been modified; please apply "
        "your changes to the latest version and try again");
  CHECK(c.reason == "Conflict");
  CHECK(c.code == 409);
  CHECK(c.details_kind == "widgets");
  CHECK(c.details_group == "example.dev");
  CHECK(c.details_name == "foo");
}

TEST_CASE("api_errors::invalid: Kind in details, causes carry the error body") {
  const Status one = rr::api_errors::invalid(
      "Widget", "example.dev", "foo",
      {{"FieldValueInvalid", "spec.replicas: Invalid value: 7: must be less than or equal to 5", "spec.replicas"}});
  CHECK(one.message ==
        "Widget.example.dev \"foo\" is invalid: spec.replicas: Invalid value: 7: must be less than or equal to 5");
  CHECK(one.reason == "Invalid");
  CHECK(one.code == 422);
  CHECK(one.details_kind == "Widget");
  CHECK(one.details_group == "example.dev");
  CHECK(one.details_name == "foo");
  REQUIRE(one.causes.size() == 1);
  CHECK(one.causes[0] ==
        rr::StatusCause{"FieldValueInvalid", "Invalid value: 7: must be less than or equal to 5", "spec.replicas"});

  const Status many = rr::api_errors::invalid(
      "ConfigMap", "", "cm",
      {{"FieldValueRequired", "metadata.name: Required value", "metadata.name"},
       {"FieldValueInvalid", "Invalid value: \"x\": bad", "data.k"},  // a bare body gets its field prefixed
       {"FieldValueRequired", "metadata.name: Required value", "metadata.name"}});
  CHECK(many.message ==
        "ConfigMap \"cm\" is invalid: [metadata.name: Required value, data.k: Invalid value: \"x\": bad]");
  REQUIRE(many.causes.size() == 3);
  CHECK(many.causes[0].message == "Required value");
  CHECK(many.causes[1].message == "Invalid value: \"x\": bad");

  CHECK(rr::api_errors::invalid("Widget", "example.dev", "foo", {}).message == "Widget.example.dev \"foo\" is invalid");
}

TEST_CASE("api_errors::causes_of turns FieldErrors into causes") {
  const std::vector<rr::FieldError> errors = {
      {"spec.a", rr::FieldErrorType::Required, "spec.a: Required value"},
      {"spec.b", rr::FieldErrorType::NotSupported, "spec.b: Unsupported value: \"x\""},
      {"spec.c", rr::FieldErrorType::TooLong, "spec.c: Too long"},
      {"spec.d", rr::FieldErrorType::TooMany, "spec.d: Too many"},
      {"spec.e", rr::FieldErrorType::Duplicate, "spec.e: Duplicate value"},
      {"spec.f", rr::FieldErrorType::Forbidden, "spec.f: Forbidden"},
      {"spec.g", rr::FieldErrorType::Invalid, "spec.g: Invalid value"},
  };
  const auto causes = rr::api_errors::causes_of(errors);
  REQUIRE(causes.size() == 7);
  CHECK(causes[0] == rr::StatusCause{"FieldValueRequired", "spec.a: Required value", "spec.a"});
  CHECK(causes[1].type == "FieldValueNotSupported");
  CHECK(causes[2].type == "FieldValueTooLong");
  CHECK(causes[3].type == "FieldValueTooMany");
  CHECK(causes[4].type == "FieldValueDuplicate");
  CHECK(causes[5].type == "FieldValueForbidden");
  CHECK(causes[6].type == "FieldValueInvalid");
  const Status s = rr::api_errors::invalid("Widget", "example.dev", "w", causes);
  CHECK(s.message.find("is invalid: [spec.a: Required value, spec.b: Unsupported value: \"x\", ") != std::string::npos);
  CHECK(s.causes[0].message == "Required value");
}

TEST_CASE("api_errors: the other builders") {
  const Status bad = rr::api_errors::bad_request("the server rejected our request");
  CHECK(bad.code == 400);
  CHECK(bad.reason == "BadRequest");
  CHECK(bad.message == "the server rejected our request");

  const Status f = rr::api_errors::forbidden("widgets", "example.dev", "foo", "User \"bob\" cannot get resource");
  CHECK(f.code == 403);
  CHECK(f.reason == "Forbidden");
  CHECK(f.message == "widgets.example.dev \"foo\" is forbidden: User \"bob\" cannot get resource");
  CHECK(f.details_kind == "widgets");
  CHECK(rr::api_errors::forbidden("widgets", "example.dev", "", "no").message == "widgets.example.dev is forbidden: no");
  CHECK(rr::api_errors::forbidden("", "", "", "no").message == "forbidden: no");

  const Status g = rr::api_errors::gone("too old resource version: 5 (10)");
  CHECK(g.code == 410);
  CHECK(g.reason == "Expired");
  CHECK(rr::is_gone(g));

  const Status m = rr::api_errors::method_not_supported("widgets.example.dev", "deletecollection");
  CHECK(m.code == 405);
  CHECK(m.reason == "MethodNotAllowed");
  CHECK(m.message == "deletecollection is not supported on resources of kind \"widgets.example.dev\"");
  CHECK(m.details_kind == "widgets");
  CHECK(m.details_group == "example.dev");
  CHECK(rr::api_errors::method_not_supported("pods", "watch").details_group.empty());

  const Status u = rr::api_errors::unsupported_media_type("application/strategic-merge-patch+json");
  CHECK(u.code == 415);
  CHECK(u.reason == "UnsupportedMediaType");
  CHECK(u.message ==
        "the body of the request was in an unknown format - accepted media types include: "
        "application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml");
  CHECK(rr::api_errors::unsupported_media_type(std::vector<std::string>{"application/json", "application/yaml"}).message ==
        "the body of the request was in an unknown format - accepted media types include: application/json, "
        "application/yaml");

  const Status i = rr::api_errors::internal_error("disk on fire");
  CHECK(i.code == 500);
  CHECK(i.reason == "InternalError");
  CHECK(i.message == "Internal error occurred: disk on fire");
  REQUIRE(i.causes.size() == 1);
  CHECK(i.causes[0].message == "disk on fire");
}
