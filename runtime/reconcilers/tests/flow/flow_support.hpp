// What the flow tests share: a lambda-made sub-reconciler (the tests' stand-in for
// SyncReconciler), a request context, and a log capture.
#pragma once
#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "rr/reconcilers/context.hpp"
#include "rr/reconcilers/result.hpp"
#include "rr/reconcilers/sub_reconciler.hpp"
#include "rrtest/v1/test_child.hpp"
#include "rrtest/v1/test_resource.hpp"

namespace flowtest {

using rrtest::v1::TestResource;
using namespace std::chrono_literals;

// A sub-reconciler made of a lambda. `watches` is what its setup asks for; a non-empty
// `invalid` is the finding its validate reports.
template <class T = TestResource>
struct Step {
  std::string name = "Step";
  std::function<rr::Outcome(rr::Context&, T&)> fn;
  std::optional<rr::KindInfo> watches;
  std::string invalid;

  std::string display_name() const { return name; }
  rr::Outcome reconcile(rr::Context& ctx, T& resource) const { return fn ? fn(ctx, resource) : rr::Outcome{}; }
  void validate(rr::Validation& v) const {
    if (!invalid.empty()) v.fail(invalid);
  }
  void setup(rr::Setup& s) const {
    if (watches) s.watches_tracked(*watches);
  }
};

// A step that appends `label` to `trace` and returns `outcome`.
template <class T = TestResource>
Step<T> traced(std::vector<std::string>& trace, std::string label, rr::Outcome outcome = {}) {
  Step<T> s;
  s.name = label;
  s.fn = [&trace, label, outcome](rr::Context&, T&) {
    trace.push_back(label);
    return outcome;
  };
  return s;
}

inline rr::Result requeue_after(std::chrono::nanoseconds d) {
  rr::Result r;
  r.requeue_after = d;
  return r;
}
inline rr::Result requeue() {
  rr::Result r;
  r.requeue = true;
  return r;
}

inline rr::KindInfo child_kind() { return rr::kind_info_of<rrtest::v1::TestChild>(); }
inline rr::KindInfo resource_kind() { return rr::kind_info_of<TestResource>(); }

// Records the logger names of every line logged.
struct LogCapture {
  std::shared_ptr<std::vector<std::string>> names = std::make_shared<std::vector<std::string>>();
  rr::Logger logger() const {
    auto sink = std::make_shared<const rr::LogSink>([names = names](const rr::LogRecord& r) { names->push_back(r.logger); });
    return rr::Logger(sink);
  }
};

inline rr::Context make_context(rr::Config config = {}, rr::Logger log = {}) {
  rr::ContextOptions options;
  options.config = std::move(config);
  options.request = rr::Request{"default", "resource"};
  options.resource_type = resource_kind();
  options.log = std::move(log);
  return rr::Context(std::move(options));
}

// Validation findings of a reconciler, walked as validate_reconciler() does.
template <class R>
std::vector<std::string> findings(const R& r, bool recursive = true) {
  rr::Validation v(recursive);
  {
    auto scope = v.enter(r.display_name());
    r.validate(v);
  }
  return v.errors();
}

template <class R>
std::vector<rr::WatchRequest> watches_of(const R& r, rr::Config config = {}) {
  rr::Setup s(std::move(config));
  r.setup(s);
  return s.watches();
}

}  // namespace flowtest
