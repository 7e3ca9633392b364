// Producers and workers at once: no key is processed by two workers at the same time, and every
// add is followed by a processing that starts after it. Run under -fsanitize=thread as well.
#include <doctest/doctest.h>

#include <array>
#include <atomic>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "test_util.hpp"

using namespace std::chrono_literals;

namespace {

constexpr int kKeys = 16;
constexpr int kProducers = 4;
constexpr int kWorkers = 4;
constexpr int kAddsPerProducer = 3000;

struct KeyState {
  std::atomic<std::uint64_t> last_added{0};      // the sequence number of the latest add, set before add()
  std::atomic<std::uint64_t> last_processed{0};  // the latest sequence number a processing started after
  std::atomic<bool> in_flight{false};
};

}  // namespace

TEST_CASE("work queue: concurrent producers and workers never share a key and lose no add") {
  rr::WorkQueue q;
  std::array<KeyState, kKeys> state;
  std::vector<rr::ObjectKey> keys;
  for (int i = 0; i < kKeys; ++i) keys.push_back({"ns", "k" + std::to_string(i)});
  auto index_of = [&](const rr::ObjectKey& k) { return std::stoi(k.name.substr(1)); };

  std::atomic<std::uint64_t> sequence{0};
  std::atomic<int> overlaps{0};
  std::atomic<long> processed{0};

  std::vector<std::thread> workers;
  for (int w = 0; w < kWorkers; ++w) {
    workers.emplace_back([&] {
      while (auto k = q.get()) {
        KeyState& s = state[static_cast<std::size_t>(index_of(*k))];
        if (s.in_flight.exchange(true)) overlaps.fetch_add(1);
        const std::uint64_t seen = s.last_added.load();
        if (seen > s.last_processed.load()) s.last_processed.store(seen);
        std::this_thread::sleep_for(20us);  // a window in which adds of this key arrive while it is processed
        processed.fetch_add(1);
        s.in_flight.store(false);
        q.done(*k);
      }
    });
  }
  std::vector<std::thread> producers;
  for (int p = 0; p < kProducers; ++p) {
    producers.emplace_back([&, p] {
      std::mt19937 rng(static_cast<unsigned>(p) + 1);
      std::uniform_int_distribution<int> pick(0, kKeys - 1);
      for (int i = 0; i < kAddsPerProducer; ++i) {
        const int k = pick(rng);
        KeyState& s = state[static_cast<std::size_t>(k)];
        const std::uint64_t seq = sequence.fetch_add(1) + 1;
        // Keep last_added monotonic across producers.
        std::uint64_t prev = s.last_added.load();
        while (prev < seq && !s.last_added.compare_exchange_weak(prev, seq)) {
        }
        q.add(keys[static_cast<std::size_t>(k)]);
        if (i % 4 == 0) std::this_thread::sleep_for(10us);  // spread the adds over the workers' processing
      }
    });
  }
  for (auto& t : producers) t.join();
  q.shut_down_with_drain();
  for (auto& t : workers) t.join();

  CHECK(overlaps.load() == 0);
  CHECK(processed.load() > 0);
  CHECK(processed.load() <= long{kProducers} * kAddsPerProducer);  // dedup never adds work
  for (int k = 0; k < kKeys; ++k) {
    CAPTURE(k);
    const KeyState& s = state[static_cast<std::size_t>(k)];
    if (s.last_added.load() == 0) continue;  // never picked
    CHECK(s.last_processed.load() == s.last_added.load());
  }
  CHECK(q.len() == 0);
}
