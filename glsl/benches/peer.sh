#!/usr/bin/env bash
# The peer measurement for BENCHMARKS.md: glslangValidator (Debian package
# glslang-tools) compiling the same shader-db shaders as the `frontend` bench,
# all in ONE process, timed by hyperfine (median wall time, mean user+sys).
# Usage: glsl/benches/peer.sh [RUNS]   (run from anywhere; installs nothing)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
runs="${1:-10}"
for tool in glslangValidator hyperfine; do
    command -v "$tool" >/dev/null || { echo "error: $tool not found (apt-get install -y glslang-tools hyperfine)" >&2; exit 1; }
done
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
cd "$root"
RGL_BENCH_EXPORT="$dir" cargo bench -q -p rgl-glsl --bench frontend
echo "shaders: $(ls "$dir" | wc -l), bytes: $(cat "$dir"/* | wc -c)"
# glslangValidator exits non-zero when a shader fails to compile; -i keeps the timing.
glslangValidator "$dir"/*.vert "$dir"/*.frag > "$dir.log" 2>&1 || true
echo "glslangValidator: $(grep -c 'compilation errors' "$dir.log" || true) shaders with errors (log: $dir.log)"
hyperfine -N -i --warmup 1 --runs "$runs" --export-json "$dir.json" \
    "glslangValidator $(cd "$dir" && ls | sed "s|^|$dir/|" | tr '\n' ' ')" > /dev/null
python3 - "$dir.json" <<'PY'
import json, statistics, sys
r = json.load(open(sys.argv[1]))["results"][0]
print(f"glslangValidator, one process: median wall {r['median']*1e3:.1f} ms, "
      f"mean user {r['user']*1e3:.1f} ms + sys {r['system']*1e3:.1f} ms, runs {len(r['times'])}")
PY
