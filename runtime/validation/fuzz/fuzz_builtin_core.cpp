// libFuzzer target for the core family's built-in validators (ConfigMap, Secret, Service, ...,
// HorizontalPodAutoscaler): the first byte picks the kind, the rest is a new object (JSON), a
// newline, and an old one. Any JSON must validate, create and update, without crashing or throwing,
// deterministically, and every finding must render as "<field>: <body>". The strings reach the
// hand-written IP, CIDR, base64 and JSON checks.
//
//   fuzz_builtin_core -max_total_time=60 corpus_dir/ tests/fuzz/corpus/fuzz_builtin_core/
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "rr/validation/builtin.hpp"

namespace {

void check(const rr::validation::ErrorList& errs) {
  for (const rr::validation::FieldError& e : errs) {
    if (!e.to_string().starts_with(e.field + ": ")) std::abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace rr::validation;
  if (size < 1 || size > 16384) return 0;
  const auto validators = builtin_validators();
  if (validators.empty()) return 0;
  const BuiltinValidator& v = validators[data[0] % validators.size()];
  const std::string_view input(reinterpret_cast<const char*>(data + 1), size - 1);
  const auto newline = input.find('\n');
  const rr::Json now = rr::Json::parse(input.substr(0, newline), nullptr, /*allow_exceptions=*/false);
  const rr::Json old = newline == std::string_view::npos
                           ? rr::Json::object()
                           : rr::Json::parse(input.substr(newline + 1), nullptr, /*allow_exceptions=*/false);
  if (now.is_discarded() || old.is_discarded() || !now.is_object() || !old.is_object()) return 0;
  const ErrorList created = v.create(now);
  if (created != v.create(now)) std::abort();
  check(created);
  const ErrorList updated = v.update(now, old);
  if (updated != v.update(now, old)) std::abort();
  check(updated);
  return 0;
}
