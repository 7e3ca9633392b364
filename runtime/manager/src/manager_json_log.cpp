// zap-style log lines for rr::Logger: JSON (production) and console text (development).
#include "rr/manager/json_log.hpp"

#include <cstdio>
#include <ctime>
#include <mutex>
#include <ostream>

#include <nlohmann/json.hpp>

#include "rr/manager/manager_options.hpp"

namespace rr {
namespace {

// A JSON string literal; invalid UTF-8 is replaced rather than thrown on (logs must not throw).
std::string json_string(const std::string& text) {
  return nlohmann::json(text).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

int rank(LogLevel level) {
  switch (level) {
    case LogLevel::Debug: return 0;
    case LogLevel::Info: return 1;
    case LogLevel::Error: return 2;
  }
  return 1;
}

// Seconds since the epoch with microseconds, as zap's EpochTimeEncoder writes a float64.
std::string epoch_seconds(std::chrono::system_clock::time_point when) {
  const auto micros = std::chrono::duration_cast<std::chrono::microseconds>(when.time_since_epoch()).count();
  char buffer[48];
  std::snprintf(buffer, sizeof buffer, "%lld.%06lld", static_cast<long long>(micros / 1000000),
                static_cast<long long>(micros % 1000000));
  return buffer;
}

// "2006-01-02T15:04:05.000Z" (UTC), zap's ISO8601TimeEncoder at millisecond precision.
std::string iso8601(std::chrono::system_clock::time_point when) {
  const auto millis = std::chrono::duration_cast<std::chrono::milliseconds>(when.time_since_epoch()).count();
  const std::time_t seconds = static_cast<std::time_t>(millis / 1000);
  std::tm utc{};
  gmtime_r(&seconds, &utc);
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", utc.tm_year + 1900, utc.tm_mon + 1,
                utc.tm_mday, utc.tm_hour, utc.tm_min, utc.tm_sec, static_cast<int>(millis % 1000));
  return buffer;
}

std::string upper(const char* text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(c - ('a' <= c && c <= 'z' ? 'a' - 'A' : 0));
  return out;
}

std::string format(LogFormat format, const LogRecord& record) {
  const auto now = std::chrono::system_clock::now();
  return format == LogFormat::json ? format_json_log_line(record, now) : format_console_log_line(record, now);
}

}  // namespace

const char* log_level_name(LogLevel level) {
  switch (level) {
    case LogLevel::Debug: return "debug";
    case LogLevel::Info: return "info";
    case LogLevel::Error: return "error";
  }
  return "info";
}

std::string format_json_log_line(const LogRecord& record, std::chrono::system_clock::time_point when) {
  std::string line = "{\"level\":\"";
  line += log_level_name(record.level);
  line += "\",\"ts\":" + epoch_seconds(when);
  if (!record.logger.empty()) line += ",\"logger\":" + json_string(record.logger);
  line += ",\"msg\":" + json_string(record.message);
  for (const auto& [key, value] : record.values) line += "," + json_string(key) + ":" + json_string(value);
  if (!record.error.empty()) line += ",\"error\":" + json_string(record.error);
  line += "}";
  return line;
}

std::string format_console_log_line(const LogRecord& record, std::chrono::system_clock::time_point when) {
  std::string line = iso8601(when) + "\t" + upper(log_level_name(record.level));
  if (!record.logger.empty()) line += "\t" + record.logger;
  line += "\t" + record.message;
  if (!record.values.empty() || !record.error.empty()) {
    std::string fields;
    for (const auto& [key, value] : record.values) {
      fields += (fields.empty() ? "" : ", ") + json_string(key) + ": " + json_string(value);
    }
    if (!record.error.empty()) fields += (fields.empty() ? "" : ", ") + std::string("\"error\": ") + json_string(record.error);
    line += "\t{" + fields + "}";
  }
  return line;
}

LogSink make_log_sink(std::FILE* out, LogLevel min_level, LogFormat log_format) {
  auto mutex = std::make_shared<std::mutex>();
  return [out, min_level, log_format, mutex](const LogRecord& record) {
    if (rank(record.level) < rank(min_level)) return;
    const std::string line = format(log_format, record) + "\n";
    const std::lock_guard lock(*mutex);
    std::fwrite(line.data(), 1, line.size(), out);
    std::fflush(out);
  };
}

LogSink make_log_sink(std::ostream& out, LogLevel min_level, LogFormat log_format) {
  auto mutex = std::make_shared<std::mutex>();
  return [&out, min_level, log_format, mutex](const LogRecord& record) {
    if (rank(record.level) < rank(min_level)) return;
    const std::string line = format(log_format, record) + "\n";
    const std::lock_guard lock(*mutex);
    out << line << std::flush;
  };
}

Logger make_json_logger(std::FILE* out, LogLevel min_level) {
  return Logger(std::make_shared<const LogSink>(make_log_sink(out, min_level, LogFormat::json)));
}

Logger make_json_logger(std::ostream& out, LogLevel min_level) {
  return Logger(std::make_shared<const LogSink>(make_log_sink(out, min_level, LogFormat::json)));
}

Logger make_logger(const ManagerOptions& options) {
  const LogFormat log_format = options.log_development ? LogFormat::console : LogFormat::json;
  return Logger(std::make_shared<const LogSink>(make_log_sink(stderr, options.effective_log_level(), log_format)));
}

}  // namespace rr
