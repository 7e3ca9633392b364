// Bearer tokens (literal and file, rotation) and the User-Agent.
#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "rr/core/json.hpp"
#include "test_server.hpp"

using rr_test::reply_json;

namespace {

const rr::KindInfo kConfigMaps{{"", "v1", "ConfigMap"}, "configmaps", "ConfigMapList", rr::Scope::Namespaced, false};

void write_file(const std::filesystem::path& path, const std::string& text) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
}

struct TempDir {
  std::filesystem::path path;
  TempDir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "rr-http-auth-XXXXXX").string();
    path = mkdtemp(pattern.data());
  }
  ~TempDir() { std::filesystem::remove_all(path); }
};

// 401 unless the Authorization header is "Bearer <token>"; answers the token it saw.
void require_token(rr_test::TestServer& server, const std::string& token) {
  server.http().Get(".*", [token](const httplib::Request& req, httplib::Response& res) {
    const std::string auth = req.get_header_value("Authorization");
    if (auth != "Bearer " + token) {
      reply_json(res, 401, rr_test::status_body(401, "Unauthorized", "Unauthorized"));
      return;
    }
    reply_json(res, 200, "{}");
  });
}

}  // namespace

TEST_CASE("a literal bearer token is sent, a wrong one gets 401 Unauthorized") {
  rr_test::TestServer server;
  require_token(server, "s3cret");
  server.start();
  rr::RestConfig config = rr_test::config_for(server);
  config.bearer_token = "s3cret";
  {
    rr::HttpClient client(config, rr_test::quick_options());
    CHECK_NOTHROW(client.get(kConfigMaps, {"a", "b"}));
  }
  config.bearer_token = "wrong";
  rr::HttpClient client(config, rr_test::quick_options());
  try {
    client.get(kConfigMaps, {"a", "b"});
    FAIL("expected an ApiError");
  } catch (const rr::ApiError& e) {
    CHECK(e.code() == 401);
    CHECK(e.status().reason == "Unauthorized");
  }
  const auto seen = server.seen();
  CHECK(seen.back().authorization == "Bearer wrong");
  CHECK(seen.back().user_agent == "rrgen-http-client");
}

TEST_CASE("bearer_token_file is re-read when the cached token is too old, and after a 401") {
  TempDir dir;
  const auto file = dir.path / "token";
  write_file(file, "first\n");
  rr_test::TestServer server;
  server.http().Get(".*", [](const httplib::Request& req, httplib::Response& res) {
    const std::string auth = req.get_header_value("Authorization");
    if (auth == "Bearer old-rejected") {
      reply_json(res, 401, rr_test::status_body(401, "Unauthorized", "Unauthorized"));
      return;
    }
    reply_json(res, 200, rr::Json{{"auth", auth}}.dump());
  });
  server.start();
  rr::RestConfig config = rr_test::config_for(server);
  config.bearer_token = "literal";  // the file wins once it can be read, as in client-go
  config.bearer_token_file = file.string();
  rr::HttpClientOptions options = rr_test::quick_options();
  options.token_file_max_age = std::chrono::milliseconds(100);
  rr::HttpClient client(config, options);

  CHECK(client.get(kConfigMaps, {"a", "b"})["auth"] == "Bearer first");
  write_file(file, "second");
  CHECK(client.get(kConfigMaps, {"a", "b"})["auth"] == "Bearer first");  // cached
  std::this_thread::sleep_for(std::chrono::milliseconds(120));
  CHECK(client.get(kConfigMaps, {"a", "b"})["auth"] == "Bearer second");

  // A 401 forgets the cached token at once.
  rr::HttpClientOptions slow_refresh = options;
  slow_refresh.token_file_max_age = std::chrono::hours(1);
  write_file(file, "old-rejected");
  rr::HttpClient client2(config, slow_refresh);
  CHECK_THROWS_AS(client2.get(kConfigMaps, {"a", "b"}), rr::ApiError);
  write_file(file, "rotated");
  CHECK(client2.get(kConfigMaps, {"a", "b"})["auth"] == "Bearer rotated");

  // An unreadable file falls back to the last token read.
  std::filesystem::remove(file);
  std::this_thread::sleep_for(std::chrono::milliseconds(120));
  CHECK(client.get(kConfigMaps, {"a", "b"})["auth"] == "Bearer second");
}

TEST_CASE("user agent: options, else RestConfig, else the default") {
  rr_test::TestServer server;
  server.http().Get(".*", [](const httplib::Request&, httplib::Response& res) { reply_json(res, 200, "{}"); });
  server.start();
  rr::RestConfig config = rr_test::config_for(server);
  config.user_agent = "from-config/1";
  {
    rr::HttpClient client(config, rr_test::quick_options());
    client.get_path("/version");
  }
  rr::HttpClientOptions options = rr_test::quick_options();
  options.user_agent = "from-options/2";
  rr::HttpClient client(config, options);
  client.get_path("/version");
  const auto seen = server.seen();
  REQUIRE(seen.size() == 2);
  CHECK(seen[0].user_agent == "from-config/1");
  CHECK(seen[1].user_agent == "from-options/2");
  CHECK(seen[0].authorization.empty());
}
