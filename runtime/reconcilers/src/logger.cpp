// The structured logger: records go to the sink as they are made; a logger without a sink
// discards them.
#include "rr/reconcilers/logger.hpp"

#include "rr/reconcilers/error.hpp"

namespace rr {

Logger Logger::named(std::string_view name) const {
  Logger child = *this;
  if (child.name_.empty()) {
    child.name_ = std::string(name);
  } else {
    child.name_ += '.';
    child.name_ += name;
  }
  return child;
}

Logger Logger::with(std::string key, std::string value) const {
  Logger child = *this;
  child.values_.emplace_back(std::move(key), std::move(value));
  return child;
}

void Logger::debug(std::string_view message) const { emit(LogLevel::Debug, message, {}); }

void Logger::info(std::string_view message) const { emit(LogLevel::Info, message, {}); }

void Logger::error(const Error& error, std::string_view message) const {
  emit(LogLevel::Error, message, error.message());
}

void Logger::emit(LogLevel level, std::string_view message, std::string error) const {
  if (!sink_ || !*sink_) return;
  LogRecord record;
  record.level = level;
  record.logger = name_;
  record.message = std::string(message);
  record.error = std::move(error);
  record.values = values_;
  (*sink_)(record);
}

}  // namespace rr
