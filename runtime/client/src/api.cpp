#include "rr/client/api.hpp"

namespace rr::api_detail {

std::string scoped_namespace(const std::string& bound, const std::string& given, std::string_view what) {
  if (bound.empty()) return given;
  if (given.empty() || given == bound) return bound;
  // The API server's wording for an object whose namespace is not the request's.
  throw ApiError(api_errors::bad_request("the namespace of the provided " + std::string(what) +
                                         " does not match the namespace sent on the request"));
}

}  // namespace rr::api_detail
