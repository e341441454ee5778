#!/usr/bin/env bash
# Fills nir/fuzz/corpus/passes/ (gitignored) with seed inputs for the `passes`
# fuzz target: every .nir file under nir/tests (file tests keep their `test`
# header, so the target runs that pass) and, when the shared corpus is there,
# the final NIR of the shader-db programs as `rglc` prints it.
# Usage: nir/fuzz/seed.sh [CORPUS_DIR]   (default: ../shared/corpus from the repo root)
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
corpus="${1:-$root/../shared/corpus}"
out="$here/corpus/passes"
mkdir -p "$out"

count=0
while IFS= read -r -d '' file; do
    name="$(printf '%s' "${file#"$root"/nir/tests/}" | tr '/' '_')"
    # File tests: keep the input, drop the expectations.
    sed '/^; expect:/,$d' "$file" > "$out/$name"
    count=$((count + 1))
done < <(find "$root/nir/tests" -type f -name '*.nir' -print0 | sort -z)
echo "wrote $count seed inputs from nir/tests to $out"

# shader-db: each program's NIR straight out of glsl_to_nir, one seed per stage.
rglc="$root/target/release/rglc"
if [ -d "$corpus/shader-db" ]; then
    [ -x "$rglc" ] || (cd "$root" && cargo build --release -q -p rgl-conformance --bin rglc)
    progs=0
    while IFS= read -r -d '' file; do
        base="$(printf '%s' "${file#"$corpus"/}" | tr '/' '_')"
        "$rglc" --link --dump-nir-passes "$file" 2>/dev/null | awk -v dir="$out" -v base="$base" '
            /^NIR \(stage [0-9]+\) after / {
                out = ""
                if ($0 ~ /after glsl_to_nir:$/) { out = dir "/" base "_" $3; sub(/\)$/, "", out) }
                next
            }
            out != "" { print > out }
        ' || true
        progs=$((progs + 1))
    done < <(find "$corpus/shader-db" -type f -name '*.shader_test' -print0 | sort -z)
    echo "added the glsl_to_nir NIR of $progs shader-db programs to $out"
fi
