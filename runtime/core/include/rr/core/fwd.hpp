// Forward declarations for generated headers: they declare codec functions without pulling in
// the reader, writer or nlohmann's full header (compile time is a design goal).
#pragma once
#include <nlohmann/json_fwd.hpp>

namespace rr {
using Json = nlohmann::json;
class JsonReader;
class JsonWriter;
class PbReader;
class PbWriter;
class Validator;
struct FieldError;
}  // namespace rr
