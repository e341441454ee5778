//! Driver-variant entries on a real JIT variant (a program compiled, linked and
//! drawn on the `jit` driver): truncation at every byte offset and random bit
//! flips are rejected by the entry checks before the driver sees a byte; entries
//! with a valid checksum whose code names an unknown relocation symbol, kind,
//! descriptor or offset are refused by the driver's loader, deleted, and the
//! variant is built instead — with the pixels of a fresh compile every time.

use std::path::{Path, PathBuf};

use rgl_backend::jit::code::{FunctionBlob, Relocation, Symbol};

use super::codec::{decode_variant, VariantStage};
use super::store::entry_files;
use super::{CacheKey, ShaderCacheOptions};
use crate::variants::VariantKey;
use crate::{gl, Context};

const SIZE: u32 = 8;

/// A vertex shader without attributes (a full-screen triangle from
/// `gl_VertexID`) and a fragment shader, both with a texture lookup (a
/// sampling helper and its descriptor), the fragment shader also with an
/// integer division (an ALU helper on some hosts). The vertex shader's
/// lookup matters: a fragment shader drawn through a fused pipeline is stored
/// without code (its invocation function is built on first use), so the
/// vertex stage is the one whose stored code carries the relocations the
/// forgery tests rewrite.
const VS: &str = "#version 150
out vec2 tc;
uniform sampler2D tex;
void main() {
    vec2 p = vec2(gl_VertexID == 1 ? 3.0 : -1.0, gl_VertexID == 2 ? 3.0 : -1.0);
    tc = p * 0.5 + 0.5 + textureLod(tex, vec2(0.5), 0.0).xy * 0.25;
    gl_Position = vec4(p, 0.0, 1.0);
}
";
const FS: &str = "#version 150
in vec2 tc;
out vec4 frag;
uniform sampler2D tex;
uniform int k;
void main() {
    int q = int(tc.x * 64.0) / (k + 3);
    frag = texture(tex, tc) + vec4(tc, float(q) / 16.0, 1.0);
}
";

/// A `jit` context with its cache in `dir`, or `None` on a host without the JIT.
fn context(dir: &Path) -> Option<Context> {
    let mut ctx = Context::new_headless_on("jit", SIZE, SIZE).ok()?;
    ctx.set_shader_cache(Some(ShaderCacheOptions::new(dir)));
    Some(ctx)
}

/// Compiles and links the program; with `draw`, draws once and returns the
/// pixels.
fn run(ctx: &mut Context, draw: bool) -> Vec<u8> {
    run_program(ctx, draw).1
}

fn run_program(ctx: &mut Context, draw: bool) -> (crate::names::Program, Vec<u8>) {
    let vao = ctx.create_vertex_array().expect("vao");
    ctx.bind_vertex_array(Some(vao));
    let p = ctx.create_program().expect("program");
    for (kind, src) in [(gl::VERTEX_SHADER, VS), (gl::FRAGMENT_SHADER, FS)] {
        let s = ctx.create_shader(kind).expect("shader");
        ctx.shader_source(s, src);
        ctx.compile_shader(s);
        ctx.attach_shader(p, s);
    }
    ctx.link_program(p);
    assert!(
        ctx.get_program_link_status(p),
        "{}",
        ctx.get_program_info_log(p)
    );
    if !draw {
        return (p, Vec::new());
    }
    ctx.use_program(Some(p));
    ctx.clear_color(0.1, 0.2, 0.3, 0.4);
    ctx.clear(gl::COLOR_BUFFER_BIT);
    ctx.draw_arrays(gl::TRIANGLES, 0, 3);
    assert_eq!(ctx.last_draw_error(), None);
    let mut pixels = vec![0u8; (SIZE * SIZE * 4) as usize];
    ctx.read_pixels(
        0,
        0,
        SIZE as i32,
        SIZE as i32,
        gl::RGBA,
        gl::UNSIGNED_BYTE,
        &mut pixels,
    );
    (p, pixels)
}

/// A cache directory holding the program's entries, its variant entry and its
/// fused pipeline's entry: the directory, the variant entry's path and key,
/// the pipeline entry's path, and the pixels.
struct Fixture {
    dir: tempfile::TempDir,
    path: PathBuf,
    key: CacheKey,
    pipeline: PathBuf,
    pixels: Vec<u8>,
}

fn fixture() -> Option<Fixture> {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut ctx = context(dir.path())?;
    run(&mut ctx, false);
    let before = entry_files(dir.path());
    let (program, pixels) = run_program(&mut ctx, true);
    // The pipeline entry is written by the JIT's optimised rebuild (tiers).
    ctx.wait_background_compiles();
    let (cache, key) = ctx.variant_entry(program, &VariantKey::default())?;
    let path = cache.store.entry_path(&key);
    let new: Vec<PathBuf> = entry_files(dir.path())
        .into_iter()
        .filter(|f| !before.contains(f))
        .collect();
    assert_eq!(new.len(), 2, "a variant and a pipeline entry: {new:?}");
    assert!(new.contains(&path), "{new:?}");
    let pipeline = new.into_iter().find(|f| *f != path)?;
    assert_eq!(ctx.variant_stats().loaded, 0);
    Some(Fixture {
        dir,
        path,
        key,
        pipeline,
        pixels,
    })
}

#[test]
fn warm_variant_loads_without_compiling() {
    let Some(f) = fixture() else {
        eprintln!("no JIT on this host");
        return;
    };
    let mut ctx = context(f.dir.path()).expect("jit");
    assert_eq!(run(&mut ctx, true), f.pixels);
    let v = ctx.variant_stats();
    assert_eq!(
        (v.misses, v.loaded, v.stages_compiled, v.stages_loaded),
        (1, 1, 0, 2),
        "{v:?}"
    );
    let s = ctx.shader_cache_stats();
    assert_eq!((s.variant_hits, s.rejected), (1, 0), "{s:?}");
}

#[test]
fn truncated_and_flipped_variant_entries_are_rejected() {
    let Some(f) = fixture() else {
        eprintln!("no JIT on this host");
        return;
    };
    let ctx = context(f.dir.path()).expect("jit");
    let cache = ctx.disk_cache.clone().expect("cache");
    let bytes = std::fs::read(&f.path).expect("entry");
    for cut in 0..bytes.len() {
        std::fs::write(&f.path, &bytes[..cut]).expect("write");
        assert!(cache.load_variant(&f.key).is_none(), "cut at {cut}");
        assert!(!f.path.exists(), "a rejected entry is deleted (cut {cut})");
    }
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    for _ in 0..400 {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let bit = (seed % (bytes.len() as u64 * 8)) as usize;
        let mut flipped = bytes.clone();
        flipped[bit / 8] ^= 1 << (bit % 8);
        std::fs::write(&f.path, &flipped).expect("write");
        assert!(cache.load_variant(&f.key).is_none(), "bit {bit}");
    }
    let rejected = cache.stats().rejected;
    assert_eq!(rejected, bytes.len() as u64 + 400);
    // The intact entry still loads, and a start on it draws the same pixels.
    std::fs::write(&f.path, &bytes).expect("write");
    assert!(cache.load_variant(&f.key).is_some());
    let mut ctx = context(f.dir.path()).expect("jit");
    assert_eq!(run(&mut ctx, true), f.pixels);
    assert_eq!(ctx.variant_stats().loaded, 1);
}

#[test]
fn damaged_pipeline_entries_are_rebuilt() {
    let Some(f) = fixture() else {
        eprintln!("no JIT on this host");
        return;
    };
    let bytes = std::fs::read(&f.pipeline).expect("entry");
    let mut ctx = context(f.dir.path()).expect("jit");
    assert_eq!(run(&mut ctx, true), f.pixels);
    let s = ctx.shader_cache_stats();
    assert_eq!((s.code_hits, s.code_misses, s.rejected), (1, 0, 0), "{s:?}");
    // A cut, a flipped bit, and a blob whose checksum holds but which is not
    // code: each start draws the same pixels and replaces the entry.
    let mut flipped = bytes.clone();
    let last = flipped.len() - 1;
    flipped[last] ^= 0x10;
    let forged = super::store::encode_entry(
        &ctx.disk_cache.as_ref().expect("cache").store.build_id,
        &CacheKey(key_of(&f.pipeline)),
        b"not a pipeline",
    );
    for (what, damaged) in [
        ("cut", bytes[..bytes.len() / 2].to_vec()),
        ("flipped", flipped),
        ("forged", forged),
    ] {
        std::fs::write(&f.pipeline, damaged).expect("write");
        let mut ctx = context(f.dir.path()).expect("jit");
        assert_eq!(run(&mut ctx, true), f.pixels, "{what}");
        // The replacement is the optimised rebuild's (tiered compiles).
        ctx.wait_background_compiles();
        let s = ctx.shader_cache_stats();
        assert_eq!(s.rejected, 1, "{what}: {s:?}");
        assert_eq!(
            std::fs::read(&f.pipeline).ok(),
            Some(bytes.clone()),
            "{what}"
        );
    }
}

/// The key of an entry file, from its path.
fn key_of(path: &Path) -> [u8; 32] {
    let name = |p: Option<&Path>| {
        p.and_then(Path::file_name)
            .and_then(|n| n.to_str())
            .unwrap_or_default()
            .to_string()
    };
    let hex = name(path.parent()) + &name(Some(path));
    let mut key = [0u8; 32];
    for (i, b) in key.iter_mut().enumerate() {
        *b = hex
            .get(2 * i..2 * i + 2)
            .and_then(|h| u8::from_str_radix(h, 16).ok())
            .unwrap_or(0);
    }
    key
}

/// Rewrites the first stored stage's code with `forge` and stores it with a
/// valid checksum; a start must refuse it, build, and draw the same pixels.
fn refused(f: &Fixture, what: &str, forge: impl Fn(&mut FunctionBlob) -> Option<Vec<u8>>) {
    let ctx = context(f.dir.path()).expect("jit");
    let cache = ctx.disk_cache.clone().expect("cache");
    let good = std::fs::read(&f.path).expect("entry");
    let stages = cache.load_variant(&f.key).expect("the intact entry");
    let mut forged: Vec<VariantStage> = stages.clone();
    let mut done = false;
    for st in &mut forged {
        let Some(code) = &st.code else { continue };
        let mut blob = FunctionBlob::decode(code).expect("a stored blob decodes");
        if let Some(bytes) = forge(&mut blob) {
            st.code = Some(bytes);
            done = true;
            break;
        }
    }
    assert!(done, "{what}: no stage to forge");
    cache.store_variant(&f.key, &forged);
    assert_eq!(
        decode_variant(
            super::store::decode_entry(
                &cache.store.build_id,
                &f.key,
                &std::fs::read(&f.path).expect("forged entry")
            )
            .expect("a valid entry")
        )
        .ok(),
        Some(forged),
        "{what}"
    );
    let mut ctx = context(f.dir.path()).expect("jit");
    assert_eq!(run(&mut ctx, true), f.pixels, "{what}");
    let s = ctx.shader_cache_stats();
    let v = ctx.variant_stats();
    assert_eq!(
        (s.variant_hits, s.rejected, v.loaded, v.stages_loaded),
        (0, 1, 0, 0),
        "{what}: {s:?} {v:?}"
    );
    // The build stored a good entry again.
    let mut ctx = context(f.dir.path()).expect("jit");
    assert_eq!(run(&mut ctx, true), f.pixels, "{what}");
    assert_eq!(ctx.variant_stats().loaded, 1, "{what}");
    std::fs::write(&f.path, good).expect("restore");
}

#[test]
fn forged_variant_code_is_refused() {
    let Some(f) = fixture() else {
        eprintln!("no JIT on this host");
        return;
    };
    let reloc = |blob: &mut FunctionBlob, change: &dyn Fn(&mut Relocation)| {
        let r = blob.image.relocs.first_mut()?;
        change(r);
        Some(blob.encode())
    };
    refused(&f, "unknown helper symbol", |b| {
        reloc(b, &|r| r.symbol = Symbol::Helper(999))
    });
    refused(&f, "descriptor out of range", |b| {
        let n = b.digests.len() as u32;
        reloc(b, &|r| r.symbol = Symbol::Descriptor(n + 7))
    });
    refused(&f, "relocation outside the code", |b| {
        let len = b.image.code.len() as u32;
        reloc(b, &|r| r.offset = len - 4)
    });
    refused(&f, "another descriptor digest", |b| {
        let d = b.digests.first_mut()?;
        *d ^= 1;
        Some(b.encode())
    });
    refused(&f, "unknown relocation kind", |b| {
        b.image.relocs.first()?;
        let mut bytes = b.encode();
        // The first relocation's kind byte follows the header, the digests, the
        // code and its length, the relocation count and its offset.
        let at = 8 + 4 + 2 + 16 + 4 + 8 * b.digests.len() + 4 + b.image.code.len() + 4 + 4;
        bytes[at] = 200;
        Some(bytes)
    });
    refused(&f, "another format version", |b| {
        let mut bytes = b.encode();
        bytes[8] ^= 0x40;
        Some(bytes)
    });
    refused(&f, "a garbage blob", |_| Some(b"not code".to_vec()));
}
