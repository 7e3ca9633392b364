#include "rr/testing/failure.hpp"

#include <doctest/doctest.h>

namespace rr::testing {

FailureSink doctest_sink(const char* file, int line) {
  return [file, line](const Failure& f) {
    if (f.severity == Severity::Info) {
      DOCTEST_ADD_MESSAGE_AT(file, line, f.message);
    } else {
      DOCTEST_ADD_FAIL_CHECK_AT(file, line, f.message);
    }
  };
}

FailureSink CapturedFailures::sink() {
  return [failures = failures_](const Failure& f) { failures->push_back(f); };
}

std::vector<std::string> CapturedFailures::messages() const {
  std::vector<std::string> out;
  for (const auto& f : *failures_) {
    if (f.severity != Severity::Info) out.push_back(f.message);
  }
  return out;
}

bool CapturedFailures::empty() const { return messages().empty(); }

FailureSink prefixed_sink(FailureSink inner, std::string prefix) {
  return [inner = std::move(inner), prefix = std::move(prefix)](const Failure& f) {
    inner(Failure{f.severity, prefix + f.message});
  };
}

}  // namespace rr::testing
