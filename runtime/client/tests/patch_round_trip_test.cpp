// create -> apply round trips for both patch formats, over seeded random documents and edits.
#include <doctest/doctest.h>

#include <random>
#include <string>

#include "rr/client/patch.hpp"

namespace {

using rr::Json;

class Random {
 public:
  explicit Random(unsigned seed) : engine_(seed) {}
  int below(int n) { return std::uniform_int_distribution<int>(0, n - 1)(engine_); }
  bool chance(int percent) { return below(100) < percent; }

  // Keys include the characters JSON pointers escape, and the empty key.
  std::string key() {
    static const char* const keys[] = {"a", "b", "c", "spec", "metadata", "a/b", "~", "~1", "", "x y", "ü"};
    return keys[below(11)];
  }

  Json value(int depth, bool allow_null) {
    const int kind = below(depth > 0 ? 8 : 5);
    switch (kind) {
      case 0: return allow_null ? Json(nullptr) : Json(below(2) == 1);
      case 1: return Json(below(2) == 1);
      case 2: return Json(below(100) - 50);
      case 3: return Json(below(1000) / 8.0);
      case 4: return Json(key());
      case 5:
      case 6: {
        Json object = Json::object();
        for (int i = below(5); i > 0; --i) object[key()] = value(depth - 1, allow_null);
        return object;
      }
      default: {
        Json array = Json::array();
        for (int i = below(5); i > 0; --i) array.push_back(value(depth - 1, allow_null));
        return array;
      }
    }
  }

  // A copy of `v` with a few random edits, at any depth.
  Json edited(const Json& v, int depth, bool allow_null) {
    if (chance(10)) return value(depth, allow_null);
    if (v.is_object()) {
      Json out = v;
      if (chance(30)) out[key()] = value(depth, allow_null);
      if (chance(30) && !out.empty()) out.erase(std::next(out.begin(), below(static_cast<int>(out.size()))));
      for (Json& member : out) {
        if (chance(40)) member = edited(member, depth - 1, allow_null);
      }
      return out;
    }
    if (v.is_array()) {
      Json out = v;
      if (chance(20)) out.push_back(value(depth, allow_null));
      if (chance(20) && !out.empty()) out.erase(out.begin() + below(static_cast<int>(out.size())));
      for (auto& item : out) {
        if (chance(40)) item = edited(item, depth - 1, allow_null);
      }
      return out;
    }
    return chance(50) ? value(depth, allow_null) : v;
  }

 private:
  std::mt19937 engine_;
};

}  // namespace

TEST_CASE("create_json_patch then apply_json_patch gives the target, on random documents") {
  Random random(20240601);
  int non_empty = 0;
  for (int i = 0; i < 500; ++i) {
    const Json from = random.value(4, true);
    const Json to = random.edited(from, 4, true);
    CAPTURE(from.dump());
    CAPTURE(to.dump());
    const Json patch = rr::create_json_patch(from, to);
    CAPTURE(patch.dump());
    CHECK(rr::apply_json_patch(from, patch) == to);
    CHECK(rr::create_json_patch(from, to) == patch);  // deterministic
    CHECK(rr::create_json_patch(to, to) == Json::array());
    if (!patch.empty()) ++non_empty;
  }
  CHECK(non_empty > 250);  // the edits really changed most documents
}

TEST_CASE("create_merge_patch then apply_merge_patch gives the target, on random documents without nulls") {
  Random random(7386);
  for (int i = 0; i < 500; ++i) {
    const Json from = random.value(4, false);
    const Json to = random.edited(from, 4, false);
    CAPTURE(from.dump());
    CAPTURE(to.dump());
    const Json patch = rr::create_merge_patch(from, to);
    CAPTURE(patch.dump());
    CHECK(rr::apply_merge_patch(from, patch) == to);
    if (from.is_object() && to.is_object()) CHECK(rr::create_merge_patch(to, to) == Json::object());
  }
}

TEST_CASE("a merge patch's nulls delete members even when `from` already had them") {
  // A documented limit of RFC 7386: a member whose value is null cannot be set by a merge patch.
  const Json from = Json::parse(R"({"a":1})");
  const Json to = Json::parse(R"({"a":null})");
  CHECK(rr::apply_merge_patch(from, rr::create_merge_patch(from, to)) == Json::object());
}
