// Request heads and targets for the HTTP server (see request.hpp).
#include "rr/http_server/request.hpp"

#include <algorithm>

namespace rr::http_server {
namespace {

constexpr std::size_t npos = std::string_view::npos;

// RFC 9110 §5.6.2: tchar.
bool is_tchar(char c) {
  if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) return true;
  return std::string_view("!#$%&'*+-.^_`|~").find(c) != npos;
}

bool is_token(std::string_view text) { return !text.empty() && std::all_of(text.begin(), text.end(), is_tchar); }

char to_lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

bool equals_ignoring_case(std::string_view a, std::string_view b) {
  return a.size() == b.size() &&
         std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) { return to_lower(x) == to_lower(y); });
}

std::string_view trim_spaces(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  return text;
}

// A field value holds visible characters, spaces, tabs and obs-text (RFC 9110 §5.5): no CR, LF,
// NUL or other control character.
bool is_field_value(std::string_view text) {
  return std::none_of(text.begin(), text.end(), [](char c) {
    const auto u = static_cast<unsigned char>(c);
    return (u < 0x20 && c != '\t') || u == 0x7f;
  });
}

// A request target is visible US-ASCII only (RFC 9112 §3.2).
bool is_target(std::string_view text) {
  return !text.empty() && std::all_of(text.begin(), text.end(), [](char c) { return c > 0x20 && c < 0x7f; });
}

HeadResult fail(int status, std::string why) {
  HeadResult result;
  result.status = HeadStatus::error;
  result.error_status = status;
  result.error = std::move(why);
  return result;
}

// The line that starts at `from`: up to LF, without the CR before it (a bare LF ends a line too,
// as RFC 9112 §2.2 allows). nullopt while no LF has come.
struct Line {
  std::string_view text;
  std::size_t next = 0;
};
std::optional<Line> line_at(std::string_view bytes, std::size_t from) {
  const std::size_t lf = bytes.find('\n', from);
  if (lf == npos) return std::nullopt;
  std::string_view text = bytes.substr(from, lf - from);
  if (!text.empty() && text.back() == '\r') text.remove_suffix(1);
  return Line{text, lf + 1};
}

// "HTTP/1.1" → 1; -1 for another major version (505), -2 when malformed (400).
int minor_version(std::string_view text) {
  const auto digit = [](char c) { return c >= '0' && c <= '9'; };
  if (text.size() != 8 || !text.starts_with("HTTP/") || !digit(text[5]) || text[6] != '.' || !digit(text[7])) {
    return -2;
  }
  return text[5] == '1' ? text[7] - '0' : -1;
}

// The fields that decide how the connection goes on: Host, Content-Length, Transfer-Encoding and
// Connection. nullopt when they are sound.
std::optional<HeadResult> read_framing(Request& request) {
  int hosts = 0;
  std::optional<std::string_view> content_length;
  bool transfer_encoding = false;
  bool close = false;
  bool keep_alive = false;
  for (const auto& [name, value] : request.fields) {
    if (name == "host") {
      ++hosts;
    } else if (name == "content-length") {
      if (content_length && *content_length != value) return fail(400, "conflicting Content-Length");
      content_length = value;
    } else if (name == "transfer-encoding") {
      transfer_encoding = true;
    } else if (name == "connection") {
      std::string_view rest = value;
      while (!rest.empty()) {
        const std::size_t comma = rest.find(',');
        const std::string_view option = trim_spaces(rest.substr(0, comma));
        close = close || equals_ignoring_case(option, "close");
        keep_alive = keep_alive || equals_ignoring_case(option, "keep-alive");
        rest = comma == npos ? std::string_view() : rest.substr(comma + 1);
      }
    }
  }
  // RFC 9112 §3.2: exactly one Host in HTTP/1.1, at most one in HTTP/1.0.
  if (hosts > 1 || (hosts == 0 && request.minor_version >= 1)) return fail(400, "missing or repeated Host");
  if (content_length) {
    const std::string_view digits = *content_length;
    const bool numeric = !digits.empty() && digits.size() <= 18 &&
                         std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; });
    if (!numeric) return fail(400, "malformed Content-Length");
    request.content_length = static_cast<std::size_t>(std::stoull(std::string(digits)));
    request.has_body = request.content_length > 0;
  }
  if (transfer_encoding) {
    // Both framings at once is how requests are smuggled (RFC 9112 §6.3).
    if (content_length) return fail(400, "Content-Length with Transfer-Encoding");
    request.has_body = true;
    request.chunked = true;
  }
  request.keep_alive = request.minor_version >= 1 ? !close : keep_alive && !close;
  return std::nullopt;
}

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// nullopt for a '%' not followed by two hex digits.
std::optional<std::string> percent_decoded(std::string_view text, bool plus_is_space) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '%') {
      out.push_back(plus_is_space && text[i] == '+' ? ' ' : text[i]);
      continue;
    }
    if (i + 2 >= text.size() || hex_value(text[i + 1]) < 0 || hex_value(text[i + 2]) < 0) return std::nullopt;
    out.push_back(static_cast<char>(hex_value(text[i + 1]) * 16 + hex_value(text[i + 2])));
    i += 2;
  }
  return out;
}

}  // namespace

HeadResult parse_request_head(std::string_view bytes, const RequestLimits& limits) {
  std::size_t pos = 0;
  while (pos < bytes.size() && (bytes[pos] == '\n' || bytes[pos] == '\r')) {  // empty lines first
    if (bytes[pos] == '\r' && pos + 1 < bytes.size() && bytes[pos + 1] != '\n') return fail(400, "bare CR");
    if (bytes[pos] == '\r' && pos + 1 == bytes.size()) break;
    pos += bytes[pos] == '\r' ? 2 : 1;
  }

  const std::optional<Line> request_line = line_at(bytes, pos);
  if (!request_line) {
    if (bytes.size() - pos > limits.max_request_line + 1) return fail(414, "request line too long");  // +1: its CR
    if (bytes.size() > limits.max_head) return fail(431, "request header fields too large");
    return {};
  }
  const std::string_view line = request_line->text;
  if (line.size() > limits.max_request_line) return fail(414, "request line too long");
  const std::size_t first_space = line.find(' ');
  const std::size_t second_space = first_space == npos ? npos : line.find(' ', first_space + 1);
  if (second_space == npos) return fail(400, "malformed request line");
  HeadResult result;
  Request& request = result.request;
  request.method = line.substr(0, first_space);
  request.target = line.substr(first_space + 1, second_space - first_space - 1);
  if (!is_token(request.method)) return fail(400, "malformed method");
  if (!is_target(request.target)) return fail(400, "malformed request target");
  request.minor_version = minor_version(line.substr(second_space + 1));
  if (request.minor_version == -1) return fail(505, "HTTP version not supported");
  if (request.minor_version < 0) return fail(400, "malformed HTTP version");

  pos = request_line->next;
  while (true) {
    const std::optional<Line> field = line_at(bytes, pos);
    if (!field) {
      if (bytes.size() > limits.max_head) return fail(431, "request header fields too large");
      return {};
    }
    if (field->next > limits.max_head) return fail(431, "request header fields too large");
    pos = field->next;
    const std::string_view text = field->text;
    if (text.empty()) break;
    if (request.fields.size() == limits.max_fields) return fail(431, "too many header fields");
    if (text.front() == ' ' || text.front() == '\t') return fail(400, "obsolete line folding");
    const std::size_t colon = text.find(':');
    if (colon == npos) return fail(400, "malformed header field");
    const std::string_view name = text.substr(0, colon);  // no space before the colon (RFC 9112 §5.1)
    const std::string_view value = trim_spaces(text.substr(colon + 1));
    if (!is_token(name)) return fail(400, "malformed header field name");
    if (!is_field_value(value)) return fail(400, "malformed header field value");
    std::string lower_name(name);
    std::transform(lower_name.begin(), lower_name.end(), lower_name.begin(), to_lower);
    request.fields.emplace_back(std::move(lower_name), std::string(value));
  }

  if (auto error = read_framing(request)) return std::move(*error);
  result.status = HeadStatus::complete;
  result.consumed = pos;
  return result;
}

std::optional<Target> split_target(std::string_view target) {
  if (equals_ignoring_case(target.substr(0, 7), "http://") || equals_ignoring_case(target.substr(0, 8), "https://")) {
    // Absolute form (RFC 9112 §3.2.2): the authority does not route here, only the path does.
    const std::size_t authority = target.find("//") + 2;
    const std::size_t path = target.find_first_of("/?", authority);
    target = path == npos ? std::string_view() : target.substr(path);
  } else if (target.empty() || target.front() != '/') {
    return std::nullopt;  // asterisk or authority form: not for this server
  }
  const std::size_t question = target.find('?');
  std::optional<std::string> path = percent_decoded(target.substr(0, question), false);
  if (!path) return std::nullopt;
  Target out;
  out.path = path->empty() ? "/" : std::move(*path);
  std::string_view query = question == npos ? std::string_view() : target.substr(question + 1);
  while (!query.empty()) {
    const std::size_t amp = query.find('&');
    const std::string_view pair = query.substr(0, amp);
    query = amp == npos ? std::string_view() : query.substr(amp + 1);
    const std::size_t eq = pair.find('=');
    auto key = percent_decoded(pair.substr(0, eq), true);
    auto value = percent_decoded(eq == npos ? std::string_view() : pair.substr(eq + 1), true);
    // As Go's r.URL.Query(): a pair with a malformed escape is dropped, the others stay.
    if (!pair.empty() && key && value) out.query.emplace_back(std::move(*key), std::move(*value));
  }
  return out;
}

std::string_view Request::field(std::string_view lower_case_name) const {
  for (const auto& [name, value] : fields) {
    if (name == lower_case_name) return value;
  }
  return {};
}

bool Target::has_param(std::string_view key) const {
  return std::any_of(query.begin(), query.end(), [key](const auto& param) { return param.first == key; });
}

std::vector<std::string> Target::param_values(std::string_view key) const {
  std::vector<std::string> values;
  for (const auto& [name, value] : query) {
    if (name == key) values.push_back(value);
  }
  return values;
}

}  // namespace rr::http_server
