// A small structured logger: a name path ("WidgetReconciler.ChildImage"), key/value pairs, and a
// sink. The manager (controller layer) installs a JSON sink; tests capture lines.
#pragma once
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace rr {

class Error;

enum class LogLevel { Debug, Info, Error };

struct LogRecord {
  LogLevel level = LogLevel::Info;
  std::string logger;   // dotted name path
  std::string message;
  std::string error;    // error text for LogLevel::Error
  std::vector<std::pair<std::string, std::string>> values;
};

using LogSink = std::function<void(const LogRecord&)>;

class Logger {
 public:
  Logger() = default;  // discards everything
  explicit Logger(std::shared_ptr<const LogSink> sink) : sink_(std::move(sink)) {}
  // A child logger: "parent.name".
  Logger named(std::string_view name) const;
  Logger with(std::string key, std::string value) const;
  void debug(std::string_view message) const;
  void info(std::string_view message) const;
  void error(const Error& error, std::string_view message) const;
  const std::string& name() const noexcept { return name_; }
  // Whether records go anywhere: callers skip building costly values for a logger that discards.
  bool enabled() const noexcept { return sink_ && *sink_; }

 private:
  void emit(LogLevel level, std::string_view message, std::string error) const;
  std::shared_ptr<const LogSink> sink_;
  std::string name_;
  std::vector<std::pair<std::string, std::string>> values_;
};

}  // namespace rr
