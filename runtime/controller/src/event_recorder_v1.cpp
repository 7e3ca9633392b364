// events.k8s.io/v1 Events with client-go's series aggregation (tools/events: recorder.go makes the
// Event, event_broadcaster.go's recordToSink, recordEvent, finishSeries and
// refreshExistingEventSeries aggregate and write it).
#include "rr/controller/event_recorder_v1.hpp"

#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <condition_variable>
#include <cstdint>
#include <ctime>
#include <map>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "rr/core/json.hpp"
#include "rr/reconcilers/error.hpp"

namespace rr {

namespace {

const KindInfo& events_v1_kind() {
  static const KindInfo kind{{"events.k8s.io", "v1", "Event"}, "events", "EventList", Scope::Namespaced, false};
  return kind;
}

// The API server's limits (ValidateEventCreate for events.k8s.io/v1).
constexpr std::size_t note_limit = 1024;
constexpr std::size_t reporting_instance_limit = 128;

// At most `limit` bytes, not cutting a UTF-8 sequence.
std::string cut_utf8(std::string text, std::size_t limit) {
  if (text.size() <= limit) return text;
  std::size_t end = limit;
  while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0U) == 0x80U) --end;
  text.resize(end);
  return text;
}

std::string host_name() {
  char buffer[256] = {};
  if (gethostname(buffer, sizeof buffer - 1) != 0) return {};
  return buffer;
}

// client-go's eventKey: action, reason, reportingController, regarding, related.
using SeriesKey = std::vector<std::string>;

void append_target(SeriesKey& key, const EventTarget& t) {
  key.insert(key.end(), {t.api_version, t.kind, t.namespace_, t.name, t.uid, t.resource_version});
}

SeriesKey series_key(const Event& event, const std::string& controller) {
  SeriesKey key{event.action.empty() ? event.reason : event.action, event.reason, controller};
  append_target(key, event.regarding);
  key.push_back(event.related ? "related" : "");
  if (event.related) append_target(key, *event.related);
  return key;
}

struct Remembered {
  Json event;       // as created: no series
  ObjectKey where;  // its namespace and name
  Clock::time_point event_time;
  struct Series {
    std::int64_t count = 0;
    std::string last_observed;  // MicroTime
    Clock::time_point last_observed_at;
  };
  std::optional<Series> series;
};

}  // namespace

std::string micro_time(std::chrono::system_clock::time_point t) {
  const auto micros = std::chrono::duration_cast<std::chrono::microseconds>(t.time_since_epoch()).count();
  auto seconds = static_cast<std::time_t>(micros / 1000000);
  auto fraction = micros % 1000000;
  if (fraction < 0) {
    fraction += 1000000;
    --seconds;
  }
  std::tm utc{};
  gmtime_r(&seconds, &utc);
  char date[32];
  std::strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%S", &utc);
  std::string digits = std::to_string(fraction);
  return std::string(date) + "." + std::string(6 - digits.size(), '0') + digits + "Z";
}

struct EventRecorderV1::Impl {
  Impl(std::shared_ptr<Client> c, EventRecorderV1Options o)
      : client(std::move(c)), options(std::move(o)), clock(options.clock ? *options.clock : Clock::real()) {
    if (!options.wall_clock) options.wall_clock = [] { return std::chrono::system_clock::now(); };
    if (options.reporting_instance.empty()) {
      options.reporting_instance = options.reporting_controller + "-" + host_name();
    }
    options.reporting_instance = cut_utf8(options.reporting_instance, reporting_instance_limit);
    const auto now = clock.now();
    next_finish = now + options.finish_time;
    next_refresh = now + options.refresh_time;
  }

  std::shared_ptr<Client> client;
  EventRecorderV1Options options;
  Clock& clock;
  mutable std::mutex mutex;
  std::condition_variable changed;
  std::map<SeriesKey, Remembered> cache;
  std::uint64_t last_suffix = 0;
  Clock::time_point next_finish, next_refresh;
  bool stopping = false;
  std::thread timer;

  Json make_event(const Event& event, const std::string& event_time, ObjectKey& where) {
    // "<regarding name>.<hex unix nanos>" as client-go names Events; strictly increasing here, so
    // two events in one nanosecond do not collide.
    const auto nanos = static_cast<std::uint64_t>(
        std::chrono::duration_cast<std::chrono::nanoseconds>(options.wall_clock().time_since_epoch()).count());
    last_suffix = std::max(nanos, last_suffix + 1);
    char hex[17];
    const auto end = std::to_chars(hex, hex + sizeof hex, last_suffix, 16).ptr;
    where = ObjectKey{event.regarding.namespace_.empty() ? "default" : event.regarding.namespace_,
                      event.regarding.name + "." + std::string(hex, end)};
    Json object = {
        {"apiVersion", "events.k8s.io/v1"},
        {"kind", "Event"},
        {"metadata", {{"name", where.name}, {"namespace", where.namespace_}}},
        {"eventTime", event_time},
        {"reportingController", options.reporting_controller},
        {"reportingInstance", options.reporting_instance},
        {"action", event.action.empty() ? event.reason : event.action},
        {"reason", event.reason},
        {"regarding", event_object_reference(event.regarding)},
        {"note", cut_utf8(event.message, note_limit)},
        {"type", event.type},
    };
    if (event.related) object["related"] = event_object_reference(*event.related);
    return object;
  }

  // client-go's recordEvent: a series is patched (`series` only; a JSON merge patch where client-go sends
  // the same body as a strategic merge patch: for a struct they agree), and created when
  // the patch finds no Event; a single event is created. True: retry later (not an API answer).
  bool write(const Remembered& r) {
    try {
      if (r.series) {
        const Json patch = {{"series", {{"count", r.series->count}, {"lastObservedTime", r.series->last_observed}}}};
        try {
          client->patch(events_v1_kind(), r.where, PatchType::Merge, patch.dump(), {}, {});
          return false;
        } catch (const ApiError& e) {
          if (!is_not_found(e.status())) throw;
        }
        Json again = r.event;
        again["series"] = patch["series"];
        client->create(events_v1_kind(), again, {});
        return false;
      }
      client->create(events_v1_kind(), r.event, {});
      return false;
    } catch (const ApiError&) {
      log_failure(r);
      return false;  // the server answered: retrying would get the same answer
    } catch (...) {
      log_failure(r);
      return true;
    }
  }

  void log_failure(const Remembered& r) const {
    options.log.error(Error::from_current_exception(),
                      "unable to write event " + r.event.value("reason", std::string()) + " as " + r.where.str());
  }

  // finishSeries: a series quiet for finish_time gets its last count written and is forgotten; a
  // single event older than finish_time is forgotten.
  void finish(Clock::time_point now) {
    for (auto it = cache.begin(); it != cache.end();) {
      const Remembered& r = it->second;
      const bool ended = r.series ? r.series->last_observed_at < now - options.finish_time
                                  : r.event_time < now - options.finish_time;
      if (ended && (!r.series || !write(r))) {
        it = cache.erase(it);
      } else {
        ++it;
      }
    }
  }

  // refreshExistingEventSeries: every live series is written again with its count.
  void refresh() {
    for (auto& entry : cache) {
      if (entry.second.series) write(entry.second);
    }
  }

  void tick_locked() {
    const auto now = clock.now();
    if (now >= next_finish) {
      finish(now);
      next_finish = now + options.finish_time;
    }
    if (now >= next_refresh) {
      refresh();
      next_refresh = now + options.refresh_time;
    }
  }

  void run_timer() {
    std::unique_lock lock(mutex);
    while (!stopping) {
      clock.wait_until(changed, lock, std::min(next_finish, next_refresh));
      if (stopping) break;
      tick_locked();
    }
  }
};

EventRecorderV1::EventRecorderV1(std::shared_ptr<Client> client, EventRecorderV1Options options)
    : impl_(std::make_unique<Impl>(std::move(client), std::move(options))) {
  if (!impl_->client) throw std::invalid_argument("rr::EventRecorderV1 needs a client");
  if (impl_->options.finish_time <= Clock::duration::zero() || impl_->options.refresh_time <= Clock::duration::zero()) {
    throw std::invalid_argument("rr::EventRecorderV1: finish_time and refresh_time must be positive");
  }
  if (impl_->options.run_timer) {
    Impl& s = *impl_;
    s.clock.add_waker(&s, [&s] {
      std::lock_guard lock(s.mutex);
      s.changed.notify_all();
    });
    s.timer = std::thread([&s] { s.run_timer(); });
  }
}

EventRecorderV1::~EventRecorderV1() {
  Impl& s = *impl_;
  {
    std::lock_guard lock(s.mutex);
    s.stopping = true;
  }
  s.changed.notify_all();
  if (s.timer.joinable()) {
    s.timer.join();
    s.clock.remove_waker(&s);
  }
}

void EventRecorderV1::record(const Event& event) {
  Impl& s = *impl_;
  const auto now = s.clock.now();
  const std::string observed = micro_time(s.options.wall_clock());
  std::lock_guard lock(s.mutex);
  SeriesKey key = series_key(event, s.options.reporting_controller);
  if (auto it = s.cache.find(key); it != s.cache.end()) {
    Remembered& r = it->second;
    if (r.series) {  // counted now, written by the timer
      ++r.series->count;
      r.series->last_observed = observed;
      r.series->last_observed_at = now;
      return;
    }
    r.series = Remembered::Series{2, observed, now};
    s.write(r);
    return;
  }
  Remembered r;
  r.event = s.make_event(event, observed, r.where);
  r.event_time = now;
  auto& stored = s.cache.emplace(std::move(key), std::move(r)).first->second;
  s.write(stored);
}

void EventRecorderV1::tick() {
  std::lock_guard lock(impl_->mutex);
  impl_->tick_locked();
}

std::size_t EventRecorderV1::remembered() const {
  std::lock_guard lock(impl_->mutex);
  return impl_->cache.size();
}

std::shared_ptr<EventRecorder> make_event_recorder_v1(std::shared_ptr<Client> client, EventRecorderV1Options options) {
  return std::make_shared<EventRecorderV1>(std::move(client), std::move(options));
}

}  // namespace rr
