// The C++ declarations `rrgen crd` reads, as the Clang reader (type_reader.cpp) found them and
// without Clang's types: the schema builder (crd_build.hpp) and its tests work on this alone.
#pragma once
#include <map>
#include <string>
#include <vector>

#include "support/diagnostics.hpp"

namespace rrgen {

// One `//` comment line directly above a declaration: its text after the slashes (and one
// space), and where that text starts.
struct CommentLine {
  Location at;
  std::string text;
};

enum class CxxKind {
  Bool,
  Int32,                 // a signed integer of up to 32 bits, or an unsigned one of up to 16
  Int64,                 // a signed 64-bit integer, or an unsigned 32-bit one
  Double,                // float or double
  String,                // std::string
  Time,                  // rr::Time
  Bytes,                 // rr::Bytes
  Quantity,              // rr::Quantity
  IntOrString,           // rr::IntOrString
  Json,                  // rr::Json (nlohmann::json)
  ObjectMeta,            // rr::ObjectMeta
  Condition,             // rr::Condition
  LabelSelector,         // rr::LabelSelector
  ObjectReference,       // rr::ObjectReference
  LocalObjectReference,  // rr::LocalObjectReference
  Optional,              // std::optional<T>, rr::Optional<T>: args[0]
  Nullable,              // rr::Nullable<T>: args[0]
  Vector,                // std::vector<T>: args[0]
  Map,                   // std::map<std::string, T>: args[0]
  Record,                // a struct of the inputs: `record` names it
  Enum,                  // an enum (class): `record` names it; as rr::OpenEnum<E> too
  Skipped,               // rr::UnknownFields, rr::MissingMembers<N>: a generated type's bookkeeping
  Unsupported,           // `why` says what it is and what to write instead
};

struct CxxType {
  CxxKind kind = CxxKind::Unsupported;
  std::vector<CxxType> args;
  std::string record;    // Record, Enum: the qualified name, a key of CxxModel::records
  std::string spelling;  // as written, for messages
  std::string why;       // Unsupported
};

struct CxxField {
  std::string name;
  Location at;
  CxxType type;
  std::vector<CommentLine> comment;
};

struct CxxRecord {
  std::string name;       // "WebAppSpec"
  std::string qualified;  // "web::v1::WebAppSpec"
  std::string version;    // the innermost namespace that reads as a Kubernetes version ("v1"), else ""
  Location at;
  std::vector<CommentLine> comment;
  bool is_enum = false;
  bool in_inputs = false;                // declared in one of the headers given (roots are found only there)
  std::vector<CxxField> fields;          // a struct's data members, bases' first
  std::vector<std::string> enumerators;  // an enum's, in order
};

struct CxxModel {
  std::map<std::string, CxxRecord> records;  // by qualified name
  std::vector<std::string> order;            // qualified names in declaration order
};

}  // namespace rrgen
