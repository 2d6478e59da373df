"""The web client's sizes: each JavaScript file's lines and its longest functions.

    python scripts/js_sizes.py            # every file, longest first; functions over 80 lines
    python scripts/js_sizes.py --top 10   # and the ten longest functions

A function is a body in braces that follows ``function``, an arrow (``=>``) or a method
head (``name(…)``); its length is its lines from head to closing brace. Good enough to
hold the client to "no file over 600 lines, no function over about 80" without a
JavaScript parser: strings, templates (with their ``${…}``), comments and regular
expressions are skipped, so their braces do not count.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = (ROOT / "taverna/web/static", ROOT / "taverna/web/games")
#: a line count past which a file is too long, and a function
FILE_LIMIT, FUNCTION_LIMIT = 600, 80
KEYWORDS = {"if", "for", "while", "switch", "catch", "with", "return", "typeof", "await"}
#: after these, a ``/`` starts a regular expression (not a division)
REGEX_AFTER = set("(,=:[!&|?{};+-*%<>~^") | {"return", "typeof", "case", "in", "of", "=>"}


def tokens(text: str) -> list[tuple[str, int]]:
    """The code tokens of ``text`` that matter here (words, brackets, ``=>``), with their
    lines; what sits inside strings, templates, comments and regular expressions is left
    out (a template's ``${…}`` is code again)."""
    out: list[tuple[str, int]] = []
    i, line, n = 0, 1, len(text)
    templates: list[int] = []  # brace depth inside each open template's ${…}
    last = ""
    while i < n:
        c = text[i]
        if c == "\n":
            line += 1
            i += 1
        elif c.isspace():
            i += 1
        elif text.startswith("//", i):
            i = text.find("\n", i) if "\n" in text[i:] else n
        elif text.startswith("/*", i):
            end = text.index("*/", i) + 2
            line += text.count("\n", i, end)
            i = end
        elif c in "'\"":
            j = i + 1
            while text[j] != c:
                j += 2 if text[j] == "\\" else 1
            last, i = "str", j + 1
        elif c == "`" or (c == "}" and templates and templates[-1] == 0):
            if c == "}":
                templates.pop()
            j = i + 1
            while j < n and text[j] != "`" and not text.startswith("${", j):
                if text[j] == "\n":
                    line += 1
                j += 2 if text[j] == "\\" else 1
            if text.startswith("${", j):
                templates.append(0)
                i, last = j + 2, "("
            else:
                i, last = j + 1, "str"
        elif c == "/" and last in REGEX_AFTER:
            j, in_class = i + 1, False
            while in_class or text[j] != "/":
                in_class = (in_class or text[j] == "[") and text[j] != "]"
                j += 2 if text[j] == "\\" else 1
            i = j + 1
            while i < n and text[i].isalpha():
                i += 1
            last = "str"
        elif text.startswith("=>", i):
            out.append(("=>", line))
            last, i = "=>", i + 2
        elif c.isalnum() or c in "_$":
            m = re.compile(r"[\w$]+").match(text, i)
            assert m
            last, i = m.group(0), m.end()
            out.append((last, line))
        else:
            if templates and c == "{":
                templates[-1] += 1
            elif templates and c == "}":
                templates[-1] -= 1
            if c in "(){}":
                out.append((c, line))
            last, i = c, i + 1
    return out


def functions(text: str) -> list[tuple[str, int, int]]:
    """Each function of ``text``: its name (``(arrow)`` when it has none), first line and
    length in lines."""
    toks = tokens(text)
    opened: list[tuple[str, int] | None] = []  # each open brace: a function's (name, line)?
    parens: list[int] = []  # the token index of each open parenthesis
    heads: dict[int, int] = {}  # a ')' token's index -> its '(' token's index
    found = []
    for k, (tok, line) in enumerate(toks):
        if tok == "(":
            parens.append(k)
        elif tok == ")" and parens:
            heads[k] = parens.pop()
        elif tok == "{":
            before = toks[k - 1][0] if k else ""
            head: tuple[str, int] | None = None
            if before == "=>":
                name = toks[k - 3][0] if k >= 3 and toks[k - 2][0] == "=" else "(arrow)"
                head = (name, toks[k - 1][1])
            elif before == ")" and k - 1 in heads:
                start = heads[k - 1]
                word = toks[start - 1][0] if start else ""
                two = toks[start - 2][0] if start > 1 else ""
                if word == "function":
                    head = ("(function)", toks[start - 1][1])
                elif two == "function" or (re.fullmatch(r"[\w$]+", word) and word not in KEYWORDS):
                    head = (word, toks[start - 1][1])
            opened.append(head)
        elif tok == "}" and opened:
            head = opened.pop()
            if head:
                found.append((head[0], head[1], line - head[1] + 1))
    return found


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--top", type=int, default=0, help="also list the N longest functions")
    args = ap.parse_args()
    files = sorted(p for folder in FOLDERS for p in folder.rglob("*.js"))
    rows = []
    every = []
    for path in files:
        text = path.read_text()
        name = str(path.relative_to(ROOT))
        fns = functions(text)
        every += [(length, name, fn, at) for fn, at, length in fns]
        rows.append((text.count("\n"), max((f[2] for f in fns), default=0), name))
    for lines, longest, name in sorted(rows, reverse=True):
        mark = "  over" if lines > FILE_LIMIT else ""
        print(f"{lines:6} lines, longest function {longest:4}  {name}{mark}")
    print(f"{sum(r[0] for r in rows):6} lines in {len(rows)} files")
    long = sorted((f for f in every if f[0] > FUNCTION_LIMIT), reverse=True)
    top = sorted(every, reverse=True)[: args.top]
    for title, listed in ((f"functions over {FUNCTION_LIMIT} lines", long), ("longest", top)):
        if listed:
            print(f"\n{title}:")
            for length, name, fn, at in listed:
                print(f"{length:6}  {name}:{at} {fn}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
