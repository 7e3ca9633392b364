// Shared by the schema tests: compile a schema that must compile, and the messages of findings.
#pragma once
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "rr/schema/schema.hpp"

// Lists of messages printed one a line when a CHECK fails.
namespace doctest {
template <>
struct StringMaker<std::vector<std::string>> {
  static String convert(const std::vector<std::string>& lines) {
    std::string s = "[";
    for (const auto& l : lines) s += "\n  " + l;
    return String((s + "\n]").c_str());
  }
};
}  // namespace doctest

namespace schema_test {

inline rr::schema::Schema compiled(const rr::Json& s, const rr::schema::CompileOptions& options = {}) {
  auto result = rr::schema::Schema::compile(s, options);
  if (auto* errors = std::get_if<std::vector<rr::FieldError>>(&result)) {
    for (const auto& e : *errors) MESSAGE(e.message);
    FAIL("schema does not compile");
  }
  return std::get<rr::schema::Schema>(std::move(result));
}

inline std::vector<std::string> messages(const std::vector<rr::FieldError>& errors) {
  std::vector<std::string> out;
  for (const auto& e : errors) out.push_back(e.message);
  return out;
}

// The compile errors of a schema that must not compile.
inline std::vector<std::string> rejections(const rr::Json& s) {
  auto result = rr::schema::Schema::compile(s);
  auto* errors = std::get_if<std::vector<rr::FieldError>>(&result);
  REQUIRE(errors != nullptr);
  return messages(*errors);
}

}  // namespace schema_test
