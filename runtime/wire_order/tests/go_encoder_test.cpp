// Go's json.Encoder bytes (encoding/json's documented escaping: "<", ">", "&", U+2028 and U+2029
// become \u003c, \u003e, \u0026, \u2028 and \u2029; Encode ends each value with a newline).
#include <doctest/doctest.h>

#include "rr/wire_order/go_encoder.hpp"

TEST_CASE("encode escapes what Go's encoder escapes, in values and keys, and ends with a newline") {
  const rr::Json status = {{"kind", "Status"},
                           {"apiVersion", "v1"},
                           {"message", "a <b> & c\xE2\x80\xA8"
                                       "d\xE2\x80\xA9"},
                           {"details", {{"causes", rr::Json::array({{{"field", "metadata.annotations[a&b]"}}})}}}};
  CHECK(rr::wire_order::encode(status) ==
        R"({"kind":"Status","apiVersion":"v1","message":"a \u003cb\u003e \u0026 c\u2028d\u2029",)"
        R"("details":{"causes":[{"field":"metadata.annotations[a\u0026b]"}]}})"
        "\n");
}

TEST_CASE("text without those characters is dump()'s, plus the newline; other multi-byte characters stay raw") {
  const rr::Json object = {{"kind", "ConfigMap"}, {"apiVersion", "v1"}, {"data", {{"k", "\xE2\x82\xAC caf\xC3\xA9"}}}};
  CHECK(rr::wire_order::encode(object) == rr::wire_order::dump(object) + "\n");
  CHECK(rr::wire_order::encode(object).find("\xE2\x82\xAC") != std::string::npos);
}

TEST_CASE("a watch event line is escaped and newline-terminated once") {
  const rr::Json pod = {
      {"kind", "Pod"}, {"apiVersion", "v1"}, {"metadata", {{"name", "p"}, {"annotations", {{"x", "<"}}}}}};
  const std::string line = rr::wire_order::encode_watch_event("ADDED", pod);
  CHECK(line.ends_with("}}}\n"));
  CHECK(line.find("\\u003c") != std::string::npos);
  CHECK(line.find('<') == std::string::npos);
}

TEST_CASE("escape_as_go leaves the text before `from` alone and a truncated U+2028 prefix as it is") {
  std::string text = "<a><b>";
  rr::wire_order::escape_as_go(text, 3);
  CHECK(text == "<a>\\u003cb\\u003e");
  std::string cut = "x\xE2\x80";
  rr::wire_order::escape_as_go(cut);
  CHECK(cut == "x\xE2\x80");
}
