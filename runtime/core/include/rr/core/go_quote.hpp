// Quoting for messages, as Go's %q does it for ASCII: the API server's messages quote names this
// way, and escaping control characters keeps a NUL byte from cutting a what() string short.
#pragma once
#include <string>
#include <string_view>

namespace rr {

// `text` in double quotes; '"' and '\' backslash-escaped, control characters as \n, \t, \x00, ...
// Used by the API errors, reconciler.io's event messages ("Created %s %q") and the CEL rules' messages.
std::string go_quote(std::string_view text);

}  // namespace rr
