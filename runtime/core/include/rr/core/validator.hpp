// Collects validation findings with Kubernetes field paths. Generated validate() functions call
// the check helpers below; messages follow the API server's (kube-openapi) wording so users see the
// same text locally as from `kubectl apply`.
#pragma once
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "rr/core/errors.hpp"
#include "rr/core/fwd.hpp"

namespace rr {

class Pattern;

enum class Format { None, DateTime, Date, Byte, Int32, Int64, IPv4, IPv6, UUID, Duration, Hostname, URI, CIDR, MAC };

class Validator {
 public:
  explicit Validator(std::string root = {});

  // Path scoping. Scope objects restore the path when they go out of scope.
  class Scope {
   public:
    explicit Scope(Validator& v, std::size_t saved) : v_(v), saved_(saved) {}
    ~Scope() { v_.path_.resize(saved_); }
    Scope(const Scope&) = delete;
    Scope& operator=(const Scope&) = delete;
   private:
    Validator& v_;
    std::size_t saved_;
  };
  [[nodiscard]] Scope field(std::string_view name);   // .name
  [[nodiscard]] Scope index(std::size_t i);           // [i]
  [[nodiscard]] Scope key(std::string_view k);        // [k]
  const std::string& path() const noexcept { return path_; }

  void add(FieldErrorType type, std::string detail);  // at the current path
  void required();                                    // "Required value"
  void required(std::string_view member);             // member of the current object is missing
  const std::vector<FieldError>& errors() const noexcept { return errors_; }
  std::vector<FieldError> take() { return std::move(errors_); }

  // Numbers. The bound is printed the way Go prints it (integers without ".0").
  void minimum(double value, double bound, bool exclusive);
  void maximum(double value, double bound, bool exclusive);
  void multiple_of(double value, double factor);
  // Strings: lengths count Unicode code points, as Go's utf8.RuneCountInString does.
  void min_length(std::string_view value, std::int64_t bound);
  void max_length(std::string_view value, std::int64_t bound);
  void pattern(std::string_view value, const Pattern& p);
  void format(std::string_view value, Format f);
  // Collections.
  void min_items(std::size_t count, std::int64_t bound);
  void max_items(std::size_t count, std::int64_t bound);
  void min_properties(std::size_t count, std::int64_t bound);
  void max_properties(std::size_t count, std::int64_t bound);
  // Enums: `value` (as JSON text for non-strings) must be one of `allowed` (JSON texts).
  void enum_value(std::string_view value_json, std::span<const std::string_view> allowed_json);
  void enum_string(std::string_view value, std::span<const std::string_view> allowed);
  // x-kubernetes-list-type set/map: reports a Duplicate at [i] for each repeated element/key.
  // `keys` holds each element's identity as canonical JSON text.
  void unique(std::span<const std::string> keys);

 private:
  // Appends a finding at `at`, worded like k8s.io/apimachinery field.Error: "<path>: <Type>[: <value>][: <detail>]".
  void report(std::string at, FieldErrorType type, std::string_view shown_value, std::string_view detail);
  // kube-openapi's "<path> in body" subject.
  std::string subject() const;

  std::string path_;
  std::vector<FieldError> errors_;
};

}  // namespace rr
