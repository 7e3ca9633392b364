#include "bearer_token.hpp"

#include <fstream>
#include <sstream>

namespace rr::http_detail {
namespace {

std::optional<std::string> read_token(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  std::string token = text.str();
  // client-go trims surrounding whitespace (a trailing newline is common).
  const auto first = token.find_first_not_of(" \t\r\n");
  if (first == std::string::npos) return std::nullopt;
  const auto last = token.find_last_not_of(" \t\r\n");
  return token.substr(first, last - first + 1);
}

}  // namespace

BearerToken::BearerToken(std::string token, std::string file, std::chrono::milliseconds max_age)
    : literal_(std::move(token)), file_(std::move(file)), max_age_(max_age), cached_(literal_) {}

std::string BearerToken::current() {
  if (file_.empty()) return literal_;
  std::lock_guard lock(mutex_);
  const auto now = clock::now();
  if (!read_at_ || now - *read_at_ >= max_age_) {
    if (auto token = read_token(file_)) cached_ = std::move(*token);
    read_at_ = now;
  }
  return cached_;
}

void BearerToken::invalidate() {
  std::lock_guard lock(mutex_);
  read_at_.reset();
}

}  // namespace rr::http_detail
