// Temporary directories, files and environment variables for the config tests.
#pragma once
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <optional>
#include <string>

namespace rr::config_test {

class TempDir {
 public:
  TempDir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "rr-config-XXXXXX").string();
    if (mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
    path_ = pattern;
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  // Writes `content` to <dir>/<relative> (creating parent directories); returns the full path.
  std::string write(const std::string& relative, const std::string& content) const {
    const auto file = path_ / relative;
    std::filesystem::create_directories(file.parent_path());
    std::ofstream(file, std::ios::binary) << content;
    return file.string();
  }
  std::string str() const { return path_.string(); }

 private:
  std::filesystem::path path_;
};

// Sets (or unsets, with nullopt) an environment variable for the scope, then restores it.
class EnvVar {
 public:
  EnvVar(std::string name, const std::optional<std::string>& value) : name_(std::move(name)) {
    if (const char* old = getenv(name_.c_str())) old_ = old;
    if (value) setenv(name_.c_str(), value->c_str(), 1);
    else unsetenv(name_.c_str());
  }
  ~EnvVar() {
    if (old_) setenv(name_.c_str(), old_->c_str(), 1);
    else unsetenv(name_.c_str());
  }
  EnvVar(const EnvVar&) = delete;
  EnvVar& operator=(const EnvVar&) = delete;

 private:
  std::string name_;
  std::optional<std::string> old_;
};

// "-----BEGIN CERTIFICATE-----\nTEST\n-----END CERTIFICATE-----\n" and its base64.
inline const std::string kPem = "-----BEGIN CERTIFICATE-----\nTEST\n-----END CERTIFICATE-----\n";
inline const std::string kPemBase64 =
    "LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tClRFU1QKLS0tLS1FTkQgQ0VSVElGSUNBVEUtLS0tLQo=";

}  // namespace rr::config_test
