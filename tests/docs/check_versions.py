#!/usr/bin/env python3
"""The versions docs/getting-started.md states, against the sources that decide them.

The page says what `rrgen --version` prints (the project's VERSION in CMakeLists.txt), which
Kubernetes version the local cluster serves and reports (the gitVersion of its /version answer in
runtime/apiserver/src/discovery.cpp), and the kubectl versions without a skew warning (one minor
version either way of it). A release that bumps either and forgets the page fails here.

Usage: check_versions.py <repository root>
"""
import pathlib
import re
import sys


def main(root):
    root = pathlib.Path(root)
    page = (root / "docs/getting-started.md").read_text()
    project = re.search(r"project\(rrgen VERSION (\d+\.\d+\.\d+)", (root / "CMakeLists.txt").read_text())
    server = re.search(r'\{"gitVersion", "v(\d+)\.(\d+)\.(\d+)([^"]*)"\}',
                       (root / "runtime/apiserver/src/discovery.cpp").read_text())
    if not project or not server:
        print("check_versions.py: cannot find the project's VERSION or the server's gitVersion")
        return 1
    major, minor = int(server.group(1)), int(server.group(2))
    git_version = "v%s.%s.%s%s" % server.groups()
    expected = [
        "`rrgen --version` prints `rrgen %s`" % project.group(1),
        "serves the API of Kubernetes %d.%d" % (major, minor),
        "`%s`" % git_version,
        "%d.%d to %d.%d" % (major, minor - 1, major, minor + 1),
    ]
    flat = re.sub(r"\s+", " ", page)
    missing = [e for e in expected if e not in flat]
    for e in missing:
        print("docs/getting-started.md does not say: %s" % e)
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "."))
