// Timestamp accessors (getFullYear ... getMilliseconds, with an optional time zone) and duration
// accessors (getHours, getMinutes, getSeconds: whole units of the span; getMilliseconds: the
// millisecond part).
#include "functions.hpp"
#include "time_util.hpp"
#include "time_zone.hpp"

namespace rr::cel {

namespace {

enum class Part { FullYear, Month, DayOfYear, DayOfMonth, Date, DayOfWeek, Hours, Minutes, Seconds, Milliseconds };

template <Part P>
Value accessor(std::span<const Value> a) {
  static constexpr const char* kNames[] = {"getFullYear", "getMonth",       "getDayOfYear", "getDayOfMonth",
                                           "getDate",     "getDayOfWeek",   "getHours",     "getMinutes",
                                           "getSeconds",  "getMilliseconds"};
  const char* name = kNames[static_cast<int>(P)];
  if (a.empty()) return no_overload(name, a);
  if (a[0].kind() == Kind::Duration && a.size() == 1) {
    const Duration d = a[0].as_duration();
    const auto nanos = total_nanos(d);
    if (!nanos) return Value::error("duration out of range");
    switch (P) {
      case Part::Hours: return Value(*nanos / 3600000000000LL);
      case Part::Minutes: return Value(*nanos / 60000000000LL);
      case Part::Seconds: return Value(*nanos / 1000000000LL);
      case Part::Milliseconds: return Value(*nanos / 1000000LL % 1000);  // the component, as cel-go
      default: return no_overload(name, a);
    }
  }
  if (a[0].kind() != Kind::Timestamp || a.size() > 2 || (a.size() == 2 && a[1].kind() != Kind::String))
    return no_overload(name, a);
  const Timestamp t = a[0].as_timestamp();
  std::int64_t offset = 0;
  if (a.size() == 2) {
    const auto o = zone_offset(a[1].as_string(), t);
    if (!o) return Value::error("unknown time zone: " + a[1].as_string());
    offset = *o;
  }
  const CivilTime c = civil(t, offset);
  switch (P) {
    case Part::FullYear: return Value(c.year);
    case Part::Month: return Value(static_cast<std::int64_t>(c.month - 1));
    case Part::DayOfYear: return Value(static_cast<std::int64_t>(c.day_of_year));
    case Part::DayOfMonth: return Value(static_cast<std::int64_t>(c.day - 1));
    case Part::Date: return Value(static_cast<std::int64_t>(c.day));
    case Part::DayOfWeek: return Value(static_cast<std::int64_t>(c.day_of_week));
    case Part::Hours: return Value(static_cast<std::int64_t>(c.hours));
    case Part::Minutes: return Value(static_cast<std::int64_t>(c.minutes));
    case Part::Seconds: return Value(static_cast<std::int64_t>(c.seconds));
    case Part::Milliseconds: return Value(static_cast<std::int64_t>(c.nanos / 1000000));
  }
  return no_overload(name, a);
}

}  // namespace

void register_time(FunctionTable& t) {
  t.add("getFullYear", accessor<Part::FullYear>, false, true);
  t.add("getMonth", accessor<Part::Month>, false, true);
  t.add("getDayOfYear", accessor<Part::DayOfYear>, false, true);
  t.add("getDayOfMonth", accessor<Part::DayOfMonth>, false, true);
  t.add("getDate", accessor<Part::Date>, false, true);
  t.add("getDayOfWeek", accessor<Part::DayOfWeek>, false, true);
  t.add("getHours", accessor<Part::Hours>, false, true);
  t.add("getMinutes", accessor<Part::Minutes>, false, true);
  t.add("getSeconds", accessor<Part::Seconds>, false, true);
  t.add("getMilliseconds", accessor<Part::Milliseconds>, false, true);
}

}  // namespace rr::cel
