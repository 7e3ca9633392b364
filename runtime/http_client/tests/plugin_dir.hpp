// A temporary directory holding a credential plugin for tests: plugin.sh records its runs, its
// arguments, $KUBERNETES_EXEC_INFO and $PLUGIN_ENV, and prints out-<run>.json when the test wrote
// one, else out.json. Shared by the unit and the integration tests of rr::http_client.
#pragma once
#include <stdlib.h>
#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "rr/core/json.hpp"
#include "rr/rest_config/rest_config.hpp"

namespace rr_test {

inline constexpr const char* kExecV1 = "client.authentication.k8s.io/v1";

struct PluginDir {
  std::filesystem::path path;
  PluginDir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "rr-exec-plugin-XXXXXX").string();
    path = mkdtemp(pattern.data());
    script("plugin.sh", "d=\"$(dirname \"$0\")\"\n"
                        "echo run >> \"$d/runs\"\n"
                        "n=$(wc -l < \"$d/runs\")\n"
                        "printf '%s\\n' \"$@\" > \"$d/args\"\n"
                        "printf '%s' \"$KUBERNETES_EXEC_INFO\" > \"$d/exec_info\"\n"
                        "printf '%s' \"$PLUGIN_ENV\" > \"$d/env\"\n"
                        "if [ -f \"$d/out-$n.json\" ]; then cat \"$d/out-$n.json\"; else cat \"$d/out.json\"; fi\n");
  }
  ~PluginDir() { std::filesystem::remove_all(path); }
  PluginDir(const PluginDir&) = delete;
  PluginDir& operator=(const PluginDir&) = delete;

  std::string script(const std::string& name, const std::string& body) const {
    const auto file = path / name;
    std::ofstream(file, std::ios::binary | std::ios::trunc) << "#!/bin/bash\n" << body;
    ::chmod(file.c_str(), 0755);
    return file.string();
  }
  void write(const std::string& name, const std::string& text) const {
    std::ofstream(path / name, std::ios::binary | std::ios::trunc) << text;
  }
  std::string read(const std::string& name) const {
    std::ifstream in(path / name, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  }
  int runs() const {
    const std::string text = read("runs");
    return static_cast<int>(std::count(text.begin(), text.end(), '\n'));
  }
  // out.json (or out-<run>.json): a v1 ExecCredential with `token`, expiring at `expiry` if given.
  void token(const std::string& token, const std::string& expiry = {}, const std::string& name = "out.json") const {
    rr::Json status{{"token", token}};
    if (!expiry.empty()) status["expirationTimestamp"] = expiry;
    write(name, rr::Json{{"apiVersion", kExecV1}, {"kind", "ExecCredential"}, {"status", status}}.dump());
  }
  rr::ExecConfig exec(const std::string& command = {}) const {
    rr::ExecConfig exec;
    exec.command = command.empty() ? (path / "plugin.sh").string() : command;
    exec.api_version = kExecV1;
    exec.interactive_mode = rr::ExecInteractiveMode::Never;
    return exec;
  }
  // out.json (or out-<run>.json): a v1 ExecCredential with a client certificate and key.
  void certificate(const std::string& cert_pem, const std::string& key_pem, const std::string& expiry = {},
                   const std::string& name = "out.json") const {
    rr::Json status{{"clientCertificateData", cert_pem}, {"clientKeyData", key_pem}};
    if (!expiry.empty()) status["expirationTimestamp"] = expiry;
    write(name, rr::Json{{"apiVersion", kExecV1}, {"kind", "ExecCredential"}, {"status", status}}.dump());
  }
};

}  // namespace rr_test
