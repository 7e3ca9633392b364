// A compiled Schema is immutable: many threads validate, default and prune with it at once and
// each gets what one thread alone gets.
#include <doctest/doctest.h>

#include <thread>

#include "support.hpp"

using rr::Json;

TEST_CASE("schema: one compiled schema used from several threads") {
  const auto schema = schema_test::compiled(Json::parse(R"({"type":"object","properties":{"spec":{"type":"object",
      "required":["name"],"properties":{"name":{"type":"string","pattern":"^[a-z]+$"},"n":{"type":"integer",
      "default":1,"maximum":5},"l":{"type":"array","x-kubernetes-list-type":"set","items":{"type":"string"}}}}}})"));
  const Json object = Json::parse(R"({"spec":{"name":"Bad","l":["a","a"],"x":1}})");
  auto admit = [&schema](Json o) {
    schema.prune(o);
    schema.apply_defaults(o);
    return schema_test::messages(schema.validate(o, nullptr));
  };
  const auto expected = admit(object);
  REQUIRE(expected.size() == 2);
  std::vector<std::vector<std::string>> results(4);
  std::vector<std::thread> threads;
  for (auto& r : results)
    threads.emplace_back([&r, &admit, &object] {
      for (int i = 0; i < 200; ++i) r = admit(object);
    });
  for (auto& t : threads) t.join();
  for (const auto& r : results) CHECK(r == expected);
}
