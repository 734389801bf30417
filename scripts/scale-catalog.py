#!/usr/bin/env python3
"""Write a catalog of N records made from a real one, for measuring how scan
and the catalog load grow with the catalog.

    scale-catalog.py CATALOG N [SEED] > OUT.jsonl

Below the catalog's size, N records are sampled from it (in catalog order).
Above it, every record is kept and variants are added: a variant of a record
has the record's pattern and errorMessage with about half of their words (runs
of four or more letters not after a backslash) replaced by words drawn from
the catalog's own vocabulary, the same replacement in both fields, so the
variant's error messages still match its pattern and its literals are made of
the words log lines are made of. Replacing letters with letters keeps every
pattern's syntax. Ids and slugs get a variant suffix. The output is the same
for the same arguments.
"""
import hashlib
import json
import random
import re
import sys

WORD = re.compile(r'(?<![\\A-Za-z])[A-Za-z]{4,}')


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__.strip().splitlines()[2].strip())
    catalog, n = sys.argv[1], int(sys.argv[2])
    seed = int(sys.argv[3]) if len(sys.argv) == 4 else 1
    rng = random.Random(seed)
    lines = []
    with open(catalog, encoding='utf-8-sig') as f:
        for line in f:
            if line.strip():
                lines.append(json.loads(line))
    if n <= len(lines):
        keep = sorted(rng.sample(range(len(lines)), n))
        for i in keep:
            print(json.dumps(lines[i], ensure_ascii=False))
        return
    vocab = []
    for obj in lines:
        rec = obj.get('record', obj)
        vocab.extend(WORD.findall(rec.get('messagePattern') or ''))
    for obj in lines:
        print(json.dumps(obj, ensure_ascii=False))
    for k in range(n - len(lines)):
        obj = json.loads(json.dumps(lines[k % len(lines)]))
        rec = obj.get('record', obj)
        copy = k // len(lines) + 1
        swap = {}

        def repl(m):
            w = m.group(0)
            if w not in swap:
                swap[w] = rng.choice(vocab) if rng.random() < 0.5 else w
            return swap[w]

        rec['messagePattern'] = WORD.sub(repl, rec.get('messagePattern') or '')
        if rec.get('errorMessage'):
            rec['errorMessage'] = WORD.sub(lambda m: swap.get(m.group(0), m.group(0)), rec['errorMessage'])
        rec['id'] = hashlib.sha256(f"{rec['id']}/{copy}".encode()).hexdigest()[:16]
        rec['slug'] = f"{rec.get('slug') or 'record'}-v{copy}"
        print(json.dumps(obj, ensure_ascii=False))


if __name__ == '__main__':
    main()
