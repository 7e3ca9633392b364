// rr::Optional<T>: the optional members of generated types (absent or a value).
//
// The subset of std::optional's interface that code reading and building objects uses, with the
// same meaning: has_value(), explicit operator bool, *, ->, value() (throws
// std::bad_optional_access), value_or(), emplace(), reset(), assignment from a value, from
// std::nullopt and from a std::optional, ==/!= against another optional, std::nullopt or a value;
// it converts implicitly from and to std::optional. Not provided: <, <=>, the monadic operations,
// swap and std::hash.
//
// Why not std::optional: compile time. Every generated struct holds dozens of optional members,
// and each std::optional<X> instantiates a tower of base classes (_Optional_base,
// _Optional_payload, _Optional_payload_base, _Enable_copy_move) and constrained converting
// constructors; the implicit copy, move and destructor of a big kind instantiate that tower for
// every nested type, in every translation unit that copies the kind. This class is one class
// with one union: Argo's Workflow header alone parses in about half the time, the whole unit in
// 0.7x (docs/types.md, "Compile time"). Its special members are never trivial (a trivially
// copyable variant needs either those base classes or C++20's constrained special members, which
// clang 14 does not implement, and costs compile time either way).
//
// Out-of-line special members: a generated struct declares one static hook,
//   static void rr_special_member(rr::SpecialMember op, X* dst, X* src);
// defined in its own source as rr::special_member(op, dst, src). rr::Optional<X> copies, moves,
// assigns and destroys its X through that hook, so the implicit special members of a struct that
// holds an rr::Optional<X> stop there: copying a Deployment in a user's unit compiles Deployment's
// own copy constructor, not those of the hundred structs below its spec. Generated structs stay
// aggregates (designated initialisers work); their special members are compiled once, in the
// generated source, instead of in every unit that copies a kind (docs/types.md, "Compile time").
#pragma once
#include <memory>
#include <optional>
#include <type_traits>
#include <utility>

namespace rr {

template <class T>
class Optional;

// The special member an rr::Optional asks of a generated struct's rr_special_member hook.
enum class SpecialMember : unsigned char { copy_construct, move_construct, copy_assign, move_assign, destroy };

// What a generated struct's hook does, in its own source. `dst` is raw storage for the
// constructions and the object for the others; `src` is read-only for the copies, moved from for
// the moves and unused by destroy. Assignments are a copy (or the source) moved in place of the
// destroyed target: the hook then compiles T's copy and move constructors and destructor only,
// not its assignment operators, which would instantiate every member's assignment as well (for a
// std::vector<X> member, X's assignment besides its copy constructor). The copy is made before
// the target is destroyed, so a copy that throws leaves the target as it was; moves do not throw.
template <class T>
void special_member(SpecialMember op, T* dst, T* src) {
  switch (op) {
    case SpecialMember::copy_construct: std::construct_at(dst, std::as_const(*src)); return;
    case SpecialMember::move_construct: std::construct_at(dst, std::move(*src)); return;
    case SpecialMember::copy_assign: {
      T copy(std::as_const(*src));
      std::destroy_at(dst);
      std::construct_at(dst, std::move(copy));
      return;
    }
    case SpecialMember::move_assign:
      if (dst == src) return;
      std::destroy_at(dst);
      std::construct_at(dst, std::move(*src));
      return;
    case SpecialMember::destroy: std::destroy_at(dst); return;
  }
}

namespace optional_detail {
template <class U>
inline constexpr bool is_optional = false;
template <class U>
inline constexpr bool is_optional<Optional<U>> = true;
template <class U>
inline constexpr bool is_optional<std::optional<U>> = true;
// A type whose special members are out of line (a generated struct: it declares the hook).
template <class T>
concept OutOfLine = requires(T* p) {
  T::rr_special_member(SpecialMember::destroy, p, p);
};
template <class T>
struct IsOutOfLine : std::bool_constant<OutOfLine<T>> {};
// The hook's moves do not throw (every member of a generated struct moves without throwing); for
// other types, noexcept as T's. The disjunction keeps a generated T's own noexcept unevaluated,
// which would otherwise walk its members' types.
template <class T>
inline constexpr bool nothrow_move = std::disjunction_v<IsOutOfLine<T>, std::is_nothrow_move_constructible<T>>;
template <class T>
inline constexpr bool nothrow_move_assign = std::disjunction_v<
    IsOutOfLine<T>, std::conjunction<std::is_nothrow_move_constructible<T>, std::is_nothrow_move_assignable<T>>>;
template <class U>
concept NotOptional = !is_optional<std::remove_cvref_t<U>> && !std::is_same_v<std::remove_cvref_t<U>, std::nullopt_t> &&
                      !std::is_same_v<std::remove_cvref_t<U>, std::in_place_t>;
}  // namespace optional_detail

// std::optional<T> or rr::Optional<T>: what the codec overloads for an optional member accept.
template <class O>
concept AnyOptional = optional_detail::is_optional<O>;

template <class T>
class Optional {
  static_assert(!std::is_reference_v<T> && !optional_detail::is_optional<std::remove_cv_t<T>>,
                "rr::Optional holds a value type other than an optional");

  // Whether constructing or assigning from a U goes through T's hook: a T, copied or moved.
  template <class U>
  static constexpr bool kHook = optional_detail::OutOfLine<T>&& std::is_same_v<std::remove_cvref_t<U>, T>;
  template <class U>
  static constexpr bool kCopy = std::is_lvalue_reference_v<U> || std::is_const_v<std::remove_reference_t<U>>;
  template <class U>
  static T* source(U&& value) noexcept {  // the hook reads a copy's source and moves a move's
    return const_cast<T*>(std::addressof(value));
  }

 public:
  using value_type = T;

  constexpr Optional() noexcept {}
  constexpr Optional(std::nullopt_t) noexcept {}  // NOLINT: implicit like std::optional's
  template <optional_detail::NotOptional U = T>
    requires std::is_constructible_v<T, U&&> &&(!kHook<U>)constexpr Optional(U&& value)
        : value_(std::forward<U>(value)), has_(true) {}  // NOLINT: implicit
    template <optional_detail::NotOptional U = T>
      requires kHook<U> Optional(U&& value) {  // NOLINT: implicit
        construct(std::forward<U>(value));
      }
  template <class... A>
    requires std::is_constructible_v<T, A&&...>
  constexpr explicit Optional(std::in_place_t, A&&... args) : value_(std::forward<A>(args)...), has_(true) {}
  template <class U>
    requires std::is_constructible_v<T, const U&> Optional(
        const std::optional<U>& other) {  // NOLINT: implicit, so std::optional values assign
      if (other) construct(*other);
    }
  template <class U>
    requires std::is_constructible_v<T, U&&> Optional(std::optional<U>&& other) {  // NOLINT
      if (other) construct(std::move(*other));
    }
  Optional(const Optional& other) {
    if (other.has_) construct(other.value_);
  }
  Optional(Optional&& other) noexcept(optional_detail::nothrow_move<T>) {
    if (other.has_) construct(std::move(other.value_));
  }
  ~Optional() { reset(); }

  Optional& operator=(const Optional& other) {
    if (other.has_) assign(other.value_);
    else reset();
    return *this;
  }
  Optional& operator=(Optional&& other) noexcept(optional_detail::nothrow_move_assign<T>) {
    if (other.has_) assign(std::move(other.value_));
    else reset();
    return *this;
  }
  Optional& operator=(std::nullopt_t) noexcept {
    reset();
    return *this;
  }
  // Not for a scalar T from a T (std::optional's rule): `opt = {}` then empties the optional
  // through operator=(Optional&&) rather than storing a zero.
  template <optional_detail::NotOptional U = T>
    requires std::is_constructible_v<T, U&&> && std::is_assignable_v<T&, U&&> &&
        (!std::is_scalar_v<T> || !std::is_same_v<T, std::decay_t<U>>)Optional&
        operator=(U&& value) {
      assign(std::forward<U>(value));
      return *this;
    }
    template <class U>
    requires std::is_constructible_v<T, const U&> && std::is_assignable_v<T&, const U&> Optional& operator=(
        const std::optional<U>& other) {
      if (other) assign(*other);
      else reset();
      return *this;
    }
    template <class U>
    requires std::is_constructible_v<T, U&&> && std::is_assignable_v<T&, U&&> Optional& operator=(
        std::optional<U>&& other) {
      if (other) assign(std::move(*other));
      else reset();
      return *this;
    }

    // To a std::optional (a copy): `std::optional<std::int32_t> r = deployment.spec->replicas;`.
    template <class U>
      requires std::is_constructible_v<U, const T&>
    operator std::optional<U>() const& {  // NOLINT: implicit
      if (has_) return std::optional<U>(std::in_place, value_);
      return std::nullopt;
    }
    template <class U>
      requires std::is_constructible_v<U, T&&>
    operator std::optional<U>() && {  // NOLINT
      if (has_) return std::optional<U>(std::in_place, std::move(value_));
      return std::nullopt;
    }

    template <class... A>
    T& emplace(A&&... args) {
      reset();
      construct(std::forward<A>(args)...);
      return value_;
    }
    void reset() noexcept {
      if (has_) {
        has_ = false;
        if constexpr (optional_detail::OutOfLine<T>) T::rr_special_member(SpecialMember::destroy, &value_, nullptr);
        else value_.~T();
      }
    }

    constexpr bool has_value() const noexcept { return has_; }
    constexpr explicit operator bool() const noexcept { return has_; }
    constexpr T& operator*() & noexcept { return value_; }
    constexpr const T& operator*() const& noexcept { return value_; }
    constexpr T&& operator*() && noexcept { return std::move(value_); }
    constexpr T* operator->() noexcept { return std::addressof(value_); }
    constexpr const T* operator->() const noexcept { return std::addressof(value_); }
    T& value() & {
      check();
      return value_;
    }
    const T& value() const& {
      check();
      return value_;
    }
    T&& value() && {
      check();
      return std::move(value_);
    }
    template <class U>
    T value_or(U&& fallback) const& {
      return has_ ? value_ : static_cast<T>(std::forward<U>(fallback));
    }
    template <class U>
    T value_or(U&& fallback) && {
      return has_ ? std::move(value_) : static_cast<T>(std::forward<U>(fallback));
    }

   private:
    void check() const {
      if (!has_) throw std::bad_optional_access();
    }
    template <class... A>
    void construct(A&&... args) {
      if constexpr (sizeof...(A) == 1 && (kHook<A> && ...)) {
        T::rr_special_member((kCopy<A> && ...) ? SpecialMember::copy_construct : SpecialMember::move_construct,
                             std::addressof(value_), source(args...));
      } else {
        std::construct_at(std::addressof(value_), std::forward<A>(args)...);
      }
      has_ = true;
    }
    template <class U>
    void assign(U&& value) {
      if (!has_) construct(std::forward<U>(value));
      else if constexpr (kHook<U>)
        T::rr_special_member(kCopy<U> ? SpecialMember::copy_assign : SpecialMember::move_assign, std::addressof(value_),
                             source(value));
      else value_ = std::forward<U>(value);
    }

    union {
      T value_;
    };
    bool has_ = false;
};

template <class T, class U>
bool operator==(const Optional<T>& a, const Optional<U>& b) {
  return a.has_value() == b.has_value() && (!a.has_value() || *a == *b);
}
template <class T, class U>
bool operator==(const Optional<T>& a, const std::optional<U>& b) {
  return a.has_value() == b.has_value() && (!a.has_value() || *a == *b);
}
template <class T>
bool operator==(const Optional<T>& a, std::nullopt_t) noexcept {
  return !a.has_value();
}
template <class T, optional_detail::NotOptional U>
bool operator==(const Optional<T>& a, const U& b) {
  return a.has_value() && *a == b;
}

}  // namespace rr
