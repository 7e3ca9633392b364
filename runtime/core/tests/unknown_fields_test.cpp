#include <doctest/doctest.h>

#include <string>

#include "rr/core/unknown_fields.hpp"

TEST_CASE("UnknownFields: set/find/erase and order-insensitive equality") {
  rr::UnknownFields a;
  CHECK(a.empty());
  a.set("x", "1");
  a.set("y", R"({"k":[]})");
  a.set("x", "2");  // replaces, keeps position
  REQUIRE(a.size() == 2);
  CHECK(a.entries()[0].first == "x");
  CHECK(*a.find("x") == "2");
  CHECK(a.find("nope") == nullptr);

  rr::UnknownFields b;
  b.set("y", R"({"k":[]})");
  b.set("x", "2");
  CHECK(a == b);
  b.set("x", "3");
  CHECK_FALSE(a == b);
  CHECK(b.erase("x"));
  CHECK_FALSE(b.erase("x"));
  CHECK_FALSE(a == b);
  b.set("x", "2");
  CHECK(a == b);

  rr::UnknownFields big1, big2;
  for (int i = 0; i < 40; ++i) big1.set(std::string("k").append(std::to_string(i)), std::to_string(i));
  for (int i = 39; i >= 0; --i) big2.set(std::string("k").append(std::to_string(i)), std::to_string(i));
  CHECK(big1 == big2);
  big2.set("k7", "8");
  CHECK_FALSE(big1 == big2);
  a.clear();
  CHECK(a.empty());
}

TEST_CASE("UnknownFields: append keeps repeats, last one wins") {
  rr::UnknownFields a;
  for (int i = 0; i < 20; ++i) a.append(std::string("k").append(std::to_string(i)), "1");
  a.append("k3", "2");
  CHECK(a.size() == 21);
  CHECK(*a.find("k3") == "2");
  rr::UnknownFields b;
  for (int i = 19; i >= 0; --i) b.set(std::string("k").append(std::to_string(i)), i == 3 ? "2" : "1");
  CHECK(a == b);
  CHECK(b == a);
  CHECK(a.erase("k3"));
  CHECK(a.find("k3") == nullptr);
  CHECK(a.size() == 19);
}

