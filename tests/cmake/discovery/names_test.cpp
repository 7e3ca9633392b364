// Test cases whose names hold the characters ctest lists and doctest filters treat specially.
// rrgen_discover_doctests() must register each as one ctest test that runs exactly this case.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include <string>

TEST_CASE("a name with a semicolon; the rest of the name") {
  const std::string joined = std::string("a") + ";" + "b";
  CHECK(joined.size() == 3);
}

TEST_CASE("a name with a comma, and more") { CHECK(std::string("x,y").find(',') == 1); }

TEST_CASE("a name with [brackets] and a | bar") { CHECK(std::string("[|]").size() == 3); }
