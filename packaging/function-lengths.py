#!/usr/bin/env python3
"""Lists the functions of C++ sources longer than a limit (issue 52: none over 80 lines).

Usage: function-lengths.py LIMIT DIR...   exits 1 when some function is longer than LIMIT lines.

The house style (../shared/STYLE.md) opens a function body with a "{" alone on its line and closes
it with a "}" alone at the same indentation (namespaces are not indented, members defined in their
class are); a function's length runs from the first line of its signature (an initialiser
list included) to that closing brace. Lambdas and class bodies are counted in the function they
are written in.
"""
import os
import sys


def signature_start(lines, brace):
    """The first line of the declaration whose body opens at lines[brace]."""
    start = brace
    while start > 0:
        above = lines[start - 1].strip()
        if not above or above.startswith(('}', '//', '#', 'namespace', 'template', 'public:', 'private:', 'protected:')) or above.endswith((';', '{', '}')):
            break
        start -= 1
    return start


def long_functions(path, limit):
    with open(path, encoding='utf-8', errors='replace') as source:
        lines = source.read().split('\n')
    found = []
    i = 0
    while i < len(lines):
        if lines[i].strip() == '{':
            closing = lines[i].replace('{', '}')  # the same indentation: a member defined in its class too
            end = i + 1
            while end < len(lines) and lines[end] != closing:
                end += 1
            start = signature_start(lines, i)
            length = end - start + 1
            if length > limit:
                found.append((length, start + 1, ' '.join(line.strip() for line in lines[start:i])))
            i = end
        i += 1
    return found


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    limit = int(sys.argv[1])
    report = []
    for root in sys.argv[2:]:
        for folder, _, files in os.walk(root):
            for name in sorted(files):
                if name.endswith(('.cpp', '.h')):
                    path = os.path.join(folder, name)
                    report += [(length, path, line, signature) for length, line, signature in long_functions(path, limit)]
    for length, path, line, signature in sorted(report, reverse=True):
        print(f"{length:4d} lines  {path}:{line}  {signature[:100]}")
    if report:
        print(f"{len(report)} function(s) over {limit} lines")
        sys.exit(1)
    print(f"no function over {limit} lines")


if __name__ == '__main__':
    main()
