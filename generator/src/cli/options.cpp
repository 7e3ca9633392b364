#include "cli/options.hpp"

#include <algorithm>
#include <ostream>
#include <utility>

#include "cli/cli_args.hpp"

namespace rrgen {
namespace {

// Where each flag's value goes: a string member, a bool set by the flag alone, or a list that
// each repetition of the flag appends to.
struct FlagSpec {
  Flag flag;
  const char* name;
  std::string Options::*value = nullptr;
  bool Options::*toggle = nullptr;
  std::vector<std::string> Options::*list = nullptr;
};

constexpr FlagSpec kFlags[] = {
    {Flag::Out, "--out", &Options::out_dir},
    {Flag::Depfile, "--depfile", &Options::depfile},
    {Flag::Namespace, "--namespace", &Options::cpp_namespace},
    {Flag::Quiet, "--quiet", nullptr, &Options::quiet},
    {Flag::Spec, "--spec", &Options::spec},
    {Flag::Scaffold, "--scaffold", &Options::scaffold_dir},
    {Flag::Stem, "--stem", &Options::stem},
    {Flag::DumpModel, "--dump-model", &Options::dump_model},
    {Flag::Aggregate, "--aggregate", &Options::aggregate},
    {Flag::Shards, "--shards", &Options::shards},
    {Flag::SourcePartLines, "--source-part-lines", &Options::source_part_lines},
    {Flag::CodecOnly, "--codec-only", &Options::codec_only},
    {Flag::ApplyConfigurations, "--apply-configurations", &Options::apply_configurations},
    {Flag::ProtoRoot, "--proto-root", &Options::proto_root},
    {Flag::Builtin, "--builtin", nullptr, &Options::builtin},
    {Flag::TypesNamespace, "--types-namespace", &Options::types_namespace},
    {Flag::IncludePrefix, "--include-prefix", &Options::include_prefix},
    {Flag::Dir, "--dir", &Options::dir},
    {Flag::Group, "--group", &Options::group},
    {Flag::Version, "--version", &Options::version},
    {Flag::Kind, "--kind", &Options::kind},
    {Flag::Resource, "--resource", nullptr, &Options::resource},
    {Flag::Controller, "--controller", nullptr, &Options::controller},
    {Flag::BuildDir, "-p", &Options::build_dir},
    {Flag::Format, "--format", &Options::format},
    {Flag::Explain, "--explain", nullptr, &Options::explain},
    {Flag::Executable, "--executable", &Options::executable},
    {Flag::Image, "--image", &Options::image},
    {Flag::Port, "--port", nullptr, nullptr, &Options::ports},
    {Flag::Label, "--label", nullptr, nullptr, &Options::labels},
    {Flag::User, "--user", &Options::user},
    {Flag::CaBundle, "--ca-bundle", &Options::ca_bundle},
    {Flag::Digest, "--digest", &Options::digest},
    {Flag::DigestFile, "--digest-file", &Options::digest_file},
    {Flag::Scope, "--scope", &Options::scope},
};

}  // namespace

std::optional<int> parse_options(const std::vector<std::string>& args, std::initializer_list<Flag> accepted,
                                 const char* usage, Options& options, std::ostream& out, std::ostream& err,
                                 const std::function<std::string(const std::string&)>& unknown_hint) {
  ArgReader reader(args);
  while (reader.next()) {
    if (reader.is_flag("--help") || reader.is_flag("-h")) {
      out << usage;
      return 0;
    }
    bool taken = false;
    for (const FlagSpec& spec : kFlags) {
      if (std::find(accepted.begin(), accepted.end(), spec.flag) == accepted.end()) continue;
      std::string item;
      if (spec.toggle ? reader.is_flag(spec.name) : reader.value(spec.name, spec.list ? item : options.*spec.value)) {
        if (spec.toggle) options.*spec.toggle = true;
        if (spec.list) (options.*spec.list).push_back(std::move(item));
        if (spec.flag == Flag::Out) options.out_given = true;
        taken = true;
        break;
      }
      if (reader.failed()) return usage_error(err, reader.error());
    }
    if (taken) continue;
    if (reader.is_option()) {
      std::string message = "unknown option '" + reader.current() + "'";
      if (unknown_hint) {
        if (std::string hint = unknown_hint(reader.current()); !hint.empty()) message += "; " + hint;
      }
      return usage_error(err, message);
    }
    options.operands.push_back(reader.current());
  }
  if (reader.failed()) return usage_error(err, reader.error());
  return std::nullopt;
}

}  // namespace rrgen
