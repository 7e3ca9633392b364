// How the informer cache answers a field selector: one exact-match term on an indexed field picks
// the objects from that field's index; the other terms filter them (terms on indexed fields with
// the field's indexer, the rest by their path in the object).
#pragma once
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "rr/client/label_selector.hpp"
#include "rr/controller/field_indexer.hpp"

namespace rr {

// The store index of a field's indexer, and the value of an indexed lookup in one namespace
// ("" = all namespaces): objects are indexed under "<namespace>/<value>" and "*/<value>".
std::string field_index_name(std::string_view field);
std::string field_index_value(std::string_view namespace_, std::string_view value);
// The store's index function over a field indexer.
std::function<std::vector<std::string>(const Json&)> store_index_fn(FieldIndexFn fn);

struct FieldMatcher {
  std::optional<FieldSelector::Term> indexed;  // the term to look objects up by, if any
  FieldSelector plain;                         // terms on object paths
  std::vector<std::pair<const FieldIndexFn*, FieldSelector::Term>> by_indexer;  // other indexed terms

  // The object passes every term but `indexed` (which the lookup answered).
  bool matches(const Json& object) const;
};

// `indexer_of(field)`: the field's indexer, nullptr when the field is not indexed.
FieldMatcher field_matcher(const FieldSelector& fields,
                           const std::function<const FieldIndexFn*(std::string_view field)>& indexer_of);

}  // namespace rr
