// Where the harness reports what it finds. doctest is the default; tests of the harness itself
// capture failures instead, so they can assert that the harness fails when it should.
#pragma once
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace rr::testing {

enum class Severity {
  Info,   // context for a failure (the reconciler's log); not a failure itself
  Error,  // the case fails and carries on (Go's t.Errorf)
  Fatal,  // the case fails and stops; the harness returns after reporting it (Go's t.Fatalf)
};

struct Failure {
  Severity severity = Severity::Error;
  std::string message{};
};

using FailureSink = std::function<void(const Failure&)>;

// Reports through doctest at file:line: ADD_FAIL_CHECK for Error and Fatal, MESSAGE for Info.
// Needs a running doctest test case.
FailureSink doctest_sink(const char* file, int line);

// Collects failures in memory.
class CapturedFailures {
 public:
  FailureSink sink();
  const std::vector<Failure>& all() const noexcept { return *failures_; }
  // Messages of Error and Fatal failures, in order.
  std::vector<std::string> messages() const;
  bool empty() const;  // no Error or Fatal failure
  void clear() { failures_->clear(); }

 private:
  std::shared_ptr<std::vector<Failure>> failures_ = std::make_shared<std::vector<Failure>>();
};

// A sink that puts `prefix` before every message ("AdditionalReconciles[0]: ...").
FailureSink prefixed_sink(FailureSink inner, std::string prefix);

}  // namespace rr::testing
