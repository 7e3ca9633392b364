// bench_protobuf: decode and encode throughput of rr::builtin's protobuf codecs beside its JSON
// codecs, over Kubernetes' round-trip fixtures (<group>.<version>.<Kind>.json and .pb of every kind
// with both forms and a protobuf codec).
//   json decode   KindCodec::decode_only over the .json files
//   json encode   KindCodec::reencode minus json decode
//   pb decode     KindCodec::pb_decode_only over the .pb files (the k8s envelope included)
//   pb encode     KindCodec::pb_reencode minus pb decode
// Each measurement loops over the set until --min-time seconds have passed, --rounds times; the
// best round is reported, as MB/s of that form's input bytes per CPU second and objects/s.
//
// usage: bench_protobuf [--min-time S] [--rounds N] FIXTURE_DIR
// Figures are printed; nothing is asserted.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <span>
#include <sstream>
#include <string>
#include <vector>

#include "bench_util.hpp"
#include "rr/core/errors.hpp"
#include "rr/core/kind_codec.hpp"

#ifndef RRGEN_BENCH_BUILD_TYPE
#define RRGEN_BENCH_BUILD_TYPE "unknown"
#endif

std::span<const rr::KindCodec> rr_builtin_types_kinds() noexcept;

namespace fs = std::filesystem;
using bench::fmt;
using bench::kMB;

namespace {

struct Fixture {
  const rr::KindCodec* codec;
  std::string json, pb;
};

std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// The best CPU seconds of one pass over the fixtures.
double best_pass(const std::function<void()>& pass, double min_time, int rounds) {
  double best = 1e300;
  for (int r = 0; r < rounds; ++r) {
    bench::Stopwatch sw;
    int passes = 0;
    do {
      pass();
      ++passes;
    } while (sw.elapsed().cpu < min_time);
    best = std::min(best, sw.elapsed().cpu / passes);
  }
  return best;
}

}  // namespace

int main(int argc, char** argv) {
  double min_time = 1.0;
  int rounds = 3;
  std::string dir;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--min-time" && i + 1 < argc) min_time = std::stod(argv[++i]);
    else if (a == "--rounds" && i + 1 < argc) rounds = std::stoi(argv[++i]);
    else if (!a.empty() && a[0] != '-') dir = a;
    else {
      std::cerr << "usage: bench_protobuf [--min-time S] [--rounds N] FIXTURE_DIR\n";
      return 2;
    }
  }
  std::map<std::string, const rr::KindCodec*> codecs;
  for (const auto& c : rr_builtin_types_kinds()) {
    const std::string api = std::string(c.api_version);
    const auto slash = api.find('/');
    const std::string stem = slash == std::string::npos ? "core." + api
                                                        : api.substr(0, slash) + "." + api.substr(slash + 1);
    codecs[stem + "." + std::string(c.kind)] = &c;
  }
  std::vector<Fixture> set;
  std::size_t json_bytes = 0, pb_bytes = 0;
  for (const auto& e : fs::directory_iterator(dir)) {
    if (e.path().extension() != ".pb") continue;
    const auto c = codecs.find(e.path().stem().string());
    const fs::path json = fs::path(e.path()).replace_extension(".json");
    if (c == codecs.end() || !c->second->pb_decode_only || !fs::exists(json)) continue;
    Fixture f{c->second, read_file(json), read_file(e.path())};
    try {
      f.codec->decode_only(f.json);
      f.codec->pb_decode_only(f.pb);
    } catch (const rr::DecodeError&) {
      continue;
    }
    json_bytes += f.json.size();
    pb_bytes += f.pb.size();
    set.push_back(std::move(f));
  }
  const double json_decode = best_pass(
      [&] {
        for (const auto& f : set) f.codec->decode_only(f.json);
      },
      min_time, rounds);
  const double json_round = best_pass(
      [&] {
        for (const auto& f : set) (void)f.codec->reencode(f.json);
      },
      min_time, rounds);
  const double pb_decode = best_pass(
      [&] {
        for (const auto& f : set) f.codec->pb_decode_only(f.pb);
      },
      min_time, rounds);
  const double pb_round = best_pass(
      [&] {
        for (const auto& f : set) (void)f.codec->pb_reencode(f.pb);
      },
      min_time, rounds);
  const double n = static_cast<double>(set.size());
  auto row = [&](const char* what, double secs, std::size_t bytes) {
    std::cout << "  " << what << fmt("%9.1f MB/s", static_cast<double>(bytes) / kMB / secs)
              << fmt("%11.0f objects/s", n / secs) << "\n";
  };
  std::cout << "bench_protobuf (" << RRGEN_BENCH_BUILD_TYPE << ", " << bench::compiler_name() << "): " << set.size()
            << " fixtures, " << json_bytes << " bytes of JSON, " << pb_bytes << " bytes of protobuf; CPU time, best of "
            << rounds << "\n";
  row("json decode", json_decode, json_bytes);
  row("json encode", json_round - json_decode, json_bytes);
  row("pb decode  ", pb_decode, pb_bytes);
  row("pb encode  ", pb_round - pb_decode, pb_bytes);
  return 0;
}
