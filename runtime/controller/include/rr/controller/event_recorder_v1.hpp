// events.k8s.io/v1 Events, written as client-go's k8s.io/client-go/tools/events recorder writes them
// (controller-runtime's recorder since v0.23): each Event carries reason, action, note, regarding,
// related, reportingController, reportingInstance, type and eventTime (a MicroTime).
//
// Series aggregation, as the events broadcaster does it: events are isomorphic when their action,
// reason, reportingController, regarding and related are equal (the note and type are not
// compared). The first one is created. The first repeat makes it a series: series.count 2 and
// series.lastObservedTime are patched onto the Event at once. Later repeats only count, in
// memory; the timer writes them: every `finish_time` (6 min) a series seen last more than
// `finish_time` ago gets its final count patched and is forgotten (a single event older than that
// is forgotten), and every `refresh_time` (30 min) every live series is patched with its count.
// A patch answered 404 (the Event expired or was deleted) creates the Event again.
//
// Writes never throw: a failure is logged and dropped. See docs/runtime/11-events.md.
#pragma once
#include <chrono>
#include <functional>
#include <memory>
#include <string>

#include "rr/controller/clock.hpp"
#include "rr/reconcilers/events.hpp"

namespace rr {

struct EventRecorderV1Options {
  // reportingController (required by the API): the controller's name.
  std::string reporting_controller = "controller";
  // reportingInstance; "": "<reporting_controller>-<host name>", as client-go's NewRecorder.
  std::string reporting_instance{};
  // Series timing and the timer's waits; nullptr: Clock::real(). Must outlive the recorder.
  Clock* clock = nullptr;
  // eventTime and series.lastObservedTime; empty: std::chrono::system_clock::now.
  std::function<std::chrono::system_clock::time_point()> wall_clock{};
  Clock::duration finish_time = std::chrono::minutes(6);
  Clock::duration refresh_time = std::chrono::minutes(30);
  // false: no timer thread; the owner calls EventRecorderV1::tick() (tests).
  bool run_timer = true;
  Logger log{};
};

class EventRecorderV1 final : public EventRecorder {
 public:
  EventRecorderV1(std::shared_ptr<Client> client, EventRecorderV1Options options);
  ~EventRecorderV1() override;  // stops and joins the timer
  EventRecorderV1(const EventRecorderV1&) = delete;
  EventRecorderV1& operator=(const EventRecorderV1&) = delete;

  void record(const Event& event) override;

  // The timer's work at the clock's time: finishes series and forgets old events (finish_time),
  // refreshes live series (refresh_time). The timer thread calls it when either is due.
  void tick();

  // Events remembered for aggregation.
  std::size_t remembered() const;

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

// An EventRecorderV1 with its timer.
std::shared_ptr<EventRecorder> make_event_recorder_v1(std::shared_ptr<Client> client, EventRecorderV1Options options);

// "2026-11-30T08:01:02.123456Z": metav1.MicroTime's JSON.
std::string micro_time(std::chrono::system_clock::time_point t);

}  // namespace rr
