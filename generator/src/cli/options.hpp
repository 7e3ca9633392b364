// The command line of every subcommand, as one Options: a flag means the same in each (--out,
// --depfile, --namespace, --quiet ...), and its value lands in the same member. A subcommand
// names the flags it accepts; anything else (an unknown option, a flag without its value) is a
// usage error worded the same way everywhere.
#pragma once
#include <functional>
#include <initializer_list>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

namespace rrgen {

struct Options {
  std::string out_dir = ".";  // --out (analyze: the file to write)
  bool out_given = false;
  std::string depfile;          // --depfile
  std::string cpp_namespace;    // --namespace
  bool quiet = false;           // --quiet
  std::string spec;             // generate: --spec
  std::string scaffold_dir;     // generate: --scaffold
  std::string stem;             // generate: --stem
  std::string dump_model;       // types: --dump-model
  std::string aggregate;        // types: --aggregate
  std::string shards;           // types: --shards
  std::string source_part_lines;  // types: --source-part-lines
  std::string codec_only;       // types: --codec-only
  std::string apply_configurations;  // types: --apply-configurations
  std::string proto_root;       // openapi-facts: --proto-root
  bool builtin = false;         // dies: --builtin
  std::string types_namespace;  // dies: --types-namespace
  std::string include_prefix;   // dies: --include-prefix
  std::string dir;              // init: --dir
  std::string group, version, kind;     // init, create api: --group, --version, --kind
  bool resource = false;                // create api: --resource
  bool controller = false;              // create api: --controller
  std::string build_dir;                // analyze: -p
  std::string format;                   // analyze: --format
  bool explain = false;                 // analyze: --explain
  std::string executable;               // image: --executable
  std::string image;                    // image: --image
  std::vector<std::string> ports;       // image: --port (repeated)
  std::vector<std::string> labels;      // image: --label (repeated)
  std::string user;                     // image: --user
  std::string ca_bundle;                // image: --ca-bundle
  std::string digest;                   // pin-image: --digest
  std::string digest_file;              // pin-image: --digest-file
  std::string scope;                    // crd: --scope
  std::vector<std::string> operands;    // FILEs, NAME
};

enum class Flag {
  Out,
  Depfile,
  Namespace,
  Quiet,
  Spec,
  Scaffold,
  Stem,
  DumpModel,
  Aggregate,
  Shards,
  SourcePartLines,
  CodecOnly,
  ApplyConfigurations,
  ProtoRoot,
  Builtin,
  TypesNamespace,
  IncludePrefix,
  Dir,
  Group,
  Version,
  Kind,
  Resource,
  Controller,
  BuildDir,
  Format,
  Explain,
  Executable,
  Image,
  Port,
  Label,
  User,
  CaBundle,
  Digest,
  DigestFile,
  Scope,
};

// Fills `options` from `args`, taking only `accepted` flags. nullopt: go on. Otherwise the exit
// code: 0 after printing `usage` on --help/-h, 2 after a usage error on `err`. `unknown_hint`
// may add to the message for an unknown option (init: why "-x" cannot be a project name).
std::optional<int> parse_options(const std::vector<std::string>& args, std::initializer_list<Flag> accepted,
                                 const char* usage, Options& options, std::ostream& out, std::ostream& err,
                                 const std::function<std::string(const std::string&)>& unknown_hint = {});

}  // namespace rrgen
