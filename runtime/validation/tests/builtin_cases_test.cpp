// The built-in kinds' own validation against the project's case tables (tests/data/builtin/*.json):
// each case edits a valid base object (JSON pointers set or removed), optionally as an update of
// another edit of the base, and lists the causes the API server of 1.35 reports, in order, as the
// text of a 422's causes ("<field>: <type>: <value>: <detail>"); none for a valid object.
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "case_object.hpp"
#include "rr/validation/builtin.hpp"

using rr::Json;

namespace {

Json read_json(const std::string& path) {
  std::ifstream in(path);
  REQUIRE_MESSAGE(in.good(), path);
  std::stringstream text;
  text << in.rdbuf();
  return Json::parse(text.str());
}

std::string joined(const std::vector<std::string>& lines) {
  std::string s;
  for (const std::string& l : lines) s += "\n    " + l;
  return s.empty() ? " (none)" : s;
}

void run_table(const char* file) {
  const Json doc = read_json(std::string(RR_VALIDATION_TEST_DATA) + "/builtin/" + file);
  const std::string group = doc.at("group");
  const std::string version = doc.at("version");
  const std::string kind = doc.at("kind");
  REQUIRE(rr::validation::find_builtin_validator(group, version, kind) != nullptr);
  const Json& base = doc.at("base");
  const Json none;
  for (const Json& c : doc.at("cases")) {
    const Json object = rr::validation_test::case_object(base, c.value("set", none), c.value("remove", none));
    const bool update = c.value("update", false);
    const Json old = rr::validation_test::case_object(base, c.value("old_set", none), c.value("old_remove", none));
    const rr::validation::ErrorList errs = rr::validation::validate_builtin(group, version, kind, object,
                                                                            update ? &old : nullptr);
    std::vector<std::string> got;
    for (const auto& e : errs) got.push_back(e.to_string());
    const std::vector<std::string> want = c.at("causes").get<std::vector<std::string>>();
    CHECK_MESSAGE(got == want, kind << ": " << c.at("name").get<std::string>() << "\n  want:" << joined(want)
                                    << "\n  got:" << joined(got));
  }
}

}  // namespace

TEST_CASE("built-in cases: Pod") { run_table("pod.json"); }
TEST_CASE("built-in cases: PodTemplate") { run_table("pod_template.json"); }
TEST_CASE("built-in cases: ReplicationController") { run_table("replication_controller.json"); }
TEST_CASE("built-in cases: Deployment") { run_table("deployment.json"); }
TEST_CASE("built-in cases: ReplicaSet") { run_table("replica_set.json"); }
TEST_CASE("built-in cases: StatefulSet") { run_table("stateful_set.json"); }
TEST_CASE("built-in cases: DaemonSet") { run_table("daemon_set.json"); }
TEST_CASE("built-in cases: Job") { run_table("job.json"); }
TEST_CASE("built-in cases: CronJob") { run_table("cron_job.json"); }
