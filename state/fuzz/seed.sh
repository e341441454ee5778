#!/usr/bin/env bash
# Fills state/fuzz/corpus/api/ (gitignored) with seed inputs for the `api` fuzz
# target: for each shader-db program, a call sequence that creates a vertex and
# a fragment shader with the program's sources, compiles them, links them into
# a program, uses it and draws a triangle (encoded as fuzz_targets/api.rs
# decodes calls; enums as raw words so the seeds do not depend on its enum
# table's order).
# Usage: state/fuzz/seed.sh [CORPUS_DIR]   (default: ../shared/corpus from the repo root)
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
corpus="${1:-$root/../shared/corpus}"
out="$here/corpus/api"
mkdir -p "$out"

python3 - "$corpus/shader-db" "$out" <<'PY'
import os, struct, sys
src_dir, out = sys.argv[1], sys.argv[2]
VERTEX, FRAGMENT, TRIANGLES = 0x8B31, 0x8B30, 0x0004

def raw_enum(v):
    return bytes([248]) + struct.pack('<I', v)

def source(name_byte, text):
    data = text.encode()[:65535]
    return bytes([14, name_byte, 255]) + struct.pack('<H', len(data)) + data

count = 0
for dirpath, _, files in sorted(os.walk(src_dir)):
    for f in sorted(files):
        if not f.endswith('.shader_test'):
            continue
        sections, cur = {}, None
        for line in open(os.path.join(dirpath, f), errors='replace'):
            if line.startswith('['):
                cur = line.strip()
                continue
            if cur in ('[vertex shader]', '[fragment shader]'):
                sections[cur] = sections.get(cur, '') + line
        if len(sections) != 2:
            continue
        seq = bytes([1])  # driver byte: the interpreter
        seq += bytes([13]) + raw_enum(VERTEX) + source(0, sections['[vertex shader]']) + bytes([15, 0])
        seq += bytes([13]) + raw_enum(FRAGMENT) + source(1, sections['[fragment shader]']) + bytes([15, 1])
        seq += bytes([16, 17, 0, 0, 17, 0, 1, 18, 0, 19, 0])
        seq += bytes([28]) + raw_enum(TRIANGLES) + bytes([0, 3])
        name = os.path.relpath(os.path.join(dirpath, f), src_dir).replace('/', '_')
        open(os.path.join(out, name), 'wb').write(seq)
        count += 1
print(f"wrote {count} seed inputs to {out}")
PY
