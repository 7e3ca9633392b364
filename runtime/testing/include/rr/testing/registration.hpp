// Each case of a table as its own doctest test case, named "<suite>/<case>", so ctest lists,
// filters and reports every case (doctest_discover_tests / rrgen_discover_doctests):
//
//   RR_RECONCILER_TESTS("WidgetReconciler", [](const rr::testing::ReconcilerTestCase&, const rr::Config& c) {
//     return widget_reconciler(c);
//   }) {
//     return rr::testing::ReconcilerTests{ {"creates the child", {...}}, ... };
//   }
//
//   RR_SUB_RECONCILER_TESTS("SyncImage", rrtest::v1::TestResource, factory) {
//     return rr::testing::SubReconcilerTestSuite<rrtest::v1::TestResource>{ {.name = "...", ...} };
//   }
//
//   RR_ADMISSION_WEBHOOK_TESTS("WidgetDefaulting", factory) {
//     return rr::testing::AdmissionWebhookTests{ {"defaults the image", {...}}, ... };
//   }
//
// The body may return the map form (cases named by their keys, run in name order) or the
// vector form (in the order listed; a repeated name gets "#01", "#02" as Go's t.Run does). The
// table function runs once, when the doctest session starts (not during static initialisation,
// so it may use globals of other files). A skipped case is registered as skipped (ctest does not
// list it); when any case is focused, the others are skipped and a failing case
// "<suite>/focus" says so (Q7). Names should avoid the doctest filter characters `*`, `?`
// and `,` at the ends.
//
// RR_ADMISSION_WEBHOOK_TESTS needs rr/testing/admission_webhook_test.hpp too (its table and
// registration live there), so that a unit of reconciler tests parses none of the webhook headers.
#pragma once
#include <doctest/doctest.h>

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "rr/testing/detail/table.hpp"
#include "rr/testing/reconciler_test.hpp"
#include "rr/testing/sub_reconciler_test.hpp"

namespace rr::testing {

// A table as the registration macros take it: either form converts.
// (Out of line: a unit of sub-reconciler tests instantiates nothing for ReconcilerTestCase.)
struct ReconcilerTable {
  ReconcilerTable(const ReconcilerTests& tests);  // NOLINT(google-explicit-constructor)
  ReconcilerTable(ReconcilerTestSuite suite);     // NOLINT(google-explicit-constructor)
  std::vector<ReconcilerTestCase> cases{};
};

template <Object T>
struct SubReconcilerTable {
  SubReconcilerTable(const SubReconcilerTests<T>& tests) : cases(detail::named_cases(tests)) {}  // NOLINT
  SubReconcilerTable(SubReconcilerTestSuite<T> suite) : cases(std::move(suite)) {}               // NOLINT
  std::vector<SubReconcilerTestCase<T>> cases{};
};

namespace detail {

// One doctest test case to be: its name within the suite and how to run it.
struct RegisteredCase {
  std::string name{};
  bool skip = false;
  bool focus = false;
  std::function<void(const FailureSink&)> run{};
};

// Remembers a table; its cases are registered with doctest when the session starts.
int register_table(const char* suite, std::function<std::vector<RegisteredCase>()> build, const char* file, int line,
                   const doctest::detail::TestSuite& doctest_suite);

// The full names ("<suite>/<case>") registered so far, in registration order.
std::vector<std::string> registered_case_names();

// A table's cases as doctest test cases, each run by run_case(case, factory, sink).
template <class Table, class Factory>
int register_cases(const char* suite, Factory factory, Table (*table)(), const char* file, int line,
                   const doctest::detail::TestSuite& doctest_suite) {
  using Case = typename decltype(Table::cases)::value_type;
  return register_table(
      suite,
      [factory = std::move(factory), table] {
        auto cases = std::make_shared<const std::vector<Case>>(table().cases);
        std::vector<RegisteredCase> out;
        for (std::size_t i = 0; i < cases->size(); ++i) {
          const auto& tc = (*cases)[i];
          out.push_back({tc.name, tc.skip, tc.focus,
                         [cases, i, factory](const FailureSink& sink) { run_case((*cases)[i], factory, sink); }});
        }
        return out;
      },
      file, line, doctest_suite);
}

}  // namespace detail

int register_reconciler_tests(const char* suite, ReconcilerFactory factory, ReconcilerTable (*table)(),
                              const char* file, int line, const doctest::detail::TestSuite& doctest_suite);

template <Object T>
int register_sub_reconciler_tests(const char* suite, SubReconcilerFactory<T> factory, SubReconcilerTable<T> (*table)(),
                                  const char* file, int line, const doctest::detail::TestSuite& doctest_suite) {
  return detail::register_cases(suite, std::move(factory), table, file, line, doctest_suite);
}

}  // namespace rr::testing

#define RR_TESTING_CAT_(a, b) a##b
#define RR_TESTING_CAT(a, b) RR_TESTING_CAT_(a, b)

// RR_RECONCILER_TESTS("Suite", factory) { return rr::testing::ReconcilerTests{...}; }
// The factory is the variadic part, so a lambda with commas needs no extra parentheses.
#define RR_RECONCILER_TESTS(suite_name, ...) \
  RR_RECONCILER_TESTS_IMPL_(RR_TESTING_CAT(rr_testing_reconciler_table_, __LINE__), suite_name, __VA_ARGS__)
#define RR_RECONCILER_TESTS_IMPL_(table_fn, suite_name, ...)                                                          \
  static ::rr::testing::ReconcilerTable table_fn();                                                                   \
  [[maybe_unused]] static const int RR_TESTING_CAT(table_fn, _registered) = ::rr::testing::register_reconciler_tests( \
      suite_name, ::rr::testing::ReconcilerFactory(__VA_ARGS__), &table_fn, __FILE__, __LINE__,                       \
      doctest_detail_test_suite_ns::getCurrentTestSuite());                                                           \
  static ::rr::testing::ReconcilerTable table_fn()

// RR_SUB_RECONCILER_TESTS("Suite", Type, factory) { return rr::testing::SubReconcilerTests<Type>{...}; }
#define RR_SUB_RECONCILER_TESTS(suite_name, type, ...)                                                        \
  RR_SUB_RECONCILER_TESTS_IMPL_(RR_TESTING_CAT(rr_testing_sub_reconciler_table_, __LINE__), suite_name, type, \
                                __VA_ARGS__)
#define RR_SUB_RECONCILER_TESTS_IMPL_(table_fn, suite_name, type, ...)                                       \
  static ::rr::testing::SubReconcilerTable<type> table_fn();                                                 \
  [[maybe_unused]] static const int RR_TESTING_CAT(table_fn, _registered) =                                  \
      ::rr::testing::register_sub_reconciler_tests<type>(                                                    \
          suite_name, ::rr::testing::SubReconcilerFactory<type>(__VA_ARGS__), &table_fn, __FILE__, __LINE__, \
          doctest_detail_test_suite_ns::getCurrentTestSuite());                                              \
  static ::rr::testing::SubReconcilerTable<type> table_fn()

// RR_ADMISSION_WEBHOOK_TESTS("Suite", factory) { return rr::testing::AdmissionWebhookTests{...}; }
// (with rr/testing/admission_webhook_test.hpp included)
#define RR_ADMISSION_WEBHOOK_TESTS(suite_name, ...)                                                           \
  RR_ADMISSION_WEBHOOK_TESTS_IMPL_(RR_TESTING_CAT(rr_testing_admission_webhook_table_, __LINE__), suite_name, \
                                   __VA_ARGS__)
#define RR_ADMISSION_WEBHOOK_TESTS_IMPL_(table_fn, suite_name, ...)                                                    \
  static ::rr::testing::AdmissionWebhookTable table_fn();                                                              \
  [[maybe_unused]] static const int RR_TESTING_CAT(table_fn, _registered) =                                            \
      ::rr::testing::register_admission_webhook_tests(suite_name, ::rr::testing::AdmissionWebhookFactory(__VA_ARGS__), \
                                                      &table_fn, __FILE__, __LINE__,                                   \
                                                      doctest_detail_test_suite_ns::getCurrentTestSuite());            \
  static ::rr::testing::AdmissionWebhookTable table_fn()
