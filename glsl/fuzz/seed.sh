#!/usr/bin/env bash
# Fills glsl/fuzz/corpus/compile/ and corpus/link/ (gitignored) with seed inputs
# for the `compile` and `link` fuzz targets. `compile`: every glslparser shader of the piglit corpora and
# every vertex/fragment section of the shader-db .shader_test files, each
# prefixed with the stage byte the target expects ('0' vertex, '1' fragment,
# '2' geometry). The corpus is read in place; nothing is added to git.
# Usage: glsl/fuzz/seed.sh [CORPUS_DIR]   (default: ../shared/corpus from the repo root)
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
corpus="${1:-$root/../shared/corpus}"
out="$here/corpus/compile"
mkdir -p "$out"

count=0
add() { # add STAGE_BYTE NAME < source
    local dest="$out/$2"
    { printf '%s' "$1"; cat; } > "$dest"
    count=$((count + 1))
}

while IFS= read -r -d '' file; do
    case "$file" in
        *.vert) byte=0 ;;
        *.frag) byte=1 ;;
        *.geom) byte=2 ;;
        *) continue ;;
    esac
    name="$(printf '%s' "${file#"$corpus"/}" | tr '/' '_')"
    add "$byte" "$name" < "$file"
done < <(find "$corpus/piglit" "$corpus/piglit-geometry" -type f \( -name '*.vert' -o -name '*.frag' -o -name '*.geom' \) -print0 | sort -z)

# shader-db: split each .shader_test into its shader sections.
while IFS= read -r -d '' file; do
    base="$(printf '%s' "${file#"$corpus"/}" | tr '/' '_')"
    tmp="$(mktemp -d)"
    awk -v dir="$tmp" '
        /^\[/ { section = $0; n++; out = ""
                if (section == "[vertex shader]") out = dir "/" n ".0"
                else if (section == "[fragment shader]") out = dir "/" n ".1"
                next }
        out != "" { print > out }
    ' "$file"
    for part in "$tmp"/*; do
        [ -e "$part" ] || continue
        byte="${part##*.}"
        add "$byte" "${base}_$(basename "$part")" < "$part"
    done
    rm -rf "$tmp"
done < <(find "$corpus/shader-db" -type f -name '*.shader_test' -print0 | sort -z)

echo "wrote $count seed inputs to $out"

# The `link` target: each shader-db program as "0<vertex source>\0" + "1<fragment source>".
link_out="$here/corpus/link"
mkdir -p "$link_out"
links=0
while IFS= read -r -d '' file; do
    base="$(printf '%s' "${file#"$corpus"/}" | tr '/' '_')"
    awk '
        /^\[/ { section = $0; next }
        section == "[vertex shader]" { vs = vs $0 "\n" }
        section == "[fragment shader]" { fs = fs $0 "\n" }
        END { printf "0%s%c1%s", vs, 0, fs }
    ' "$file" > "$link_out/$base"
    links=$((links + 1))
done < <(find "$corpus/shader-db" -type f -name '*.shader_test' -print0 | sort -z)
echo "wrote $links seed inputs to $link_out"
