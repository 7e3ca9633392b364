// libFuzzer target for the selector parsers. Arbitrary text must never crash them: the only
// exception allowed out is std::invalid_argument. Whatever parses must print (str()) to text that
// parses back to an equal selector, and matching must be total.
//
//   fuzz_label_selector -max_total_time=60 corpus_dir/ tests/fuzz/corpus/fuzz_label_selector/
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

#include "rr/client/label_selector.hpp"
#include "rr/core/json.hpp"

namespace {

[[noreturn]] void die(const char* why) {
  (void)why;
  std::abort();
}

void check_label_selector(std::string_view text) {
  std::optional<rr::Selector> parsed;
  try {
    parsed = rr::Selector::parse(text);
  } catch (const std::invalid_argument&) {
    return;
  }
  const std::string printed = parsed->str();
  rr::Selector again;
  try {
    again = rr::Selector::parse(printed);
  } catch (const std::invalid_argument&) {
    die("str() printed a selector that does not parse");
  }
  if (!(again == *parsed)) die("str() printed a different selector");
  if (again.str() != printed) die("str() is not canonical");

  // Labels built from the selector's own keys and values, so matching takes every branch.
  std::map<std::string, std::string> labels;
  bool flip = false;
  for (const auto& r : parsed->requirements()) {
    flip = !flip;
    if (flip) labels[r.key] = r.values.empty() ? std::string() : r.values.front();
  }
  (void)parsed->matches(labels);
  (void)parsed->matches({});
  if (!rr::Selector::from_labels(labels).matches(labels)) die("a set's selector does not match the set");
}

void check_field_selector(std::string_view text) {
  std::optional<rr::FieldSelector> parsed;
  try {
    parsed = rr::FieldSelector::parse(text);
  } catch (const std::invalid_argument&) {
    return;
  }
  try {
    if (!(rr::FieldSelector::parse(parsed->str()) == *parsed)) die("FieldSelector::str() printed a different selector");
  } catch (const std::invalid_argument&) {
    die("FieldSelector::str() printed a selector that does not parse");
  }
  rr::Json object = rr::Json::object();
  for (const auto& term : parsed->terms()) {
    if (term.field.find('.') == std::string::npos) object[term.field] = term.value;
  }
  (void)parsed->matches(object);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  check_label_selector(text);
  check_field_selector(text);
  return 0;
}
