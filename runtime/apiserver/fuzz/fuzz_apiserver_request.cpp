// Fuzzes what the local cluster reads from a request line: the target's split and percent
// decoding, the route and the query parameters. Any input must end in a Route and either
// RequestQuery or an ApiError (400), never a crash. The same input as an Accept header must
// negotiate an answer or give 406 NotAcceptable.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "media_negotiation.hpp"
#include "query.hpp"
#include "route.hpp"
#include "rr/client/api_error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  using namespace rr::apiserver_detail;
  const Target target = split_target(input);
  const Route route = parse_route(target.path);
  if (route.endpoint == Endpoint::Resource && route.resource.empty()) __builtin_trap();
  try {
    (void)parse_query(target.query);
  } catch (const rr::ApiError& e) {
    if (e.code() != 400) __builtin_trap();
  }
  try {
    const OutputMedia media = negotiate_output(input);
    if (media.form != OutputForm::Object && media.version != "v1" && media.version != "v1beta1") __builtin_trap();
  } catch (const rr::ApiError& e) {
    if (e.code() != 406) __builtin_trap();
  }
  return 0;
}
