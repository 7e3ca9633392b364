#include "crd/type_reader.hpp"

#include <clang/AST/ASTConsumer.h>
#include <clang/AST/ASTContext.h>
#include <clang/AST/DeclCXX.h>
#include <clang/AST/DeclTemplate.h>
#include <clang/AST/Type.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Tooling/CompilationDatabase.h>
#include <clang/Tooling/Tooling.h>

#include <cctype>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <set>

#include "analyze/clang_setup.hpp"

namespace rrgen {
namespace {

// The name of the one source parsed: it includes every header given.
constexpr const char* kMainFile = "rrgen-crd-input.cpp";

bool is_version_name(llvm::StringRef v) {
  if (v.size() < 2 || v[0] != 'v' || v[1] < '1' || v[1] > '9') return false;
  std::size_t i = 1;
  while (i < v.size() && std::isdigit(static_cast<unsigned char>(v[i]))) ++i;
  if (i == v.size()) return true;
  llvm::StringRef rest = v.substr(i);
  if (rest.consume_front("alpha") || rest.consume_front("beta")) {
    return !rest.empty() && rest[0] >= '1' && rest[0] <= '9' &&
           rest.find_if([](char c) { return !std::isdigit(static_cast<unsigned char>(c)); }) == llvm::StringRef::npos;
  }
  return false;
}

// The namespace a declaration is directly in, inline namespaces looked through: "rr", "std", ...
// "" at the top.
llvm::StringRef namespace_of(const clang::Decl* d) {
  const clang::DeclContext* dc = d->getDeclContext();
  while (dc) {
    if (const auto* ns = llvm::dyn_cast<clang::NamespaceDecl>(dc)) {
      if (!ns->isInline()) return ns->getName();
    } else if (!llvm::isa<clang::LinkageSpecDecl>(dc)) {
      return {};
    }
    dc = dc->getParent();
  }
  return {};
}

bool in_namespace_named(const clang::Decl* d, llvm::StringRef name) {
  for (const clang::DeclContext* dc = d->getDeclContext(); dc; dc = dc->getParent()) {
    if (const auto* ns = llvm::dyn_cast<clang::NamespaceDecl>(dc); ns && ns->getName() == name) return true;
  }
  return false;
}

CxxType unsupported(std::string spelling, std::string why) {
  CxxType t;
  t.kind = CxxKind::Unsupported;
  t.spelling = std::move(spelling);
  t.why = "'" + t.spelling + "': " + why;
  return t;
}

class Reader {
 public:
  Reader(clang::ASTContext& ctx, const std::set<std::string>& inputs, CxxModel& model)
      : ctx_(ctx), sm_(ctx.getSourceManager()), inputs_(inputs), model_(model) {
    policy_ = std::make_unique<clang::PrintingPolicy>(ctx.getLangOpts());
    policy_->SuppressTagKeyword = true;
  }

  void visit(const clang::DeclContext* dc) {
    for (const clang::Decl* d : dc->decls()) {
      if (const auto* ns = llvm::dyn_cast<clang::NamespaceDecl>(d)) {
        visit(ns);
      } else if (const auto* ls = llvm::dyn_cast<clang::LinkageSpecDecl>(d)) {
        visit(ls);
      } else if (const auto* rd = llvm::dyn_cast<clang::CXXRecordDecl>(d)) {
        if (!in_inputs(rd) || !rd->isCompleteDefinition() || rd->isUnion() || rd->getDescribedClassTemplate() ||
            llvm::isa<clang::ClassTemplateSpecializationDecl>(rd) || !rd->getIdentifier() || rd->isDependentContext())
          continue;
        record(rd);
        visit(rd);  // nested structs
      }
    }
  }

 private:
  std::string file_of(clang::SourceLocation loc) const {
    const clang::FileID id = sm_.getFileID(sm_.getExpansionLoc(loc));
    const clang::FileEntry* entry = sm_.getFileEntryForID(id);
    if (!entry) return {};
    const llvm::StringRef real = entry->tryGetRealPathName();
    return canonical_path(real.empty() ? entry->getName() : real);
  }

  bool in_inputs(const clang::Decl* d) const { return inputs_.count(file_of(d->getLocation())) != 0; }

  Location location_of(clang::SourceLocation loc) const {
    const clang::PresumedLoc p = sm_.getPresumedLoc(sm_.getExpansionLoc(loc));
    if (p.isInvalid()) return {};
    return Location{intern_file_name(display_path(canonical_path(p.getFilename()))), p.getLine(), p.getColumn()};
  }

  // The `//` comment lines directly above a declaration, top to bottom.
  std::vector<CommentLine> comment_of(const clang::Decl* d) {
    std::vector<CommentLine> lines;
    const clang::SourceLocation begin = sm_.getExpansionLoc(d->getBeginLoc());
    const clang::FileID id = sm_.getFileID(begin);
    bool invalid = false;
    const llvm::StringRef buffer = sm_.getBufferData(id, &invalid);
    if (invalid) return lines;
    std::vector<std::size_t>& starts = line_starts_[id.getHashValue()];
    if (starts.empty()) {
      starts.push_back(0);
      for (std::size_t i = 0; i < buffer.size(); ++i) {
        if (buffer[i] == '\n') starts.push_back(i + 1);
      }
    }
    const unsigned line = sm_.getExpansionLineNumber(begin);
    const Location decl_at = location_of(begin);
    for (unsigned l = line - 1; l >= 1 && l <= starts.size(); --l) {
      const std::size_t from = starts[l - 1];
      const std::size_t to = l < starts.size() ? starts[l] - 1 : buffer.size();
      const llvm::StringRef text = buffer.substr(from, to - from);
      const llvm::StringRef trimmed = text.ltrim(" \t");
      if (!trimmed.startswith("//")) break;
      std::size_t column = text.size() - trimmed.size() + 2;
      llvm::StringRef body = trimmed.substr(2);
      if (body.startswith("/")) {
        body = body.substr(1);
        ++column;
      }
      if (body.startswith(" ")) {
        body = body.substr(1);
        ++column;
      }
      lines.push_back(
          CommentLine{Location{decl_at.file, l, static_cast<std::uint32_t>(column + 1)}, body.rtrim("\r").str()});
    }
    return {lines.rbegin(), lines.rend()};
  }

  std::string version_of(const clang::Decl* d) const {
    for (const clang::DeclContext* dc = d->getDeclContext(); dc; dc = dc->getParent()) {
      if (const auto* ns = llvm::dyn_cast<clang::NamespaceDecl>(dc); ns && is_version_name(ns->getName()))
        return ns->getName().str();
    }
    return {};
  }

  // Registers a struct (once) and returns its qualified name.
  std::string record(const clang::CXXRecordDecl* rd) {
    const std::string q = rd->getQualifiedNameAsString();
    if (model_.records.count(q)) return q;
    CxxRecord& r = model_.records[q];
    r.name = rd->getNameAsString();
    r.qualified = q;
    r.version = version_of(rd);
    r.at = location_of(rd->getLocation());
    r.comment = comment_of(rd);
    r.in_inputs = in_inputs(rd);
    model_.order.push_back(q);
    std::vector<CxxField> fields;
    add_fields(rd, fields, 0);
    r.fields = std::move(fields);  // (std::map's elements stay where they are as it grows)
    return q;
  }

  void add_fields(const clang::CXXRecordDecl* rd, std::vector<CxxField>& fields, int depth) {
    if (depth > 16) return;
    for (const clang::CXXBaseSpecifier& base : rd->bases()) {
      const clang::CXXRecordDecl* b = base.getType()->getAsCXXRecordDecl();
      if (b && b->hasDefinition()) {
        add_fields(b->getDefinition(), fields, depth + 1);
      } else {
        CxxField f;
        f.name = "(base)";
        f.at = location_of(base.getBeginLoc());
        f.type = unsupported(base.getType().getAsString(*policy_), "a base class rrgen crd cannot see");
        fields.push_back(std::move(f));
      }
    }
    for (const clang::FieldDecl* fd : rd->fields()) {
      CxxField f;
      f.name = fd->getNameAsString();
      f.at = location_of(fd->getLocation());
      f.comment = comment_of(fd);
      if (fd->isBitField()) {
        f.type = unsupported(f.name, "a bit-field has no JSON form; use an integer or bool member");
      } else if (f.name.empty()) {
        f.type = unsupported(fd->getType().getAsString(*policy_), "an anonymous member has no JSON name");
        f.name = "(anonymous)";
      } else {
        f.type = type_of(fd->getType(), 0);
      }
      fields.push_back(std::move(f));
    }
  }

  CxxType simple(CxxKind kind, const std::string& spelling) {
    CxxType t;
    t.kind = kind;
    t.spelling = spelling;
    return t;
  }

  CxxType type_of(clang::QualType qt, int depth) {
    const std::string spelling = qt.getAsString(*policy_);
    if (depth > 32) return unsupported(spelling, "nested too deeply");
    if (qt->isReferenceType()) return unsupported(spelling, "a reference member has no JSON form; hold the value");
    if (qt->isPointerType() || qt->isMemberPointerType() || qt->isNullPtrType()) {
      return unsupported(spelling,
                         "a pointer has no JSON form; hold the value, or rr::Optional<T> for one that may be absent");
    }
    if (qt->isArrayType())
      return unsupported(spelling, "a C array; use std::vector<T> (or std::array is not read either)");
    const clang::QualType canon = qt.getCanonicalType().getUnqualifiedType();
    if (const auto* bt = llvm::dyn_cast<clang::BuiltinType>(canon)) {
      switch (bt->getKind()) {
        case clang::BuiltinType::Bool: return simple(CxxKind::Bool, spelling);
        case clang::BuiltinType::Float:
        case clang::BuiltinType::Double: return simple(CxxKind::Double, spelling);
        case clang::BuiltinType::Char_S:
        case clang::BuiltinType::Char_U:
        case clang::BuiltinType::WChar_S:
        case clang::BuiltinType::WChar_U:
        case clang::BuiltinType::Char8:
        case clang::BuiltinType::Char16:
        case clang::BuiltinType::Char32:
          return unsupported(spelling, "a character type; use std::string, or std::int32_t for a number");
        default: break;
      }
      if (bt->isInteger()) {
        const std::uint64_t bits = ctx_.getTypeSize(canon);
        if (bt->isSignedInteger()) {
          if (bits <= 32) return simple(CxxKind::Int32, spelling);
          if (bits == 64) return simple(CxxKind::Int64, spelling);
        } else {
          if (bits <= 16) return simple(CxxKind::Int32, spelling);
          if (bits == 32) return simple(CxxKind::Int64, spelling);
          if (bits == 64)
            return unsupported(spelling, "an unsigned 64-bit integer has no CRD form (int64 holds half its range); use "
                                         "std::int64_t");
        }
      }
      return unsupported(spelling, "this arithmetic type has no CRD form (bool, std::int32_t, std::int64_t, double)");
    }
    if (const auto* et = llvm::dyn_cast<clang::EnumType>(canon)) return enum_type(et->getDecl(), spelling);
    const clang::CXXRecordDecl* rd = canon->getAsCXXRecordDecl();
    if (!rd) return unsupported(spelling, "has no CRD form");
    if (rd->isUnion()) {
      return unsupported(spelling,
                         "a union: a CRD member has one type; use a struct with one optional member per case");
    }
    const llvm::StringRef name = rd->getName();
    const auto* spec = llvm::dyn_cast<clang::ClassTemplateSpecializationDecl>(rd);
    auto arg = [&](unsigned i) -> std::optional<clang::QualType> {
      if (!spec || spec->getTemplateArgs().size() <= i) return std::nullopt;
      const clang::TemplateArgument& a = spec->getTemplateArgs()[i];
      if (a.getKind() != clang::TemplateArgument::Type) return std::nullopt;
      return a.getAsType();
    };
    auto wrap = [&](CxxKind kind, unsigned index) {
      CxxType t = simple(kind, spelling);
      std::optional<clang::QualType> a = arg(index);
      t.args.push_back(a ? type_of(*a, depth + 1) : unsupported(spelling, "an argument rrgen crd cannot read"));
      if (t.args.front().kind == CxxKind::Unsupported) return t.args.front();
      return t;
    };
    if (rd->isInStdNamespace()) {
      if (name == "basic_string") {
        std::optional<clang::QualType> c = arg(0);
        if (c && (*c)->isSpecificBuiltinType(clang::BuiltinType::Char_S)) return simple(CxxKind::String, spelling);
        if (c && (*c)->isSpecificBuiltinType(clang::BuiltinType::Char_U)) return simple(CxxKind::String, spelling);
        return unsupported(spelling, "only std::string is a JSON string");
      }
      if (name == "optional") return wrap(CxxKind::Optional, 0);
      if (name == "vector") return wrap(CxxKind::Vector, 0);
      if (name == "map" || name == "unordered_map") {
        std::optional<clang::QualType> key = arg(0);
        if (!key || type_of(*key, depth + 1).kind != CxxKind::String)
          return unsupported(spelling, "a JSON object's keys are strings: use std::map<std::string, T>");
        return wrap(CxxKind::Map, 1);
      }
      if (name == "variant") {
        return unsupported(spelling,
                           "std::variant: a CRD member has one type (structural schemas); use a struct with one "
                           "optional member per alternative");
      }
      return unsupported(spelling, "this standard library type has no CRD form");
    }
    if (in_namespace_named(rd, "nlohmann") && name == "basic_json") return simple(CxxKind::Json, spelling);
    if (namespace_of(rd) == "rr") {
      static const std::map<std::string, CxxKind, std::less<>> kinds = {
          {"Time", CxxKind::Time},
          {"Bytes", CxxKind::Bytes},
          {"Quantity", CxxKind::Quantity},
          {"IntOrString", CxxKind::IntOrString},
          {"ObjectMeta", CxxKind::ObjectMeta},
          {"Condition", CxxKind::Condition},
          {"LabelSelector", CxxKind::LabelSelector},
          {"ObjectReference", CxxKind::ObjectReference},
          {"LocalObjectReference", CxxKind::LocalObjectReference},
          {"UnknownFields", CxxKind::Skipped},
          {"MissingMembers", CxxKind::Skipped},
      };
      if (auto it = kinds.find(name); it != kinds.end()) return simple(it->second, spelling);
      if (name == "Optional") return wrap(CxxKind::Optional, 0);
      if (name == "Nullable") return wrap(CxxKind::Nullable, 0);
      if (name == "OpenEnum") {
        std::optional<clang::QualType> e = arg(0);
        if (e) {
          if (const auto* et = llvm::dyn_cast<clang::EnumType>((*e).getCanonicalType())) {
            return enum_type(et->getDecl(), spelling);
          }
        }
        return unsupported(spelling, "rr::OpenEnum of something that is not an enum");
      }
      if (name == "Box") {
        return unsupported(spelling,
                           "rr::Box is a type that contains itself; a CRD schema cannot refer back to a type");
      }
      return unsupported(spelling, "this runtime type has no CRD form");
    }
    if (spec) return unsupported(spelling, "a class template's specialisation; rrgen crd reads plain structs");
    if (!rd->hasDefinition()) {
      return unsupported(spelling,
                         "declared but not defined in what rrgen crd parsed: include the header that defines it");
    }
    CxxType t = simple(CxxKind::Record, spelling);
    t.record = record(rd->getDefinition());
    return t;
  }

  CxxType enum_type(const clang::EnumDecl* ed, const std::string& spelling) {
    if (const clang::EnumDecl* def = ed->getDefinition()) ed = def;
    const std::string q = ed->getQualifiedNameAsString();
    if (!model_.records.count(q)) {
      CxxRecord& r = model_.records[q];
      r.name = ed->getNameAsString();
      r.qualified = q;
      r.is_enum = true;
      r.version = version_of(ed);
      r.at = location_of(ed->getLocation());
      r.comment = comment_of(ed);
      r.in_inputs = in_inputs(ed);
      for (const clang::EnumConstantDecl* c : ed->enumerators()) r.enumerators.push_back(c->getNameAsString());
      model_.order.push_back(q);
    }
    CxxType t = simple(CxxKind::Enum, spelling);
    t.record = q;
    return t;
  }

  clang::ASTContext& ctx_;
  const clang::SourceManager& sm_;
  const std::set<std::string>& inputs_;
  CxxModel& model_;
  std::unique_ptr<clang::PrintingPolicy> policy_;
  std::map<unsigned, std::vector<std::size_t>> line_starts_;
};

struct Collected {
  CxxModel model;
  std::set<std::string> read_files;
};

class Consumer : public clang::ASTConsumer {
 public:
  Consumer(const std::set<std::string>& inputs, Collected& out) : inputs_(inputs), out_(out) {}
  void HandleTranslationUnit(clang::ASTContext& ctx) override {
    Reader reader(ctx, inputs_, out_.model);
    reader.visit(ctx.getTranslationUnitDecl());
    const clang::SourceManager& sm = ctx.getSourceManager();
    for (auto it = sm.fileinfo_begin(); it != sm.fileinfo_end(); ++it) {
      const llvm::StringRef real = it->first->tryGetRealPathName();
      const std::string path = canonical_path(real.empty() ? it->first->getName() : real);
      if (std::filesystem::path(path).filename() != kMainFile) out_.read_files.insert(path);
    }
  }

 private:
  const std::set<std::string>& inputs_;
  Collected& out_;
};

// One Consumer per translation unit; function bodies are skipped (members are all it reads).
struct ConsumerFactory : clang::tooling::SourceFileCallbacks {
  ConsumerFactory(const std::set<std::string>& in, Collected& collected) : inputs(in), out(collected) {}
  const std::set<std::string>& inputs;
  Collected& out;
  std::unique_ptr<clang::ASTConsumer> newASTConsumer() { return std::make_unique<Consumer>(inputs, out); }
  bool handleBeginSource(clang::CompilerInstance& ci) override {
    ci.getFrontendOpts().SkipFunctionBodies = true;
    return true;
  }
};

}  // namespace

CxxModel read_cxx_types(const TypeReaderInput& input, Diagnostics& diags, std::vector<std::string>* read_files) {
  Collected collected;
  if (input.headers.empty()) return std::move(collected.model);
  remember_start_directory();
  std::set<std::string> inputs;
  std::string main_text;
  for (const std::string& h : input.headers) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(h, ec)) {
      diags.error(Location{intern_file_name(h), 0, 0}, "crd-no-input", "no such file");
      continue;
    }
    const std::string abs = canonical_path(std::filesystem::absolute(h).lexically_normal().string());
    inputs.insert(abs);
    main_text += "#include \"" + abs + "\"\n";
  }
  if (inputs.empty()) return std::move(collected.model);

  std::vector<std::string> args{"-x", "c++"};
  bool has_std = false;
  for (const std::string& a : input.compile_args) has_std = has_std || a.rfind("-std=", 0) == 0;
  if (!has_std) args.push_back("-std=c++20");
  args.insert(args.end(), input.compile_args.begin(), input.compile_args.end());
  std::error_code ec;
  const std::filesystem::path cwd = std::filesystem::current_path(ec);
  const std::string main_path = (cwd / kMainFile).string();
  clang::tooling::FixedCompilationDatabase db(cwd.string(), args);
  clang::tooling::ClangTool tool(db, {main_path});
  tool.mapVirtualFile(main_path, main_text);
  tool.appendArgumentsAdjuster(clang::tooling::getClangSyntaxOnlyAdjuster());
  tool.appendArgumentsAdjuster(gxx_to_clang(input.resource_dir));
  ClangDiagnosticsBridge bridge(diags, "crd-parse-error");
  tool.setDiagnosticConsumer(&bridge);
  tool.setPrintErrorMessage(false);
  ConsumerFactory consumers(inputs, collected);
  tool.run(clang::tooling::newFrontendActionFactory(&consumers, &consumers).get());
  if (read_files) read_files->assign(collected.read_files.begin(), collected.read_files.end());
  return std::move(collected.model);
}

}  // namespace rrgen
