#include "object_filter.hpp"

#include <stdexcept>

#include "errors.hpp"
#include "object_meta.hpp"
#include "rr/validation/field_labels.hpp"
#include "rr/validation/resource_rules.hpp"

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
  // A kind registered without admission (a test's bare kind) takes any field; the others take
  // what the API server's field label conversion accepts for them.
  if (kind.admission) {
    const GroupVersionKind& gvk = kind.info.gvk;
    const bool builtin = validation::builtin_metadata_rules(gvk.group, kind.info.plural).has_value();
    for (const auto& term : filter.fields_.terms()) {
      const auto error = builtin ? validation::builtin_field_label_error(gvk.group, gvk.kind, term.field)
                                 : validation::custom_resource_field_label_error(kind.info.namespaced(),
                                                                                 kind.selectable_fields, term.field);
      if (error) fail(api_errors::bad_request(*error));
    }
    if (builtin) {
      const FieldSelector asked = filter.fields_;
      for (const auto& term : asked.terms()) {
        const std::string_view label = validation::builtin_field_label(gvk.group, gvk.kind, term.field);
        if (label != term.field) filter.fields_ = filter.fields_.renamed(term.field, label);
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
