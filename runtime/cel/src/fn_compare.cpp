// isGreaterThan, isLessThan and compareTo for the library types that order (kubernetes.Quantity,
// kubernetes.Semver): both operands of one type, compared by Opaque::compare.
#include "functions.hpp"

namespace rr::cel {

namespace {

enum class Cmp { Greater, Less, CompareTo };

template <Cmp C>
Value compare(std::span<const Value> a) {
  static constexpr const char* kNames[] = {"isGreaterThan", "isLessThan", "compareTo"};
  const char* name = kNames[static_cast<int>(C)];
  if (a.size() != 2 || a[0].kind() != Kind::Opaque || a[1].kind() != Kind::Opaque ||
      a[0].as_opaque().type_name() != a[1].as_opaque().type_name())
    return no_overload(name, a);
  const auto c = a[0].as_opaque().compare(a[1].as_opaque());
  if (!c) return no_overload(name, a);
  if (C == Cmp::Greater) return Value(*c > 0);
  if (C == Cmp::Less) return Value(*c < 0);
  return Value(std::int64_t{*c});
}

}  // namespace

void register_compare(FunctionTable& t) {
  t.add("isGreaterThan", compare<Cmp::Greater>, false, true);
  t.add("isLessThan", compare<Cmp::Less>, false, true);
  t.add("compareTo", compare<Cmp::CompareTo>, false, true);
}

}  // namespace rr::cel
