#include "rr/testing/refs.hpp"

#include <stdexcept>

#include "rr/client/label_selector.hpp"
#include "rr/core/json.hpp"
#include "rr/reconcilers/status_apply.hpp"

namespace rr::testing {

TrackRequestBuilder create_track_request(std::string group, std::string kind, std::string namespace_,
                                         std::string name) {
  return {{std::move(group), std::move(kind), std::move(namespace_), std::move(name), {}}};
}

TrackRequestBuilder create_selector_track_request(std::string group, std::string kind, std::string namespace_,
                                                  std::string selector) {
  return {{std::move(group), std::move(kind), std::move(namespace_), {}, canonical_label_selector(selector)}};
}

Event event_from(const rr::Event& event) {
  return {event.regarding.api_version,
          event.regarding.kind,
          event.regarding.namespace_,
          event.regarding.name,
          event.type,
          event.reason,
          event.message};
}

TrackRequest track_request_from(const TrackReference& ref, const ObjectKey& observer) {
  return {{ref.api_group, ref.kind, ref.namespace_, ref.name, ref.selector ? ref.selector->str() : std::string()},
          observer};
}

TrackReference track_reference_of(const TrackedRef& tracked) {
  TrackReference ref{tracked.group, tracked.kind, tracked.namespace_, tracked.name, std::nullopt};
  if (!tracked.selector.empty()) ref.selector = Selector::parse(tracked.selector);
  return ref;
}

std::string canonical_label_selector(std::string_view text) {
  if (text.empty()) return {};
  try {
    return Selector::parse(text).str();
  } catch (const std::invalid_argument&) {
    return std::string(text);
  }
}

std::string canonical_field_selector(std::string_view text) {
  if (text.empty()) return {};
  try {
    return FieldSelector::parse(text).str();
  } catch (const std::invalid_argument&) {
    return std::string(text);
  }
}

Json as_json(const PatchRef& ref) {
  return {{"group", ref.group},
          {"kind", ref.kind},
          {"namespace", ref.namespace_},
          {"name", ref.name},
          {"subResource", ref.subresource},
          {"patchType", std::string(content_type(ref.patch_type))},
          {"patch", ref.patch}};
}

namespace refs_detail {
std::string encoded_apply(const void* config, void (*encode)(Json& out, const void* config)) {
  Json out;
  encode(out, config);
  return out.dump();
}

std::string encoded_status_apply(const void* object, const client_detail::ObjectCodec& codec,
                                 std::string_view field_manager) {
  Json computed;
  codec.encode(computed, object);
  Json read = computed;
  if (const auto metadata = read.find("metadata"); metadata != read.end() && metadata->is_object())
    metadata->erase("managedFields");
  return status_apply_configuration(read, read, field_manager).dump();
}
}  // namespace refs_detail

Json as_json(const ApplyRef& ref) {
  Json configuration = Json::parse(ref.configuration, nullptr, /*allow_exceptions=*/false);
  if (configuration.is_discarded()) configuration = ref.configuration;
  return {{"group", ref.group},
          {"kind", ref.kind},
          {"namespace", ref.namespace_},
          {"name", ref.name},
          {"subResource", ref.subresource},
          {"fieldManager", ref.field_manager},
          {"force", ref.force},
          {"configuration", std::move(configuration)}};
}

Json as_json(const DeleteRef& ref) {
  return {{"group", ref.group}, {"kind", ref.kind}, {"namespace", ref.namespace_}, {"name", ref.name}};
}

Json as_json(const DeleteCollectionRef& ref) {
  return {{"group", ref.group},
          {"kind", ref.kind},
          {"namespace", ref.namespace_},
          {"labelSelector", canonical_label_selector(ref.label_selector)},
          {"fieldSelector", canonical_field_selector(ref.field_selector)}};
}

Json as_json(const Event& event) {
  return {{"apiVersion", event.api_version},
          {"kind", event.kind},
          {"namespace", event.namespace_},
          {"name", event.name},
          {"type", event.type},
          {"reason", event.reason},
          {"message", event.message}};
}

Json as_json(const TrackRequest& request) {
  return {{"tracked",
           {{"group", request.tracked.group},
            {"kind", request.tracked.kind},
            {"namespace", request.tracked.namespace_},
            {"name", request.tracked.name},
            {"selector", canonical_label_selector(request.tracked.selector)}}},
          {"by", {{"namespace", request.by.namespace_}, {"name", request.by.name}}}};
}

}  // namespace rr::testing

template class std::vector<rr::testing::PatchRef>;
template class std::vector<rr::testing::ApplyRef>;
template class std::vector<rr::testing::DeleteRef>;
template class std::vector<rr::testing::DeleteCollectionRef>;
template class std::vector<rr::testing::Event>;
template class std::vector<rr::testing::TrackRequest>;
