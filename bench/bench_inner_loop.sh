#!/usr/bin/env bash
# The inner loop of a project `rrgen init` made, against an installed rrgen: one line of the hooks
# edited, then `cmake --build build && ctest --test-dir build`; one spec change likewise; and the
# operator's size in the default build (no CMAKE_BUILD_TYPE) and in Release. One fresh project
# is reconfigured for each variant (which relinks it), so the figures of one run sit side by side:
#   before   -DRRGEN_USE_LLD=OFF -DRRGEN_STRIP_DEBUG=OFF (what consumers got before both)
#   lld      -DRRGEN_STRIP_DEBUG=OFF (lld only)
#   default  rrgenConfig.cmake's defaults: lld, and no debug information of rrgen's libraries in a
#            build that compiles without -g
# Run by hand (it is no test, and asserts nothing); docs/benchmarks.md has figures.
#
#   bench/bench_inner_loop.sh PREFIX [WORK_DIR] [REPEATS]
#
# PREFIX is an rrgen install prefix (`cmake --install build/dev --prefix PREFIX`). No compiler
# launcher is used, as a user has none; CXX picks the compiler. Prints the median of REPEATS
# (default 3) edits, and for the last edit the steps Ninja ran with their wall times (.ninja_log).
set -euo pipefail
prefix=$(realpath "$1")
work=${2:-${TMPDIR:-/tmp}/rrgen-bench-inner-loop}
repeats=${3:-3}
rrgen="$prefix/bin/rrgen"
[[ -x $rrgen ]] || { echo "no $rrgen: give an rrgen install prefix" >&2; exit 2; }

now() { date +%s.%N; }
elapsed() { awk -v s="$1" -v e="$2" 'BEGIN { printf "%.2f", e - s }'; }
median() { tr ' ' '\n' | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
mib() { awk -v b="$(stat -c %s "$1")" 'BEGIN { printf "%.1f", b / 1048576 }'; }

# What the last build ran: the .ninja_log entries not in the copy <log>.before (Ninja may have
# compacted the log meanwhile, but keeps each output's newest entry), as "seconds output".
ninja_steps() {
  { grep -vxFf "$1/.ninja_log.before" "$1/.ninja_log" || true; } |
    awk '!/^#/ { printf "    %6.2f s  %s\n", ($2 - $1) / 1000, $4 }' | sed "s|$1/||" | sort -u | sort -rn
}

# Times <edit command> then build and tests in <project>; sets rebuild_s, test_s, steps.
measure() {
  local project=$1
  shift
  "$@"
  local t0 t1 t2
  cp "$project/build/.ninja_log" "$project/build/.ninja_log.before"
  t0=$(now)
  cmake --build "$project/build" >/dev/null
  t1=$(now)
  ctest --test-dir "$project/build" >/dev/null
  t2=$(now)
  rebuild_s=$(elapsed "$t0" "$t1")
  test_s=$(elapsed "$t1" "$t2")
  steps=$(ninja_steps "$project/build")
}

edit_hooks() { echo "// inner-loop edit $RANDOM$RANDOM" >>"$1/src/widget_hooks.cpp"; }
# A real change of the generated code: one more condition in the spec (a new name each time).
edit_spec() {
  local n=$RANDOM$RANDOM
  sed -i "s/^conditions: .*/conditions: [GreetingReady, ConfigReady, Extra$n]/" "$1/reconcilers/widget.yaml"
}

declare -A result
project="$work/widget"
rm -rf "$work"
mkdir -p "$work"
"$rrgen" init widget --dir "$project" >/dev/null
(cd "$project" && cmake --preset dev >/dev/null)
t0=$(now)
cmake --build "$project/build" >/dev/null
first_build=$(elapsed "$t0" "$(now)")
ctest --test-dir "$project/build" >/dev/null

variant() {
  local name=$1
  shift
  (cd "$project" && cmake --preset dev -DRRGEN_USE_LLD=ON -DRRGEN_STRIP_DEBUG=ON "$@" >/dev/null)
  cmake --build "$project/build" >/dev/null
  result[$name.size]=$(mib "$project/build/manager")
  local hooks_builds="" hooks_tests="" spec_builds="" spec_tests=""
  for _ in $(seq 1 "$repeats"); do
    measure "$project" edit_hooks "$project"
    hooks_builds+="$rebuild_s " hooks_tests+="$test_s "
  done
  result[$name.hooks_steps]=$steps
  for _ in $(seq 1 "$repeats"); do
    measure "$project" edit_spec "$project"
    spec_builds+="$rebuild_s " spec_tests+="$test_s "
  done
  result[$name.spec_steps]=$steps
  result[$name.hooks_build]=$(echo "$hooks_builds" | median)
  result[$name.hooks_test]=$(echo "$hooks_tests" | median)
  result[$name.spec_build]=$(echo "$spec_builds" | median)
  result[$name.spec_test]=$(echo "$spec_tests" | median)

  # Release: the operator only.
  cmake -S "$project" -B "$project/build-release" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_PREFIX_PATH="$prefix" -DRRGEN_USE_LLD=ON -DRRGEN_STRIP_DEBUG=ON "$@" >/dev/null
  cmake --build "$project/build-release" --target manager >/dev/null
  result[$name.release_size]=$(mib "$project/build-release/manager")
}

variants=(before lld default)
variant before -DRRGEN_USE_LLD=OFF -DRRGEN_STRIP_DEBUG=OFF
variant lld -DRRGEN_STRIP_DEBUG=OFF
variant default

echo "rrgen inner loop ($(nproc) cores, $(c++ --version | head -n 1), prefix $prefix, median of $repeats)"
echo "first build of the new project: $first_build s"
printf "%-8s %14s %12s %14s %12s %12s %14s\n" variant "hooks: build" "+ ctest" \
  "spec: build" "+ ctest" "manager MiB" "Release MiB"
for v in "${variants[@]}"; do
  printf "%-8s %12s s %10s s %12s s %10s s %12s %14s\n" "$v" \
    "${result[$v.hooks_build]}" "${result[$v.hooks_test]}" "${result[$v.spec_build]}" "${result[$v.spec_test]}" \
    "${result[$v.size]}" "${result[$v.release_size]}"
done
for v in "${variants[@]}"; do
  echo "$v: what the last hooks edit ran"
  echo "${result[$v.hooks_steps]}"
  echo "$v: what the last spec edit ran"
  echo "${result[$v.spec_steps]}"
done
