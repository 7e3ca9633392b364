// Fuzzes the printer-column JSONPath subset: a CRD's jsonPath is outside input, parsed and
// evaluated on every Table GET. The first line of the input is the expression, the rest a JSON
// document (when it parses). Any input must parse or be refused, and evaluate without a crash;
// every value found must live inside the document.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "printer_jsonpath.hpp"

namespace {

bool inside(const rr::Json& document, const rr::Json* value) {
  if (&document == value) return true;
  if (!document.is_structured()) return false;
  for (const rr::Json& child : document) {
    if (inside(child, value)) return true;
  }
  return false;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const std::size_t newline = input.find('\n');
  const std::string_view expression = input.substr(0, newline);
  rr::Json document = rr::Json::parse(newline == std::string_view::npos ? std::string_view() : input.substr(newline + 1),
                                      nullptr, /*allow_exceptions=*/false);
  if (document.is_discarded()) {
    document = rr::Json{{"metadata", {{"name", "a"}}},
                        {"status", {{"conditions", rr::Json::array({{{"type", "Ready"}, {"status", "True"}}})}}}};
  }
  const auto path = rr::apiserver_detail::PrinterJsonPath::parse(expression);
  if (!path) return 0;
  const auto found = path->find(document);
  if (!found) return 0;
  for (const rr::Json* value : *found) {
    if (!inside(document, value)) __builtin_trap();
  }
  return 0;
}
