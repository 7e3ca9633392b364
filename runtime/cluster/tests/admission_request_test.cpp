// The AdmissionFn contract: what admission is told about a write (old object, status), and what the
// cluster does with its answer (422 with every cause, unknown fields by fieldValidation, warnings).
#include <string>
#include <vector>

#include "test_support.hpp"

using namespace cluster_test;

namespace {

// Records each request and answers with pruning of "spec.extra" and an error when spec.size > 5.
struct Recorder {
  struct Seen {
    bool status;
    bool had_old;
    Json old_spec;
  };
  std::vector<Seen> seen;

  rr::Cluster::AdmissionFn fn() {
    return [this](const rr::AdmissionRequest& r) {
      seen.push_back({r.status, r.old_object != nullptr, r.old_object ? r.old_object->value("spec", Json()) : Json()});
      rr::AdmissionResponse response;
      if (r.object.contains("spec") && r.object["spec"].contains("extra")) {
        r.object["spec"].erase("extra");
        response.unknown_fields.push_back("spec.extra");
      }
      if (r.object.value("/spec/size"_json_pointer, 0) > 5) {
        response.errors.push_back({"spec.size", rr::FieldErrorType::Invalid, "spec.size: Invalid value: 6: too big"});
        response.errors.push_back({"spec", rr::FieldErrorType::Invalid, "spec: Invalid value: \"object\": second"});
      }
      if (r.status) response.warnings.push_back("status seen");
      return response;
    };
  }
};

Json thing_with_spec(const std::string& name, Json spec) {
  return {{"apiVersion", "things.test/v1"},
          {"kind", "Thing"},
          {"metadata", {{"name", name}, {"namespace", "default"}}},
          {"spec", std::move(spec)}};
}

rr::WriteOptions validation(rr::FieldValidation v, std::vector<std::string>* warnings) {
  rr::WriteOptions o;
  o.field_validation = v;
  o.warnings = warnings;
  return o;
}

}  // namespace

TEST_CASE("admission gets the old object on update and none on create, and runs on status writes") {
  auto cluster = make_cluster();
  Recorder rec;
  cluster->register_kind(thing_kind(), rec.fn());
  Json created = cluster->create(thing_kind(), thing_with_spec("a", {{"size", 1}}));
  created["spec"]["size"] = 2;
  Json updated = cluster->update(thing_kind(), created);
  updated["status"] = {{"ready", true}};
  std::vector<std::string> warnings;
  cluster->update_status(thing_kind(), updated, validation(rr::FieldValidation::Default, &warnings));
  REQUIRE(rec.seen.size() == 3);
  CHECK_FALSE(rec.seen[0].status);
  CHECK_FALSE(rec.seen[0].had_old);
  CHECK(rec.seen[1].had_old);
  CHECK(rec.seen[1].old_spec == Json{{"size", 1}});
  CHECK(rec.seen[2].status);
  CHECK(rec.seen[2].old_spec == Json{{"size", 2}});
  CHECK(warnings == std::vector<std::string>{"status seen"});
}

TEST_CASE("every cause of a refused write is in the 422, and nothing is stored") {
  auto cluster = make_cluster();
  Recorder rec;
  cluster->register_kind(thing_kind(), rec.fn());
  const rr::Status s = failure_of([&] { cluster->create(thing_kind(), thing_with_spec("a", {{"size", 6}})); });
  CHECK(s.code == 422);
  REQUIRE(s.causes.size() == 2);
  CHECK(s.causes[0].field == "spec.size");
  CHECK(s.causes[1].field == "spec");
  CHECK(failure_of([&] { cluster->get(thing_kind(), {"default", "a"}); }).code == 404);
}

TEST_CASE("a status write that admission refuses leaves the object as it was") {
  auto cluster = make_cluster();
  Recorder rec;
  cluster->register_kind(thing_kind(), rec.fn());
  Json created = cluster->create(thing_kind(), thing_with_spec("a", {{"size", 1}}));
  Json bad = created;
  bad["spec"]["size"] = 9;  // ignored by a status write: the stored spec is admitted
  bad["status"] = {{"ready", true}};
  Json written = cluster->update_status(thing_kind(), bad);
  CHECK(written["spec"]["size"] == 1);
  CHECK(written["status"]["ready"] == true);
}

TEST_CASE("unknown fields: Strict refuses with 400, Warn and the default warn, Ignore is silent") {
  auto cluster = make_cluster();
  Recorder rec;
  cluster->register_kind(thing_kind(), rec.fn());
  std::vector<std::string> warnings;
  const rr::Status strict = failure_of([&] {
    cluster->create(thing_kind(), thing_with_spec("s", {{"extra", 1}}),
                    validation(rr::FieldValidation::Strict, &warnings));
  });
  CHECK(strict.code == 400);
  CHECK(strict.reason == "BadRequest");
  CHECK(strict.message ==
        "Thing in version \"v1\" cannot be handled as a Thing: strict decoding error: unknown field \"spec.extra\"");

  Json warned = cluster->create(thing_kind(), thing_with_spec("w", {{"extra", 1}}),
                                validation(rr::FieldValidation::Warn, &warnings));
  CHECK_FALSE(warned["spec"].contains("extra"));
  CHECK(warnings == std::vector<std::string>{"unknown field \"spec.extra\""});

  warnings.clear();
  cluster->create(thing_kind(), thing_with_spec("d", {{"extra", 1}}),
                  validation(rr::FieldValidation::Default, &warnings));
  CHECK(warnings.size() == 1);

  warnings.clear();
  Json ignored = cluster->create(thing_kind(), thing_with_spec("i", {{"extra", 1}}),
                                 validation(rr::FieldValidation::Ignore, &warnings));
  CHECK_FALSE(ignored["spec"].contains("extra"));
  CHECK(warnings.empty());
}

TEST_CASE("a generated type's admission (AdmitFn) still skips status writes") {
  auto cluster = make_cluster();
  int calls = 0;
  cluster->register_kind(thing_kind(), [&calls](Json&) {
    ++calls;
    return std::vector<rr::FieldError>{};
  });
  Json created = cluster->create(thing_kind(), thing_with_spec("a", {{"size", 1}}));
  created["status"] = {{"ready", true}};
  cluster->update_status(thing_kind(), created);
  CHECK(calls == 1);
}
