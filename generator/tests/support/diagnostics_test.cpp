#include "support/diagnostics.hpp"

#include <doctest/doctest.h>

#include <string>
#include <thread>
#include <vector>

using namespace rrgen;

TEST_CASE("interned file names: one stable copy per name") {
  const std::string* a = intern_file_name("interned/a.yaml");
  CHECK(*a == "interned/a.yaml");
  CHECK(intern_file_name(std::string("interned/a.yaml")) == a);
  CHECK(intern_file_name("interned/b.yaml") != a);
  for (int i = 0; i < 1000; ++i) intern_file_name("interned/many-" + std::to_string(i) + ".yaml");
  CHECK(intern_file_name("interned/a.yaml") == a);  // addresses survive later names
  CHECK(*a == "interned/a.yaml");
  CHECK(format_location({a, 3, 7}) == "interned/a.yaml:3:7");
}

TEST_CASE("interned file names: threads interning the same names agree") {
  constexpr int kThreads = 4, kNames = 200;
  std::vector<std::vector<const std::string*>> seen(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&seen, t] {
      for (int i = 0; i < kNames; ++i) seen[t].push_back(intern_file_name("threads/" + std::to_string(i)));
    });
  for (auto& t : threads) t.join();
  for (int t = 1; t < kThreads; ++t) CHECK(seen[t] == seen[0]);
  for (int i = 0; i < kNames; ++i) CHECK(*seen[0][i] == "threads/" + std::to_string(i));
}
