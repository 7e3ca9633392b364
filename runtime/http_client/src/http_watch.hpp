// The rr::Watch of HttpClient: a GET ?watch=true transfer driven through a curl multi handle, first
// by the caller until the answer's headers are in (so watch() can throw on a non-2xx answer), then
// by a background thread that feeds the body to a WatchEventQueue. stop() wakes that thread's
// poll (curl_multi_wakeup), so the transfer ends at once.
#pragma once
#include <curl/curl.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "transport.hpp"
#include "watch_events.hpp"

namespace rr::http_detail {

class HttpWatch : public Watch {
 public:
  explicit HttpWatch(Transport& transport);
  ~HttpWatch() override;
  HttpWatch(const HttpWatch&) = delete;
  HttpWatch& operator=(const HttpWatch&) = delete;

  // One attempt at opening the stream, waiting at most `header_timeout` for the answer's headers.
  // A 2xx answer returns its code with an empty body and the stream is ready for run(); any other
  // answer is read whole and returned. Throws TransportFailure when no answer came.
  HttpResponse open(const HttpRequest& request, std::chrono::milliseconds header_timeout);
  // Reads the rest of the stream on a background thread.
  void run();

  std::optional<WatchEvent> next(std::chrono::milliseconds timeout) override { return events_.next(timeout); }
  void stop() override;
  bool stopped() const override { return events_.stopped(); }

 private:
  static size_t on_data(char* data, size_t size, size_t count, void* self);
  void reset_transfer();
  long response_code() const;
  // Drives the transfer once; returns the result of a finished transfer, if it finished.
  std::optional<CURLcode> step(int poll_ms);
  void read_stream();

  Transport& transport_;
  CURLM* multi_ = nullptr;
  CURL* easy_ = nullptr;
  PreparedRequest prepared_;
  HeaderState headers_;
  std::string error_body_;  // the body of a non-2xx answer
  WatchEventQueue events_;
  std::atomic<bool> stop_flag_{false};
  std::thread reader_;
};

}  // namespace rr::http_detail
