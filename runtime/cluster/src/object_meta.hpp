// Reading and writing metadata members of objects held as JSON (the store keeps what clients
// sent, byte for byte apart from what the server owns, so it never round-trips through ObjectMeta).
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "rr/core/json.hpp"

namespace rr::cluster_detail {

// metadata.<field> when it is a string, "" otherwise.
std::string meta_string(const Json& object, std::string_view field);
// Sets metadata.<field>, creating metadata when needed.
void set_meta(Json& object, std::string_view field, Json value);
void erase_meta(Json& object, std::string_view field);

std::map<std::string, std::string> labels_of(const Json& object);
std::vector<std::string> finalizers_of(const Json& object);
// Writes metadata.finalizers, or removes the member when the list is empty (omitempty).
void set_finalizers(Json& object, const std::vector<std::string>& finalizers);
// metadata.ownerReferences entries (objects only).
std::vector<Json> owner_references_of(const Json& object);
bool is_terminating(const Json& object);
std::int64_t generation_of(const Json& object);

// The group part of an apiVersion ("apps/v1" → "apps", "v1" → "").
std::string group_of(std::string_view api_version);
// A copy without the members the generation ignores: metadata, and status when it is a subresource.
Json generation_relevant(const Json& object, bool has_status);

}  // namespace rr::cluster_detail
