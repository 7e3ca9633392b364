#!/usr/bin/env python3
"""Docs that say a C++ name does not exist, while a public header declares it.

A page goes stale when a feature lands and the sentence "There is no `X`" stays. This check finds
sentences that deny a name in backticks ("no `X`", "There is no `X`", "without `X`", "`X` is not
implemented / supported / available yet") and fails when `X` (a CamelCase or scoped C++ name, or
a function written as `name()`) is declared in a public header of the runtime or the generator.
Known true denials (a name that exists elsewhere with another meaning) go in ALLOWED with why.

Usage: check_doc_claims.py <repository root>
"""
import pathlib
import re
import sys

DENIALS = [
    re.compile(r"\b(?:[Tt]here is no|[Tt]here are no|[Nn]o|[Ww]ithout)\s+`(?P<name>[^`]+)`"),
    re.compile(r"`(?P<name>[^`]+)`\s+(?:is|are)\s+not\s+(?:yet\s+)?(?:implemented|supported|available|provided)"),
]
# A name worth checking: scoped (a::b), CamelCase with a lower-case letter, or a call (name()).
CPP_NAME = re.compile(r"^(?:[A-Za-z_]\w*::)*(?P<last>[A-Za-z_]\w*)(?:<[^>]*>)?(?P<call>\(\))?$")

# (page, name): why the denial is true although a header declares the name.
ALLOWED = {
    ("docs/dependencies.md", "rr::ApiServer"): "what an operator binary links, not whether the class exists",
    ("docs/runtime/25-operator-main.md", "rr::ApiServer"): "what an operator binary links, not whether the class exists",
}


def worth_checking(name):
    m = CPP_NAME.match(name)
    if not m:
        return None
    last = m.group("last")
    if m.group("call") or "::" in name:
        return last
    if re.search(r"[a-z]", last) and re.search(r"[A-Z]", last[1:]) and last[0].isupper():
        return last  # CamelCase
    return None


def declared_names(root):
    names = {}
    headers = list((root / "runtime").glob("*/include/**/*.hpp")) + list((root / "generator").glob("**/*.hpp"))
    decl = re.compile(
        r"\b(?:struct|class|enum\s+class|enum|using|concept)\s+(\w+)|^\s*(?:[\w:<>,\s*&]+\s)?(\w+)\s*\([^;{]*\)\s*(?:const\s*)?(?:noexcept\s*)?[;{]",
        re.M)
    for header in headers:
        text = header.read_text(errors="replace")
        for m in decl.finditer(text):
            name = m.group(1) or m.group(2)
            if name and name not in ("if", "for", "while", "switch", "return", "sizeof"):
                names.setdefault(name, header.relative_to(root))
    return names


def main():
    root = pathlib.Path(sys.argv[1]).resolve()
    declared = declared_names(root)
    problems = []
    for page in sorted(list((root / "docs").glob("**/*.md")) + [root / "README.md"]):
        rel = page.relative_to(root)
        for number, line in enumerate(page.read_text(errors="replace").splitlines(), start=1):
            for pattern in DENIALS:
                for m in pattern.finditer(line):
                    name = m.group("name")
                    last = worth_checking(name)
                    if not last or last not in declared or (str(rel), name) in ALLOWED:
                        continue
                    problems.append(f"{rel}:{number}: error: the page denies `{name}`, which "
                                    f"{declared[last]} declares [docs-claims]")
    for p in problems:
        print(p)
    print(f"docs claims: {len(problems)} contradiction(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
