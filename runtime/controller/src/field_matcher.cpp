// Field selectors over the cache's field indexes.
#include "field_matcher.hpp"

#include <algorithm>

#include "rr/client/client.hpp"  // key_of(Json)

namespace rr {

namespace {

std::string term_text(const FieldSelector::Term& t) {
  const std::string equals = field_equals(t.field, t.value);
  return t.negated ? t.field + "!" + equals.substr(t.field.size()) : equals;
}

}  // namespace

std::string field_index_name(std::string_view field) { return "field:" + std::string(field); }

std::string field_index_value(std::string_view namespace_, std::string_view value) {
  return (namespace_.empty() ? std::string("*") : std::string(namespace_)) + "/" + std::string(value);
}

std::function<std::vector<std::string>(const Json&)> store_index_fn(FieldIndexFn fn) {
  return [fn = std::move(fn)](const Json& object) {
    const std::string namespace_ = key_of(object).namespace_;
    std::vector<std::string> out;
    for (const std::string& value : fn(object)) {
      if (!namespace_.empty()) out.push_back(field_index_value(namespace_, value));
      out.push_back(field_index_value("", value));
    }
    return out;
  };
}

bool FieldMatcher::matches(const Json& object) const {
  if (!plain.empty() && !plain.matches(object)) return false;
  return std::all_of(by_indexer.begin(), by_indexer.end(), [&](const auto& entry) {
    const auto values = (*entry.first)(object);
    const bool found = std::find(values.begin(), values.end(), entry.second.value) != values.end();
    return found != entry.second.negated;
  });
}

FieldMatcher field_matcher(const FieldSelector& fields,
                           const std::function<const FieldIndexFn*(std::string_view field)>& indexer_of) {
  FieldMatcher out;
  std::string plain;
  for (const FieldSelector::Term& term : fields.terms()) {
    const FieldIndexFn* indexer = indexer_of(term.field);
    if (!indexer) {
      if (!plain.empty()) plain += ',';
      plain += term_text(term);
    } else if (!out.indexed && !term.negated) {
      out.indexed = term;
    } else {
      out.by_indexer.emplace_back(indexer, term);
    }
  }
  out.plain = FieldSelector::parse(plain);
  return out;
}

}  // namespace rr
