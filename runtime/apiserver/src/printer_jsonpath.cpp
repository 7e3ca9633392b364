#include "printer_jsonpath.hpp"

#include <charconv>
#include <cstdlib>
#include <string>

namespace rr::apiserver_detail {

struct PrinterJsonPath::Step {
  enum class Type { Field, Wildcard, Index, Filter };
  enum class Op { Exists, Equal, NotEqual };
  Type type = Type::Field;
  std::string field{};               // Field
  long long index = 0;               // Index
  std::vector<std::string> operand{};  // Filter: the fields after '@'
  Op op = Op::Exists;                // Filter
  Json literal{};                    // Filter with Equal / NotEqual
};

namespace {

using Step = PrinterJsonPath::Step;

// Characters that end a bare field name (client-go's jsonpath terminators, plus quotes).
bool ends_field(char c) {
  switch (c) {
    case ' ': case '\t': case '\n': case '\r': case '.': case ',': case '{': case '}': case '[': case ']':
    case '$': case '@': case '(': case ')': case '=': case '<': case '>': case '!': case '|': case '\'':
    case '"': case '*': case '?':
      return true;
    default:
      return false;
  }
}

class Parser {
 public:
  explicit Parser(std::string_view text) : text_(text) {}

  std::optional<std::vector<Step>> path() {
    if (eat('$') && at_end()) return std::vector<Step>{};
    if (text_ == ".") return std::vector<Step>{};
    std::vector<Step> steps;
    while (!at_end()) {
      std::optional<Step> step = next_step(/*in_filter=*/false);
      if (!step) return std::nullopt;
      steps.push_back(std::move(*step));
    }
    if (steps.empty()) return std::nullopt;
    return steps;
  }

 private:
  bool at_end() const { return pos_ >= text_.size(); }
  char peek() const { return at_end() ? '\0' : text_[pos_]; }
  bool eat(char c) {
    if (peek() != c || at_end()) return false;
    ++pos_;
    return true;
  }
  void skip_spaces() {
    while (!at_end() && (peek() == ' ' || peek() == '\t')) ++pos_;
  }

  // `.name`, `.*`, `[...]`. In a filter operand only fields (`.name`, `['name']`) are allowed.
  std::optional<Step> next_step(bool in_filter) {
    if (eat('.')) {
      if (!in_filter && eat('*')) return Step{.type = Step::Type::Wildcard};
      const std::size_t start = pos_;
      while (!at_end() && !ends_field(peek())) ++pos_;
      if (pos_ == start) return std::nullopt;  // "..", ".[", a trailing '.'
      return Step{.field = std::string(text_.substr(start, pos_ - start))};
    }
    if (!eat('[')) return std::nullopt;
    skip_spaces();
    std::optional<Step> step;
    if (peek() == '\'' || peek() == '"') {
      auto name = quoted();
      if (name) step = Step{.field = std::move(*name)};
    } else if (in_filter) {
      return std::nullopt;
    } else if (eat('*')) {
      step = Step{.type = Step::Type::Wildcard};
    } else if (eat('?')) {
      step = filter();
    } else {
      step = index();
    }
    skip_spaces();
    if (!step || !eat(']')) return std::nullopt;
    return step;
  }

  std::optional<std::string> quoted() {
    const char quote = peek();
    ++pos_;
    const std::size_t end = text_.find(quote, pos_);
    if (end == std::string_view::npos) return std::nullopt;
    std::string out(text_.substr(pos_, end - pos_));
    pos_ = end + 1;
    return out;
  }

  std::optional<Step> index() {
    const std::size_t start = pos_;
    eat('-');
    while (!at_end() && peek() >= '0' && peek() <= '9') ++pos_;
    long long value = 0;
    const char* first = text_.data() + start;
    const char* last = text_.data() + pos_;
    auto [end, ec] = std::from_chars(first, last, value);
    if (ec != std::errc() || end != last) return std::nullopt;
    return Step{.type = Step::Type::Index, .index = value};
  }

  // After "[?": "(@<fields>)" or "(@<fields> ==|!= <literal>)".
  std::optional<Step> filter() {
    if (!eat('(')) return std::nullopt;
    skip_spaces();
    if (!eat('@')) return std::nullopt;
    Step step{.type = Step::Type::Filter};
    while (peek() == '.' || peek() == '[') {
      auto field = next_step(/*in_filter=*/true);
      if (!field) return std::nullopt;
      step.operand.push_back(std::move(field->field));
    }
    skip_spaces();
    if (eat(')')) return step;
    if (eat('=') && eat('=')) {
      step.op = Step::Op::Equal;
    } else if (eat('!') && eat('=')) {
      step.op = Step::Op::NotEqual;
    } else {
      return std::nullopt;
    }
    skip_spaces();
    auto value = literal();
    skip_spaces();
    if (!value || !eat(')')) return std::nullopt;
    step.literal = std::move(*value);
    return step;
  }

  std::optional<Json> literal() {
    if (peek() == '\'' || peek() == '"') {
      auto text = quoted();
      if (!text) return std::nullopt;
      return Json(std::move(*text));
    }
    for (std::string_view word : {"true", "false"}) {
      if (text_.substr(pos_, word.size()) == word) {
        pos_ += word.size();
        return Json(word == "true");
      }
    }
    const std::size_t start = pos_;
    eat('-');
    bool fraction = false;
    while (!at_end() && ((peek() >= '0' && peek() <= '9') || peek() == '.')) {
      fraction |= peek() == '.';
      ++pos_;
    }
    const std::string number(text_.substr(start, pos_ - start));
    if (number.empty() || number == "-") return std::nullopt;
    char* end = nullptr;
    if (fraction) {
      const double value = std::strtod(number.c_str(), &end);
      if (end != number.c_str() + number.size()) return std::nullopt;
      return Json(value);
    }
    long long value = 0;
    auto [last, ec] = std::from_chars(number.data(), number.data() + number.size(), value);
    if (ec != std::errc() || last != number.data() + number.size()) return std::nullopt;
    return Json(value);
  }

  std::string_view text_;
  std::size_t pos_ = 0;
};

std::string_view trimmed(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  return text;
}

const Json* field_of(const Json& value, const std::string& name) {
  if (!value.is_object()) return nullptr;
  auto it = value.find(name);
  return it == value.end() ? nullptr : &*it;
}

enum class Comparison { Equal, Different, Incomparable };

// Go's text/template eq on basic kinds: numbers by value, strings, booleans; other pairs fail.
Comparison compare(const Json& left, const Json& right) {
  if (left.is_number() && right.is_number()) {
    if (left.is_number_float() || right.is_number_float()) {
      return left.get<double>() == right.get<double>() ? Comparison::Equal : Comparison::Different;
    }
    const bool left_negative = left.is_number_integer() && !left.is_number_unsigned() && left.get<long long>() < 0;
    const bool right_negative = right.is_number_integer() && !right.is_number_unsigned() && right.get<long long>() < 0;
    if (left_negative != right_negative) return Comparison::Different;
    if (left_negative) return left.get<long long>() == right.get<long long>() ? Comparison::Equal : Comparison::Different;
    return left.get<unsigned long long>() == right.get<unsigned long long>() ? Comparison::Equal : Comparison::Different;
  }
  if ((left.is_string() && right.is_string()) || (left.is_boolean() && right.is_boolean())) {
    return left == right ? Comparison::Equal : Comparison::Different;
  }
  return Comparison::Incomparable;
}

}  // namespace

PrinterJsonPath::PrinterJsonPath() = default;
PrinterJsonPath::PrinterJsonPath(PrinterJsonPath&&) noexcept = default;
PrinterJsonPath& PrinterJsonPath::operator=(PrinterJsonPath&&) noexcept = default;
PrinterJsonPath::PrinterJsonPath(const PrinterJsonPath&) = default;
PrinterJsonPath& PrinterJsonPath::operator=(const PrinterJsonPath&) = default;
PrinterJsonPath::~PrinterJsonPath() = default;

std::optional<PrinterJsonPath> PrinterJsonPath::parse(std::string_view expression) {
  expression = trimmed(expression);
  if (expression.empty()) return std::nullopt;
  auto steps = Parser(expression).path();
  if (!steps) return std::nullopt;
  PrinterJsonPath path;
  path.steps_ = std::move(*steps);
  return path;
}

std::optional<std::vector<const Json*>> PrinterJsonPath::find(const Json& document) const {
  std::vector<const Json*> current{&document};
  for (const Step& step : steps_) {
    std::vector<const Json*> next;
    for (const Json* value : current) {
      switch (step.type) {
        case Step::Type::Field:
          if (const Json* found = field_of(*value, step.field)) next.push_back(found);
          break;
        case Step::Type::Wildcard:
          if (value->is_object() || value->is_array()) {
            for (const Json& item : *value) next.push_back(&item);
          }
          break;
        case Step::Type::Index:
          if (value->is_array()) {
            const auto size = static_cast<long long>(value->size());
            const long long at = step.index < 0 ? size + step.index : step.index;
            if (at >= 0 && at < size) next.push_back(&(*value)[static_cast<std::size_t>(at)]);
          }
          break;
        case Step::Type::Filter:
          if (!value->is_array()) break;
          for (const Json& item : *value) {
            const Json* operand = &item;
            for (const std::string& field : step.operand) {
              operand = operand ? field_of(*operand, field) : nullptr;
            }
            if (!operand) continue;
            if (step.op == Step::Op::Exists) {
              next.push_back(&item);
              continue;
            }
            const Comparison result = compare(*operand, step.literal);
            if (result == Comparison::Incomparable) return std::nullopt;
            if ((result == Comparison::Equal) == (step.op == Step::Op::Equal)) next.push_back(&item);
          }
          break;
      }
    }
    current = std::move(next);
  }
  return current;
}

}  // namespace rr::apiserver_detail
