// The version-skew note against stand-in kubectl programs (shell scripts printing what
// `kubectl version --client -o json` prints).
#include <doctest/doctest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <fstream>
#include <string>

#include "rr/apiserver/kubectl_skew.hpp"

namespace {

// A kubectl that prints `json` for any arguments; removed at the end of the scope.
class FakeKubectl {
 public:
  explicit FakeKubectl(const std::string& json) {
    char dir[] = "/tmp/rr-kubectl-XXXXXX";
    REQUIRE(mkdtemp(dir) != nullptr);
    dir_ = dir;
    path_ = dir_ + "/kubectl";
    std::ofstream(path_) << "#!/bin/sh\ncat <<'EOF'\n" << json << "\nEOF\n";
    REQUIRE(chmod(path_.c_str(), 0755) == 0);
  }
  ~FakeKubectl() {
    unlink(path_.c_str());
    rmdir(dir_.c_str());
  }
  FakeKubectl(const FakeKubectl&) = delete;
  FakeKubectl& operator=(const FakeKubectl&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string dir_, path_;
};

std::string client(const char* minor, const char* git_version) {
  return std::string(R"({"clientVersion": {"major": "1", "minor": ")") + minor + R"(", "gitVersion": ")" +
         git_version + R"("}, "kustomizeVersion": "v5.5.0"})";
}

}  // namespace

TEST_CASE("kubectl skew: a kubectl three minors behind gets a note naming its version and the gap") {
  FakeKubectl kubectl(client("32", "v1.32.4-dispatcher"));
  const auto note = rr::apiserver_detail::kubectl_skew_note(kubectl.path(), 35);
  REQUIRE(note.has_value());
  CHECK(note->find("kubectl v1.32.4-dispatcher") != std::string::npos);
  CHECK(note->find("is 3 minor versions from this server's 1.35") != std::string::npos);
  CHECK(note->find("kubectl 1.34 to 1.36") != std::string::npos);
}

TEST_CASE("kubectl skew: within one minor (either way, \"34+\" too) there is nothing to say") {
  for (const char* minor : {"34", "35", "36", "34+"}) {
    CAPTURE(minor);
    FakeKubectl kubectl(client(minor, "v1.x"));
    CHECK_FALSE(rr::apiserver_detail::kubectl_skew_note(kubectl.path(), 35).has_value());
  }
  FakeKubectl ahead(client("38+", "v1.38.0"));
  CHECK(rr::apiserver_detail::kubectl_skew_note(ahead.path(), 35).has_value());
}

TEST_CASE("kubectl skew: no kubectl, or output that is not its JSON, gives no note and no error") {
  CHECK_FALSE(rr::apiserver_detail::kubectl_skew_note("/nonexistent/kubectl", 35).has_value());
  FakeKubectl garbage("Client Version: v1.32.4");
  CHECK_FALSE(rr::apiserver_detail::kubectl_skew_note(garbage.path(), 35).has_value());
  FakeKubectl no_minor(R"({"clientVersion": {"major": "1"}})");
  CHECK_FALSE(rr::apiserver_detail::kubectl_skew_note(no_minor.path(), 35).has_value());
}
