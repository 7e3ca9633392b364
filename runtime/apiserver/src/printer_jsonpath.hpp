// The JSONPath subset of CRD printer columns (additionalPrinterColumns[].jsonPath), evaluated as
// the API server's table convertor does (k8s.io/client-go/util/jsonpath with missing keys
// allowed): `.field`, `['field']`, `.*`, `[n]` (negative from the end), `[*]`, and filters
// `[?(@.a.b)]`, `[?(@.a.b == "v")]` / `!=` with a string, number, true or false literal.
// Recursive descent (`..`), slices and unions are outside the subset. Pure functions over outside
// input (fuzzed).
#pragma once
#include <optional>
#include <string_view>
#include <vector>

#include "rr/core/json.hpp"

namespace rr::apiserver_detail {

class PrinterJsonPath {
 public:
  // Nullopt when the expression is empty or uses syntax outside the subset.
  static std::optional<PrinterJsonPath> parse(std::string_view expression);

  // The values the path selects, in document order (pointers into `document`). Nullopt when the
  // evaluation fails as upstream's does (a filter comparing values of different types); a path
  // that matches nothing gives an empty vector.
  std::optional<std::vector<const Json*>> find(const Json& document) const;

  struct Step;  // one selector; defined in the .cpp

  PrinterJsonPath(PrinterJsonPath&&) noexcept;
  PrinterJsonPath& operator=(PrinterJsonPath&&) noexcept;
  PrinterJsonPath(const PrinterJsonPath&);
  PrinterJsonPath& operator=(const PrinterJsonPath&);
  ~PrinterJsonPath();

 private:
  PrinterJsonPath();
  std::vector<Step> steps_;
};

}  // namespace rr::apiserver_detail
