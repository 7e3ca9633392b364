// rr::testing::JsonValue: an rr::Json held by value behind a pointer, so the harness headers a
// test unit includes need rr::Json only declared (rr/core/fwd.hpp) and parse none of nlohmann's
// templates; copies are deep, and copying, moving and destroying happen in the rr_testing library.
// Code that reads or builds the document includes rr/core/json.hpp. A moved-from JsonValue holds
// nothing: assign to it or destroy it.
#pragma once
#include <memory>

#include "rr/core/fwd.hpp"

namespace rr::testing {

class JsonValue {
 public:
  JsonValue();            // null
  JsonValue(Json value);  // NOLINT(google-explicit-constructor): a document converts
  JsonValue(const JsonValue& other);
  JsonValue(JsonValue&& other) noexcept;
  JsonValue& operator=(const JsonValue& other);
  JsonValue& operator=(JsonValue&& other) noexcept;
  ~JsonValue();

  const Json& get() const noexcept { return *value_; }
  Json& get() noexcept { return *value_; }

 private:
  std::unique_ptr<Json> value_;
};

}  // namespace rr::testing
