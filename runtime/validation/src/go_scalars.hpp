// The errors of the Go decoders a built-in kind's JSON goes through for two kinds of strings:
// metav1.Time and MicroTime (time.Parse with RFC 3339 layouts) and []byte (base64.StdEncoding).
// The API server returns their text in a 400, so the text is Go's, character for character.
#pragma once
#include <optional>
#include <string>
#include <string_view>

namespace rr::validation::detail {

inline constexpr std::string_view kRfc3339 = "2006-01-02T15:04:05Z07:00";
inline constexpr std::string_view kRfc3339Micro = "2006-01-02T15:04:05.000000Z07:00";

// time.Parse(layout, value)'s error (a *time.ParseError's text), or nullopt when it parses.
// `layout` is one of the two above.
std::optional<std::string> go_time_parse_error(std::string_view layout, std::string_view value);

// base64.StdEncoding.Decode's error ("illegal base64 data at input byte N"), or nullopt.
std::optional<std::string> go_base64_error(std::string_view value);

}  // namespace rr::validation::detail
