//! Robustness of the cache's files and payloads on a real entry (a program
//! linked through rgl's pipeline): truncation at every byte offset, random bit
//! flips, foreign files, another build's entries, a size cap smaller than the
//! entries, an unwritable directory and threads writing one directory at
//! once. Nothing may panic, and nothing damaged may be trusted.

use std::sync::Arc;

use rgl_glsl::{compile, CompileOptions, Stage};
use rgl_link::pipeline::{build_program, PipelineOptions};
use rgl_link::{Bindings, LinkedProgram};

use super::codec::{decode_program, encode_program};
use super::store::{decode_entry, encode_entry, Rejected, Store, HEADER_LEN};
use super::{faithful, parse_size, CacheKey, DiskCache, ShaderCacheOptions};

const VS: &str = "#version 150
in vec4 pos;
in vec2 uv;
out vec2 tc;
out vec4 tint;
uniform mat4 mvp;
uniform vec4 colors[3] = vec4[3](vec4(1.0), vec4(0.5), vec4(0.25));
void main() { gl_Position = mvp * pos; tc = uv; tint = colors[gl_VertexID % 3]; }
";
const FS: &str = "#version 150
in vec2 tc;
in vec4 tint;
out vec4 frag;
uniform sampler2D tex;
layout(std140) uniform Light { vec4 dir; float gain; };
void main() { frag = texture(tex, tc) * tint * dir * gain; }
";

fn linked() -> LinkedProgram {
    let vs = compile(VS, &CompileOptions::new(Stage::Vertex));
    let fs = compile(FS, &CompileOptions::new(Stage::Fragment));
    assert!(
        vs.success() && fs.success(),
        "{}{}",
        vs.info_log,
        fs.info_log
    );
    build_program(
        &[&vs, &fs],
        &Bindings::default(),
        PipelineOptions::default(),
    )
    .unwrap_or_else(|log| panic!("link failed: {log}"))
}

fn key(n: u8) -> CacheKey {
    CacheKey([n; 32])
}

const BUILD: [u8; 32] = [7; 32];

/// A deterministic xorshift generator (tests must not depend on a seed source).
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

#[test]
fn sizes_parse_like_mesa_with_bytes_by_default() {
    assert_eq!(parse_size("1G"), Some(1 << 30));
    assert_eq!(parse_size("500M"), Some(500 << 20));
    assert_eq!(parse_size("64k"), Some(64 << 10));
    assert_eq!(parse_size(" 4096 "), Some(4096));
    assert_eq!(parse_size("0"), Some(0));
    for bad in ["", "G", "-1", "1.5G", "12X", "1 G", "99999999999999999999G"] {
        assert_eq!(parse_size(bad), None, "{bad:?}");
    }
}

#[test]
fn payload_round_trips_faithfully() {
    let program = linked();
    let payload = encode_program(&program).expect("encodable");
    let decoded = decode_program(&payload).expect("decodes");
    assert!(faithful(&program, &decoded));
    assert!(!decoded.uniforms.is_empty() && !decoded.uniform_blocks.is_empty());
}

/// Every prefix of an entry file is rejected, and every prefix of its payload
/// (as if a file with a matching header and checksum held it) is an error.
#[test]
fn truncation_at_every_byte_offset() {
    let payload = encode_program(&linked()).expect("encodable");
    let entry = encode_entry(&BUILD, &key(1), &payload);
    assert_eq!(decode_entry(&BUILD, &key(1), &entry), Ok(&payload[..]));
    for n in 0..entry.len() {
        assert!(
            decode_entry(&BUILD, &key(1), &entry[..n]).is_err(),
            "a {n}-byte prefix was accepted"
        );
    }
    for n in 0..payload.len() {
        assert!(
            decode_program(&payload[..n]).is_err(),
            "a {n}-byte payload prefix decoded"
        );
    }
}

/// Flipped bits anywhere in the file are caught by the header checks or the
/// checksum; flipped bits in a payload whose checksum was recomputed (a
/// deliberately forged file) never panic the decoder.
#[test]
fn random_bit_flips() {
    let payload = encode_program(&linked()).expect("encodable");
    let entry = encode_entry(&BUILD, &key(1), &payload);
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    for _ in 0..2000 {
        let mut damaged = entry.clone();
        for _ in 0..1 + rng.below(3) {
            let bit = rng.below(damaged.len() * 8);
            damaged[bit / 8] ^= 1 << (bit % 8);
        }
        if damaged != entry {
            assert!(decode_entry(&BUILD, &key(1), &damaged).is_err());
        }
        let mut forged = payload.clone();
        let bit = rng.below(forged.len() * 8);
        forged[bit / 8] ^= 1 << (bit % 8);
        let _ = decode_program(&forged);
    }
}

fn store(dir: &std::path::Path, max_size: u64) -> Store {
    Store::new(dir.to_path_buf(), max_size, BUILD)
}

#[test]
fn store_rejects_and_deletes_damaged_files() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let s = store(tmp.path(), 1 << 20);
    let payload = encode_program(&linked()).expect("encodable");
    s.put(&key(1), &payload);
    assert_eq!(s.get(&key(1)).as_deref(), Some(&payload[..]));
    let path = s.entry_path(&key(1));
    let full = std::fs::read(&path).expect("entry written");
    // A sample of truncations through the real file path.
    for n in (0..full.len())
        .step_by(full.len() / 40 + 1)
        .chain(0..HEADER_LEN)
    {
        std::fs::write(&path, &full[..n]).expect("write");
        assert_eq!(s.get(&key(1)), None);
        assert!(!path.exists(), "a rejected entry is deleted");
    }
    // A stranger's file under the entry's name.
    std::fs::write(&path, b"#!/bin/sh\necho not a cache entry\n").expect("write");
    assert_eq!(s.get(&key(1)), None);
    // The entry of another key copied under this one's name.
    std::fs::write(&path, encode_entry(&BUILD, &key(2), &payload)).expect("write");
    assert_eq!(s.get(&key(1)), None);
    let stats = s
        .counters
        .rejected
        .load(std::sync::atomic::Ordering::Relaxed);
    assert!(stats >= 42, "{stats} rejections counted");
    // And the next write replaces it.
    s.put(&key(1), &payload);
    assert_eq!(s.get(&key(1)).as_deref(), Some(&payload[..]));
}

#[test]
fn another_build_is_never_trusted() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let payload = encode_program(&linked()).expect("encodable");
    store(tmp.path(), 1 << 20).put(&key(1), &payload);
    let other = Store::new(tmp.path().to_path_buf(), 1 << 20, [8; 32]);
    let file = std::fs::read(other.entry_path(&key(1))).expect("entry");
    assert_eq!(
        decode_entry(&other.build_id, &key(1), &file),
        Err(Rejected::Build)
    );
    assert_eq!(other.get(&key(1)), None);
    // The program key itself depends on the build too.
    let options = ShaderCacheOptions::new(tmp.path());
    let a = DiskCache::with_build_id(&options, [1; 32]);
    let b = DiskCache::with_build_id(&options, [2; 32]);
    let compiler = rgl_nir::options::StageOptions::default();
    let bindings = Bindings::default();
    assert_ne!(
        a.program_key(&[], &[], &bindings, &compiler),
        b.program_key(&[], &[], &bindings, &compiler)
    );
}

/// A cap smaller than one entry stores nothing; a cap of a few entries keeps
/// the directory under it by evicting the least recently used.
#[test]
fn tiny_cap_evicts_least_recently_used() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let payload = encode_program(&linked()).expect("encodable");
    let entry_size = (HEADER_LEN + payload.len()) as u64;
    let full = store(tmp.path(), entry_size - 1);
    full.put(&key(1), &payload);
    assert_eq!(full.get(&key(1)), None);
    assert_eq!(full.disk_usage(), 0);

    let cap = entry_size * 5 / 2;
    let s = store(tmp.path(), cap);
    s.put(&key(1), &payload);
    std::thread::sleep(std::time::Duration::from_millis(20));
    s.put(&key(2), &payload);
    std::thread::sleep(std::time::Duration::from_millis(20));
    assert!(
        s.get(&key(1)).is_some(),
        "a hit makes key 1 the most recent"
    );
    std::thread::sleep(std::time::Duration::from_millis(20));
    s.put(&key(3), &payload);
    assert!(s.disk_usage() <= cap);
    assert!(
        s.get(&key(2)).is_none(),
        "the least recently used went first"
    );
    assert!(s.get(&key(1)).is_some() && s.get(&key(3)).is_some());
    for n in 4..20 {
        s.put(&key(n), &payload);
        assert!(s.disk_usage() <= cap);
    }
}

/// The bytes the entries take are recorded at the top of the directory, so
/// a later process (a new `Store`) starts from that figure instead of
/// counting every entry file, and still keeps the directory under the cap.
#[test]
fn recorded_size_follows_writes_across_stores() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let payload = encode_program(&linked()).expect("encodable");
    let entry_size = (HEADER_LEN + payload.len()) as u64;
    let recorded = || -> u64 {
        std::fs::read_to_string(tmp.path().join(super::store::SIZE_FILE))
            .expect("size file")
            .trim()
            .parse()
            .expect("a number")
    };
    let cap = entry_size * 7 / 2;
    let a = store(tmp.path(), cap);
    a.put(&key(1), &payload);
    a.put(&key(2), &payload);
    assert_eq!(recorded(), a.disk_usage());
    assert_eq!(recorded(), 2 * entry_size);
    let b = store(tmp.path(), cap);
    b.put(&key(3), &payload);
    assert_eq!(recorded(), 3 * entry_size);
    // The fourth passes the cap by the recorded size: the directory is
    // counted, the oldest entry evicted, and the record corrected.
    b.put(&key(4), &payload);
    assert!(b.disk_usage() <= cap);
    assert_eq!(recorded(), b.disk_usage());
    // A record that says more than the directory holds is corrected at the
    // next count instead of evicting what fits.
    std::fs::write(
        tmp.path().join(super::store::SIZE_FILE),
        (cap * 10).to_string(),
    )
    .expect("write");
    let c = store(tmp.path(), cap);
    let before = c.disk_usage();
    c.put(&key(5), &payload);
    assert_eq!(recorded(), c.disk_usage());
    assert!(c.disk_usage() <= cap && c.disk_usage() >= before);
}

/// A directory that cannot be created (its parent is a file: unwritable even
/// for root) or that is read-only: writes fail quietly, reads miss.
#[test]
fn unwritable_directory_fails_quietly() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let payload = encode_program(&linked()).expect("encodable");
    let file = tmp.path().join("a-file");
    std::fs::write(&file, b"x").expect("write");
    let s = store(&file.join("cache"), 1 << 20);
    s.put(&key(1), &payload);
    assert_eq!(s.get(&key(1)), None);
    assert_eq!(
        s.counters
            .write_failures
            .load(std::sync::atomic::Ordering::Relaxed),
        1
    );
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let ro = tmp.path().join("ro");
        std::fs::create_dir(&ro).expect("mkdir");
        std::fs::set_permissions(&ro, std::fs::Permissions::from_mode(0o555)).expect("chmod");
        let s = store(&ro, 1 << 20);
        s.put(&key(1), &payload);
        // Root may still write there; whatever happened, a read is either the
        // payload or nothing.
        assert!(s.get(&key(1)).is_none_or(|p| p == payload));
        std::fs::set_permissions(&ro, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    }
}

/// Threads with their own stores (as separate processes would have) write the
/// same and different keys into one directory under a cap that forces
/// evictions; every entry left is intact.
#[test]
fn threads_fill_one_directory() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let payload = Arc::new(encode_program(&linked()).expect("encodable"));
    let entry_size = (HEADER_LEN + payload.len()) as u64;
    let cap = entry_size * 6;
    let threads: Vec<_> = (0..4u8)
        .map(|t| {
            let dir = tmp.path().to_path_buf();
            let payload = Arc::clone(&payload);
            std::thread::spawn(move || {
                let s = Store::new(dir, cap, BUILD);
                for round in 0..10u8 {
                    let k = if round % 2 == 0 {
                        key(100)
                    } else {
                        key(t * 16 + round)
                    };
                    s.put(&k, &payload);
                    if let Some(p) = s.get(&k) {
                        assert_eq!(p, *payload);
                    }
                }
            })
        })
        .collect();
    for t in threads {
        t.join().expect("writer thread");
    }
    let s = store(tmp.path(), cap);
    let mut intact = 0;
    for n in 0..=255u8 {
        if let Some(p) = s.get(&key(n)) {
            assert_eq!(p, *payload);
            intact += 1;
        }
    }
    assert!(intact >= 1);
    assert_eq!(
        s.counters
            .rejected
            .load(std::sync::atomic::Ordering::Relaxed),
        0
    );
}
