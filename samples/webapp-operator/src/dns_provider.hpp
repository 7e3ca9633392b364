// The external system behind spec.hostname: a DNS provider reached through its own API (a cloud
// SDK in real life). The hooks hold it, so tests and the demo can use the in-memory one.
#pragma once
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

namespace webapp {

class DnsProvider {
 public:
  virtual ~DnsProvider() = default;
  // The target `hostname` points at, if it has a record.
  virtual std::optional<std::string> lookup(std::string_view hostname) const = 0;
  // Both throw on failure; remove() of a missing record is not a failure.
  virtual void upsert(std::string_view hostname, std::string_view target) = 0;
  virtual void remove(std::string_view hostname) = 0;
};

// Records in a map; counts the calls that change something, so tests can check idempotency.
class InMemoryDns final : public DnsProvider {
 public:
  std::optional<std::string> lookup(std::string_view hostname) const override {
    std::lock_guard lock(mutex_);
    auto it = records_.find(std::string(hostname));
    return it == records_.end() ? std::nullopt : std::optional<std::string>(it->second);
  }
  void upsert(std::string_view hostname, std::string_view target) override {
    std::lock_guard lock(mutex_);
    records_[std::string(hostname)] = std::string(target);
    ++changes_;
  }
  void remove(std::string_view hostname) override {
    std::lock_guard lock(mutex_);
    changes_ += records_.erase(std::string(hostname));
  }
  int changes() const {
    std::lock_guard lock(mutex_);
    return changes_;
  }

 private:
  mutable std::mutex mutex_;
  std::map<std::string, std::string> records_;
  int changes_ = 0;
};

}  // namespace webapp
