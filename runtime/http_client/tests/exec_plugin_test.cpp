// HttpClient with a kubeconfig exec credential plugin: bash scripts written by the test print an
// ExecCredential (or fail in the ways plugins fail) and count their runs in a file.
#include <doctest/doctest.h>

#include <atomic>
#include <thread>
#include <vector>

#include "plugin_dir.hpp"
#include "rr/core/json.hpp"
#include "test_server.hpp"

using rr_test::PluginDir;
using rr_test::reply_json;

namespace {

const rr::KindInfo kPods{{"", "v1", "Pod"}, "pods", "PodList", rr::Scope::Namespaced, false};

// 401 unless the Authorization header is "Bearer <token>".
void serve_for_token(rr_test::TestServer& server, const std::string& token) {
  server.http().Get(".*", [token](const httplib::Request& req, httplib::Response& res) {
    if (req.get_header_value("Authorization") != "Bearer " + token) {
      reply_json(res, 401, rr_test::status_body(401, "Unauthorized", "Unauthorized"));
      return;
    }
    reply_json(res, 200, "{}");
  });
}

rr::RestConfig with_exec(const rr_test::TestServer& server, rr::ExecConfig exec) {
  rr::RestConfig config = rr_test::config_for(server);
  config.exec = std::move(exec);
  return config;
}

// The message of the ApiError `call` throws; "(no error)" when it returns.
template <class Call>
std::string plugin_error_of(Call&& call) {
  try {
    call();
  } catch (const rr::ApiError& e) {
    return e.what();
  }
  return "(no error)";
}

bool has_text(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("exec plugin: its token is sent and cached until the server refuses it") {
  PluginDir plugin;
  plugin.token("tok-1");
  rr_test::TestServer server;
  serve_for_token(server, "tok-1");
  server.start();
  rr::HttpClient client(with_exec(server, plugin.exec()), rr_test::quick_options());
  CHECK(plugin.runs() == 0);  // nothing runs before the first request
  CHECK_NOTHROW(client.get(kPods, {"a", "b"}));
  CHECK_NOTHROW(client.get(kPods, {"a", "b"}));
  CHECK(plugin.runs() == 1);
  CHECK(server.seen().back().authorization == "Bearer tok-1");
}

TEST_CASE("exec plugin: run again once its credential has expired, not before") {
  PluginDir plugin;
  rr_test::TestServer server;
  serve_for_token(server, "t");
  server.start();
  SUBCASE("expired") {
    plugin.token("t", "2001-01-01T00:00:00Z");
    rr::HttpClient client(with_exec(server, plugin.exec()), rr_test::quick_options());
    client.get(kPods, {"a", "b"});
    client.get(kPods, {"a", "b"});
    client.get(kPods, {"a", "b"});
    CHECK(plugin.runs() == 3);
  }
  SUBCASE("valid for an hour") {
    const auto in_an_hour = rr::Time::from(std::chrono::system_clock::now() + std::chrono::hours(1)).str();
    plugin.token("t", in_an_hour);
    rr::HttpClient client(with_exec(server, plugin.exec()), rr_test::quick_options());
    client.get(kPods, {"a", "b"});
    client.get(kPods, {"a", "b"});
    CHECK(plugin.runs() == 1);
  }
}

TEST_CASE("exec plugin: a 401 runs it again once, for the next request") {
  PluginDir plugin;
  plugin.token("stale", {}, "out-1.json");
  plugin.token("fresh");
  rr_test::TestServer server;
  serve_for_token(server, "fresh");
  server.start();
  rr::HttpClient client(with_exec(server, plugin.exec()), rr_test::quick_options());
  try {
    client.get(kPods, {"a", "b"});
    FAIL("expected a 401");
  } catch (const rr::ApiError& e) {
    CHECK(e.code() == 401);
  }
  CHECK(plugin.runs() == 1);  // a 401 is not retried (as client-go); the next request re-runs it
  CHECK_NOTHROW(client.get(kPods, {"a", "b"}));
  CHECK_NOTHROW(client.get(kPods, {"a", "b"}));
  CHECK(plugin.runs() == 2);
}

TEST_CASE("exec plugin: concurrent first requests run it once") {
  PluginDir plugin;
  plugin.token("t");
  rr_test::TestServer server;
  serve_for_token(server, "t");
  server.start();
  rr::HttpClient client(with_exec(server, plugin.exec()), rr_test::quick_options());
  std::vector<std::thread> threads;
  std::atomic<int> ok{0};
  for (int i = 0; i < 6; ++i) {
    threads.emplace_back([&] {
      client.get(kPods, {"a", "b"});
      ++ok;
    });
  }
  for (auto& t : threads) t.join();
  CHECK(ok == 6);
  CHECK(plugin.runs() == 1);
}

TEST_CASE("exec plugin: args, env and KUBERNETES_EXEC_INFO") {
  PluginDir plugin;
  plugin.token("t");
  rr_test::TestServer server;
  serve_for_token(server, "t");
  server.start();
  rr::ExecConfig exec = plugin.exec();
  exec.args = {"get-token", "--cluster", "my cluster"};
  exec.env = {{"PLUGIN_ENV", "first"}, {"PLUGIN_ENV", "from-kubeconfig"}};
  SUBCASE("without cluster info") {
    rr::HttpClient client(with_exec(server, exec), rr_test::quick_options());
    client.get(kPods, {"a", "b"});
    CHECK(plugin.read("args") == "get-token\n--cluster\nmy cluster\n");
    CHECK(plugin.read("env") == "from-kubeconfig");  // the last of a name wins, as Go's exec
    CHECK(rr::Json::parse(plugin.read("exec_info")) ==
          rr::Json::parse(R"({"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential",
                              "spec":{"interactive":false}})"));
  }
  SUBCASE("with provideClusterInfo") {
    exec.provide_cluster_info = true;
    exec.cluster_config_json = R"({"audience":"rr"})";
    rr::HttpClient client(with_exec(server, exec), rr_test::quick_options());
    client.get(kPods, {"a", "b"});
    const auto info = rr::Json::parse(plugin.read("exec_info"));
    CHECK(info["spec"]["cluster"]["server"] == server.url());
    CHECK(info["spec"]["cluster"]["config"]["audience"] == "rr");
    CHECK(info["spec"]["interactive"] == false);
  }
}

TEST_CASE("exec plugin: a bare command is looked up in $PATH") {
  PluginDir plugin;
  plugin.token("t");
  plugin.script("rr-test-credential-plugin", "exec \"$(dirname \"$0\")/plugin.sh\"\n");
  rr_test::TestServer server;
  serve_for_token(server, "t");
  server.start();
  const char* old_path = getenv("PATH");
  const std::string saved = old_path != nullptr ? old_path : "";
  setenv("PATH", (plugin.path.string() + ":" + saved).c_str(), 1);
  rr::HttpClient client(with_exec(server, plugin.exec("rr-test-credential-plugin")), rr_test::quick_options());
  const std::string error = plugin_error_of([&] { client.get(kPods, {"a", "b"}); });
  setenv("PATH", saved.c_str(), 1);
  CHECK(error == "(no error)");
  CHECK(plugin.runs() == 1);
}

TEST_CASE("exec plugin: a token or client certificate in the config wins; the plugin never runs") {
  PluginDir plugin;
  plugin.token("from-plugin");
  rr_test::TestServer server;
  serve_for_token(server, "literal");
  server.start();
  rr::RestConfig config = with_exec(server, plugin.exec());
  config.bearer_token = "literal";
  rr::HttpClient client(config, rr_test::quick_options());
  CHECK_NOTHROW(client.get(kPods, {"a", "b"}));
  CHECK(plugin.runs() == 0);
}

TEST_CASE("exec plugin failures: clear errors naming the plugin, no request sent, retried next time") {
  PluginDir plugin;
  rr_test::TestServer server;
  serve_for_token(server, "t");
  server.start();
  const auto failure = [&](const rr::ExecConfig& exec, std::chrono::milliseconds timeout = std::chrono::seconds(10)) {
    rr::HttpClientOptions options = rr_test::quick_options();
    options.exec_plugin_timeout = timeout;
    rr::HttpClient client(with_exec(server, exec), options);
    std::string message;
    try {
      client.get(kPods, {"a", "b"});
      FAIL("expected an ApiError");
    } catch (const rr::ApiError& e) {
      CHECK(e.code() == 0);
      CHECK(e.status().reason == "ServiceUnavailable");
      message = e.what();
    }
    return message;
  };

  SUBCASE("missing executable: client-go's help and the installHint") {
    rr::ExecConfig exec = plugin.exec((plugin.path / "missing-plugin").string());
    exec.install_hint = "Install it with: apt-get install missing-plugin";
    const std::string message = failure(exec);
    CHECK(has_text(message, "getting credentials: exec: executable " + exec.command + " not found"));
    CHECK(has_text(message, "client-go credential plugin that is not installed"));
    CHECK(has_text(message, "\n\nInstall it with: apt-get install missing-plugin"));
  }
  SUBCASE("non-zero exit: the code and the end of stderr") {
    const auto command = plugin.script("fails.sh", "echo 'error: the SSO session has expired' >&2\nexit 3\n");
    CHECK(has_text(failure(plugin.exec(command)),
                   "getting credentials: exec: executable " + command +
                       " failed with exit code 3: stderr: error: the SSO session has expired"));
  }
  SUBCASE("a long stderr is cut to its end") {
    const auto command = plugin.script("chatty.sh",
                                       "head -c 100000 /dev/zero | tr '\\0' x >&2\necho LAST >&2\nexit 1\n");
    const std::string message = failure(plugin.exec(command));
    CHECK(has_text(message, "stderr: ...xxx"));
    CHECK(has_text(message, "xLAST"));
    CHECK(message.size() < 3000);
  }
  SUBCASE("garbage on stdout") {
    const auto command = plugin.script("garbage.sh", "echo 'Open https://login.example.com to sign in'\n");
    CHECK(has_text(failure(plugin.exec(command)),
                   "getting credentials: exec plugin " + command + ": decoding stdout: not JSON"));
  }
  SUBCASE("another apiVersion") {
    plugin.write(
        "out.json",
        R"({"apiVersion":"client.authentication.k8s.io/v1beta1","kind":"ExecCredential","status":{"token":"t"}})");
    CHECK(has_text(failure(plugin.exec()),
                   "exec plugin is configured to use API version client.authentication.k8s.io/v1, plugin returned "
                   "version client.authentication.k8s.io/v1beta1"));
  }
  SUBCASE("no token and no certificate") {
    plugin.write("out.json", R"({"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{}})");
    CHECK(has_text(failure(plugin.exec()), "exec plugin didn't return a token or cert/key pair"));
  }
  SUBCASE("a plugin that hangs is killed at the timeout") {
    const auto command = plugin.script("hangs.sh", "sleep 30\n");
    const auto start = std::chrono::steady_clock::now();
    CHECK(
        has_text(failure(plugin.exec(command), std::chrono::milliseconds(300)),
                 "getting credentials: exec: executable " + command + " did not finish within 300 ms and was killed"));
    CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(5));
  }
  SUBCASE("interactiveMode Always: an operator has no terminal to give") {
    plugin.token("t");
    rr::ExecConfig exec = plugin.exec();
    exec.interactive_mode = rr::ExecInteractiveMode::Always;
    CHECK(has_text(failure(exec), "exec plugin cannot support interactive mode: standard input is not a terminal"));
    CHECK(plugin.runs() == 0);
  }
  CHECK(server.seen().empty());
}

TEST_CASE("exec plugin: a failed run caches nothing; the next request runs it again") {
  PluginDir plugin;
  plugin.write("out-1.json", "not json");
  plugin.token("t");
  rr_test::TestServer server;
  serve_for_token(server, "t");
  server.start();
  rr::HttpClient client(with_exec(server, plugin.exec()), rr_test::quick_options());
  CHECK(has_text(plugin_error_of([&] { client.get(kPods, {"a", "b"}); }), "decoding stdout"));
  CHECK_NOTHROW(client.get(kPods, {"a", "b"}));
  CHECK(plugin.runs() == 2);
}
