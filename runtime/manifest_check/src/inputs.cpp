#include "rr/manifest_check/inputs.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>
#include <utility>

namespace rr::manifest_check {

namespace {

namespace fs = std::filesystem;

bool is_manifest_name(const fs::path& path) {
  const std::string ext = path.extension().string();
  return ext == ".yaml" || ext == ".yml" || ext == ".json";
}

std::optional<std::string> slurp(const std::string& name) {
  if (name == "-") return std::string(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
  std::ifstream in(name, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) return std::nullopt;
  return text.str();
}

void read_one(const std::string& name, bool json, std::vector<InputFile>& files, std::vector<InputError>& errors) {
  auto text = slurp(name);
  if (!text) {
    errors.push_back(InputError{name, 0, 0, "cannot read the file"});
    return;
  }
  InputFile file{name, read_manifests(*text, json || (name == "-" && looks_like_json(*text)))};
  if (file.read.error) {
    errors.push_back(InputError{name, file.read.error->line, file.read.error->column, file.read.error->message});
  }
  files.push_back(std::move(file));
}

std::vector<std::string> manifests_under(const std::string& dir, std::vector<InputError>& errors) {
  std::vector<std::string> names;
  std::error_code ec;
  for (fs::recursive_directory_iterator it(dir, fs::directory_options::skip_permission_denied, ec), end;
       !ec && it != end; it.increment(ec)) {
    if (it->is_regular_file(ec) && is_manifest_name(it->path())) names.push_back(it->path().string());
  }
  if (ec) errors.push_back(InputError{dir, 0, 0, "cannot list the directory: " + ec.message()});
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace

std::vector<InputFile> read_inputs(const std::vector<std::string>& operands, std::vector<InputError>& errors) {
  std::vector<InputFile> files;
  bool stdin_read = false;
  for (const std::string& operand : operands) {
    if (operand == "-") {
      if (!std::exchange(stdin_read, true)) read_one(operand, false, files, errors);
      continue;
    }
    std::error_code ec;
    if (fs::is_directory(operand, ec)) {
      for (const std::string& name : manifests_under(operand, errors)) {
        read_one(name, fs::path(name).extension() == ".json", files, errors);
      }
      continue;
    }
    read_one(operand, fs::path(operand).extension() == ".json", files, errors);
  }
  return files;
}

}  // namespace rr::manifest_check
