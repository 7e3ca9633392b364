#include "http_watch.hpp"

#include <stdexcept>

namespace rr::http_detail {

HttpWatch::HttpWatch(Transport& transport) : transport_(transport) {}

HttpWatch::~HttpWatch() {
  stop();
  if (reader_.joinable()) reader_.join();
  reset_transfer();
}

void HttpWatch::reset_transfer() {
  if (multi_ != nullptr && easy_ != nullptr) curl_multi_remove_handle(multi_, easy_);
  if (easy_ != nullptr) curl_easy_cleanup(easy_);
  if (multi_ != nullptr) curl_multi_cleanup(multi_);
  easy_ = nullptr;
  multi_ = nullptr;
}

long HttpWatch::response_code() const {
  long code = 0;
  curl_easy_getinfo(easy_, CURLINFO_RESPONSE_CODE, &code);
  return code;
}

size_t HttpWatch::on_data(char* data, size_t size, size_t count, void* self) {
  auto& watch = *static_cast<HttpWatch*>(self);
  const size_t n = size * count;
  const long code = watch.response_code();
  if (code < 200 || code > 299) {
    watch.error_body_.append(data, n);
    return n;
  }
  // Returning less than n aborts the transfer (a malformed event, or stop()).
  return watch.events_.feed(std::string_view(data, n)) ? n : 0;
}

std::optional<CURLcode> HttpWatch::step(int poll_ms) {
  int running = 0;
  curl_multi_perform(multi_, &running);
  int queued = 0;
  while (CURLMsg* msg = curl_multi_info_read(multi_, &queued)) {
    if (msg->msg == CURLMSG_DONE) return msg->data.result;
  }
  if (running == 0) return CURLE_OK;
  curl_multi_poll(multi_, nullptr, 0, poll_ms, nullptr);
  return std::nullopt;
}

HttpResponse HttpWatch::open(const HttpRequest& request, std::chrono::milliseconds header_timeout) {
  reset_transfer();
  headers_ = HeaderState{};
  error_body_.clear();
  // Until run(), this thread feeds the queue and nobody takes from it: a server that sends the
  // initial events with the headers would otherwise fill it and this thread wait for itself.
  events_.hold_when_full(false);
  multi_ = curl_multi_init();
  easy_ = curl_easy_init();
  if (multi_ == nullptr || easy_ == nullptr) throw std::runtime_error("curl_multi_init / curl_easy_init failed");
  prepared_ = transport_.prepare(easy_, request, /*streaming=*/true);
  curl_easy_setopt(easy_, CURLOPT_WRITEFUNCTION, &HttpWatch::on_data);
  curl_easy_setopt(easy_, CURLOPT_WRITEDATA, this);
  curl_easy_setopt(easy_, CURLOPT_HEADERFUNCTION, &header_callback);
  curl_easy_setopt(easy_, CURLOPT_HEADERDATA, &headers_);
  curl_multi_add_handle(multi_, easy_);

  const auto deadline = std::chrono::steady_clock::now() + header_timeout;
  std::optional<CURLcode> done;
  while (!(done = step(50))) {
    const long code = response_code();
    if (headers_.complete && code >= 200 && code <= 299)
      return HttpResponse{code, {}, headers_.retry_after, headers_.warnings};
    if (std::chrono::steady_clock::now() >= deadline) {
      throw TransportFailure("no answer to the watch request within " + std::to_string(header_timeout.count()) + " ms",
                             /*connection_failed=*/false);
    }
  }
  if (*done != CURLE_OK) throw TransportFailure(prepared_.error_text(*done), is_connection_failure(*done));
  const long code = response_code();
  if (code == 401) transport_.unauthorized(prepared_);
  if (code >= 200 && code <= 299)
    return HttpResponse{code, {}, headers_.retry_after, headers_.warnings};  // already ended
  return HttpResponse{code, error_body_, headers_.retry_after, headers_.warnings};
}

void HttpWatch::run() {
  events_.hold_when_full(true);  // the consumer takes events from now on, on its own thread
  reader_ = std::thread([this] { read_stream(); });
}

void HttpWatch::read_stream() {
  while (!stop_flag_.load()) {
    if (step(1000)) break;
  }
  // Whatever ended the transfer (the server, timeoutSeconds, a broken connection, stop()), the
  // stream is over; a consumer re-watches from the last resourceVersion it saw.
  events_.finish();
}

void HttpWatch::stop() {
  events_.stop();
  stop_flag_.store(true);
  if (multi_ != nullptr) curl_multi_wakeup(multi_);
}

}  // namespace rr::http_detail
