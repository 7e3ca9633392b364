// metadata.resourceVersion and ?resourceVersion= read as the API server's storage reads them
// (APIObjectVersioner): strconv.ParseUint, so numbers compare as numbers and a malformed version
// is the registry's unconverted error, a 500 without a reason.
#include "rr/client/resource_version.hpp"
#include "test_support.hpp"

using namespace cluster_test;

TEST_CASE("resourceVersion: parsed as strconv.ParseUint(rv, 10, 64)") {
  CHECK(rr::parse_resource_version("").value == 0);
  CHECK(rr::parse_resource_version("").error.empty());
  CHECK(rr::parse_resource_version("007").value == 7);
  CHECK(rr::parse_resource_version("18446744073709551615").value == 18446744073709551615ULL);
  CHECK(rr::parse_resource_version("abc").error == R"(strconv.ParseUint: parsing "abc": invalid syntax)");
  CHECK(rr::parse_resource_version("-1").error == R"(strconv.ParseUint: parsing "-1": invalid syntax)");
  CHECK(rr::parse_resource_version("1.5").error == R"(strconv.ParseUint: parsing "1.5": invalid syntax)");
  CHECK(rr::parse_resource_version("+1").error == R"(strconv.ParseUint: parsing "+1": invalid syntax)");
  CHECK(rr::parse_resource_version("18446744073709551616").error ==
        R"(strconv.ParseUint: parsing "18446744073709551616": value out of range)");
  // Go stops at the first digit that overflows: a later bad character is never seen.
  CHECK(rr::parse_resource_version("99999999999999999999x").error ==
        R"(strconv.ParseUint: parsing "99999999999999999999x": value out of range)");
}

TEST_CASE("update with a malformed resourceVersion: a reasonless 500 with the strconv error") {
  auto cluster = make_cluster();
  cluster->create(thing_kind(), thing("default", "a"));
  for (const char* rv : {"abc", "-1", "1.5"}) {
    CAPTURE(rv);
    Json request = thing("default", "a");
    request["metadata"]["resourceVersion"] = rv;
    const rr::Status s = failure_of([&] { cluster->update(thing_kind(), request); });
    CHECK(s.code == 500);
    CHECK(s.reason.empty());
    CHECK(s.message == std::string("strconv.ParseUint: parsing \"") + rv + "\": invalid syntax");
    const rr::Status st = failure_of([&] { cluster->update_status(thing_kind(), request); });
    CHECK(st.code == 500);
  }
}

TEST_CASE("update: versions compare as numbers, and \"0\" is no version") {
  auto cluster = make_cluster();
  const Json created = cluster->create(thing_kind(), thing("default", "a"));
  Json padded = created;
  padded["metadata"]["resourceVersion"] = "00" + created["metadata"]["resourceVersion"].get<std::string>();
  padded["spec"]["size"] = 4;
  CHECK(cluster->update(thing_kind(), padded)["spec"]["size"] == 4);

  Json zero = cluster->get(thing_kind(), {"default", "a"});
  zero["metadata"]["resourceVersion"] = "0";
  const rr::Status s = failure_of([&] { cluster->update(thing_kind(), zero); });
  CHECK(s.code == 422);
  // The registry names the resource, not the Kind, in this one Invalid.
  CHECK(s.message == "things.things.test \"a\" is invalid: metadata.resourceVersion: Invalid value: 0x0: must be "
                     "specified for an update");
  CHECK(s.details_kind == "things");
}

TEST_CASE("patch naming a malformed resourceVersion: the same 500") {
  auto cluster = make_cluster();
  cluster->create(thing_kind(), thing("default", "a"));
  const rr::Status s = failure_of([&] {
    cluster->patch(thing_kind(), {"default", "a"}, rr::PatchType::Merge, R"({"metadata":{"resourceVersion":"x1"}})");
  });
  CHECK(s.code == 500);
  CHECK(s.message == R"(strconv.ParseUint: parsing "x1": invalid syntax)");
}

TEST_CASE("list and watch from a malformed resourceVersion: the versioner's Invalid text in a 500") {
  auto cluster = make_cluster();
  const rr::Status l = failure_of([&] { cluster->list(thing_kind(), since("abc")); });
  CHECK(l.code == 500);
  CHECK(l.reason.empty());
  CHECK(l.message == R"(resourceVersion: Invalid value: "abc": strconv.ParseUint: parsing "abc": invalid syntax)");
  const rr::Status w = failure_of([&] { cluster->watch(thing_kind(), since("-1")); });
  CHECK(w.code == 500);
  CHECK(w.message == R"(resourceVersion: Invalid value: "-1": strconv.ParseUint: parsing "-1": invalid syntax)");
  CHECK(cluster->list(thing_kind(), since("0"))["items"].empty());
}
