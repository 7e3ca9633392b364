// The compilable neighbour of broken.hpp: its command is the one broken.hpp is parsed with.
#include "rr/client/client.hpp"

namespace cases {
int parse_error_neighbour() { return 0; }
}  // namespace cases
