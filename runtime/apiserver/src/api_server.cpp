// rr::ApiServer: cpp-httplib in front of the REST handler, plus authentication and the watch
// streams' chunked responses.
#include "rr/apiserver/api_server.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <httplib.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <mutex>
#include <set>
#include <stdexcept>
#include <thread>

#include "admission_plugins.hpp"
#include "authorization.hpp"
#include "crd_controller.hpp"
#include "default_rbac.hpp"
#include "faults.hpp"
#include "kind_catalog.hpp"
#include "kubeconfig.hpp"
#include "rest_handler.hpp"
#include "rr/apiserver/builtin_kinds.hpp"
#include "rr/cluster/cluster.hpp"
#include "rr/wire_order/go_encoder.hpp"
#include "service_account_tokens.hpp"
#include "tls_context.hpp"
#include "watch_stream.hpp"

namespace rr {

using apiserver_detail::WatchStream;

namespace {

constexpr std::string_view loopback = "127.0.0.1";

// Health and version are public, as the API server's system:public-info-viewer role has it.
bool is_public_path(const std::string& path) {
  for (std::string_view prefix : {"/healthz", "/livez", "/readyz", "/version"}) {
    if (path.compare(0, prefix.size(), prefix) == 0 &&
        (path.size() == prefix.size() || path[prefix.size()] == '/')) {
      return true;
    }
  }
  return false;
}

Status unauthorized() {
  Status s;
  s.message = "Unauthorized";
  s.reason = "Unauthorized";
  s.code = 401;
  return s;
}

}  // namespace

struct ApiServer::Impl {
  Impl(std::shared_ptr<Cluster> c, ApiServerOptions o)
      : cluster(std::move(c)),
        options(std::move(o)),
        catalog(cluster),
        crds(cluster, catalog),
        faults(options.faults),
        authorizer(cluster, options.authorization),
        tokens(cluster),
        handler(cluster, catalog, crds, faults, authorizer, tokens,
                [this] { return std::string(loopback) + ":" + std::to_string(port.load()); }) {
    handler.set_token_authenticator([this](std::string_view token, const std::vector<std::string>& audiences) {
      return authenticate_token(token, audiences);
    });
  }

  std::shared_ptr<Cluster> cluster;
  ApiServerOptions options;
  std::string cert_pem, key_pem, client_ca_pem, trusted_ca_pem;
  apiserver_detail::KindCatalog catalog;
  apiserver_detail::CrdController crds;
  apiserver_detail::FaultInjector faults;
  apiserver_detail::Authorizer authorizer;
  apiserver_detail::ServiceAccountTokens tokens;
  apiserver_detail::RestHandler handler;
  apiserver_detail::AuthorizerCell policy_authorizer;
  std::unique_ptr<admission_policy::PolicyStatusWriter> policy_status;

  std::unique_ptr<httplib::Server> server;
  std::thread listener;
  std::atomic<bool> stopping{false};
  std::atomic<int> port{0};
  std::mutex streams_mutex;
  std::set<std::shared_ptr<WatchStream>> streams;

  bool authentication_required() const {
    return !options.bearer_tokens.empty() || !options.static_tokens.empty() || !client_ca_pem.empty();
  }
  // Who the request is: a static token's user, a ServiceAccount token's account, a client
  // certificate's CN and O, the development admin (a bearer_tokens token, or no authentication
  // configured); nothing when unauthenticated.
  std::optional<apiserver_detail::UserInfo> authenticate(const httplib::Request& req) const;
  // A bearer token's user and the `audiences` it is valid for (requests and TokenReview).
  std::optional<std::pair<apiserver_detail::UserInfo, std::vector<std::string>>> authenticate_token(
      std::string_view token, const std::vector<std::string>& audiences) const;
  // authenticate(), or system:anonymous on the public paths.
  std::optional<apiserver_detail::UserInfo> user_of(const httplib::Request& req) const;
  void serve(const httplib::Request& req, httplib::Response& res);
  std::unique_ptr<httplib::Server> make_server();
};

namespace {

// Every authenticated user is in system:authenticated.
apiserver_detail::UserInfo authenticated_user(std::string name, std::vector<std::string> groups) {
  if (std::find(groups.begin(), groups.end(), apiserver_detail::authenticated_group) == groups.end()) {
    groups.emplace_back(apiserver_detail::authenticated_group);
  }
  return apiserver_detail::UserInfo{std::move(name), std::move(groups)};
}

// The Impersonate-* headers. An extra's key is the rest of its header name, lowercased and
// percent-decoded, as the API server reads it.
apiserver_detail::Impersonation impersonation_of(const httplib::Request& req) {
  apiserver_detail::Impersonation as;
  as.user = req.get_header_value("Impersonate-User");
  as.uid = req.get_header_value("Impersonate-Uid");
  for (std::size_t i = 0, n = req.get_header_value_count("Impersonate-Group"); i < n; ++i) {
    as.groups.push_back(req.get_header_value("Impersonate-Group", i));
  }
  constexpr std::string_view extra_prefix = "impersonate-extra-";
  for (const auto& [name, value] : req.headers) {
    std::string lower(name.size(), ' ');
    std::transform(name.begin(), name.end(), lower.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    if (lower.size() > extra_prefix.size() && lower.compare(0, extra_prefix.size(), extra_prefix) == 0) {
      as.extra[httplib::detail::decode_url(lower.substr(extra_prefix.size()), false)].push_back(value);
    }
  }
  return as;
}

}  // namespace

std::optional<apiserver_detail::UserInfo> ApiServer::Impl::authenticate(const httplib::Request& req) const {
  const auto admin = [this] { return authenticated_user(options.development_user, options.development_groups); };
  if (!authentication_required()) return admin();
  const std::string authorization = req.get_header_value("Authorization");
  constexpr std::string_view bearer = "Bearer ";
  if (authorization.compare(0, bearer.size(), bearer) == 0) {
    const std::string token = authorization.substr(bearer.size());
    if (auto found = authenticate_token(token, {std::string(apiserver_detail::api_server_audience)})) {
      return std::move(found->first);
    }
  }
  if (client_ca_pem.empty()) return std::nullopt;
  auto identity = apiserver_detail::client_certificate_identity(req.ssl);
  if (!identity) return std::nullopt;
  return authenticated_user(std::move(identity->user), std::move(identity->groups));
}

std::optional<std::pair<apiserver_detail::UserInfo, std::vector<std::string>>> ApiServer::Impl::authenticate_token(
    std::string_view token, const std::vector<std::string>& audiences) const {
  // Static tokens know no audience: they answer for the API server's own (the API server's
  // audience-agnostic token authenticators).
  const std::string own(apiserver_detail::api_server_audience);
  if (std::find(audiences.begin(), audiences.end(), own) != audiences.end()) {
    const std::vector<std::string> matched{own};
    for (const auto& accepted : options.static_tokens) {
      if (token == accepted.token) return std::pair{authenticated_user(accepted.user, accepted.groups), matched};
    }
    for (const auto& accepted : options.bearer_tokens) {
      if (token == accepted) {
        return std::pair{authenticated_user(options.development_user, options.development_groups), matched};
      }
    }
  }
  return tokens.authenticate(token, audiences);
}

std::optional<apiserver_detail::UserInfo> ApiServer::Impl::user_of(const httplib::Request& req) const {
  if (auto user = authenticate(req)) return user;
  if (!is_public_path(req.path)) return std::nullopt;
  return apiserver_detail::UserInfo{std::string(apiserver_detail::anonymous_user),
                                    {std::string(apiserver_detail::unauthenticated_group)}};
}

void ApiServer::Impl::serve(const httplib::Request& req, httplib::Response& res) {
  apiserver_detail::HttpRequest request{req.method, req.target, req.get_header_value("Content-Type"), req.body,
                                        req.get_header_value("Accept")};
  if (auto user = user_of(req)) request.user = std::move(*user);
  request.impersonate = impersonation_of(req);
  apiserver_detail::HttpReply reply = handler.handle(request);
  res.status = reply.code;
  for (const auto& [name, value] : reply.headers) res.set_header(name, value);
  if (reply.text_stream) {
    // A followed log: chunks as the container writes them, until it stops or the server does.
    res.set_chunked_content_provider(reply.content_type,
                                     [this, next = std::move(reply.text_stream)](std::size_t, httplib::DataSink& sink) {
                                       std::string out;
                                       const bool more = !stopping.load() && next(out);
                                       if (!out.empty() && !sink.write(out.data(), out.size())) return false;
                                       if (!more) sink.done();
                                       return true;
                                     });
    return;
  }
  if (!reply.watch) {
    res.set_content(reply.body, reply.content_type.c_str());
    return;
  }
  auto stream = std::make_shared<WatchStream>(std::move(reply.watch), faults, stopping,
                                              std::move(reply.transform_event));
  {
    std::lock_guard lock(streams_mutex);
    streams.insert(stream);
  }
  res.set_chunked_content_provider(
      "application/json",
      [stream](std::size_t, httplib::DataSink& sink) {
        std::string out;
        const auto step = stream->step(out, std::chrono::milliseconds(200));
        if (!out.empty() && !sink.write(out.data(), out.size())) return false;
        if (step == WatchStream::Step::Done) sink.done();
        return step != WatchStream::Step::Cut;  // false: the connection is dropped mid-stream
      },
      [this, stream](bool) {
        std::lock_guard lock(streams_mutex);
        streams.erase(stream);
      });
}

std::unique_ptr<httplib::Server> ApiServer::Impl::make_server() {
  std::unique_ptr<httplib::Server> s;
  if (options.tls) {
    s = std::make_unique<httplib::SSLServer>([this](SSL_CTX& ctx) {
      return apiserver_detail::configure_server_tls(ctx, cert_pem, key_pem, client_ca_pem);
    });
  } else {
    s = std::make_unique<httplib::Server>();
  }
  if (!s->is_valid()) throw std::runtime_error("ApiServer: the TLS certificate or key was refused");
  const std::size_t threads = options.threads > 0 ? options.threads : 1;
  s->new_task_queue = [threads] { return new httplib::ThreadPool(threads); };
  // An idle keep-alive connection holds a worker until this runs out, and stop() waits for it.
  s->set_keep_alive_timeout(1);
  // Without it every response after the first on a kept-alive connection waits ~40 ms for the
  // client's delayed ACK (Nagle), which throttles each client to ~25 requests a second.
  s->set_tcp_nodelay(true);
  s->set_payload_max_length(64u << 20);
  s->set_pre_routing_handler([this](const httplib::Request& req, httplib::Response& res) {
    // No response compression: httplib would buffer a watch stream's events in its compressor.
    // (The request object is httplib's own mutable one, handed over as const.)
    const_cast<httplib::Request&>(req).headers.erase("Accept-Encoding");
    if (user_of(req)) {
      return httplib::Server::HandlerResponse::Unhandled;
    }
    res.status = 401;
    res.set_content(wire_order::encode(unauthorized().to_json()), "application/json");
    return httplib::Server::HandlerResponse::Handled;
  });
  auto route = [this](const httplib::Request& req, httplib::Response& res) { serve(req, res); };
  s->Get(".*", route);
  s->Post(".*", route);
  s->Put(".*", route);
  s->Patch(".*", route);
  s->Delete(".*", route);
  return s;
}

ApiServer::ApiServer(std::shared_ptr<Cluster> cluster, ApiServerOptions options) {
  if (!cluster) throw std::invalid_argument("ApiServer: no cluster");
  if (options.bind_address != loopback && options.bind_address != "localhost") {
    throw std::invalid_argument("ApiServer: refusing to bind " + options.bind_address +
                                ": the local cluster listens on 127.0.0.1 only");
  }
  if (options.port < 0 || options.port > 65535) throw std::invalid_argument("ApiServer: bad port");
  if (options.register_builtin_kinds) register_builtin_kinds(*cluster);
  apiserver_detail::ensure_default_rbac(*cluster);  // both modes: tools read them (kubectl describe clusterrole view)
  // Admission policies and webhooks: the objects stored in the cluster decide which run. The
  // policies' authorizer is the server's, once it exists.
  auto policy_authorizer = apiserver_detail::install_admission_plugins(*cluster);
  impl_ = std::make_unique<Impl>(std::move(cluster), std::move(options));
  impl_->policy_authorizer = std::move(policy_authorizer);
  impl_->policy_authorizer->store(&impl_->authorizer);
  impl_->policy_status = apiserver_detail::policy_status_writer(impl_->cluster);
  if (const auto& tls = impl_->options.tls) {
    impl_->cert_pem = apiserver_detail::pem_from(tls->cert_pem, tls->cert_file, "TLS certificate");
    impl_->key_pem = apiserver_detail::pem_from(tls->key_pem, tls->key_file, "TLS key");
    impl_->client_ca_pem = apiserver_detail::pem_from(tls->client_ca_pem, tls->client_ca_file, "client CA");
    if (impl_->cert_pem.empty() || impl_->key_pem.empty()) {
      throw std::invalid_argument("ApiServer: TLS needs a certificate and a key");
    }
    impl_->trusted_ca_pem = tls->ca_pem.empty() ? impl_->cert_pem : tls->ca_pem;
  }
}

ApiServer::~ApiServer() {
  stop();
  impl_->policy_authorizer->store(nullptr);  // the cluster's admission may outlive the server
}

void ApiServer::start() {
  Impl& impl = *impl_;
  if (impl.server) return;
  // OpenSSL writes to sockets with write(2), which raises SIGPIPE when a client has gone away;
  // its default action would end the process. A handler the program installed is left alone.
  struct sigaction current {};
  if (::sigaction(SIGPIPE, nullptr, &current) == 0 && current.sa_handler == SIG_DFL) std::signal(SIGPIPE, SIG_IGN);
  impl.stopping = false;
  auto server = impl.make_server();
  const int port = impl.options.port == 0 ? server->bind_to_any_port(std::string(loopback))
                                          : (server->bind_to_port(std::string(loopback), impl.options.port)
                                                 ? impl.options.port
                                                 : -1);
  if (port <= 0) {
    throw std::runtime_error("ApiServer: cannot listen on 127.0.0.1:" + std::to_string(impl.options.port));
  }
  impl.port = port;
  impl.server = std::move(server);
  impl.listener = std::thread([server = impl.server.get()] { server->listen_after_bind(); });
  for (int i = 0; i < 5000 && !impl.server->is_running(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  impl.crds.start();
}

void ApiServer::stop() {
  Impl& impl = *impl_;
  if (!impl.server) return;
  impl.stopping = true;
  {
    std::lock_guard lock(impl.streams_mutex);
    for (const auto& stream : impl.streams) stream->stop();
  }
  impl.crds.stop();
  impl.server->stop();
  if (impl.listener.joinable()) impl.listener.join();
  impl.server.reset();
}

bool ApiServer::running() const { return impl_->server && impl_->server->is_running(); }

int ApiServer::port() const { return impl_->port.load(); }

std::string ApiServer::url() const {
  return std::string(impl_->options.tls ? "https://" : "http://") + std::string(loopback) + ":" + std::to_string(port());
}

const std::shared_ptr<Cluster>& ApiServer::cluster() const { return impl_->cluster; }

std::string ApiServer::kubeconfig_yaml() const {
  KubeconfigUser user = impl_->options.kubeconfig_user;
  if (user.token.empty() && user.client_certificate_pem.empty() && !impl_->options.bearer_tokens.empty()) {
    user.token = impl_->options.bearer_tokens.front();
  }
  return kubeconfig_yaml(user);
}

std::string ApiServer::kubeconfig_yaml(const KubeconfigUser& user) const {
  return apiserver_detail::kubeconfig_text(url(), impl_->options.kubeconfig_cluster_name, impl_->trusted_ca_pem, user);
}

namespace {

void write_private_file(const std::string& path, const std::string& text) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0) throw std::runtime_error("cannot write " + path + ": " + std::strerror(errno));
  ::fchmod(fd, 0600);
  std::size_t written = 0;
  while (written < text.size()) {
    const ssize_t n = ::write(fd, text.data() + written, text.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const int error = errno;
      ::close(fd);
      throw std::runtime_error("cannot write " + path + ": " + std::strerror(error));
    }
    written += static_cast<std::size_t>(n);
  }
  if (::close(fd) != 0) throw std::runtime_error("cannot write " + path + ": " + std::strerror(errno));
}

}  // namespace

void ApiServer::write_kubeconfig(const std::string& path) const { write_private_file(path, kubeconfig_yaml()); }

void ApiServer::write_kubeconfig(const std::string& path, const KubeconfigUser& user) const {
  write_private_file(path, kubeconfig_yaml(user));
}

void ApiServer::set_faults(const FaultOptions& faults) { impl_->faults.set(faults); }
FaultOptions ApiServer::faults() const { return impl_->faults.options(); }
FaultCounters ApiServer::fault_counters() const { return impl_->faults.counters(); }

void ApiServer::set_pod_log_source(std::shared_ptr<node::PodLogSource> source) {
  impl_->handler.set_pod_logs(std::move(source));
}

std::function<Json(const std::string&, const std::string&, const Json&)> ApiServer::token_minter() const {
  return [impl = impl_.get()](const std::string& ns, const std::string& account, const Json& request) {
    return impl->tokens.issue(ns, account, request);
  };
}

std::string ApiServer::serving_ca_pem() const { return impl_->trusted_ca_pem; }

}  // namespace rr
