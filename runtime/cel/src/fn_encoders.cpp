// The encoders extension (cel-go ext.Encoders): base64.encode(bytes) and base64.decode(string),
// which also accepts text without its padding.
#include "base64.hpp"
#include "functions.hpp"

namespace rr::cel {

namespace {

Value encode(std::span<const Value> a) {
  if (a.size() != 1 || a[0].kind() != Kind::Bytes) return no_overload("base64.encode", a);
  return Value(base64_encode(a[0].as_bytes()));
}

Value decode(std::span<const Value> a) {
  if (a.size() != 1 || a[0].kind() != Kind::String) return no_overload("base64.decode", a);
  std::string text = a[0].as_string();
  if (text.find('=') == std::string::npos) text.append((4 - text.size() % 4) % 4, '=');
  if (text.size() % 4 != 0) return Value::error("base64.decode: illegal base64 data");
  const auto bytes = base64_decode(text);
  if (!bytes) return Value::error("base64.decode: illegal base64 data");
  return Value::bytes(*bytes);
}

}  // namespace

void register_encoders(FunctionTable& t) {
  t.add("base64.encode", encode, true, false);
  t.add("base64.decode", decode, true, false);
}

}  // namespace rr::cel
