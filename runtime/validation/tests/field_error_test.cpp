// field.Error's text: which types show their value, and how each constructor words its detail.
#include <doctest/doctest.h>

#include "rr/validation/field_error.hpp"

using namespace rr::validation;

TEST_CASE("each type's body as field.Error.ErrorBody writes it") {
  CHECK(invalid("spec.x", "a\"b", "bad").to_string() == R"(spec.x: Invalid value: "a\"b": bad)");
  CHECK(invalid_int("spec.n", -3, "must be greater than or equal to 0").to_string() ==
        "spec.n: Invalid value: -3: must be greater than or equal to 0");
  CHECK(required("metadata.namespace").to_string() == "metadata.namespace: Required value");
  CHECK(required("metadata.name", "name or generateName is required").body() ==
        "Required value: name or generateName is required");
  CHECK(forbidden("metadata.namespace", "not allowed on this type").to_string() ==
        "metadata.namespace: Forbidden: not allowed on this type");
  CHECK(too_long("metadata.annotations", 262144).to_string() ==
        "metadata.annotations: Too long: may not be more than 262144 bytes");
  CHECK(too_long("x", 1).body() == "Too long: may not be more than 1 byte");
  CHECK(too_many("spec.items", 12, 10).to_string() == "spec.items: Too many: 12: must have at most 10 items");
  CHECK(too_many("spec.items", -1, 1).body() == "Too many: must have at most 1 item");
  CHECK(duplicate("spec.ports[1].name", "http").to_string() == R"(spec.ports[1].name: Duplicate value: "http")");
  CHECK(not_supported("spec.protocol", "udp", {"SCTP", "TCP", "UDP"}).to_string() ==
        R"(spec.protocol: Unsupported value: "udp": supported values: "SCTP", "TCP", "UDP")");
}

TEST_CASE("to_core keeps path and type and carries the full text") {
  const rr::FieldError core = invalid("metadata.name", "Foo", "detail").to_core();
  CHECK(core.path == "metadata.name");
  CHECK(core.type == rr::FieldErrorType::Invalid);
  CHECK(core.message == R"(metadata.name: Invalid value: "Foo": detail)");
  CHECK(to_core({required("a"), forbidden("b", "c")}).size() == 2);
}
