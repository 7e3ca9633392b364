// Tables are remembered at static-initialisation time and registered with doctest when the
// session starts: a doctest listener is constructed at the start of Context::run(), before the
// registered test cases are collected, and registers every pending table's cases then. So table
// functions run inside main(), never during static initialisation. Each case runs through one
// trampoline, which finds its case by the running test case's name.
#include "rr/testing/registration.hpp"

#include <fstream>
#include <map>
#include <memory>

#include "rr/testing/admission_webhook_test.hpp"
#include "rr/testing/detail/case_run.hpp"

namespace rr::testing {
namespace {

struct PendingTable {
  std::string suite;
  std::function<std::vector<detail::RegisteredCase>()> build;
  const char* file;
  int line;
  doctest::detail::TestSuite doctest_suite;
};

struct Entry {
  std::string full_name;  // its c_str() is the doctest test case's name and the key below
  std::function<void(const FailureSink&)> run;
  const char* file;
  int line;
};

struct Registry {
  std::vector<PendingTable> pending;
  std::map<const char*, std::unique_ptr<Entry>> entries;
  std::vector<std::string> names;  // in registration order
  bool registered = false;
};

// Never destroyed: doctest keeps pointers to the names until the process ends.
Registry& registry() {
  static auto* r = new Registry;
  return *r;
}

void trampoline() {
  const doctest::ContextOptions* options = doctest::getContextOptions();
  const char* name = options && options->currentTest ? options->currentTest->m_name : nullptr;
  auto& entries = registry().entries;
  auto it = entries.find(name);
  if (it == entries.end()) {
    DOCTEST_FAIL_CHECK("rr::testing: no table case is registered under this test case's name");
    return;
  }
  it->second->run(doctest_sink(it->second->file, it->second->line));
}

// `line`: where doctest says the case is and where its failures point (its row, or the table).
void register_case(std::string full_name, bool skip, std::function<void(const FailureSink&)> run,
                   const PendingTable& table, int line) {
  auto entry = std::make_unique<Entry>(Entry{std::move(full_name), std::move(run), table.file, line});
  const char* key = entry->full_name.c_str();
  doctest::detail::TestCase tc(&trampoline, table.file, static_cast<unsigned>(line), table.doctest_suite);
  tc* key;
  if (skip) tc.m_skip = true;
  doctest::detail::regTest(tc);
  registry().names.push_back(entry->full_name);
  registry().entries.emplace(key, std::move(entry));
}

// The lines of a source file, read once per file (tables are registered once, at session start).
const std::vector<std::string>& source_lines(const char* file) {
  static auto* cache = new std::map<std::string, std::vector<std::string>>;
  auto [it, inserted] = cache->try_emplace(file);
  if (inserted) {
    // A relative __FILE__ is relative to where the compiler ran (the build tree's top, with
    // ccache's base_dir), and ctest runs a test in its target's folder below it.
    std::string path = file;
    std::ifstream in(path);
    for (int up = 0; !in && !path.empty() && path.front() != '/' && up < 8; ++up) {
      path.insert(0, "../");
      in = std::ifstream(path);
    }
    for (std::string line; std::getline(in, line);) it->second.push_back(std::move(line));
  }
  return it->second;
}

// The line of a case's own row: the `occurrence`-th line from the table's on that holds the
// case's name as a string literal; the table's line when the source cannot be read or the name
// is computed. (A std::source_location member would be the obvious tool, but in a default member
// initializer g++ 12 reports the end of the whole table, and clang 14 has no std::source_location.)
int row_line(const char* file, int table_line, const std::string& name, int occurrence) {
  if (name.empty()) return table_line;
  const std::string literal = "\"" + name + "\"";
  const auto& lines = source_lines(file);
  // From the table on, then (for a table built by a function written above it) from the top.
  for (const std::size_t from : {table_line > 0 ? static_cast<std::size_t>(table_line - 1) : 0, std::size_t{0}}) {
    int left = occurrence;
    for (std::size_t i = from; i < lines.size(); ++i) {
      if (lines[i].find(literal) != std::string::npos && left-- == 0) return static_cast<int>(i + 1);
    }
  }
  return table_line;
}

// Go's t.Run names a repeated subtest "name#01", "name#02", ...
std::string unique_name(std::map<std::string, int>& seen, const std::string& name) {
  const int n = seen[name]++;
  if (n == 0) return name;
  std::string suffix = std::to_string(n);
  if (suffix.size() < 2) suffix.insert(0, "0");
  return name + "#" + suffix;
}

void register_table_cases(const PendingTable& table) {
  std::vector<detail::RegisteredCase> cases;
  try {
    cases = table.build();
  } catch (...) {
    std::string what = detail::describe_current_exception();
    register_case(
        table.suite, false,
        [what](const FailureSink& sink) {
          sink({Severity::Fatal, "building the test table threw: " + what});
        },
        table, table.line);
    return;
  }
  const std::size_t focused = detail::focused_count(cases);
  std::map<std::string, int> seen;
  for (auto& c : cases) {
    const int occurrence = seen[c.name];
    register_case(table.suite + "/" + unique_name(seen, c.name), c.skip || (focused > 0 && !c.focus), std::move(c.run),
                  table, row_line(table.file, table.line, c.name, occurrence));
  }
  if (focused > 0) {
    std::string message = detail::focus_message(focused, cases.size());
    register_case(
        table.suite + "/focus", false,
        [message](const FailureSink& sink) {
          sink({Severity::Error, message});
        },
        table, table.line);
  }
}

void register_pending_tables() {
  Registry& r = registry();
  if (r.registered) return;
  r.registered = true;
  for (const auto& table : r.pending) register_table_cases(table);
}

// Does nothing but register the pending tables when doctest constructs it.
struct RegisterTablesListener final : doctest::IReporter {
  explicit RegisterTablesListener(const doctest::ContextOptions&) { register_pending_tables(); }
  void report_query(const doctest::QueryData&) override {}
  void test_run_start() override {}
  void test_run_end(const doctest::TestRunStats&) override {}
  void test_case_start(const doctest::TestCaseData&) override {}
  void test_case_reenter(const doctest::TestCaseData&) override {}
  void test_case_end(const doctest::CurrentTestCaseStats&) override {}
  void test_case_exception(const doctest::TestCaseException&) override {}
  void subcase_start(const doctest::SubcaseSignature&) override {}
  void subcase_end() override {}
  void log_assert(const doctest::AssertData&) override {}
  void log_message(const doctest::MessageData&) override {}
  void test_case_skipped(const doctest::TestCaseData&) override {}
};

}  // namespace

DOCTEST_REGISTER_LISTENER("rr_testing_tables", 0, RegisterTablesListener);

namespace detail {

int register_table(const char* suite, std::function<std::vector<RegisteredCase>()> build, const char* file, int line,
                   const doctest::detail::TestSuite& doctest_suite) {
  registry().pending.push_back({suite, std::move(build), file, line, doctest_suite});
  return 0;
}

std::vector<std::string> registered_case_names() { return registry().names; }

}  // namespace detail

ReconcilerTable::ReconcilerTable(const ReconcilerTests& tests) : cases(detail::named_cases(tests)) {}
ReconcilerTable::ReconcilerTable(ReconcilerTestSuite suite) : cases(std::move(suite)) {}

int register_reconciler_tests(const char* suite, ReconcilerFactory factory, ReconcilerTable (*table)(),
                              const char* file, int line, const doctest::detail::TestSuite& doctest_suite) {
  return detail::register_cases(suite, std::move(factory), table, file, line, doctest_suite);
}

int register_admission_webhook_tests(const char* suite, AdmissionWebhookFactory factory,
                                     AdmissionWebhookTable (*table)(), const char* file, int line,
                                     const doctest::detail::TestSuite& doctest_suite) {
  return detail::register_cases(suite, std::move(factory), table, file, line, doctest_suite);
}

}  // namespace rr::testing
