// The widget-types sample: what rrgen's generated types give a C++ program.
// Decodes a Widget, shows absent vs defaulted members, keyed list lookup, validation with
// Kubernetes field paths, decode errors with JSON pointers, and the lossless round trip.
#include <fstream>
#include <iostream>
#include <sstream>

#include "rr/core/json.hpp"
#include "widget_api_types.hpp"

using demo::v1::Widget;

namespace {

std::string read_file(const char* path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(std::string("cannot open ") + path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

template <class T>
std::string show(const rr::Optional<T>& v) {  // generated types hold optional members as rr::Optional
  if (!v) return "(absent)";
  std::ostringstream s;
  s << *v;
  return s.str();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: widget_demo WIDGET.json\n";
    return 2;
  }
  const std::string text = read_file(argv[1]);
  using Traits = rr::ResourceTraits<Widget>;
  std::cout << "kind " << Traits::kind << " (" << Traits::api_version << ", resource " << Traits::plural
            << ", status subresource " << (Traits::has_status ? "on" : "off") << ")\n";

  Widget w = Widget::from_json_text(text);
  auto& spec = *w.spec;
  std::cout << "decoded " << w.metadata.namespace_ << "/" << w.metadata.name << ": image " << spec.image
            << ", replicas " << show(spec.replicas) << ", maxSurge " << spec.max_surge->to_string() << ", memory "
            << spec.memory->str() << " = " << spec.memory->value().value_or(-1) << " bytes\n";

  const bool lossless = rr::Json::parse(w.to_json_text()) == rr::Json::parse(text);
  std::cout << "round trip keeps every field (including unknown 'futureField'): " << (lossless ? "yes" : "NO") << "\n";

  w.apply_defaults();
  const auto* http = spec.find_ports(8080, demo::v1::WidgetSpecPortsProtocol::TCP);
  std::cout << "after apply_defaults(): replicas " << show(spec.replicas) << ", tier " << spec.tier->str()
            << ", port 8080 protocol " << (http ? http->protocol->str() : "(not found)") << "\n";
  std::cout << "validate(): " << w.validate().size() << " error(s)\n";

  Widget bad = w;
  bad.spec->replicas = 42;
  bad.spec->image.clear();
  bad.spec->ports->push_back(bad.spec->ports->front());
  bad.spec->tier = decltype(bad.spec->tier)::value_type::from_string("edge");
  std::cout << "validate() of a broken copy:\n";
  for (const auto& e : bad.validate()) std::cout << "  " << e.message << "\n";

  try {
    Widget::from_json_text(R"({"spec":{"image":"x","ports":[{"port":80},{"port":"eighty"}]}})");
  } catch (const rr::DecodeError& e) {
    std::cout << "decode error: " << e.what() << "\n";
  }
  return lossless ? 0 : 1;
}
