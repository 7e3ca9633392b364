#include "rr/testing/recorders.hpp"

namespace rr::testing {

void RecordingTracker::track_reference(const TrackReference& ref, const ObjectKey& observer) {
  {
    std::lock_guard lock(mutex_);
    requests_.push_back(track_request_from(ref, observer));
  }
  inner_->track_reference(ref, observer);
}

std::vector<ObjectKey> RecordingTracker::get_observers(const Json& object) { return inner_->get_observers(object); }

void RecordingTracker::seed(const TrackRequest& request) {
  inner_->track_reference(track_reference_of(request.tracked), request.by);
}

std::vector<TrackRequest> RecordingTracker::requests() const {
  std::lock_guard lock(mutex_);
  return requests_;
}

void RecordingEventRecorder::record(const rr::Event& event) {
  std::lock_guard lock(mutex_);
  events_.push_back(event_from(event));
}

std::vector<Event> RecordingEventRecorder::events() const {
  std::lock_guard lock(mutex_);
  return events_;
}

}  // namespace rr::testing
