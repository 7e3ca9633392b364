// decode -> encode of a built-in kind must give back the same JSON, unknown members included.
#pragma once
#include <doctest/doctest.h>

#include <string>

#include "rr/core/codec.hpp"
#include "rr/core/json.hpp"

namespace builtin_test {

// Compares as JSON documents (member order may differ: encode writes declared members first) and
// checks that decoding the output gives an equal object. Returns the decoded object.
template <class T>
T check_lossless(const std::string& doc) {
  CAPTURE(doc);
  const T v = T::from_json_text(doc);
  const std::string out = v.to_json_text();
  CHECK(rr::Json::parse(out) == rr::Json::parse(doc));
  CHECK(T::from_json_text(out) == v);
  return v;
}

}  // namespace builtin_test
