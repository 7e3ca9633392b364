// Fills `$name$` holes in a text template (templates/, embedded into rrgen): the scaffolds are
// written as the user will read them, with holes for what the spec decides.
//
// - `$name$` is replaced by the variable's value; `$$` is a literal `$`.
// - A hole alone on its line (only spaces before it, nothing after) is a block: every line of
//   the value gets the hole's indentation (empty lines stay empty), and an empty value removes
//   the line altogether.
// - An unknown name, or a `$` without its closing `$`, is a bug in rrgen's own templates:
//   std::logic_error naming the template and the hole.
#pragma once
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace rrgen {

using TemplateVars = std::map<std::string, std::string, std::less<>>;

std::string fill_template(std::string_view name, std::string_view text, const TemplateVars& vars);

// As above; `used` (when given) receives the name of every hole filled, so a caller can refuse
// variables that no hole asked for.
std::string fill_template(std::string_view name, std::string_view text, const TemplateVars& vars,
                          std::vector<std::string>* used);

// The embedded template `path` ("templates/scaffold/hooks.hpp.tmpl") filled with `vars`;
// std::logic_error when it is not embedded.
std::string fill_embedded_template(std::string_view path, const TemplateVars& vars);

// `head(a, b, c)tail` on one line when it fits in `width` columns from column `indent`; else the
// parameters continue on lines of their own, aligned under the first one:
//   void Hooks::reflect(rr::Context& ctx, Widget& widget,
//                       const Child* child) const {
std::string wrap_parameters(const std::string& head, const std::vector<std::string>& params, const std::string& tail,
                            std::size_t indent, std::size_t width = 100);

// `text` as comment lines led by `prefix` ("// "), at most `width` columns (words are never split).
std::string wrap_comment(const std::string& text, const std::string& prefix, std::size_t width = 100);

}  // namespace rrgen
