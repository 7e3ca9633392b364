// The ways a manifest can be admitted, side by side for the agreement tests: the local cluster's
// HTTP API server (a dry-run POST), rrgen-validate's checker and the in-process rr::Cluster of table
// tests (built-in kinds only). Each path answers the same question (what Status would a dry-run
// create get?), so a new path is one more Column.
#pragma once
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "rr/client/api_error.hpp"
#include "rr/cluster/cluster.hpp"
#include "rr/core/json.hpp"
#include "rr/manifest_check/checker.hpp"
#include "test_server.hpp"

namespace rr::manifest_check_test {

// What a path answered: 201 and no causes when admitted (AlreadyExists counts as admitted: see
// Checker::check).
struct Verdict {
  int code = 201;
  std::string message;
  std::vector<StatusCause> causes;
  bool operator==(const Verdict&) const = default;
};
std::string describe(const Verdict& v);

struct Column {
  std::string name;
  std::function<Json(const Json& crd)> add_crd;  // the CRD as created, or throws ApiError
  std::function<Verdict(const Json& object)> admit;
  // A stored create (an admission policy, its binding, a params object): its verdict.
  std::function<Verdict(const Json& object)> create;
};

// The HTTP API server on an ephemeral port: CRDs POSTed, objects POSTed with dryRun=All and
// fieldValidation=Warn (or Strict), a namespaced object without a namespace sent to "default".
class HttpColumn {
 public:
  explicit HttpColumn(bool strict = false);
  Column column();

 private:
  std::shared_ptr<apiserver_test::TestServer> server_;
  bool strict_;
};

// The in-process rr::Cluster of table tests: every built-in kind of rr::builtin registered with its
// generated type's defaulting and validation, as register_kind<T>() does (built-in kinds only:
// custom resources are not registered from CRDs there). A dry-run create in namespace "default".
class InProcessColumn {
 public:
  InProcessColumn();
  Column column();

 private:
  std::shared_ptr<Cluster> cluster_;
};

// rrgen-validate's checker (rr::OfflineAdmission).
class CheckerColumn {
 public:
  explicit CheckerColumn(bool strict = false);
  Column column();

 private:
  std::shared_ptr<manifest_check::Checker> checker_;
};

}  // namespace rr::manifest_check_test
