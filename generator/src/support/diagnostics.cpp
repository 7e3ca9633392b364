#include "support/diagnostics.hpp"

#include <mutex>
#include <ostream>
#include <set>

namespace rrgen {

void Diagnostics::error(Location at, std::string check, std::string message) {
  if (saturated()) return;
  items_.push_back({Severity::Error, at, std::move(message), std::move(check)});
  ++errors_;
}

void Diagnostics::warning(Location at, std::string check, std::string message) {
  items_.push_back({Severity::Warning, at, std::move(message), std::move(check)});
}

void Diagnostics::note(Location at, std::string message) {
  items_.push_back({Severity::Note, at, std::move(message), {}});
}

const std::string* intern_file_name(std::string_view name) {
  static std::mutex mutex;
  // Never destroyed: static destructors (e.g. a cached model's) may still format locations.
  static auto* names = new std::set<std::string, std::less<>>;
  const std::lock_guard lock(mutex);
  auto it = names->find(name);
  if (it == names->end()) it = names->emplace(name).first;
  return &*it;
}

std::string format_location(const Location& at) {
  std::string out = at.file ? *at.file : std::string("rrgen");
  if (at.file && at.line > 0) {
    out += ':' + std::to_string(at.line) + ':' + std::to_string(at.column);
  }
  return out;
}

std::string format(const Diagnostic& d) {
  static constexpr const char* kNames[] = {"error", "warning", "note"};
  std::string out = format_location(d.location);
  out += ": ";
  out += kNames[static_cast<int>(d.severity)];
  out += ": ";
  out += d.message;
  if (!d.check.empty()) out += " [" + d.check + "]";
  return out;
}

void Diagnostics::print(std::ostream& out) const {
  for (const auto& d : items_) out << format(d) << '\n';
  if (saturated()) out << "rrgen: note: too many errors; stopped after " << kMaxErrors << '\n';
}

}  // namespace rrgen
