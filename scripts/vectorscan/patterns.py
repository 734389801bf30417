#!/usr/bin/env python3
"""Write a catalog's message patterns for Vectorscan, one a line.

    patterns.py CATALOG OUT

The catalog's patterns are JavaScript-style regular expressions. Vectorscan
takes PCRE syntax without lookarounds or back-references, so:
  - \\uXXXX becomes \\x{XXXX}, and a newline or tab inside a pattern its escape;
  - patterns with a lookaround, a back-reference (\\1..\\9, \\k<name>) or a
    conditional are left out (Vectorscan refuses them);
  - lazy quantifiers stay: whether a line matches does not depend on them.
Prints how many patterns were written of how many.
"""
import json
import re
import sys

UNSUPPORTED = re.compile(r'\(\?(=|!|<=|<!|\()|\\[1-9]|\\k<')


def convert(p):
    if not p or UNSUPPORTED.search(p):
        return None
    p = re.sub(r'\\u([0-9A-Fa-f]{4})', r'\\x{\1}', p)
    return p.replace('\n', '\\n').replace('\r', '\\r').replace('\t', '\\t')


def main():
    catalog, out = sys.argv[1], sys.argv[2]
    total, kept = 0, []
    with open(catalog, encoding='utf-8-sig') as f:
        for line in f:
            line = line.strip()
            if not line:
                continue
            rec = json.loads(line)
            rec = rec.get('record', rec)
            total += 1
            conv = convert(rec.get('messagePattern') or '')
            if conv is not None:
                kept.append(conv)
    with open(out, 'w', encoding='utf-8') as f:
        f.write('\n'.join(kept) + '\n')
    print(f"vectorscan patterns: {len(kept)} of {total} written")


if __name__ == '__main__':
    main()
