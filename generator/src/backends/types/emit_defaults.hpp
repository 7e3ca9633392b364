// rr_apply_defaults(): a struct's schema defaults, applied top-down as the API server does.
#pragma once
#include <map>

#include "model/model.hpp"
#include "support/printer.hpp"

namespace rrgen {

class DefaultsEmitter {
 public:
  // Decides, for every struct of the unit, whether defaulting has anything to do there.
  explicit DefaultsEmitter(const Unit& u);
  // Defines `S::rr_apply_defaults()`.
  void defaults_fn(Printer& p, const StructDef& s);

 private:
  bool type_needs_defaults(const TypeRef& t) const;

  const Unit& u_;
  std::map<const StructDef*, bool> needs_defaults_;
};

}  // namespace rrgen
