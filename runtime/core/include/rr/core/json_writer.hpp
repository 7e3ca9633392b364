// Appends compact JSON to a string. Generated encoders write straight-line calls; keys are passed
// already escaped by the generator (key_literal), values are escaped here.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

#include "rr/core/fwd.hpp"

namespace rr {

class UnknownFields;

class JsonWriter {
 public:
  JsonWriter() = default;
  explicit JsonWriter(std::string& out) : out_(&out) {}
  // Not copyable: a default-constructed writer points into itself.
  JsonWriter(const JsonWriter&) = delete;
  JsonWriter& operator=(const JsonWriter&) = delete;

  void begin_object();
  void end_object();
  void begin_array();
  void end_array();
  // A member name known to be free of characters that need escaping (checked by the generator).
  void key_literal(std::string_view key);
  // Any member name (escaped as needed).
  void key(std::string_view key);

  void value(std::string_view v);
  void value(const std::string& v) { value(std::string_view(v)); }
  void value(const char* v) { value(std::string_view(v)); }
  void value(bool v);
  void value(std::int32_t v);
  void value(std::int64_t v);
  // Shortest text that reads back to the same double; NaN/Inf are written as null.
  void value(double v);
  void null();
  // Pre-serialised, valid, minified JSON (numbers kept verbatim, unknown members).
  void raw(std::string_view json);
  void value(const Json& v);
  // Writes each kept member as key + raw value.
  void unknown(const UnknownFields& fields);

  const std::string& str() const noexcept { return *out_; }
  std::string take() { return std::move(*out_); }

 private:
  void comma();
  std::string own_;
  std::string* out_ = &own_;
  bool need_comma_ = false;
};

}  // namespace rr
