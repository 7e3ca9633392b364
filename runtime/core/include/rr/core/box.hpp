// rr::Box<T>: an owning indirection with value semantics, for schemas that contain themselves
// (apiextensions' JSONSchemaProps holds a JSONSchemaProps in `not`). A member of type T inside T
// cannot be a std::optional<T>; a Box<T> can, because it needs T only where it is used.
//
// A Box always holds a T: an empty Box reads as T{} and allocates on the first write, so
// declaring, default-constructing and destroying a Box need no complete T (the T a Box owns
// was allocated where T was complete, and the Box remembers how to copy and delete it).
// Copies are deep, == compares values, moves steal the pointer.
#pragma once
#include <utility>

namespace rr {

template <class T>
class Box {
 public:
  Box() noexcept = default;
  Box(T value) : p_(new T(std::move(value))), ops_(&ops()) {}  // NOLINT: implicit like optional's
  Box(const Box& other) : p_(other.p_ ? other.ops_->clone(other.p_) : nullptr), ops_(other.ops_) {}
  Box(Box&& other) noexcept : p_(std::exchange(other.p_, nullptr)), ops_(other.ops_) {}
  Box& operator=(const Box& other) {
    if (this != &other) *this = Box(other);
    return *this;
  }
  Box& operator=(Box&& other) noexcept {
    std::swap(p_, other.p_);
    std::swap(ops_, other.ops_);
    return *this;
  }
  ~Box() {
    if (p_) ops_->destroy(p_);
  }

  T& operator*() { return get(); }
  const T& operator*() const { return get(); }
  T* operator->() { return &get(); }
  const T* operator->() const { return &get(); }

  T& get() {
    if (!p_) {
      p_ = new T();
      ops_ = &ops();
    }
    return *p_;
  }
  const T& get() const {
    if (p_) return *p_;
    static const T empty{};
    return empty;
  }

  friend bool operator==(const Box& a, const Box& b) { return a.get() == b.get(); }

 private:
  struct Ops {
    T* (*clone)(const T*);
    void (*destroy)(T*);
  };
  static const Ops& ops() {
    static constexpr Ops table{[](const T* p) { return new T(*p); }, [](T* p) { delete p; }};
    return table;
  }

  T* p_ = nullptr;
  const Ops* ops_ = nullptr;
};

}  // namespace rr
