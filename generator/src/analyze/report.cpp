#include "analyze/report.hpp"

#include <sstream>

namespace rrgen {
namespace {

std::string joined(const std::vector<std::string>& items, bool quote_empty) {
  std::string out = "[";
  for (std::size_t i = 0; i < items.size(); ++i) {
    out += (i ? ", " : "") + (quote_empty && items[i].empty() ? std::string("\"\"") : items[i]);
  }
  return out + "]";
}

std::string rule_text(const PolicyRule& r) {
  std::string out;
  if (!r.api_groups.empty()) out += "apiGroups: " + joined(r.api_groups, true) + " ";
  if (!r.non_resource_urls.empty()) out += "nonResourceURLs: " + joined(r.non_resource_urls, false) + " ";
  if (!r.resource_names.empty()) out += "resourceNames: " + joined(r.resource_names, false) + " ";
  if (!r.resources.empty()) out += "resources: " + joined(r.resources, false) + " ";
  return out + "verbs: " + joined(r.verbs, false);
}

std::string call_text(const ApiCall& c) {
  auto comma_joined = [](const std::vector<std::string>& items) {
    std::string out;
    for (const std::string& v : items) out += (out.empty() ? "" : ",") + v;
    return out;
  };
  std::string verbs = comma_joined(c.verbs);
  if (!c.or_verbs.empty()) verbs += " | " + comma_joined(c.or_verbs) + " if cached";
  return format_location(c.location) + ": " + c.callee + " (" + verbs + ")";
}

}  // namespace

std::string analysis_report(const Analysis& analysis) {
  std::ostringstream out;
  const RoleKey* current = nullptr;
  for (const ExplainedRule& e : analysis.explained) {
    if (!current || !(*current == e.role)) {
      current = &e.role;
      out << (e.role.cluster_role() ? "ClusterRole " + e.role.name : "Role " + e.role.namespace_ + "/" + e.role.name)
          << "\n";
    }
    out << "  - " << rule_text(e.rule) << "\n";
    for (const std::string& s : e.sources) out << "      " << s << "\n";
    for (const WrittenRule* w : e.written) out << "      " << format_location(w->location) << ": " << w->what << "\n";
    for (const ApiCall* c : e.calls) out << "      " << call_text(*c) << "\n";
  }
  if (!analysis.unresolved.empty()) {
    out << "Calls whose kind or subresource is chosen at run time (a marker covers them):\n";
    for (const ApiCall* c : analysis.unresolved) out << "  " << call_text(*c) << ": " << c->unresolved_reason << "\n";
  }
  return out.str();
}

}  // namespace rrgen
