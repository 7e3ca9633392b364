// The part of the embedded 1.35 API facts that decoding a body as Go decodes it reads, as one JSON
// object of definitions, derived at build time by rr_decode_facts (tools/decode_facts_main.cpp).
#pragma once
#include <string_view>

namespace rr::apiserver_detail {

std::string_view decode_facts_json();

}  // namespace rr::apiserver_detail
