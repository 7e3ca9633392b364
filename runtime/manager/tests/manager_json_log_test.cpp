// zap-style log lines, parsed back with nlohmann; the level filter; whole lines under contention.
#include <doctest/doctest.h>

#include <chrono>
#include <cstdio>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "rr/manager/json_log.hpp"
#include "rr/manager/manager_options.hpp"
#include "rr/reconcilers/error.hpp"

namespace {

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// 2023-11-14T22:13:20.123456Z
const auto kWhen = std::chrono::system_clock::time_point(std::chrono::microseconds(1700000000123456LL));

}  // namespace

TEST_CASE("a JSON line has zap's keys in zap's order") {
  rr::LogRecord record;
  record.level = rr::LogLevel::Error;
  record.logger = "controller.widget";
  record.message = "Reconciler error";
  record.values = {{"namespace", "default"}, {"name", "w\"1\n"}};
  record.error = "boom";
  const std::string line = rr::format_json_log_line(record, kWhen);
  CHECK(line ==
        R"({"level":"error","ts":1700000000.123456,"logger":"controller.widget","msg":"Reconciler error",)"
        R"("namespace":"default","name":"w\"1\n","error":"boom"})");
  const auto parsed = nlohmann::json::parse(line);
  CHECK(parsed["level"] == "error");
  CHECK(parsed["ts"].get<double>() == doctest::Approx(1700000000.123456));
  CHECK(parsed["name"] == "w\"1\n");
}

TEST_CASE("a JSON line leaves out an empty logger and error, and survives invalid UTF-8") {
  rr::LogRecord record;
  record.message = "bad \xff byte";
  const auto parsed = nlohmann::json::parse(rr::format_json_log_line(record, kWhen));
  CHECK(parsed["level"] == "info");
  CHECK_FALSE(parsed.contains("logger"));
  CHECK_FALSE(parsed.contains("error"));
  CHECK(parsed["msg"].get<std::string>().rfind("bad ", 0) == 0);
}

TEST_CASE("a console line is zap's development format") {
  rr::LogRecord record;
  record.level = rr::LogLevel::Info;
  record.logger = "setup";
  record.message = "starting manager";
  record.values = {{"k", "v"}};
  CHECK(rr::format_console_log_line(record, kWhen) == "2023-11-14T22:13:20.123Z\tINFO\tsetup\tstarting manager\t{\"k\": \"v\"}");
  record.values.clear();
  CHECK(rr::format_console_log_line(record, kWhen) == "2023-11-14T22:13:20.123Z\tINFO\tsetup\tstarting manager");
}

TEST_CASE("the JSON logger writes one parsable line per record, at its level and above") {
  std::ostringstream out;
  const rr::Logger log = rr::make_json_logger(out, rr::LogLevel::Info).named("setup").with("version", "1.2");
  log.debug("hidden");
  log.info("starting manager");
  log.named("leader").error(rr::Error::make("lease lost"), "problem running manager");
  const auto lines = lines_of(out.str());
  REQUIRE(lines.size() == 2);
  const auto first = nlohmann::json::parse(lines[0]);
  CHECK(first["level"] == "info");
  CHECK(first["logger"] == "setup");
  CHECK(first["msg"] == "starting manager");
  CHECK(first["version"] == "1.2");
  const double now = std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
  CHECK(first["ts"].get<double>() == doctest::Approx(now).epsilon(0.001));
  const auto second = nlohmann::json::parse(lines[1]);
  CHECK(second["level"] == "error");
  CHECK(second["logger"] == "setup.leader");
  CHECK(second["error"] == "lease lost");

  std::ostringstream errors_only;
  const rr::Logger quiet = rr::make_json_logger(errors_only, rr::LogLevel::Error);
  quiet.info("no");
  quiet.error(rr::Error::make("x"), "yes");
  CHECK(lines_of(errors_only.str()).size() == 1);

  std::ostringstream everything;
  const rr::Logger chatty = rr::make_json_logger(everything, rr::LogLevel::Debug);
  chatty.debug("yes");
  CHECK(nlohmann::json::parse(lines_of(everything.str()).at(0))["level"] == "debug");
}

TEST_CASE("lines from many threads never interleave") {
  std::ostringstream out;
  const rr::Logger log = rr::make_json_logger(out);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&log, t] {
      for (int i = 0; i < 200; ++i) log.with("thread", std::to_string(t)).info(std::string(100, 'x'));
    });
  }
  for (auto& thread : threads) thread.join();
  const auto lines = lines_of(out.str());
  CHECK(lines.size() == 800);
  for (const auto& line : lines) CHECK(nlohmann::json::parse(line).is_object());
}

TEST_CASE("the FILE* sink writes the same lines") {
  std::FILE* file = std::tmpfile();
  REQUIRE(file != nullptr);
  rr::make_json_logger(file).info("to a file");
  std::rewind(file);
  char buffer[512] = {};
  REQUIRE(std::fgets(buffer, sizeof buffer, file) != nullptr);
  std::fclose(file);
  CHECK(nlohmann::json::parse(buffer)["msg"] == "to a file");
}

TEST_CASE("the level make_logger filters at follows --zap-devel and --zap-log-level") {
  // make_logger writes to stderr (not captured here); its two formats are tested above.
  rr::ManagerOptions production;
  CHECK(production.effective_log_level() == rr::LogLevel::Info);
  rr::ManagerOptions development;
  development.log_development = true;
  CHECK(development.effective_log_level() == rr::LogLevel::Debug);
  development.log_level = rr::LogLevel::Info;
  development.log_level_set = true;
  CHECK(development.effective_log_level() == rr::LogLevel::Info);
}
