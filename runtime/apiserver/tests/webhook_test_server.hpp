// A small HTTPS admission webhook for tests: httplib's SSLServer with a throwaway certificate for
// 127.0.0.1, one handler per path, every review it received kept.
#pragma once
#include <httplib.h>

#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "rr/apiserver/dev_certificates.hpp"
#include "rr/core/time.hpp"
#include "rr/webhook/admission_review.hpp"
#include "rr/webhook/conversion_review.hpp"
#include "tls_context.hpp"

namespace rr::apiserver_test {

class TestWebhook {
 public:
  using Handler = std::function<webhook::AdmissionResponse(const webhook::AdmissionRequest&)>;
  using ConversionHandler = std::function<webhook::ConversionResponse(const webhook::ConversionRequest&)>;

  // The certificate is for 127.0.0.1 and `dns_names` (a service's "<name>.<namespace>.svc").
  explicit TestWebhook(const std::vector<std::string>& dns_names = {})
      : certs_(make_dev_certificates("rrgen-admin", dns_names)) {
    server_ = std::make_unique<httplib::SSLServer>([this](SSL_CTX& ctx) {
      return apiserver_detail::configure_server_tls(ctx, certs_.server_cert_pem, certs_.server_key_pem, "");
    });
    server_->Post(".*", [this](const httplib::Request& req, httplib::Response& res) {
      std::unique_lock lock(mutex_);
      if (auto conversion = conversions_.find(req.path); conversion != conversions_.end()) {
        auto request = webhook::decode_conversion_review_request(req.body);
        auto handler = conversion->second;
        ++calls_[req.path];
        lock.unlock();
        res.set_content(webhook::encode_conversion_review_response(handler(request)), "application/json");
        return;
      }
      auto request = webhook::decode_admission_review_request(req.body);
      requests_[req.path].push_back(request);
      ++calls_[req.path];
      queries_[req.path] = req.get_param_value("timeout");
      auto handler = handlers_.at(req.path);
      lock.unlock();
      auto response = handler(request);
      response.uid = request.uid;
      res.set_content(webhook::encode_admission_review_response(response), "application/json");
    });
    port_ = server_->bind_to_any_port("127.0.0.1");
    thread_ = std::thread([this] { server_->listen_after_bind(); });
    for (int i = 0; i < 5000 && !server_->is_running(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  ~TestWebhook() {
    server_->stop();
    thread_.join();
  }

  void on(const std::string& path, Handler handler) {
    std::lock_guard lock(mutex_);
    handlers_[path] = std::move(handler);
  }
  void on_conversion(const std::string& path, ConversionHandler handler) {
    std::lock_guard lock(mutex_);
    conversions_[path] = std::move(handler);
  }
  std::vector<webhook::AdmissionRequest> requests(const std::string& path) {
    std::lock_guard lock(mutex_);
    return requests_[path];
  }
  int calls(const std::string& path) {
    std::lock_guard lock(mutex_);
    return calls_[path];
  }
  std::string timeout_query(const std::string& path) {
    std::lock_guard lock(mutex_);
    return queries_[path];
  }
  int port() const { return port_; }
  std::string url(const std::string& path) const { return "https://127.0.0.1:" + std::to_string(port_) + path; }
  // The caBundle that trusts this server's certificate.
  std::string ca_bundle() const { return Bytes::encode(certs_.ca_pem).str(); }
  Json client_config(const std::string& path) const { return Json{{"url", url(path)}, {"caBundle", ca_bundle()}}; }

 private:
  DevCertificates certs_;
  std::unique_ptr<httplib::SSLServer> server_;
  std::thread thread_;
  int port_ = 0;
  std::mutex mutex_;
  std::map<std::string, Handler> handlers_;
  std::map<std::string, ConversionHandler> conversions_;
  std::map<std::string, std::vector<webhook::AdmissionRequest>> requests_;
  std::map<std::string, int> calls_;
  std::map<std::string, std::string> queries_;
};

}  // namespace rr::apiserver_test
