// The function table: every function and operator by CEL's name, each one implementation that
// dispatches on its arguments' kinds at run time (the standard library and extensions register
// into it, one file per family).
#pragma once
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "rr/cel/value.hpp"

namespace rr::cel {

// args[0] is the receiver of a member call (`s.size()` gets {s}).
using FunctionImpl = Value (*)(std::span<const Value> args);

struct Function {
  FunctionImpl impl = nullptr;
  bool global = true;   // callable as f(x)
  bool member = false;  // callable as x.f()
};

class FunctionTable {
 public:
  void add(std::string name, FunctionImpl impl, bool global, bool member);
  const Function* find(std::string_view name) const;

 private:
  std::unordered_map<std::string, Function> functions_;
};

// The table with every family registered (built once).
const FunctionTable& standard_functions();

void register_operators(FunctionTable& table);      // fn_operators.cpp: arithmetic, comparison, in, index
void register_strings(FunctionTable& table);        // fn_strings.cpp: size, contains, startsWith, matches, ...
void register_conversions(FunctionTable& table);    // fn_conversions.cpp: int(), string(), type(), ...
void register_time(FunctionTable& table);           // fn_time.cpp: timestamp accessors, duration accessors
void register_optionals(FunctionTable& table);      // fn_optional.cpp: optional.of/none/value/hasValue/or/orValue
void register_strings_ext(FunctionTable& table);    // fn_strings_ext.cpp: charAt, indexOf, split, ... strings.quote
void register_format(FunctionTable& table);         // fn_format.cpp: string.format(list)
void register_encoders(FunctionTable& table);       // fn_encoders.cpp: base64.encode, base64.decode
void register_network(FunctionTable& table);        // fn_network.cpp: ip(), cidr() and their methods
void register_lists(FunctionTable& table);          // fn_lists.cpp: isSorted, sum, min, max, indexOf; sets.*
void register_quantity(FunctionTable& table);       // fn_quantity.cpp: quantity() and its methods
void register_semver(FunctionTable& table);         // fn_semver.cpp: semver() and its methods
void register_url(FunctionTable& table);            // fn_url.cpp: url() and its methods
void register_named_formats(FunctionTable& table);  // fn_named_formats.cpp: format.dns1123Label() ... validate()
void register_compare(FunctionTable& table);        // fn_compare.cpp: isGreaterThan, isLessThan, compareTo
void register_math(FunctionTable& table);           // fn_math.cpp: math.greatest, math.abs, math.bitAnd, ...
void register_authz(FunctionTable& table);          // fn_authz.cpp: the authorizer library (admission policies)

// The strings extension's indexOf and lastIndexOf (the lists library's accept lists too).
Value string_index_of(std::span<const Value> args);
Value string_last_index_of(std::span<const Value> args);

// The items ordered by their keys (stable); an error when the keys are not of one comparable
// type. sort() and the sortBy macro share it.
Value sort_by_keys(const std::vector<Value>& items, const std::vector<Value>& keys);

// "no matching overload for 'f' applied to '(int, string)'"
Value no_overload(std::string_view function, std::span<const Value> args);
// The first error among args, or nullptr.
const Value* first_error(std::span<const Value> args);

}  // namespace rr::cel
