// libFuzzer target for the scalar grammars objects carry as text: resource.Quantity, RFC 3339
// times (metav1.Time) and base64 bytes. The input is the text. Nothing may crash, and the typed
// readings must agree with each other:
//   - Quantity: value() and milli_value() only for valid text; both rounded up from one exact
//     value, so |value| == ceil(|milli| / 1000) with the same sign; a value small enough to
//     scale has a milli_value; as_double() exists exactly for valid text and is near milli_value.
//   - Time: a parsed time formats back (Time::from, second precision) to a text that parses to
//     that time floored to the second.
//   - Bytes: encoding the input and decoding it gives the input back, and so does encoding what a
//     text decodes to.
//
//   fuzz_scalars -max_total_time=60 corpus_dir/ tests/fuzz/corpus/fuzz_scalars/
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>

#include "rr/core/quantity.hpp"
#include "rr/core/time.hpp"

namespace {

[[noreturn]] void die(const char* why) {
  (void)why;
  std::abort();
}

unsigned __int128 magnitude(std::int64_t v) {
  return v < 0 ? static_cast<unsigned __int128>(-static_cast<__int128>(v)) : static_cast<unsigned __int128>(v);
}

int sign(std::int64_t v) { return (v > 0) - (v < 0); }

void check_quantity(const std::string& text) {
  const rr::Quantity q(text);
  const bool valid = q.valid();
  const std::optional<std::int64_t> milli = q.milli_value();
  const std::optional<std::int64_t> value = q.value();
  const std::optional<double> number = q.as_double();
  if (!valid && (milli || value || number)) die("an invalid quantity has a value");
  if (valid && !number) die("a valid quantity has no as_double()");
  if (milli && value) {
    if ((magnitude(*milli) + 999) / 1000 != magnitude(*value)) die("value() is not milli_value() / 1000 rounded up");
    if (*value != 0 && sign(*value) != sign(*milli)) die("value() and milli_value() differ in sign");
  }
  // |x| <= |value| < (INT64_MAX / 1000): 1000 |x| fits.
  if (value && magnitude(*value) < static_cast<unsigned __int128>(INT64_MAX / 1000) && !milli) {
    die("a quantity with a small value() has no milli_value()");
  }
  if (milli && number) {
    const double m = static_cast<double>(*milli);
    if (std::fabs(*number * 1000.0 - m) > 1.0 + std::fabs(m) * 1e-12) die("as_double() is far from milli_value()");
  }
}

void check_time(const std::string& text) {
  using namespace std::chrono;
  const std::optional<rr::Time::clock::time_point> tp = rr::Time(text).time_point();
  if (!tp) return;
  const rr::Time formatted = rr::Time::from(*tp);
  const std::optional<rr::Time::clock::time_point> again = formatted.time_point();
  if (!again) die("Time::from printed a time that does not parse");
  if (*again != floor<seconds>(*tp)) die("Time::from printed another second");
}

void check_bytes(const std::string& text) {
  if (rr::Bytes::encode(text).decode() != text) die("decode(encode(x)) != x");
  if (const std::optional<std::string> raw = rr::Bytes(text).decode()) {
    if (rr::Bytes::encode(*raw).decode() != raw) die("a decoded text does not survive encode and decode");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  check_quantity(text);
  check_time(text);
  check_bytes(text);
  return 0;
}
