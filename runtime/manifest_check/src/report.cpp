#include "rr/manifest_check/report.hpp"

namespace rr::manifest_check {

namespace {

std::string location(const Outcome& o) {
  return o.file + ":" + std::to_string(o.line) + ": document " + std::to_string(o.document);
}

Json success_status() {
  return Json{
      {"kind", "Status"}, {"apiVersion", "v1"}, {"metadata", Json::object()}, {"status", "Success"}, {"code", 201}};
}

}  // namespace

std::vector<std::string> refusal_lines(const Status& status) {
  std::vector<std::string> lines;
  const std::string marker = " is invalid: ";
  const auto at = status.message.find(marker);
  if (status.code != 422 || status.causes.empty() || at == std::string::npos) {
    lines.push_back(status.message);
    return lines;
  }
  // The message is `<Kind.group> "<name>" is invalid: [cause, cause]`; each cause on its own line.
  const std::string prefix = status.message.substr(0, at + marker.size());
  for (const StatusCause& cause : status.causes) {
    lines.push_back(prefix + (cause.field.empty() ? "" : cause.field + ": ") + cause.message);
  }
  return lines;
}

void write_text(std::ostream& out, const std::vector<Outcome>& outcomes, const std::vector<InputError>& errors) {
  for (const InputError& e : errors) {
    out << e.file;
    if (e.line > 0) out << ":" << e.line << ":" << e.column;
    out << ": error: " << e.message << "\n";
  }
  for (const Outcome& o : outcomes) {
    for (const std::string& w : o.warnings) out << location(o) << ": warning: " << w << "\n";
    if (!o.refusal) continue;
    for (const std::string& line : refusal_lines(*o.refusal)) out << location(o) << ": error: " << line << "\n";
  }
}

void write_json(std::ostream& out, const std::vector<Outcome>& outcomes, const std::vector<InputError>& errors) {
  Json all = Json::array();
  for (const InputError& e : errors) {
    all.push_back(Json{{"file", e.file}, {"line", e.line}, {"column", e.column}, {"error", e.message}});
  }
  for (const Outcome& o : outcomes) {
    all.push_back(Json{{"file", o.file},
                       {"document", o.document},
                       {"line", o.line},
                       {"apiVersion", o.api_version},
                       {"kind", o.kind},
                       {"name", o.name},
                       {"status", o.refusal ? o.refusal->to_json() : success_status()},
                       {"warnings", o.warnings}});
  }
  out << all.dump(2) << "\n";
}

}  // namespace rr::manifest_check
