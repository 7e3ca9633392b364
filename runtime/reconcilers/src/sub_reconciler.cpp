// Validation findings and the watches a reconciler tree asks for.
#include "rr/reconcilers/sub_reconciler.hpp"

#include <algorithm>

namespace rr {

namespace {
std::string located(const std::string& path, std::string message) {
  return path.empty() ? message : path + ": " + message;
}
}  // namespace

void Validation::fail(std::string message) { errors_.push_back(located(path(), std::move(message))); }

void Validation::warn(std::string message) { warnings_.push_back(located(path(), std::move(message))); }

std::string Validation::path() const {
  std::string out;
  for (const auto& name : path_) {
    if (!out.empty()) out += '.';
    out += name;
  }
  return out;
}

void Validation::throw_if_failed() const {
  if (errors_.empty()) return;
  std::string text;
  for (const auto& e : errors_) {
    if (!text.empty()) text += '\n';
    text += e;
  }
  throw ValidationError(text);
}

void Setup::add(WatchRequest w) {
  // The same kind may be asked for by several reconcilers of one tree; the controller needs one
  // watch per (kind, mode).
  if (std::find(watches_.begin(), watches_.end(), w) != watches_.end()) return;
  watches_.push_back(std::move(w));
}

}  // namespace rr
