#include "cli/cli_args.hpp"

#include <cctype>
#include <ostream>

namespace rrgen {

bool ArgReader::next() {
  if (failed()) return false;
  if (started_) ++i_;
  started_ = true;
  return i_ < args_.size();
}

bool ArgReader::value(const char* name, std::string& into) {
  const std::string& a = current();
  const std::string flag(name);
  if (a == flag) {
    if (i_ + 1 >= args_.size()) {
      error_ = "option '" + flag + "' needs a value";
      return false;
    }
    into = args_[++i_];
    return true;
  }
  if (a.size() > flag.size() && a.compare(0, flag.size(), flag) == 0 && a[flag.size()] == '=') {
    into = a.substr(flag.size() + 1);
    return true;
  }
  return false;
}

int usage_error(std::ostream& err, const std::string& message) {
  err << "rrgen: error: " << message << "\n"
      << "Try 'rrgen --help'.\n";
  return 2;
}

bool is_cpp_namespace(const std::string& ns) {
  if (ns.empty()) return false;
  for (char c : ns)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == ':')) return false;
  return true;
}

}  // namespace rrgen
