// rr::Json is nlohmann::json: the DOM users navigate for schemaless (preserve-unknown) values.
#pragma once
#include <nlohmann/json.hpp>

#include "rr/core/fwd.hpp"
