#include "load/spec_webhooks.hpp"

#include <algorithm>
#include <cstdlib>

#include "load/spec_values.hpp"

namespace rrgen {
namespace spec_webhooks {
namespace {

const auto quote = spec_quote;

bool listed(const std::vector<std::string>& list, std::string_view s) {
  return std::find(list.begin(), list.end(), s) != list.end();
}

class WebhooksReader : SpecValues {
 public:
  explicit WebhooksReader(Diagnostics& diags) : SpecValues(diags) {}

  std::optional<SpecWebhooks> read(const Node& n) {
    if (!n.is_mapping()) {
      wrong_type(n, "webhooks", "a mapping of defaulting, validation and conversion");
      return std::nullopt;
    }
    SpecWebhooks out;
    out.location = n.location;
    for (std::size_t i = 0; i < n.keys.size(); ++i) {
      const std::string& key = n.keys[i];
      const Node& value = n.children[i];
      if (key == "defaulting") out.defaulting = admission(value, key, true);
      else if (key == "validation") out.validation = admission(value, key, false);
      else if (key == "conversion") out.conversion = conversion(value);
      else unknown_key(key, n.key_locations[i], spec_webhooks_keys());
    }
    if (n.keys.empty())
      diags_.error(n.location, "spec-missing-key",
                   "'webhooks' needs at least one of 'defaulting', 'validation' or 'conversion'");
    return out;
  }

 private:
  // One of `allowed`, else spec-bad-value naming them.
  std::string choice(const Node& n, std::string_view key, const std::vector<std::string>& allowed,
                     std::string fallback) {
    const auto text = string_of(n, key);
    if (!text) return fallback;
    if (listed(allowed, *text)) return *text;
    diags_.error(n.location, "spec-bad-value",
                 quote(key) + " must be " + quote(allowed[0]) + " or " + quote(allowed[1]) + ", not " + quote(*text));
    return fallback;
  }

  // A URL path as the API server accepts it in a webhook's service reference.
  std::string path_of(const Node& n) {
    const auto text = string_of(n, "path");
    if (!text) return {};
    const bool ok = text->size() > 1 && text->front() == '/' && text->find("//") == std::string::npos &&
                    std::none_of(text->begin(), text->end(),
                                 [](char c) { return c <= ' ' || c == '?' || c == '#' || c == 0x7f; });
    if (!ok) {
      diags_.error(
          n.location, "spec-bad-value",
          "path " + quote(*text) + " must be an absolute URL path like '/validate-widget' (no spaces, query or '//')");
      return {};
    }
    return *text;
  }

  std::optional<SpecAdmissionWebhook> admission(const Node& n, const std::string& what, bool mutating) {
    if (!n.is_mapping()) {
      wrong_type(n, what, "a mapping (write " + what + ": {} for the defaults)");
      return std::nullopt;
    }
    SpecAdmissionWebhook out;
    out.location = n.location;
    for (std::size_t i = 0; i < n.keys.size(); ++i) {
      const std::string& key = n.keys[i];
      const Node& value = n.children[i];
      if (key == "operations") out.operations = operations(value, mutating);
      else if (key == "failurePolicy") out.failure_policy = choice(value, key, {"Fail", "Ignore"}, out.failure_policy);
      else if (key == "sideEffects") out.side_effects = choice(value, key, {"None", "NoneOnDryRun"}, out.side_effects);
      else if (key == "timeoutSeconds") out.timeout_seconds = timeout(value, out.timeout_seconds);
      else if (key == "path") out.path = path_of(value);
      else unknown_key(key, n.key_locations[i], spec_admission_webhook_keys());
    }
    return out;
  }

  std::vector<SpecOperation> operations(const Node& n, bool mutating) {
    std::vector<SpecOperation> out;
    if (!n.is_sequence()) {
      wrong_type(n, "operations", "a sequence of operations");
      return out;
    }
    if (n.children.empty())
      diags_.error(n.location, "spec-bad-operation", "'operations' must list at least one operation");
    for (const Node& item : n.children) {
      const auto text = string_of(item, "operations");
      if (!text) continue;
      std::optional<SpecOperation> op;
      if (*text == "create") op = SpecOperation::Create;
      else if (*text == "update") op = SpecOperation::Update;
      else if (*text == "delete" && !mutating) op = SpecOperation::Delete;
      if (!op) {
        diags_.error(item.location, "spec-bad-operation",
                     mutating && *text == "delete" ? std::string("a defaulting webhook runs on 'create' and 'update', "
                                                                 "not on 'delete' (nothing is stored to default)")
                     : mutating
                         ? "unknown operation " + quote(*text) + "; a defaulting webhook runs on 'create' and 'update'"
                         : "unknown operation " + quote(*text) +
                               "; a validating webhook runs on 'create', 'update' and 'delete'");
        continue;
      }
      if (std::find(out.begin(), out.end(), *op) == out.end()) out.push_back(*op);
    }
    return out;
  }

  // The API server's bounds: 1 to 30 seconds.
  int timeout(const Node& n, int fallback) {
    if (!n.is_scalar() || resolve_scalar(n) != ScalarType::Int) {
      wrong_type(n, "timeoutSeconds", "an integer");
      return fallback;
    }
    const long value = std::strtol(n.text.c_str(), nullptr, 10);
    if (value < 1 || value > 30) {
      diags_.error(n.location, "spec-bad-value",
                   "timeoutSeconds must be between 1 and 30 (the API server's limits), not " + n.text);
      return fallback;
    }
    return static_cast<int>(value);
  }

  std::optional<SpecConversionWebhook> conversion(const Node& n) {
    if (!n.is_mapping()) {
      wrong_type(n, "conversion", "a mapping with the hub version, like {hub: v1}");
      return std::nullopt;
    }
    SpecConversionWebhook out;
    out.location = n.location;
    for (std::size_t i = 0; i < n.keys.size(); ++i) {
      const std::string& key = n.keys[i];
      const Node& value = n.children[i];
      if (key == "hub") {
        out.hub_location = value.location;
        if (auto hub = string_of(value, key)) out.hub = *hub;
      } else if (key == "path") {
        out.path = path_of(value);
      } else {
        unknown_key(key, n.key_locations[i], spec_conversion_webhook_keys());
      }
    }
    if (!n.find("hub"))
      diags_.error(n.location, "spec-missing-key",
                   "conversion needs a 'hub': the served version every other version converts through");
    return out;
  }
};

}  // namespace
}  // namespace spec_webhooks

std::optional<SpecWebhooks> read_spec_webhooks(const Node& n, Diagnostics& diags) {
  return spec_webhooks::WebhooksReader(diags).read(n);
}

const std::vector<std::string>& spec_webhooks_keys() {
  static const std::vector<std::string> keys = {"defaulting", "validation", "conversion"};
  return keys;
}

const std::vector<std::string>& spec_admission_webhook_keys() {
  static const std::vector<std::string> keys = {"operations", "failurePolicy", "sideEffects", "timeoutSeconds", "path"};
  return keys;
}

const std::vector<std::string>& spec_conversion_webhook_keys() {
  static const std::vector<std::string> keys = {"hub", "path"};
  return keys;
}

}  // namespace rrgen
