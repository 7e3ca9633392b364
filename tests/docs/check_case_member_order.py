#!/usr/bin/env python3
"""The docs' table of a test case's members against the headers that declare them.

A case is written with designated initialisers, which must follow declaration order, so the
table in docs/testing-reconcilers.md ("What a case holds") lists the members in that order. This
check reads the members of ReconcilerTestCase and SubReconcilerTestCase<T> from their headers
and fails when the table (rows marked "(root)" or "(sub)" belong to one of them only) leaves one
out, names one that does not exist, or orders them otherwise.

Usage: check_case_member_order.py <repository root>
"""
import pathlib
import re
import sys

HEADERS = {
    "root": ("runtime/testing/include/rr/testing/reconciler_test.hpp", "struct ReconcilerTestCase {"),
    "sub": ("runtime/testing/include/rr/testing/sub_reconciler_test.hpp", "struct SubReconcilerTestCase {"),
}
DOC = "docs/testing-reconcilers.md"
# A member's declaration, one line at the struct's indentation (its trailing comment removed).
MEMBER = re.compile(r"^  [A-Za-z_]\S*.*?\b(\w+)\s*(?:\{\}|=[^;]*)?;$")


def declared(root, header, opening):
    text = (root / header).read_text()
    body = text[text.index(opening) + len(opening):]
    body = body[:body.index("\n};")]
    lines = (line.split("//")[0].rstrip() for line in body.splitlines())
    return [m.group(1) for line in lines if (m := MEMBER.match(line))]


def documented(root):
    text = (root / DOC).read_text()
    section = text[text.index("## What a case holds"):]
    section = section[:section.index("\n## ", 1)]
    order = {"root": [], "sub": []}
    for line in section.splitlines():
        if not line.startswith("| `"):
            continue
        first = line.split("|")[1]
        names = re.findall(r"`(\w+)`", first)
        only = re.search(r"\((root|sub)\)", first)
        for which in order:
            if only is None or only.group(1) == which:
                order[which].extend(names)
    return order


def main():
    root = pathlib.Path(sys.argv[1])
    docs = documented(root)
    failed = False
    for which, (header, opening) in HEADERS.items():
        members = declared(root, header, opening)
        if not members:
            print(f"{header}: no members found under '{opening}'")
            failed = True
        elif members != docs[which]:
            print(f"{DOC}: the {which} case's members are not listed as {header} declares them")
            print(f"  declared:   {members}")
            print(f"  documented: {docs[which]}")
            failed = True
    if failed:
        return 1
    print("case member tables agree with the headers")
    return 0


if __name__ == "__main__":
    sys.exit(main())
