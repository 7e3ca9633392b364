// What the harness's own tests share: stand-in reconcilers made of lambdas (so these tests do not
// depend on the reconcilers they will be used for), and objects of the test kinds.
#pragma once
#include <chrono>
#include <functional>
#include <string>

#include "rr/reconcilers/root.hpp"
#include "rr/reconcilers/sub_reconciler.hpp"
#include "rrtest/v1/test_child.hpp"
#include "rrtest/v1/test_resource.hpp"

namespace harness {

using rrtest::v1::TestChild;
using rrtest::v1::TestResource;

// A root reconciler made of a lambda; a non-empty `invalid` is what its validate reports.
struct FakeRoot {
  std::string name = "FakeRoot";
  std::function<rr::Outcome(const rr::Request&, const rr::RequestOptions&)> fn{};
  std::string invalid{};

  std::string display_name() const { return name; }
  rr::Outcome reconcile(const rr::Request& request, const rr::RequestOptions& options) const {
    return fn ? fn(request, options) : rr::Outcome{};
  }
  void validate(rr::Validation& v) const {
    if (!invalid.empty()) v.fail(invalid);
  }
  void setup(rr::Setup&) const {}
};

// A sub-reconciler of T made of a lambda.
template <class T = TestResource>
struct FakeSub {
  std::string name = "FakeSub";
  std::function<rr::Outcome(rr::Context&, T&)> fn{};
  std::string invalid{};

  std::string display_name() const { return name; }
  rr::Outcome reconcile(rr::Context& ctx, T& resource) const { return fn ? fn(ctx, resource) : rr::Outcome{}; }
  void validate(rr::Validation& v) const {
    if (!invalid.empty()) v.fail(invalid);
  }
  void setup(rr::Setup&) const {}
};

inline TestResource resource(std::string image = "a") {
  TestResource r;
  r.metadata.namespace_ = "ns";
  r.metadata.name = "r";
  r.spec.emplace().image = std::move(image);
  return r;
}

inline TestChild child(std::string name = "r-child") {
  TestChild c;
  c.metadata.namespace_ = "ns";
  c.metadata.name = std::move(name);
  return c;
}

inline std::chrono::system_clock::time_point fixed_now() {
  return std::chrono::system_clock::time_point(std::chrono::seconds(1'700'000'000));
}

}  // namespace harness
