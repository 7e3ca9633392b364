// Diagnostics in the Clang/GNU style: "file:line:col: error: message [check-id]".
// Every stage reports through one Diagnostics object; nothing prints on its own.
#pragma once
#include <cstdint>
#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

namespace rrgen {

// A position in an input file. `file` is an interned name (intern_file_name): it outlives the
// sources, so a model holding Locations may outlive what it was built from.
struct Location {
  const std::string* file = nullptr;
  std::uint32_t line = 0;    // 1-based; 0 = unknown (whole file)
  std::uint32_t column = 0;  // 1-based
};

enum class Severity { Error, Warning, Note };

struct Diagnostic {
  Severity severity = Severity::Error;
  Location location;
  std::string message;
  std::string check;  // stable id, e.g. "schema-missing-items"; empty for notes
};

class Diagnostics {
 public:
  void error(Location at, std::string check, std::string message);
  void warning(Location at, std::string check, std::string message);
  void note(Location at, std::string message);

  bool has_errors() const noexcept { return errors_ > 0; }
  std::size_t error_count() const noexcept { return errors_; }
  const std::vector<Diagnostic>& all() const noexcept { return items_; }
  // Stops collecting after this many errors (one broken CRD must not flood the terminal).
  static constexpr std::size_t kMaxErrors = 50;
  bool saturated() const noexcept { return errors_ >= kMaxErrors; }

  void print(std::ostream& out) const;

 private:
  std::vector<Diagnostic> items_;
  std::size_t errors_ = 0;
};

// The one process-lifetime copy of a file name; equal names give the same pointer. Thread-safe.
const std::string* intern_file_name(std::string_view name);

std::string format_location(const Location& at);
std::string format(const Diagnostic& d);

// Thrown to abandon the current document after a fatal error has been reported.
struct AbortDocument {};

}  // namespace rrgen
