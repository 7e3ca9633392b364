// The syntax checks against upstream's own good and bad values (util/validation/validation_test.go,
// api/validate/content/kube_test.go) and the exact messages of the API server.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "messages.hpp"
#include "rr/validation/names.hpp"

using namespace rr::validation;
using rr::validation::test::kDNS1035;
using rr::validation::test::kKeyName;
using rr::validation::test::kLabel;
using rr::validation::test::kLabelValue;
using rr::validation::test::kSubdomain;

TEST_CASE("IsDNS1123Label accepts and refuses upstream's values") {
  for (const char* v : {"a", "ab", "abc", "a1", "a-1", "a--1--2--b", "0", "01", "012", "1a", "1-a", "1--a--b--2"}) {
    CHECK_MESSAGE(is_dns1123_label(v).empty(), v);
  }
  CHECK(is_dns1123_label(std::string(63, 'a')).empty());
  for (const char* v :
       {"",   "A",   "ABC", "aBc", "A1", "A-1", "1-A", "-",  "a-",  "-a", "1-", "-1", "_",   "a_", "_a", "a_b", "1_",
        "_1", "1_2", ".",   "a.",  ".a", "a.b", "1.",  ".1", "1.2", " ",  "a ", " a", "a b", "1 ", " 1", "1 2"}) {
    CHECK_MESSAGE(!is_dns1123_label(v).empty(), v);
  }
  CHECK(is_dns1123_label(std::string(64, 'a')) == Messages{"must be no more than 63 characters"});
}

TEST_CASE("IsDNS1123Label: a valid subdomain is told it has dots, anything else gets the regex") {
  CHECK(is_dns1123_label("a.b") == Messages{"must not contain dots"});
  CHECK(is_dns1123_label("Foo") == Messages{kLabel});
  CHECK(is_dns1123_label(std::string(64, 'a') + ".b") ==
        Messages{"must be no more than 63 characters", "must not contain dots"});
}

TEST_CASE("IsDNS1035Label accepts and refuses upstream's values") {
  for (const char* v : {"a", "ab", "abc", "a1", "a-1", "a--1--2--b"}) CHECK_MESSAGE(is_dns1035_label(v).empty(), v);
  CHECK(is_dns1035_label(std::string(63, 'a')).empty());
  for (const char* v : {"0",  "01", "012", "1a", "1-a", "1--a--b--2", "",   "A",  "ABC", "aBc", "A1", "A-1", "1-A",
                        "-",  "a-", "-a",  "1-", "-1",  "_",          "a_", "_a", "a_b", "1_",  "_1", "1_2", ".",
                        "a.", ".a", "a.b", "1.", ".1",  "1.2",        " ",  "a ", " a",  "a b", "1 ", " 1",  "1 2"}) {
    CHECK_MESSAGE(is_dns1035_label(v) == Messages{kDNS1035}, v);
  }
  CHECK(is_dns1035_label(std::string(64, 'a')) == Messages{"must be no more than 63 characters"});
}

TEST_CASE("IsDNS1123Subdomain: both messages when a name is too long and badly formed") {
  CHECK(is_dns1123_subdomain("example.com").empty());
  CHECK(is_dns1123_subdomain("a.b-c.0").empty());
  CHECK(is_dns1123_subdomain("Foo") == Messages{kSubdomain});
  CHECK(is_dns1123_subdomain("a..b") == Messages{kSubdomain});
  CHECK(is_dns1123_subdomain("a.") == Messages{kSubdomain});
  CHECK(is_dns1123_subdomain(std::string(253, 'a')).empty());
  CHECK(is_dns1123_subdomain(std::string(254, 'a')) == Messages{"must be no more than 253 characters"});
  CHECK(is_dns1123_subdomain(std::string(300, 'A')) == Messages{"must be no more than 253 characters", kSubdomain});
}

TEST_CASE("IsQualifiedName: prefix and name parts, lengths in bytes") {
  CHECK(is_qualified_name("app").empty());
  CHECK(is_qualified_name("app.kubernetes.io/name").empty());
  CHECK(is_qualified_name("MyName").empty());
  CHECK(is_qualified_name("1-2_3.4").empty());
  CHECK(is_qualified_name("/a") == Messages{"prefix part must be non-empty"});
  CHECK(is_qualified_name("Example.com/a") == Messages{"prefix part " + kSubdomain});
  CHECK(is_qualified_name(std::string(254, 'a') + "/a") == Messages{"prefix part must be no more than 253 bytes"});
  CHECK(is_qualified_name("a/") == Messages{"name part must be non-empty", kKeyName});
  CHECK(is_qualified_name(std::string(64, 'a')) == Messages{"name part must be no more than 63 bytes"});
  CHECK(is_qualified_name("-a") == Messages{kKeyName});
  CHECK(is_qualified_name("a/b/c") ==
        Messages{"a valid label key must consist of alphanumeric characters, '-', '_' or '.', and must start and end "
                 "with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for "
                 "validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and "
                 "'/' (e.g. 'example.com/MyName')"});
}

TEST_CASE("IsValidLabelValue accepts and refuses upstream's values") {
  for (const char* v : {"simple", "now-with-dashes", "1-starts-with-num", "end-with-num-1", "1234", ""}) {
    CHECK_MESSAGE(is_valid_label_value(v).empty(), v);
  }
  CHECK(is_valid_label_value(std::string(63, 'a')).empty());
  for (const char* v : {"nospecialchars%^=@", "Tama-nui-te-rā.is.Māori.sun", "\\backslashes\\are\\bad",
                        "-starts-with-dash", "ends-with-dash-", ".starts.with.dot", "ends.with.dot.", "has space"}) {
    CHECK_MESSAGE(is_valid_label_value(v) == Messages{kLabelValue}, v);
  }
  CHECK(is_valid_label_value(std::string(64, 'a')) == Messages{"must be no more than 63 bytes"});
}

TEST_CASE("IsValidPathSegmentName: '.' and '..' alone, '/' and '%' anywhere") {
  CHECK(is_valid_path_segment_name("Foo:Bar").empty());
  CHECK(is_valid_path_segment_name("...").empty());
  CHECK(is_valid_path_segment_name(".") == Messages{"may not be '.'"});
  CHECK(is_valid_path_segment_name("..") == Messages{"may not be '..'"});
  CHECK(is_valid_path_segment_name("a/b%c") == Messages{"may not contain '/'", "may not contain '%'"});
  CHECK(is_valid_path_segment_prefix("..").empty());
}

TEST_CASE("name functions: a generateName may end in '-' (maskTrailingDash, quirk included)") {
  CHECK(name_messages(NameRule::DNSSubdomain, "web-", true).empty());
  CHECK(name_messages(NameRule::DNSSubdomain, "web-", false) == Messages{kSubdomain});
  CHECK(name_messages(NameRule::DNS1035Label, "a-", true).empty());
  CHECK(name_messages(NameRule::DNSLabel, "-", true) == Messages{kLabel});
  // Upstream drops two bytes before appending 'a': "x.-" is checked as "xa".
  CHECK(name_messages(NameRule::DNSLabel, "x.-", true).empty());
  CHECK(name_messages(NameRule::PathSegment, "..", true).empty());
  CHECK(name_messages(NameRule::PathSegment, "..", false) == Messages{"may not be '..'"});
  CHECK(name_messages(NameRule::Unconstrained, "Any/Thing%", false).empty());
}
