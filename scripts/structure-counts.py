#!/usr/bin/env python3
"""Counts of structure debts in Swift sources: `@unchecked Sendable`, event-loop confinement checks, files over 300
lines and functions over 60 lines (a brace count: good enough to spot them, not a parser).

Usage: python3 scripts/structure-counts.py [FOLDER]   (default Sources)
"""
import os, re, sys
root = sys.argv[1] if len(sys.argv) > 1 else "Sources"
unchecked = checks = 0
long_files, long_funcs = [], []
check_re = re.compile(r"preconditionInEventLoop|assertInEventLoop|NIOLoopBound|dispatchPrecondition")
func_re = re.compile(r"^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|private|fileprivate|internal|package|static|final|override|mutating|nonisolated|class|convenience|required|@inlinable|@usableFromInline)\s+)*(?:func\s+[^\s(<]+|init[?!]?|deinit|subscript)\b")
for dp, _, fs in os.walk(root):
    for f in fs:
        if not f.endswith(".swift"): continue
        p = os.path.join(dp, f)
        lines = open(p, encoding="utf-8").read().split("\n")
        if len(lines) - 1 > 300: long_files.append((len(lines) - 1, p))
        text = "\n".join(lines)
        unchecked += text.count("@unchecked Sendable")
        checks += len(check_re.findall(text))
        i = 0
        while i < len(lines):
            if func_re.match(lines[i]) and "protocol" not in lines[i]:
                depth, started, j = 0, False, i
                while j < len(lines):
                    s = re.sub(r'"(?:\\.|[^"\\])*"', '""', lines[j]).split("//")[0]
                    depth += s.count("{") - s.count("}")
                    if "{" in s: started = True
                    if started and depth <= 0: break
                    if not started and j > i + 8: break
                    j += 1
                if started and j - i + 1 > 60: long_funcs.append((j - i + 1, p, lines[i].strip()[:70]))
                i = j + 1 if started else i + 1
            else:
                i += 1
print(f"@unchecked Sendable: {unchecked}")
print(f"confinement checks: {checks}")
print(f"files over 300 lines: {len(long_files)}")
for n, p in sorted(long_files, reverse=True): print(f"  {n} {p}")
print(f"functions over 60 lines: {len(long_funcs)}")
for n, p, s in sorted(long_funcs, reverse=True): print(f"  {n} {p}: {s}")
