#!/usr/bin/env python3
"""rrgen analyze's time on each sample operator's hook sources, beside g++ compiling the same files.

Not a ctest test: it prints figures (docs/benchmarks.md, "rrgen analyze").

    bench/bench_analyze.py [BUILD_DIR]      (default build/dev; the samples must be built in it)

For each sample: the analysis run twice in a row ("first", "second": the analysis keeps no cache,
so the difference is the operating system's page cache), and the same .cpp files compiled with
their own commands from compile_commands.json at -O0 into /dev/null, without ccache. Wall and CPU
(user + system of the child processes) seconds; on a shared machine compare CPU.
"""
import json
import os
import resource
import shlex
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# (sample directory, rrgen analyze arguments before the files, the .cpp hook sources)
SAMPLES = [
    ("samples/webapp-operator", ["--spec", "reconciler.yaml", "crds/webapps.yaml"], ["src/webapp_hooks.cpp"]),
    ("samples/kvdb-operator", ["--spec", "reconciler.yaml", "crds/keyvaluestores.yaml"],
     ["src/kvdb_hooks.cpp", "src/stateful_set_hooks.cpp"]),
    ("samples/function-reconciler", [],
     ["src/bucket_reconciler.cpp", "src/function_reconciler.cpp", "src/gateway_reconciler.cpp",
      "src/processor_reconciler.cpp"]),
]


def children_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def timed(commands):
    """Runs each (argv, cwd) in turn; returns (wall, cpu) seconds."""
    wall, cpu = time.monotonic(), children_cpu()
    for argv, cwd in commands:
        subprocess.run(argv, cwd=cwd, check=True, stdout=subprocess.DEVNULL)
    return time.monotonic() - wall, children_cpu() - cpu


def compile_command(entry):
    """The build's command for one file, at -O0, into /dev/null, with no dependency file."""
    args = shlex.split(entry["command"])
    out, skip = [], False
    for a in args:
        if skip:
            skip = False
            continue
        if a in ("-o", "-MT", "-MF"):
            skip = True
            continue
        if a == "-MD" or a.startswith("-O"):
            continue
        out.append(a)
    return out + ["-O0", "-o", os.devnull]


def main():
    build = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "build", "dev"))
    rrgen = os.path.join(build, "generator", "rrgen")
    with open(os.path.join(build, "compile_commands.json")) as f:
        database = {e["file"]: e for e in json.load(f)}
    print(f"{'sample':<22} {'files':>5} {'analyze (first)':>17} {'analyze (second)':>17} {'g++ -O0':>15}")
    print(f"{'':<22} {'':>5} {'wall / CPU s':>17} {'wall / CPU s':>17} {'wall / CPU s':>15}")
    for directory, args, files in SAMPLES:
        cwd = os.path.join(ROOT, directory)
        analyze = [([rrgen, "analyze", "-p", build, "--format=report"] + args + files, cwd)]
        first = timed(analyze)
        second = timed(analyze)
        compiles = []
        for f in files:
            entry = database[os.path.join(cwd, f)]
            compiles.append((compile_command(entry), entry["directory"]))
        gxx = timed(compiles)
        cell = lambda t: f"{t[0]:6.2f} / {t[1]:6.2f}"
        print(f"{os.path.basename(directory):<22} {len(files):>5} {cell(first):>17} {cell(second):>17} {cell(gxx):>15}")


if __name__ == "__main__":
    main()
