// Field selectors: fields.ParseSelector's grammar and escaping, matching on JSON objects.
#include <doctest/doctest.h>

#include <stdexcept>
#include <string>

#include "rr/client/label_selector.hpp"
#include "rr/core/json.hpp"

namespace {

using rr::FieldSelector;
using rr::Json;

std::string parse_error(const std::string& text) {
  try {
    (void)FieldSelector::parse(text);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace

TEST_CASE("FieldSelector::parse: terms and canonical str()") {
  const std::pair<const char*, const char*> cases[] = {
      {"", ""},
      {"metadata.name=x", "metadata.name=x"},
      {"metadata.name==x", "metadata.name=x"},
      {"metadata.name!=x", "metadata.name!=x"},
      {"metadata.namespace=ns,metadata.name=x", "metadata.name=x,metadata.namespace=ns"},
      {"a=1,,b=2,", "a=1,b=2"},
      {"a=", "a="},
      {"a!=", "a!="},
      {"a=x\\,y", "a=x\\,y"},
      {"a=x\\=y\\\\z", "a=x\\=y\\\\z"},
      {"a!b=c", "a!b=c"},
  };
  for (const auto& row : cases) {
    const auto& [input, canonical] = row;
    CAPTURE(row.first);  // clang 14 cannot capture a structured binding
    const FieldSelector s = FieldSelector::parse(input);
    CHECK(s.str() == canonical);
    CHECK(FieldSelector::parse(s.str()) == s);
  }
  const FieldSelector s = FieldSelector::parse("spec.x!=a\\,b,metadata.name==n");
  REQUIRE(s.terms().size() == 2);
  CHECK(s.terms()[0] == FieldSelector::Term{"metadata.name", false, "n"});
  CHECK(s.terms()[1] == FieldSelector::Term{"spec.x", true, "a,b"});
  CHECK(FieldSelector::parse("").empty());
}

TEST_CASE("FieldSelector::parse: errors") {
  const std::pair<const char*, const char*> cases[] = {
      {"metadata.name", "invalid field selector \"metadata.name\": can't understand \"metadata.name\""},
      {"a=1,b", "invalid field selector \"a=1,b\": can't understand \"b\""},
      {"=x", "invalid field selector \"=x\": missing field name in \"=x\""},
      {"a=b=c", "invalid field selector \"a=b=c\": unescaped character in value: ="},
      {"a=b\\x", "invalid field selector \"a=b\\\\x\": invalid escape sequence: \\x"},
      {"a=b\\", "invalid field selector \"a=b\\\\\": invalid escape sequence: \\"},
  };
  for (const auto& row : cases) {
    const auto& [input, message] = row;
    CAPTURE(row.first);  // clang 14 cannot capture a structured binding
    CHECK(parse_error(input) == message);
  }
}

TEST_CASE("FieldSelector::matches: dotted paths into the object") {
  const Json pod = Json::parse(R"({
    "metadata": {"name": "web-1", "namespace": "prod", "labels": {"a": "b"}},
    "spec": {"nodeName": "n1", "replicas": 3, "paused": false, "ratio": 0.5, "gone": null},
    "status": {"phase": "Running"}
  })");
  const std::pair<const char*, bool> cases[] = {
      {"", true},
      {"metadata.name=web-1", true},
      {"metadata.name=web-2", false},
      {"metadata.name!=web-2", true},
      {"metadata.name=web-1,metadata.namespace=prod", true},
      {"metadata.name=web-1,metadata.namespace!=prod", false},
      {"spec.nodeName=n1", true},
      {"spec.replicas=3", true},   // numbers compare by their text
      {"spec.paused=false", true}, // and booleans
      {"spec.ratio=0.5", true},
      {"spec.gone=", true},        // null reads as ""
      {"spec.missing=", true},     // a missing field reads as ""
      {"spec.missing!=", false},
      {"spec.missing=x", false},
      {"spec.nodeName.deeper=", true},  // through a string: missing
      {"status.phase=Running", true},
      {"metadata.labels.a=b", true},
  };
  for (const auto& row : cases) {
    const auto& [text, expected] = row;
    CAPTURE(row.first);  // clang 14 cannot capture a structured binding
    CHECK(FieldSelector::parse(text).matches(pod) == expected);
  }
  CHECK(FieldSelector::parse("metadata.name=").matches(Json::parse("[]")));
  CHECK(FieldSelector::parse("a=x\\,y").matches(Json::parse(R"({"a":"x,y"})")));
}
