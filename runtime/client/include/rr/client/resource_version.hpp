// The API server's reading of a resourceVersion (k8s.io/apiserver storage.APIObjectVersioner):
// "" is 0, anything else strconv.ParseUint(rv, 10, 64), so "007" is 7 and "-1", "1.5" or "abc"
// are malformed. Both the local cluster and the in-process cluster answer a malformed one with
// the Status the API server gives, built here.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

#include "rr/client/api_error.hpp"

namespace rr {

struct ParsedResourceVersion {
  std::uint64_t value = 0;
  std::string error;  // Go's NumError text ("strconv.ParseUint: parsing \"abc\": invalid syntax"); empty: parsed
};

ParsedResourceVersion parse_resource_version(std::string_view rv);

namespace api_errors {

// An update or patch whose object names a malformed resourceVersion: the registry returns the
// strconv error unconverted, so the client gets a 500 without a reason whose message is that error.
Status malformed_object_resource_version(const ParsedResourceVersion& parsed);
// A get, list or watch with ?resourceVersion= malformed: the watch cache returns the versioner's
// storage.InvalidError unconverted, a 500 without a reason:
// `resourceVersion: Invalid value: "abc": strconv.ParseUint: parsing "abc": invalid syntax`.
Status malformed_query_resource_version(std::string_view rv, const ParsedResourceVersion& parsed);

}  // namespace api_errors
}  // namespace rr
