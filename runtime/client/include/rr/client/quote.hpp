// go_quote() lives in rr::core (rr/core/go_quote.hpp), shared with the layers below the client;
// this header keeps existing includes working.
#pragma once
#include "rr/core/go_quote.hpp"
