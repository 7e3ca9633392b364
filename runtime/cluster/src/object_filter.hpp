// Which objects a list or watch sees: namespace, label selector and field selector.
#pragma once
#include <string>

#include "rr/client/label_selector.hpp"
#include "rr/client/options.hpp"
#include "store.hpp"

namespace rr::cluster_detail {

class ObjectFilter {
 public:
  // 400 BadRequest on a selector that does not parse or a field the kind cannot select on:
  // metadata.name and metadata.namespace always; any field for kinds without admission
  // (unstructured kinds have no schema that would limit it).
  static ObjectFilter from(const KindEntry& kind, const ListOptions& opts);
  bool matches(const Json& object) const;

 private:
  std::string namespace_;  // "" = every namespace
  Selector labels_;
  FieldSelector fields_;
};

}  // namespace rr::cluster_detail
