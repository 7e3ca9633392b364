// libFuzzer target for ObjectMeta validation: the input is a new `metadata` (JSON), a newline, and an
// old one. Any JSON must validate without crashing or throwing, deterministically; an update that
// changes nothing reports only what the new metadata's own members carry.
//
//   fuzz_object_meta -max_total_time=60 corpus_dir/ tests/fuzz/corpus/fuzz_object_meta/
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "rr/validation/object_meta.hpp"
#include "rr/validation/resource_rules.hpp"
#include "two_documents.hpp"

namespace {

rr::validation::ErrorList own_members(const rr::Json& m) {
  using namespace rr::validation;
  static const rr::Json kNull;
  const auto get = [&](const char* key) -> const rr::Json& {
    return m.is_object() && m.contains(key) ? m.at(key) : kNull;
  };
  ErrorList errs = validate_labels(get("labels"), "metadata.labels");
  const auto add = [&](ErrorList more) { errs.insert(errs.end(), more.begin(), more.end()); };
  add(validate_annotations(get("annotations"), "metadata.annotations"));
  add(validate_owner_references(get("ownerReferences"), "metadata.ownerReferences"));
  add(validate_managed_fields(get("managedFields"), "metadata.managedFields"));
  return errs;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace rr::validation;
  const auto documents = fuzz::two_documents(data, size);
  if (!documents) return 0;
  const auto& [now, old] = *documents;
  for (const NameRule rule :
       {NameRule::DNSSubdomain, NameRule::DNSLabel, NameRule::DNS1035Label, NameRule::PathSegment}) {
    for (const bool namespaced : {false, true}) {
      const ErrorList first = validate_object_meta(now, namespaced, rule);
      if (first != validate_object_meta(now, namespaced, rule)) std::abort();
      for (const FieldError& e : first) {
        if (!e.to_string().starts_with(e.field + ": ")) std::abort();
      }
    }
  }
  (void)validate_update_metadata(now, old, true, MetadataRules{});
  // Compared with itself, only the members' own findings remain (plus a missing resourceVersion).
  const bool deleting = now.is_object() && now.contains("deletionTimestamp") && !now.at("deletionTimestamp").is_null();
  const bool has_rv = now.is_object() && now.contains("resourceVersion") && now.at("resourceVersion").is_string() &&
                      !now.at("resourceVersion").get_ref<const std::string&>().empty();
  if (!deleting && has_rv && validate_object_meta_update(now, now) != own_members(now)) std::abort();
  return 0;
}
