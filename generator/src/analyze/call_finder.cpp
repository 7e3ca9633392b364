#include "analyze/call_finder.hpp"

#include <clang/AST/ASTConsumer.h>
#include <clang/AST/ASTContext.h>
#include <clang/AST/DeclTemplate.h>
#include <clang/AST/Expr.h>
#include <clang/AST/ExprCXX.h>
#include <clang/ASTMatchers/ASTMatchFinder.h>
#include <clang/ASTMatchers/ASTMatchers.h>
#include <clang/Basic/Diagnostic.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Tooling/ArgumentsAdjusters.h>
#include <clang/Tooling/CompilationDatabase.h>
#include <clang/Tooling/Tooling.h>
#include <llvm/ADT/SmallString.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Path.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <tuple>

#include "analyze/call_table.hpp"
#include "analyze/clang_setup.hpp"

namespace rrgen {
namespace {

namespace am = clang::ast_matchers;

// ---- what a kind expression or type tells ------------------------------------------------------

struct KindFacts {
  std::string group, version, kind, plural;
  bool cluster_scoped = false;
  bool has_plural = false;
};

// The simple name of a declaration; "" for operators, constructors and the like.
llvm::StringRef name_of(const clang::NamedDecl* d) {
  return d && d->getDeclName().isIdentifier() ? d->getName() : llvm::StringRef();
}

const clang::Expr* unwrap(const clang::Expr* e) {
  while (e) {
    e = e->IgnoreParenImpCasts();
    if (const auto* m = llvm::dyn_cast<clang::MaterializeTemporaryExpr>(e)) {
      e = m->getSubExpr();
    } else if (const auto* b = llvm::dyn_cast<clang::CXXBindTemporaryExpr>(e)) {
      e = b->getSubExpr();
    } else if (const auto* c = llvm::dyn_cast<clang::ExprWithCleanups>(e)) {
      e = c->getSubExpr();
    } else if (const auto* f = llvm::dyn_cast<clang::CXXFunctionalCastExpr>(e)) {
      e = f->getSubExpr();
    } else if (const auto* k = llvm::dyn_cast<clang::ConstantExpr>(e)) {
      e = k->getSubExpr();
    } else {
      return e;
    }
  }
  return e;
}

std::optional<std::string> string_of(const clang::Expr* e, int depth = 0);

// A constant's value: its initialiser, followed through other constants.
// A constexpr std::string_view's value as Clang's constant evaluator computed it: a struct of a
// pointer into a string literal (with an offset) and a length, whatever the member names.
std::optional<std::string> string_view_value(const clang::APValue& value, const clang::ASTContext& ctx) {
  if (!value.isStruct()) return std::nullopt;
  const clang::StringLiteral* literal = nullptr;
  std::int64_t offset = 0, length = -1;
  for (unsigned i = 0; i < value.getStructNumFields(); ++i) {
    const clang::APValue& field = value.getStructField(i);
    if (field.isLValue() && !field.isNullPointer()) {
      const auto* base = field.getLValueBase().dyn_cast<const clang::Expr*>();
      literal = base ? llvm::dyn_cast<clang::StringLiteral>(base) : nullptr;
      offset = ctx.toBits(field.getLValueOffset()) / ctx.getCharWidth();
    } else if (field.isInt()) {
      length = field.getInt().getExtValue();
    }
  }
  if (!literal || literal->getCharByteWidth() != 1 || length < 0) return std::nullopt;
  const llvm::StringRef text = literal->getString();
  if (offset < 0 || static_cast<std::uint64_t>(offset + length) > text.size()) return std::nullopt;
  return text.substr(static_cast<std::size_t>(offset), static_cast<std::size_t>(length)).str();
}

// A constant's value: its initialiser, followed through other constants, else (a constexpr
// computed by a function, say) what Clang's constant evaluator makes of it.
std::optional<std::string> string_of_var(const clang::VarDecl* var, int depth) {
  if (!var || depth > 8) return std::nullopt;
  const clang::Expr* init = var->getAnyInitializer();
  if (!init) return std::nullopt;
  if (std::optional<std::string> text = string_of(init, depth + 1)) return text;
  if (var->isConstexpr() || var->getType().isConstQualified()) {
    if (const clang::APValue* value = var->evaluateValue()) return string_view_value(*value, var->getASTContext());
  }
  return std::nullopt;
}

// The text a string-like expression holds when it is a constant: a literal, a std::string or
// std::string_view built from one, a default-constructed one (""), or a constant naming one.
std::optional<std::string> string_of(const clang::Expr* e, int depth) {
  e = unwrap(e);
  if (!e || depth > 8) return std::nullopt;
  if (const auto* s = llvm::dyn_cast<clang::StringLiteral>(e)) {
    if (s->getCharByteWidth() == 1) return s->getString().str();
    return std::nullopt;
  }
  if (llvm::isa<clang::ImplicitValueInitExpr>(e) || llvm::isa<clang::CXXDefaultArgExpr>(e)) {
    if (const auto* d = llvm::dyn_cast<clang::CXXDefaultArgExpr>(e)) return string_of(d->getExpr(), depth + 1);
    return std::string();
  }
  if (const auto* c = llvm::dyn_cast<clang::CXXConstructExpr>(e)) {
    if (c->getNumArgs() == 0) return std::string();
    if (c->getNumArgs() == 1 || (c->getNumArgs() > 1 && llvm::isa<clang::CXXDefaultArgExpr>(c->getArg(1)))) {
      return string_of(c->getArg(0), depth + 1);
    }
    return std::nullopt;
  }
  if (const auto* d = llvm::dyn_cast<clang::DeclRefExpr>(e)) {
    return string_of_var(llvm::dyn_cast<clang::VarDecl>(d->getDecl()), depth);
  }
  if (const auto* ile = llvm::dyn_cast<clang::InitListExpr>(e)) {
    if (ile->getNumInits() == 0) return std::string();
    if (ile->getNumInits() == 1) return string_of(ile->getInit(0), depth + 1);
  }
  return std::nullopt;
}

// The name of the enumerator an expression names (Scope::Cluster -> "Cluster").
std::string enumerator_of(const clang::Expr* e) {
  e = unwrap(e);
  if (const auto* d = e ? llvm::dyn_cast<clang::DeclRefExpr>(e) : nullptr) {
    if (const auto* en = llvm::dyn_cast<clang::EnumConstantDecl>(d->getDecl())) return en->getNameAsString();
    if (const auto* var = llvm::dyn_cast<clang::VarDecl>(d->getDecl())) {
      if (const clang::Expr* init = var->getAnyInitializer()) return enumerator_of(init);
    }
  }
  return {};
}

const clang::NamedDecl* member_named(const clang::DeclContext* dc, llvm::StringRef name) {
  for (const clang::Decl* d : dc->decls()) {
    if (const auto* nd = llvm::dyn_cast<clang::NamedDecl>(d); nd && name_of(nd) == name) return nd;
  }
  return nullptr;
}

// rr::ResourceTraits<T>'s facts, from the generated specialisation's static constexpr members.
std::optional<KindFacts> traits_of(clang::QualType type, clang::ASTContext& ctx) {
  const clang::QualType wanted = type.getCanonicalType().getUnqualifiedType();
  const clang::TranslationUnitDecl* tu = ctx.getTranslationUnitDecl();
  const auto* rr_ns = llvm::dyn_cast_or_null<clang::NamespaceDecl>(member_named(tu, "rr"));
  if (!rr_ns) {
    for (const clang::NamedDecl* d : tu->lookup(&ctx.Idents.get("rr"))) {
      if ((rr_ns = llvm::dyn_cast<clang::NamespaceDecl>(d))) break;
    }
  }
  if (!rr_ns) return std::nullopt;
  const clang::ClassTemplateDecl* traits = nullptr;
  for (const clang::NamedDecl* d : rr_ns->lookup(&ctx.Idents.get("ResourceTraits"))) {
    if ((traits = llvm::dyn_cast<clang::ClassTemplateDecl>(d))) break;
  }
  if (!traits) return std::nullopt;
  for (const clang::ClassTemplateSpecializationDecl* spec : traits->specializations()) {
    const clang::TemplateArgumentList& args = spec->getTemplateArgs();
    if (args.size() != 1 || args[0].getKind() != clang::TemplateArgument::Type) continue;
    if (args[0].getAsType().getCanonicalType() != wanted) continue;
    const clang::ClassTemplateSpecializationDecl* def = llvm::dyn_cast_or_null<clang::ClassTemplateSpecializationDecl>(
        spec->getDefinition());
    if (!def) return std::nullopt;
    auto field = [&](llvm::StringRef name) -> std::optional<std::string> {
      return string_of_var(llvm::dyn_cast_or_null<clang::VarDecl>(member_named(def, name)), 0);
    };
    KindFacts facts;
    std::optional<std::string> group = field("group"), kind = field("kind"), plural = field("plural");
    if (!group || !kind || !plural) return std::nullopt;
    facts.group = *group;
    facts.version = field("version").value_or("");
    facts.kind = *kind;
    facts.plural = *plural;
    facts.has_plural = true;
    if (const auto* scope = llvm::dyn_cast_or_null<clang::VarDecl>(member_named(def, "scope"))) {
      facts.cluster_scoped = scope->getAnyInitializer() && enumerator_of(scope->getAnyInitializer()) == "Cluster";
    }
    return facts;
  }
  return std::nullopt;
}

// "apps/v1" -> group "apps", version "v1"; "v1" -> the core group.
void split_api_version(const std::string& api_version, KindFacts& facts) {
  const std::size_t slash = api_version.find('/');
  facts.group = slash == std::string::npos ? "" : api_version.substr(0, slash);
  facts.version = slash == std::string::npos ? api_version : api_version.substr(slash + 1);
}

std::optional<KindFacts> kind_of_expr(const clang::Expr* e, clang::ASTContext& ctx, std::string& why, int depth = 0);

// A GroupVersionKind: {"apps", "v1", "Deployment"} or GroupVersionKind::from("apps/v1", "Deployment").
std::optional<KindFacts> gvk_of_expr(const clang::Expr* e, std::string& why, int depth) {
  e = unwrap(e);
  if (!e || depth > 8) return std::nullopt;
  if (const auto* c = llvm::dyn_cast<clang::CXXConstructExpr>(e); c && c->getNumArgs() == 1) {
    return gvk_of_expr(c->getArg(0), why, depth + 1);
  }
  if (const auto* d = llvm::dyn_cast<clang::DeclRefExpr>(e)) {
    const auto* var = llvm::dyn_cast<clang::VarDecl>(d->getDecl());
    if (var && var->getAnyInitializer()) return gvk_of_expr(var->getAnyInitializer(), why, depth + 1);
    why = "the GroupVersionKind '" + d->getDecl()->getNameAsString() + "' is not a constant";
    return std::nullopt;
  }
  if (const auto* ile = llvm::dyn_cast<clang::InitListExpr>(e); ile && ile->getNumInits() >= 3) {
    std::optional<std::string> group = string_of(ile->getInit(0)), version = string_of(ile->getInit(1)),
                               kind = string_of(ile->getInit(2));
    if (group && version && kind) return KindFacts{*group, *version, *kind, {}, false, false};
  }
  if (const auto* call = llvm::dyn_cast<clang::CallExpr>(e)) {
    const auto* fn = call->getDirectCallee();
    if (name_of(fn) == "from" && call->getNumArgs() == 2) {
      std::optional<std::string> api_version = string_of(call->getArg(0)), kind = string_of(call->getArg(1));
      if (api_version && kind) {
        KindFacts facts;
        split_api_version(*api_version, facts);
        facts.kind = *kind;
        return facts;
      }
    }
  }
  why = "the GroupVersionKind is computed at run time";
  return std::nullopt;
}

// A KindInfo expression: rr::kind_info_of<T>(), rr::Api<T>::kind(), client.kind_info(gvk), a
// KindInfo written out ({.gvk = {...}, .plural = "..."}), or a variable initialised with one.
std::optional<KindFacts> kind_of_expr(const clang::Expr* e, clang::ASTContext& ctx, std::string& why, int depth) {
  e = unwrap(e);
  if (!e || depth > 8) {
    why = "the KindInfo is computed at run time";
    return std::nullopt;
  }
  if (const auto* c = llvm::dyn_cast<clang::CXXConstructExpr>(e)) {
    if (c->getNumArgs() == 1) return kind_of_expr(c->getArg(0), ctx, why, depth + 1);
  }
  if (const auto* d = llvm::dyn_cast<clang::DeclRefExpr>(e)) {
    const auto* var = llvm::dyn_cast<clang::VarDecl>(d->getDecl());
    if (var && !llvm::isa<clang::ParmVarDecl>(var) && var->getAnyInitializer()) {
      return kind_of_expr(var->getAnyInitializer(), ctx, why, depth + 1);
    }
    why = "the KindInfo '" + d->getDecl()->getNameAsString() + "' is " +
          (var && llvm::isa<clang::ParmVarDecl>(var) ? "a parameter (its caller chooses the kind)" : "not a constant");
    return std::nullopt;
  }
  if (const auto* call = llvm::dyn_cast<clang::CallExpr>(e)) {
    const clang::FunctionDecl* fn = call->getDirectCallee();
    if (name_of(fn) == "kind_info_of") {
      if (const clang::TemplateArgumentList* args = fn->getTemplateSpecializationArgs()) {
        if (args->size() >= 1 && args->get(0).getKind() == clang::TemplateArgument::Type) {
          if (auto facts = traits_of(args->get(0).getAsType(), ctx)) return facts;
        }
      }
    }
    if (const auto* md = fn ? llvm::dyn_cast<clang::CXXMethodDecl>(fn) : nullptr) {
      const auto* spec = llvm::dyn_cast<clang::ClassTemplateSpecializationDecl>(md->getParent());
      if (name_of(md) == "kind" && spec && spec->getSpecializedTemplate()->getQualifiedNameAsString() == "rr::Api") {
        if (auto facts = traits_of(spec->getTemplateArgs()[0].getAsType(), ctx)) return facts;
      }
      if (name_of(md) == "kind_info" && md->getParent()->getQualifiedNameAsString() == "rr::Client" &&
          call->getNumArgs() == 1) {
        return gvk_of_expr(call->getArg(0), why, depth + 1);
      }
    }
    why = "the KindInfo comes from a call of '" + (fn ? fn->getQualifiedNameAsString() : std::string("?")) + "'";
    return std::nullopt;
  }
  if (const auto* ile = llvm::dyn_cast<clang::InitListExpr>(e)) {
    if (ile->isSyntacticForm() && ile->getSemanticForm()) ile = ile->getSemanticForm();
    const clang::RecordDecl* rd = ile->getType()->getAsRecordDecl();
    if (rd && name_of(rd) == "KindInfo") {
      KindFacts facts;
      bool have_gvk = false;
      unsigned i = 0;
      for (const clang::FieldDecl* field : rd->fields()) {
        if (i >= ile->getNumInits()) break;
        const clang::Expr* init = ile->getInit(i++);
        if (name_of(field) == "gvk") {
          if (auto gvk = gvk_of_expr(init, why, depth + 1)) {
            facts.group = gvk->group, facts.version = gvk->version, facts.kind = gvk->kind;
            have_gvk = true;
          }
        } else if (name_of(field) == "plural") {
          if (auto plural = string_of(init); plural && !plural->empty())
            facts.plural = *plural, facts.has_plural = true;
        } else if (name_of(field) == "scope") {
          facts.cluster_scoped = enumerator_of(init) == "Cluster";
        }
      }
      if (have_gvk) return facts;
      return std::nullopt;
    }
  }
  why = "the KindInfo is computed at run time";
  return std::nullopt;
}

// ---- which client a read goes through ------------------------------------------------------------

// A controller's Config::client is its cached client (reads served by informers, which list and
// watch); Config::api_reader is the direct one. Other clients (a parameter, say) are unknown.
enum class Via { Unknown, Cache, Api };

Via via_of_record_member(const clang::NamedDecl* member) {
  const auto* record = member ? llvm::dyn_cast<clang::CXXRecordDecl>(member->getDeclContext()) : nullptr;
  if (!record || record->getQualifiedNameAsString() != "rr::Config") return Via::Unknown;
  const llvm::StringRef name = name_of(member);
  if (name == "client" || name == "api") return Via::Cache;
  if (name == "api_reader" || name == "reader") return Via::Api;
  return Via::Unknown;
}

// The client an expression denotes: ctx.config().api(), config.client, *config.api_reader, a
// reference variable bound to one of these ...
Via client_of(const clang::Expr* e, int depth = 0) {
  e = unwrap(e);
  if (!e || depth > 8) return Via::Unknown;
  if (const auto* u = llvm::dyn_cast<clang::UnaryOperator>(e); u && u->getOpcode() == clang::UO_Deref) {
    return client_of(u->getSubExpr(), depth + 1);
  }
  if (const auto* op = llvm::dyn_cast<clang::CXXOperatorCallExpr>(e)) {  // shared_ptr's * and ->
    if (op->getNumArgs() >= 1) return client_of(op->getArg(0), depth + 1);
  }
  if (const auto* call = llvm::dyn_cast<clang::CXXMemberCallExpr>(e)) {
    const clang::CXXMethodDecl* method = call->getMethodDecl();
    if (name_of(method) == "get" && call->getNumArgs() == 0) {  // config.client.get()
      return client_of(call->getImplicitObjectArgument(), depth + 1);
    }
    return via_of_record_member(method);
  }
  if (const auto* member = llvm::dyn_cast<clang::MemberExpr>(e)) return via_of_record_member(member->getMemberDecl());
  if (const auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(e)) {
    const auto* var = llvm::dyn_cast<clang::VarDecl>(ref->getDecl());
    if (var && !llvm::isa<clang::ParmVarDecl>(var) && var->getAnyInitializer()) {
      return client_of(var->getAnyInitializer(), depth + 1);
    }
  }
  return Via::Unknown;
}

// The client an rr::Api<T> object was made over: its constructor's first argument.
Via api_client_of(const clang::Expr* api, int depth = 0) {
  api = unwrap(api);
  if (!api || depth > 8) return Via::Unknown;
  if (const auto* ctor = llvm::dyn_cast<clang::CXXConstructExpr>(api)) {
    if (ctor->getNumArgs() == 0) return Via::Unknown;
    // A copy or move of another Api: follow it; else the client argument.
    const clang::Expr* first = ctor->getArg(0);
    if (first->getType()->getAsCXXRecordDecl() == ctor->getType()->getAsCXXRecordDecl()) {
      return api_client_of(first, depth + 1);
    }
    return client_of(first, depth + 1);
  }
  if (const auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(api)) {
    const auto* var = llvm::dyn_cast<clang::VarDecl>(ref->getDecl());
    if (var && !llvm::isa<clang::ParmVarDecl>(var) && var->getAnyInitializer()) {
      return api_client_of(var->getAnyInitializer(), depth + 1);
    }
  }
  return Via::Unknown;
}

// ---- the matcher ---------------------------------------------------------------------------------

struct Collected {
  std::vector<ApiCall> calls;
  std::set<std::string> read_files;
  std::set<std::string> user_files;  // display paths
};

class UserFiles {
 public:
  explicit UserFiles(const std::vector<std::string>& files) {
    for (const std::string& f : files) {
      std::filesystem::path p = std::filesystem::weakly_canonical(std::filesystem::absolute(f));
      files_.insert(p.string());
      dirs_.insert(p.parent_path().string());
    }
  }
  bool contains(const std::string& canonical) const {
    return files_.count(canonical) || dirs_.count(std::filesystem::path(canonical).parent_path().string());
  }

 private:
  std::set<std::string> files_, dirs_;
};

std::string type_name(clang::QualType t, const clang::ASTContext& ctx) {
  clang::PrintingPolicy policy(ctx.getLangOpts());
  policy.SuppressTagKeyword = true;
  policy.FullyQualifiedName = true;
  return t.getCanonicalType().getAsString(policy);
}

// The verbs of a read (get, list) by the client it goes through: the informer's list and watch
// for the cached client, the read itself for the direct one, either for a client not known.
void read_verbs(const clang::CallExpr* call, bool through_api, ApiCall& out) {
  const auto* member = llvm::dyn_cast<clang::CXXMemberCallExpr>(call);
  const clang::Expr* object = member ? member->getImplicitObjectArgument() : nullptr;
  const Via via = !object ? Via::Unknown : through_api ? api_client_of(object) : client_of(object);
  if (via == Via::Cache) {
    out.verbs = {"list", "watch"};
  } else if (via == Via::Unknown && out.verbs == std::vector<std::string>{"get"}) {
    out.or_verbs = {"list", "watch"};  // (a list: its own verb is granted whenever list and watch are)
  }
}

class CallCollector : public am::MatchFinder::MatchCallback {
 public:
  CallCollector(const UserFiles& user, Collected& out) : user_(user), out_(out) {}

  void run(const am::MatchFinder::MatchResult& result) override {
    const auto* call = result.Nodes.getNodeAs<clang::CallExpr>("call");
    const auto* fn = result.Nodes.getNodeAs<clang::FunctionDecl>("fn");
    if (!call || !fn) return;
    clang::SourceManager& sm = *result.SourceManager;
    const clang::SourceLocation at = sm.getExpansionLoc(call->getExprLoc());
    const clang::FileEntry* entry = sm.getFileEntryForID(sm.getFileID(at));
    if (!entry) return;
    const std::string file = canonical_path(entry->tryGetRealPathName().empty() ? entry->getName()
                                                                                : entry->tryGetRealPathName());
    if (!user_.contains(file)) return;

    std::string scope;
    const clang::ClassTemplateSpecializationDecl* class_spec = nullptr;
    if (const auto* md = llvm::dyn_cast<clang::CXXMethodDecl>(fn)) {
      class_spec = llvm::dyn_cast<clang::ClassTemplateSpecializationDecl>(md->getParent());
      scope = class_spec ? class_spec->getSpecializedTemplate()->getQualifiedNameAsString()
                         : md->getParent()->getQualifiedNameAsString();
    } else if (const auto* ns = llvm::dyn_cast<clang::NamespaceDecl>(fn->getDeclContext())) {
      scope = ns->getQualifiedNameAsString();
    }
    const std::vector<const CallForm*> forms = call_forms(scope, name_of(fn));
    if (forms.empty()) return;
    const CallForm& form = *forms.front();
    const clang::TemplateArgumentList* targs = fn->getTemplateSpecializationArgs();
    const bool typed = targs && targs->size() >= 1 && targs->get(0).getKind() == clang::TemplateArgument::Type;

    ApiCall out;
    const clang::PresumedLoc ploc = sm.getPresumedLoc(at);
    out.location = Location{intern_file_name(display_path(file)), ploc.getLine(), ploc.getColumn()};
    for (std::string_view v : form.verbs) out.verbs.emplace_back(v);
    out.callee = scope + "::" + fn->getNameAsString();
    if (form.cached_read) read_verbs(call, class_spec != nullptr, out);

    std::optional<KindFacts> facts;
    std::string why;
    clang::ASTContext& ctx = *result.Context;
    if (form.kind_from == KindFrom::CoreEvents) {
      facts = KindFacts{"events.k8s.io", "v1", "Event", "events", false, true};
      out.event_recorder = true;
    } else if (form.kind_from == KindFrom::ClassTemplateArg && class_spec) {
      const clang::QualType t = class_spec->getTemplateArgs()[0].getAsType();
      out.callee = scope + "<" + type_name(t, ctx) + ">::" + fn->getNameAsString();
      facts = traits_of(t, ctx);
      if (!facts) why = "'" + type_name(t, ctx) + "' has no rr::ResourceTraits";
    } else if (typed) {
      const clang::QualType t = targs->get(0).getAsType();
      out.callee += "<" + type_name(t, ctx) + ">";
      facts = traits_of(t, ctx);
      if (!facts) why = "'" + type_name(t, ctx) + "' has no rr::ResourceTraits";
    } else if (form.kind_from == KindFrom::KindInfoArg && form.kind_arg >= 0 &&
               static_cast<unsigned>(form.kind_arg) < call->getNumArgs()) {
      facts = kind_of_expr(call->getArg(static_cast<unsigned>(form.kind_arg)), ctx, why);
    } else {
      why = "the object is JSON: its kind is known at run time";
    }

    std::string subresource(form.subresource);
    const int sub_arg = typed || class_spec ? form.subresource_arg : form.untyped_subresource_arg;
    if (sub_arg >= 0 && static_cast<unsigned>(sub_arg) < call->getNumArgs()) {
      if (std::optional<std::string> given = string_of(call->getArg(static_cast<unsigned>(sub_arg)))) {
        subresource = *given;
      } else if (facts) {
        // The resource is known, its subresource is not: the call may address either.
        facts.reset();
        why = "the subresource is chosen at run time";
      }
    }
    if (facts) {
      out.group = facts->group;
      out.version = facts->version;
      out.kind = facts->kind;
      out.cluster_scoped = facts->cluster_scoped;
      out.subresource = subresource;
      // Without a plural (a GroupVersionKind only) resolve_plurals() looks the kind up.
      out.resolved = facts->has_plural;
      if (facts->has_plural) out.resource = facts->plural + (subresource.empty() ? "" : "/" + subresource);
      if (!facts->has_plural) out.unresolved_reason = "the plural of " + facts->kind + " is not known";
    } else {
      out.unresolved_reason = why;
    }
    out_.calls.push_back(std::move(out));
  }

 private:
  const UserFiles& user_;
  Collected& out_;
};

class Consumer : public clang::ASTConsumer {
 public:
  Consumer(const UserFiles& user, Collected& out) : user_(user), out_(out) {}

  void Initialize(clang::ASTContext& ctx) override { sm_ = &ctx.getSourceManager(); }

  // With SkipFunctionBodies on (ConsumerFactory), Clang asks before parsing each body: only the
  // user's files' bodies can hold the calls we look for, so the runtime's, the standard library's
  // and the generated headers' bodies are skipped (Clang itself keeps constexpr bodies and those
  // of functions whose return type is deduced). The analysis parses in about half the time.
  bool shouldSkipFunctionBody(clang::Decl* d) override {
    if (!sm_) return false;
    const clang::FileID id = sm_->getFileID(sm_->getExpansionLoc(d->getLocation()));
    const auto [it, inserted] = skip_.try_emplace(id.getHashValue(), false);
    if (inserted) {
      const clang::FileEntry* entry = sm_->getFileEntryForID(id);
      const llvm::StringRef real = entry ? entry->tryGetRealPathName() : llvm::StringRef();
      it->second = entry && !user_.contains(canonical_path(real.empty() ? entry->getName() : real));
    }
    return it->second;
  }

  void HandleTranslationUnit(clang::ASTContext& ctx) override {
    std::vector<llvm::StringRef> names;
    for (const CallForm& form : all_call_forms()) names.emplace_back(form.name.data(), form.name.size());
    std::sort(names.begin(), names.end());
    names.erase(std::unique(names.begin(), names.end()), names.end());
    CallCollector collector(user_, out_);
    am::MatchFinder finder;
    finder.addMatcher(am::callExpr(am::callee(am::functionDecl(am::hasAnyName(names)).bind("fn"))).bind("call"),
                      &collector);
    finder.matchAST(ctx);
    const clang::SourceManager& sm = ctx.getSourceManager();
    for (auto it = sm.fileinfo_begin(); it != sm.fileinfo_end(); ++it) {
      const clang::FileEntry* entry = it->first;
      const llvm::StringRef real = entry->tryGetRealPathName();
      const std::string path = canonical_path(real.empty() ? entry->getName() : real);
      out_.read_files.insert(path);
      if (user_.contains(path)) out_.user_files.insert(display_path(path));
    }
  }

 private:
  const UserFiles& user_;
  Collected& out_;
  const clang::SourceManager* sm_ = nullptr;
  std::map<unsigned, bool> skip_;  // FileID -> skip its function bodies
};

// What clang::tooling::newFrontendActionFactory() needs: one Consumer per translation unit, and
// (as its SourceFileCallbacks) the parser told to ask the Consumer which bodies to skip.
struct ConsumerFactory : clang::tooling::SourceFileCallbacks {
  ConsumerFactory(const UserFiles& user_files, Collected& collected) : user(user_files), out(collected) {}
  const UserFiles& user;
  Collected& out;
  std::unique_ptr<clang::ASTConsumer> newASTConsumer() { return std::make_unique<Consumer>(user, out); }
  bool handleBeginSource(clang::CompilerInstance& ci) override {
    ci.getFrontendOpts().SkipFunctionBodies = true;
    return true;
  }
};

}  // namespace

FoundCalls find_api_calls(const CallFinderInput& input, Diagnostics& diags) {
  FoundCalls found;
  if (input.files.empty()) return found;
  std::string error;
  std::unique_ptr<clang::tooling::CompilationDatabase> db;
  if (!input.build_dir.empty()) {
    db = clang::tooling::CompilationDatabase::loadFromDirectory(input.build_dir, error);
  } else {
    db = clang::tooling::CompilationDatabase::autoDetectFromSource(input.files.front(), error);
  }
  if (!db) {
    diags.error({}, "analyze-no-compile-command",
                "no compile_commands.json" +
                    (input.build_dir.empty() ? std::string() : " in '" + input.build_dir + "'") + ": " + error +
                    " (configure with CMAKE_EXPORT_COMPILE_COMMANDS=ON, as the presets do)");
    return found;
  }
  db = clang::tooling::inferMissingCompileCommands(std::move(db));

  std::vector<std::string> sources;
  for (const std::string& f : input.files) {
    const std::string abs = std::filesystem::absolute(f).lexically_normal().string();
    if (db->getCompileCommands(abs).empty()) {
      diags.error(Location{intern_file_name(f), 0, 0}, "analyze-no-compile-command",
                  "no compile command for this file in the compilation database");
      continue;
    }
    sources.push_back(abs);
  }
  if (sources.empty()) return found;

  remember_start_directory();
  const UserFiles user(input.files);
  Collected collected;
  clang::tooling::ClangTool tool(*db, sources);
  tool.appendArgumentsAdjuster(clang::tooling::getClangStripOutputAdjuster());
  tool.appendArgumentsAdjuster(clang::tooling::getClangSyntaxOnlyAdjuster());
  tool.appendArgumentsAdjuster(gxx_to_clang(input.resource_dir));
  ClangDiagnosticsBridge bridge(diags, "analyze-parse-error");
  tool.setDiagnosticConsumer(&bridge);
  tool.setPrintErrorMessage(false);
  ConsumerFactory consumers(user, collected);
  tool.run(clang::tooling::newFrontendActionFactory(&consumers, &consumers).get());

  // One entry per call site and kind (a template instantiated twice with one kind is one call).
  auto key = [](const ApiCall& c) {
    return std::make_tuple(*c.location.file, c.location.line, c.location.column, c.group, c.kind, c.resource, c.callee);
  };
  std::sort(collected.calls.begin(), collected.calls.end(),
            [&](const ApiCall& a, const ApiCall& b) { return key(a) < key(b); });
  collected.calls.erase(std::unique(collected.calls.begin(), collected.calls.end(),
                                    [&](const ApiCall& a, const ApiCall& b) { return key(a) == key(b); }),
                        collected.calls.end());
  found.calls = std::move(collected.calls);
  found.read_files.assign(collected.read_files.begin(), collected.read_files.end());
  found.user_files.assign(collected.user_files.begin(), collected.user_files.end());
  return found;
}

}  // namespace rrgen
