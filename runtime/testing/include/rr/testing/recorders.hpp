// The tracker and event recorder of a test config: the real ones' behaviour, with every call
// recorded in order.
#pragma once
#include <memory>
#include <mutex>
#include <vector>

#include "rr/reconcilers/events.hpp"
#include "rr/reconcilers/tracker.hpp"
#include "rr/testing/refs.hpp"

namespace rr::testing {

// Records each track_reference (track_object included) as a TrackRequest, then hands it to the
// real TTL tracker, so get_observers answers as in production. seed() tracks without recording
// (a test's given tracks).
class RecordingTracker final : public Tracker {
 public:
  explicit RecordingTracker(std::shared_ptr<Tracker> inner) : inner_(std::move(inner)) {}
  void track_reference(const TrackReference& ref, const ObjectKey& observer) override;
  std::vector<ObjectKey> get_observers(const Json& object) override;
  void seed(const TrackRequest& request);
  std::vector<TrackRequest> requests() const;

 private:
  std::shared_ptr<Tracker> inner_;
  mutable std::mutex mutex_;
  std::vector<TrackRequest> requests_;
};

class RecordingEventRecorder final : public EventRecorder {
 public:
  void record(const rr::Event& event) override;
  std::vector<Event> events() const;

 private:
  mutable std::mutex mutex_;
  std::vector<Event> events_;
};

}  // namespace rr::testing
