// Log sinks for rr::Logger in zap's two styles, as controller-runtime operators log:
//
// production (JSON, one object per line):
//   {"level":"info","ts":1700000000.123456,"logger":"setup","msg":"starting manager","k":"v"}
//   {"level":"error","ts":...,"logger":"x","msg":"Reconciler error","controller":"c","error":"boom"}
// development (console text):
//   2023-11-14T22:13:20.123Z	INFO	setup	starting manager	{"k": "v"}
//
// Sinks are thread-safe (one line is written whole, then flushed) and drop records below their level.
#pragma once
#include <chrono>
#include <cstdio>
#include <iosfwd>
#include <memory>
#include <string>

#include "rr/reconcilers/logger.hpp"

namespace rr {

struct ManagerOptions;

// zap's level names: "debug", "info", "error".
const char* log_level_name(LogLevel level);

// One record as a JSON object (no newline): "level", "ts" (epoch seconds with microseconds),
// "logger" (omitted when empty), "msg", the key/values in order, then "error" (when set).
std::string format_json_log_line(const LogRecord& record, std::chrono::system_clock::time_point when);
// One record as zap's console encoder writes it (no newline): ISO8601 time, LEVEL, logger, msg,
// then the key/values (and error) as a JSON object.
std::string format_console_log_line(const LogRecord& record, std::chrono::system_clock::time_point when);

enum class LogFormat { json, console };

// Writes records at `min_level` and above to `out` (which must outlive the sink).
LogSink make_log_sink(std::FILE* out, LogLevel min_level = LogLevel::Info, LogFormat format = LogFormat::json);
LogSink make_log_sink(std::ostream& out, LogLevel min_level = LogLevel::Info, LogFormat format = LogFormat::json);

// Loggers over those sinks.
Logger make_json_logger(std::FILE* out = stderr, LogLevel min_level = LogLevel::Info);
Logger make_json_logger(std::ostream& out, LogLevel min_level = LogLevel::Info);
// As the --zap-* flags ask: JSON at info by default, console at debug with --zap-devel; to stderr.
Logger make_logger(const ManagerOptions& options);

}  // namespace rr
