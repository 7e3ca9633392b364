// What a GET answers, as the Accept header asks (k8s.io/apiserver's negotiation package and the
// handlers' transformObject): the object itself, a meta.k8s.io Table, or only its metadata as a
// PartialObjectMetadata (a list as a PartialObjectMetadataList), e.g.
// `Accept: application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json`.
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "rr/client/api_error.hpp"
#include "rr/core/json.hpp"

namespace rr::apiserver_detail {

// One media range of an Accept header, as goautoneg.ParseAccept reads it: type and subtype
// ("*" alone is "*/*"), q (1 when absent or 0 when it does not parse), the other parameters in
// order, keys and values trimmed of blanks.
struct AcceptClause {
  std::string type;
  std::string subtype;
  double q = 1.0;
  std::vector<std::pair<std::string, std::string>> params;
};

// The clauses of an Accept header, ordered as the API server orders them (higher q first, then a
// concrete type or subtype before a wildcard; otherwise as written). Ranges that are not
// `type/subtype` (or `*`) are dropped.
std::vector<AcceptClause> parse_accept(std::string_view header);

enum class OutputForm { Object, Table, PartialObjectMetadata, PartialObjectMetadataList };

struct OutputMedia {
  OutputForm form = OutputForm::Object;
  std::string version;  // meta.k8s.io version of the conversion (v1 or v1beta1); "" for Object
};

// The first clause the server can answer decides (an empty header: the object as JSON). A clause
// with `as=` converts to Table (JSON or YAML only), PartialObjectMetadata or
// PartialObjectMetadataList of meta.k8s.io v1 or v1beta1 (`g`, `v`); rr encodes those as JSON, so
// a protobuf clause asking for one is passed over. Any other `as`/`g`/`v`, a `stream` other than
// watch, or an `sv` other than v1 makes the clause unacceptable. Throws ApiError 406 NotAcceptable
// when no clause is acceptable.
OutputMedia negotiate_output(std::string_view accept);

// 406 NotAcceptable with the API server's message.
Status not_acceptable(std::string message);

// The object's metadata as a PartialObjectMetadata of meta.k8s.io/<version>; 406 for a list (the
// API server's asPartialObjectMetadata).
Json as_partial_object_metadata(const Json& object, const std::string& version);
// A list's items as PartialObjectMetadata in a PartialObjectMetadataList keeping the list's
// resourceVersion, continue and remainingItemCount; 406 for a single object.
Json as_partial_object_metadata_list(const Json& list, const std::string& version);

// True for a JSON list (a kind ending in "List" with an items array).
bool is_list_object(const Json& object);

}  // namespace rr::apiserver_detail
