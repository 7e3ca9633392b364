#include "object_filter.hpp"

#include <stdexcept>

#include "errors.hpp"
#include "object_meta.hpp"

namespace rr::cluster_detail {

ObjectFilter ObjectFilter::from(const KindEntry& kind, const ListOptions& opts) {
  ObjectFilter filter;
  if (kind.info.namespaced()) filter.namespace_ = opts.namespace_;
  try {
    filter.labels_ = Selector::parse(opts.label_selector);
    filter.fields_ = FieldSelector::parse(opts.field_selector);
  } catch (const std::invalid_argument& e) {
    fail(api_errors::bad_request(e.what()));
  }
  if (kind.admission) {
    for (const auto& term : filter.fields_.terms()) {
      if (term.field != "metadata.name" && term.field != "metadata.namespace") {
        fail(api_errors::bad_request("field label not supported: " + term.field));
      }
    }
  }
  return filter;
}

bool ObjectFilter::matches(const Json& object) const {
  if (!namespace_.empty() && meta_string(object, "namespace") != namespace_) return false;
  // Without a selector every object matches: no copy of its labels (a list of a namespace tests
  // every object in it).
  if (!labels_.empty() && !labels_.matches(labels_of(object))) return false;
  return fields_.empty() || fields_.matches(object);
}

}  // namespace rr::cluster_detail
