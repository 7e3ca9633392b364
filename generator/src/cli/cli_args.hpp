// What every rrgen subcommand shares on its command line: walking the arguments, options with
// values ("--out DIR" or "--out=DIR"), and the usage-error exit (status 2).
#pragma once
#include <iosfwd>
#include <string>
#include <vector>

namespace rrgen {

class ArgReader {
 public:
  explicit ArgReader(const std::vector<std::string>& args) : args_(args) {}

  // Moves to the next argument; false at the end (or after an error).
  bool next();
  const std::string& current() const { return args_[i_]; }
  bool is_flag(const char* name) const { return current() == name; }
  // Starts with '-' (and is not "-" alone): an option, not an operand.
  bool is_option() const { return current().size() > 1 && current()[0] == '-'; }
  // "--name VALUE" or "--name=VALUE": stores VALUE and returns true. "--name" as the last
  // argument records an error (see failed()) and returns false.
  bool value(const char* name, std::string& into);

  bool failed() const { return !error_.empty(); }
  const std::string& error() const { return error_; }

 private:
  const std::vector<std::string>& args_;
  std::size_t i_ = 0;
  bool started_ = false;
  std::string error_;
};

// Letters, digits, '_' and "::" separators: what --namespace accepts.
bool is_cpp_namespace(const std::string& ns);

// Prints "rrgen: error: <message>" and the hint to run --help; returns 2.
int usage_error(std::ostream& err, const std::string& message);

}  // namespace rrgen
