#include <doctest/doctest.h>

#include <string>
#include <string_view>
#include <vector>

#include "rr/core/pattern.hpp"
#include "rr/core/validator.hpp"

namespace {

// Runs `check` at path `path` (dot-separated fields) and returns the single message.
template <class F>
std::string one(std::string_view path, F&& check) {
  rr::Validator v;
  std::string p(path);
  // Build the path with field scopes, the way generated validate() does.
  std::size_t start = 0;
  std::vector<std::string> parts;
  while (start <= p.size()) {
    const auto dot = p.find('.', start);
    parts.push_back(p.substr(start, dot == std::string::npos ? std::string::npos : dot - start));
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  auto run = [&](auto& self, std::size_t i) -> void {
    if (i == parts.size()) {
      check(v);
      return;
    }
    auto s = v.field(parts[i]);
    self(self, i + 1);
  };
  run(run, 0);
  if (v.errors().size() != 1) {
    FAIL_CHECK("expected one finding, got " << v.errors().size());
    return {};
  }
  return v.errors()[0].message;
}

template <class F>
bool passes(F&& check) {
  rr::Validator v("x");
  check(v);
  return v.errors().empty();
}

}  // namespace

TEST_CASE("Validator: field paths and scopes") {
  rr::Validator v;
  CHECK(v.path().empty());
  {
    auto spec = v.field("spec");
    CHECK(v.path() == "spec");
    {
      auto x = v.field("x");
      CHECK(v.path() == "spec.x");
      {
        auto i = v.index(2);
        CHECK(v.path() == "spec.x[2]");
      }
      {
        auto k = v.key("a.b");
        CHECK(v.path() == "spec.x[a.b]");
        v.required("name");
      }
      CHECK(v.path() == "spec.x");
    }
    v.required();
  }
  CHECK(v.path().empty());
  REQUIRE(v.errors().size() == 2);
  CHECK(v.errors()[0].path == "spec.x[a.b].name");
  CHECK(v.errors()[0].type == rr::FieldErrorType::Required);
  CHECK(v.errors()[0].message == "spec.x[a.b].name: Required value");
  CHECK(v.errors()[1].message == "spec: Required value");
  rr::Validator rooted("metadata");
  rooted.required("name");
  CHECK(rooted.errors()[0].message == "metadata.name: Required value");
  const auto taken = rooted.take();
  CHECK(taken.size() == 1);
  rr::Validator g;
  {
    auto s = g.field("spec");
    g.add(rr::FieldErrorType::Forbidden, "may not be set");
    g.add(rr::FieldErrorType::Invalid, "");
  }
  CHECK(g.errors()[0].message == "spec: Forbidden: may not be set");
  CHECK(g.errors()[1].message == "spec: Invalid value");
  CHECK(rr::to_string(rr::FieldErrorType::NotSupported) == "Unsupported value");
}

TEST_CASE("Validator: numbers") {
  CHECK(one("spec.replicas", [](auto& v) { v.maximum(7, 5, false); }) ==
        "spec.replicas: Invalid value: 7: spec.replicas in body should be less than or equal to 5");
  CHECK(one("spec.replicas", [](auto& v) { v.maximum(5, 5, true); }) ==
        "spec.replicas: Invalid value: 5: spec.replicas in body should be less than 5");
  CHECK(one("spec.replicas", [](auto& v) { v.minimum(-1, 0, false); }) ==
        "spec.replicas: Invalid value: -1: spec.replicas in body should be greater than or equal to 0");
  CHECK(one("spec.ratio", [](auto& v) { v.minimum(0.5, 0.5, true); }) ==
        "spec.ratio: Invalid value: 0.5: spec.ratio in body should be greater than 0.5");
  CHECK(one("spec.ratio", [](auto& v) { v.maximum(2.75, 2.5, false); }) ==
        "spec.ratio: Invalid value: 2.75: spec.ratio in body should be less than or equal to 2.5");
  CHECK(one("spec.n", [](auto& v) { v.multiple_of(7, 2); }) ==
        "spec.n: Invalid value: 7: spec.n in body should be a multiple of 2");
  CHECK(one("spec.big", [](auto& v) { v.maximum(1e22, 1e21, false); }) ==
        "spec.big: Invalid value: 1e+22: spec.big in body should be less than or equal to 1e+21");
  CHECK(one("spec.tiny", [](auto& v) { v.minimum(0.00001, 0.0001, false); }) ==
        "spec.tiny: Invalid value: 1e-05: spec.tiny in body should be greater than or equal to 0.0001");
  CHECK(one("spec.mid", [](auto& v) { v.maximum(123456.789, 1e20, true); v.maximum(1.5e20, 1e20, false); }) ==
        "spec.mid: Invalid value: 150000000000000000000: spec.mid in body should be less than or equal to 100000000000000000000");
  CHECK(passes([](auto& v) { v.maximum(5, 5, false); }));
  CHECK(passes([](auto& v) { v.minimum(0, 0, false); }));
  CHECK(passes([](auto& v) { v.multiple_of(0.3, 0.1); }));  // float tolerance, as go-openapi
  CHECK(passes([](auto& v) { v.multiple_of(12, 4); }));
}

TEST_CASE("Validator: strings") {
  CHECK(one("spec.name", [](auto& v) { v.min_length("", 1); }) ==
        R"(spec.name: Invalid value: "": spec.name in body should be at least 1 chars long)");
  CHECK(one("spec.name", [](auto& v) { v.max_length("abcd", 3); }) == "spec.name: Too long: may not be longer than 3");
  CHECK(passes([](auto& v) { v.max_length("h\xC3\xA9llo", 5); }));  // code points, not bytes
  CHECK_FALSE(passes([](auto& v) { v.min_length("h\xC3\xA9", 3); }));
  const rr::Pattern lower("^[a-z]+$");
  CHECK(one("spec.name", [&](auto& v) { v.pattern("X1", lower); }) ==
        R"(spec.name: Invalid value: "X1": spec.name in body should match '^[a-z]+$')");
  CHECK(one("spec.name", [&](auto& v) { v.pattern("a\"b\n", lower); }) ==
        R"(spec.name: Invalid value: "a\"b\n": spec.name in body should match '^[a-z]+$')");
  const rr::Pattern unanchored("b");
  CHECK(unanchored.ok());
  CHECK(passes([&](auto& v) { v.pattern("abc", unanchored); }));  // Go's MatchString is a search
  const rr::Pattern bad("(");
  CHECK_FALSE(bad.ok());
  CHECK_FALSE(bad.error().empty());
  CHECK_FALSE(bad.search("("));
  CHECK_FALSE(passes([&](auto& v) { v.pattern("x", bad); }));
  const rr::Pattern re2_syntax(R"(^\p{Lu}\d+$)");  // RE2 classes work
  CHECK(re2_syntax.search("A12"));
}

TEST_CASE("Validator: collections") {
  CHECK(one("spec.items", [](auto& v) { v.max_items(4, 3); }) == "spec.items: Too many: 4: must have at most 3 items");
  CHECK(one("spec.items", [](auto& v) { v.min_items(0, 1); }) ==
        "spec.items: Invalid value: 0: spec.items in body should have at least 1 items");
  CHECK(one("spec.labels", [](auto& v) { v.max_properties(4, 3); }) ==
        "spec.labels: Too many: 4: must have at most 3 items");
  CHECK(one("spec.labels", [](auto& v) { v.min_properties(1, 2); }) ==
        "spec.labels: Invalid value: 1: spec.labels in body should have at least 2 properties");
  CHECK(passes([](auto& v) { v.max_items(3, 3); }));
  CHECK(passes([](auto& v) { v.min_properties(2, 2); }));
  {
    rr::Validator v;
    auto s = v.field("spec");
    auto p = v.field("ports");
    const std::vector<std::string> keys = {R"({"port":80})", R"({"port":80})", R"({"port":81})", R"({"port":80})"};
    v.unique(keys);
    REQUIRE(v.errors().size() == 2);
    CHECK(v.errors()[0].path == "spec.ports[1]");
    CHECK(v.errors()[0].type == rr::FieldErrorType::Duplicate);
    CHECK(v.errors()[0].message == R"(spec.ports[1]: Duplicate value: {"port":80})");
    CHECK(v.errors()[1].message == R"(spec.ports[3]: Duplicate value: {"port":80})");
  }
  {
    rr::Validator v("spec.tags");
    std::vector<std::string> keys;
    for (int i = 0; i < 50; ++i) keys.push_back(std::string("\"t").append(std::to_string(i % 40)).append("\""));
    v.unique(keys);
    REQUIRE(v.errors().size() == 10);
    CHECK(v.errors()[0].message == R"(spec.tags[40]: Duplicate value: "t0")");
  }
}

TEST_CASE("Validator: enums") {
  static constexpr std::string_view modes[] = {"Fast", "Slow"};
  CHECK(one("spec.mode", [](auto& v) { v.enum_string("Medium", modes); }) ==
        R"(spec.mode: Unsupported value: "Medium": supported values: "Fast", "Slow")");
  CHECK(passes([](auto& v) { v.enum_string("Slow", modes); }));
  static constexpr std::string_view numbers[] = {"1", "2"};
  CHECK(one("spec.n", [](auto& v) { v.enum_value("3", numbers); }) ==
        R"(spec.n: Unsupported value: 3: supported values: "1", "2")");
  CHECK(passes([](auto& v) { v.enum_value("2.0", numbers); }));
  static constexpr std::string_view strings[] = {R"("a")", R"("b")"};
  CHECK(one("spec.s", [](auto& v) { v.enum_value(R"("c")", strings); }) ==
        R"(spec.s: Unsupported value: "c": supported values: "a", "b")");
  CHECK(passes([](auto& v) { v.enum_value(R"("a")", strings); }));
  CHECK(passes([](auto& v) { v.enum_value(R"("\u0061")", strings); }));  // same value, other spelling
  static constexpr std::string_view objects[] = {R"({"a":1,"b":[true]})"};
  CHECK(passes([](auto& v) { v.enum_value(R"({"b":[true],"a":1.0})", objects); }));
}

TEST_CASE("Validator: formats") {
  CHECK(one("spec.at", [](auto& v) { v.format("nope", rr::Format::DateTime); }) ==
        R"(spec.at: Invalid value: "nope": spec.at in body must be of type date-time: "nope")");
  const std::string long_label = std::string(64, 'a') + ".com";
  struct Case {
    rr::Format f;
    std::vector<const char*> good, bad;
  };
  const std::vector<Case> cases = {
      {rr::Format::DateTime,
       {"2024-05-01T12:00:00Z", "2024-05-01t12:00:00.5z", "2024-05-01T12:00:00+05:30", "0001-01-01T00:00:00Z"},
       {"2024-05-01", "2024-13-01T00:00:00Z", "x", ""}},
      {rr::Format::Date, {"2024-02-29", "1999-12-31"}, {"2023-02-29", "2024-1-01", "2024-01-01T00:00:00Z", ""}},
      {rr::Format::Byte, {"", "Zm9v", "Zg==", "Zm8="}, {"Zg=", "Zm9v\n", "Zm9v!", "Z==="}},
      {rr::Format::Int32, {"2147483647", "-2147483648", "0"}, {"2147483648", "1.5", "x", ""}},
      {rr::Format::Int64, {"9223372036854775807"}, {"9223372036854775808", "1e3"}},
      {rr::Format::IPv4, {"192.168.0.1", "0.0.0.0", "::ffff:1.2.3.4"}, {"256.1.1.1", "01.1.1.1", "1.2.3", "::1", ""}},
      {rr::Format::IPv6,
       {"::1", "::", "2001:db8::8a2e:370:7334", "::ffff:1.2.3.4", "1:2:3:4:5:6:7:8", "fe80::1:2"},
       {"1:2:3:4:5:6:7:8:9", "1::2::3", "12345::", ":1", "1:", "1.2.3.4", "1:2:3:4:5:6:7", "::1%eth0", "g::1"}},
      {rr::Format::UUID,
       {"123e4567-e89b-12d3-a456-426614174000", "123E4567-E89B-12D3-A456-426614174000"},
       {"123e4567e89b12d3a456426614174000", "123e4567-e89b-12d3-a456-42661417400", "x"}},
      {rr::Format::Duration, {"1h30m", "300ms", "-1.5h", "0", "1us", "3 days", "1d", "2 weeks"}, {"abc", "5", "", "1x"}},
      {rr::Format::Hostname,
       {"example.com", "a-b.c", "localhost", "a1"},
       {"-a.com", "a..b", "", "a_b", "a-.com", long_label.c_str()}},
      {rr::Format::URI, {"https://example.com/x", "/abs/path", "urn:isbn:123", "s3://bucket"},
       {"relative/path", "", "ht tp://x", "1http://x"}},
      {rr::Format::CIDR, {"10.0.0.0/8", "::/0", "192.168.1.1/32", "2001:db8::/128"},
       {"10.0.0.0/33", "10.0.0.0", "x/8", "::/129", "10.0.0.0/"}},
      {rr::Format::MAC,
       {"00:1a:2b:3c:4d:5e", "00-1A-2B-3C-4D-5E", "001a.2b3c.4d5e", "00:00:00:00:fe:80:00:00"},
       {"00:1a:2b:3c:4d", "001a2b3c4d5e", "00:1a-2b:3c:4d:5e", "0g:1a:2b:3c:4d:5e"}},
  };
  for (const auto& c : cases) {
    for (const char* g : c.good) {
      CAPTURE(g);
      CHECK(passes([&](auto& v) { v.format(g, c.f); }));
    }
    for (const char* b : c.bad) {
      CAPTURE(b);
      CHECK_FALSE(passes([&](auto& v) { v.format(b, c.f); }));
    }
  }
  CHECK(passes([](auto& v) { v.format("anything at all", rr::Format::None); }));
}
