#include "support/k8s_names.hpp"

#include <doctest/doctest.h>

#include <string>

using namespace rrgen;

TEST_CASE("DNS-1123 labels: lower-case letters, digits and inner '-', at most 63") {
  for (const char* good : {"a", "0", "my-operator", "shop2", "a-b-c", "2fast", "a--b"}) {
    CAPTURE(good);
    CHECK(is_dns1123_label(good));
  }
  for (const char* bad : {"", "-a", "a-", "my_operator", "My", "a.b", "a b", "a/b", "ä"}) {
    CAPTURE(bad);
    CHECK_FALSE(is_dns1123_label(bad));
  }
  CHECK(is_dns1123_label(std::string(63, 'a')));
  CHECK_FALSE(is_dns1123_label(std::string(64, 'a')));
}

TEST_CASE("DNS-1123 subdomains: labels joined by '.', at most 253") {
  for (const char* good : {"a", "example.com", "my-operator.example.com", "widgets.shop.example.org"}) {
    CAPTURE(good);
    CHECK(is_dns1123_subdomain(good));
  }
  for (const char* bad : {"", ".", "a.", ".a", "a..b", "demo_operator.example.com", "Example.com", "a-.b"}) {
    CAPTURE(bad);
    CHECK_FALSE(is_dns1123_subdomain(bad));
  }
  // The labels of a subdomain may be longer than 63 together, not the whole name than 253.
  CHECK(is_dns1123_subdomain(std::string(100, 'a') + ".b"));
  std::string long_name = std::string(125, 'a') + "." + std::string(127, 'b');
  CHECK(long_name.size() == 253);
  CHECK(is_dns1123_subdomain(long_name));
  CHECK_FALSE(is_dns1123_subdomain(long_name + "b"));
}

TEST_CASE("DNS-1035 labels start with a letter") {
  CHECK(is_dns1035_label("v1"));
  CHECK(is_dns1035_label("v1beta1"));
  CHECK(is_dns1035_label("widgets"));
  CHECK_FALSE(is_dns1035_label("1v"));
  CHECK_FALSE(is_dns1035_label(""));
  CHECK_FALSE(is_dns1035_label(std::string(64, 'a')));
}

TEST_CASE("qualified name parts and label values") {
  for (const char* good : {"cleanup", "Clean_Up.v2", "a", "A-1"}) {
    CAPTURE(good);
    CHECK(is_qualified_name_part(good));
    CHECK(is_label_value(good));
  }
  for (const char* bad : {"-a", "a-", "_a", "a.", "a/b", "a b"}) {
    CAPTURE(bad);
    CHECK_FALSE(is_qualified_name_part(bad));
    CHECK_FALSE(is_label_value(bad));
  }
  CHECK_FALSE(is_qualified_name_part(""));
  CHECK(is_label_value(""));
  CHECK(is_label_value(std::string(63, 'a')));
  CHECK_FALSE(is_label_value(std::string(64, 'a')));
}
