// libFuzzer target for the built-in kinds' own validation: the input is an object (JSON), a
// newline, and an old one. Every table entry validates both as a create and as an update without
// crashing or throwing, deterministically; an update that changes nothing reports no immutable
// field and no frozen spec.
//
//   fuzz_builtin_validation -max_total_time=60 corpus_dir/
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "rr/validation/builtin.hpp"
#include "two_documents.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace rr::validation;
  const auto documents = fuzz::two_documents(data, size);
  if (!documents) return 0;
  const auto& [now, old] = *documents;
  for (const BuiltinValidator& v : builtin_validators()) {
    const ErrorList created = validate_builtin(v.group, v.version, v.kind, now, nullptr);
    if (created != validate_builtin(v.group, v.version, v.kind, now, nullptr)) std::abort();
    for (const FieldError& e : created) {
      if (!e.to_string().starts_with(e.field + ": ")) std::abort();
    }
    (void)validate_builtin(v.group, v.version, v.kind, now, &old);
    for (const FieldError& e : validate_builtin(v.group, v.version, v.kind, now, &now)) {
      if (e.detail == "field is immutable") std::abort();
      if (e.field == "spec" && e.type == rr::FieldErrorType::Forbidden) std::abort();
    }
  }
  return 0;
}
