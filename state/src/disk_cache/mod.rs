//! The on-disk shader cache (Mesa's `disk_cache`): linked programs stored across
//! runs, so that a warm start of an application skips the compiles, the link
//! and the link-time NIR pipeline of every program it linked before.
//!
//! * Configuration: [`ShaderCacheOptions::from_env`] reads
//!   `RGL_SHADER_CACHE_DISABLE`, `RGL_SHADER_CACHE_DIR` (else
//!   `$XDG_CACHE_HOME/rgl`, else `$HOME/.cache/rgl`) and
//!   `RGL_SHADER_CACHE_MAX_SIZE` (default 1 GiB), as Mesa reads its
//!   `MESA_SHADER_CACHE_*` variables; [`Context::set_shader_cache`] replaces a
//!   context's cache (tests give each context its own directory).
//! * Keys ([`CacheKey`]): SHA3-256 over rgl's [`build_identity`], the stage and
//!   source text of every attached shader as compiled, the fixed-function
//!   stand-in stages, the bound attribute and fragment-data locations and the
//!   driver's compiler options (what `glLinkProgram`'s result depends on;
//!   object names only appear in debug dumps and are left out).
//! * Entries: [`store`] (file layout, checks, atomic writes, size cap and LRU
//!   eviction) holding a [`codec`] payload: for a program, its interface and
//!   each stage's final NIR as text; for a shader, the record that its source
//!   compiled, with its info log.
//! * Skipped compiles (Mesa's `COMPILE_SKIPPED`): `glCompileShader` of a source
//!   with a record reports the recorded status and info log without running
//!   the front end; the link then looks the program up, and on a miss compiles
//!   the skipped shaders before linking (so every observable result is a
//!   compile's).
//!
//! * Driver variants: at a draw-time variant miss the state tracker looks up
//!   the entry keyed by the program's key, the variant key and the driver's
//!   serialisation identity ([`DiskCache::variant_key`]); it holds per stage
//!   the finalized NIR text when the draw-time lowering changed it and the
//!   driver's serialised code ([`codec::VariantStage`]). A hit loads the
//!   stages through the driver without lowering or compiling; an entry the
//!   driver refuses is deleted like a damaged one and the variant is built.
//!
//! * Lazily built driver code: each stage of a variant with an entry gets a
//!   [`DriverCodeStore`] (the driver's [`CodeStore`]) under the variant's key
//!   and stage, where the JIT stores the fused per-pixel pipelines it builds
//!   at draws (keyed further by the pipeline key) and looks them up first.
//!
//! What a warm start still does: hashing the sources, reading and checking the
//! entries, decoding the program (NIR text parse and validation), and at the
//! first draw the variant and pipeline loads (the driver emits the IR again
//! for the descriptors its code points at, without compiling it, and maps the
//! stored code).

pub(crate) mod codec;
pub(crate) mod store;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod variant_tests;

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};

use rgl_backend::exec::CodeStore;
use rgl_glsl::Stage;
use rgl_link::{Bindings, LinkedProgram};
use rgl_nir::options::StageOptions;
use sha3::{Digest, Sha3_256};

use crate::Context;
pub use store::Rejected;
use store::Store;

/// Environment variable that turns the cache off (`1`, `true`, `yes`, `on`).
pub const DISABLE_VAR: &str = "RGL_SHADER_CACHE_DISABLE";
/// Environment variable naming the cache directory.
pub const DIR_VAR: &str = "RGL_SHADER_CACHE_DIR";
/// Environment variable giving the size cap.
pub const MAX_SIZE_VAR: &str = "RGL_SHADER_CACHE_MAX_SIZE";
/// Default size cap: 1 GiB, as Mesa's.
pub const DEFAULT_MAX_SIZE: u64 = 1 << 30;

/// Where a context's shader cache lives and how large it may grow.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShaderCacheOptions {
    /// The cache directory (created at the first write).
    pub dir: PathBuf,
    /// Size cap in bytes of all entries together.
    pub max_size: u64,
}

impl ShaderCacheOptions {
    /// A cache in `dir` with the default size cap.
    pub fn new(dir: impl Into<PathBuf>) -> ShaderCacheOptions {
        ShaderCacheOptions {
            dir: dir.into(),
            max_size: DEFAULT_MAX_SIZE,
        }
    }

    /// The cache the environment asks for, or `None` when
    /// `RGL_SHADER_CACHE_DISABLE` is set or no directory can be named (no
    /// `RGL_SHADER_CACHE_DIR`, `XDG_CACHE_HOME` nor `HOME`). A
    /// `RGL_SHADER_CACHE_MAX_SIZE` that is not a size is ignored with a
    /// warning.
    pub fn from_env() -> Option<ShaderCacheOptions> {
        let var = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty());
        if let Some(v) = var(DISABLE_VAR) {
            let v = v.to_string_lossy().trim().to_ascii_lowercase();
            match v.as_str() {
                "0" | "false" | "no" | "off" => {}
                "1" | "true" | "yes" | "on" => return None,
                _ => {
                    log::warn!("{DISABLE_VAR}={v:?} is not a boolean; the shader cache is off");
                    return None;
                }
            }
        }
        let dir = var(DIR_VAR)
            .map(PathBuf::from)
            .or_else(|| var("XDG_CACHE_HOME").map(|d| PathBuf::from(d).join("rgl")))
            .or_else(|| var("HOME").map(|h| PathBuf::from(h).join(".cache").join("rgl")))?;
        let max_size = match var(MAX_SIZE_VAR) {
            Some(v) => {
                let v = v.to_string_lossy();
                parse_size(&v).unwrap_or_else(|| {
                    log::warn!("{MAX_SIZE_VAR}={v:?} is not a size; using 1G");
                    DEFAULT_MAX_SIZE
                })
            }
            None => DEFAULT_MAX_SIZE,
        };
        Some(ShaderCacheOptions { dir, max_size })
    }
}

/// A size as `RGL_SHADER_CACHE_MAX_SIZE` takes it: a decimal number of bytes,
/// or a number with a `K`, `M` or `G` suffix (either case; binary multiples, as
/// Mesa's `MESA_SHADER_CACHE_MAX_SIZE`). Unlike Mesa, a bare number is bytes,
/// not gigabytes. `None` for anything else or an overflow.
pub fn parse_size(text: &str) -> Option<u64> {
    let text = text.trim();
    let (digits, shift) = match text.as_bytes().last()? {
        b'K' | b'k' => (&text[..text.len() - 1], 10),
        b'M' | b'm' => (&text[..text.len() - 1], 20),
        b'G' | b'g' => (&text[..text.len() - 1], 30),
        _ => (text, 0),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse::<u64>().ok()?.checked_mul(1u64 << shift)
}

/// What a context's shader cache did, for tests and diagnostics.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct ShaderCacheStats {
    /// Links answered from the cache.
    pub hits: u64,
    /// Links of compiled shaders that found no usable entry (rejected entries
    /// included).
    pub misses: u64,
    /// Compiles answered by a shader record.
    pub compiles_skipped: u64,
    /// Entries found but not trusted (see [`Rejected`]), then deleted.
    pub rejected: u64,
    /// Entries written.
    pub writes: u64,
    /// Entries not written (full cap, a read-only directory, an I/O error, a
    /// program the payload cannot encode).
    pub write_failures: u64,
    /// Entries evicted to stay under the cap.
    pub evictions: u64,
    /// Draw-time variants loaded from a driver-variant entry (no lowering, no
    /// driver compile).
    pub variant_hits: u64,
    /// Variant builds that found no usable driver-variant entry (rejected
    /// entries and entries the driver refused included).
    pub variant_misses: u64,
    /// Lazily built driver code (the JIT's fused pipelines) found in the
    /// cache and handed to the driver.
    pub code_hits: u64,
    /// Lookups of lazily built driver code that found no trusted entry.
    pub code_misses: u64,
}

/// The counters behind [`ShaderCacheStats`], shared by the link jobs.
#[derive(Debug, Default)]
pub(crate) struct Counters {
    pub(crate) hits: AtomicU64,
    pub(crate) misses: AtomicU64,
    pub(crate) compiles_skipped: AtomicU64,
    pub(crate) rejected: AtomicU64,
    pub(crate) writes: AtomicU64,
    pub(crate) write_failures: AtomicU64,
    pub(crate) evictions: AtomicU64,
    pub(crate) variant_hits: AtomicU64,
    pub(crate) variant_misses: AtomicU64,
    pub(crate) code_hits: AtomicU64,
    pub(crate) code_misses: AtomicU64,
}

impl Counters {
    fn snapshot(&self) -> ShaderCacheStats {
        let get = |c: &AtomicU64| c.load(Ordering::Relaxed);
        ShaderCacheStats {
            hits: get(&self.hits),
            misses: get(&self.misses),
            compiles_skipped: get(&self.compiles_skipped),
            rejected: get(&self.rejected),
            writes: get(&self.writes),
            write_failures: get(&self.write_failures),
            evictions: get(&self.evictions),
            variant_hits: get(&self.variant_hits),
            variant_misses: get(&self.variant_misses),
            code_hits: get(&self.code_hits),
            code_misses: get(&self.code_misses),
        }
    }
}

/// A cache key: a SHA3-256 digest.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct CacheKey(pub(crate) [u8; 32]);

impl CacheKey {
    /// The key as 64 lowercase hex digits (the entry's file name).
    pub(crate) fn hex(&self) -> String {
        use std::fmt::Write;
        self.0.iter().fold(String::with_capacity(64), |mut s, b| {
            let _ = write!(s, "{b:02x}");
            s
        })
    }
}

/// Feeds length-prefixed fields to SHA3-256, so that no two field lists hash
/// the same bytes.
struct KeyHasher(Sha3_256);

impl KeyHasher {
    fn new(domain: &str) -> KeyHasher {
        let mut h = KeyHasher(Sha3_256::new());
        h.bytes(domain.as_bytes());
        h
    }
    fn bytes(&mut self, b: &[u8]) {
        self.0.update((b.len() as u64).to_le_bytes());
        self.0.update(b);
    }
    fn u32(&mut self, v: u32) {
        self.bytes(&v.to_le_bytes());
    }
    fn finish(self) -> [u8; 32] {
        self.0.finalize().into()
    }
}

/// The digest of one shader's compile input (its stage and source text), taken
/// when `glCompileShader` is called; program keys are built from these.
/// The `RGL_GLSL_VERSION_OVERRIDE` in force is part of it: it changes what the
/// front end makes of the text.
pub(crate) fn source_digest(stage: Stage, source: &str) -> [u8; 32] {
    let mut h = KeyHasher::new("rgl shader source");
    h.u32(stage as u32);
    h.u32(rgl_glsl::debug::version_override().map_or(0, |v| u32::from(v) + 1));
    h.bytes(source.as_bytes());
    h.finish()
}

/// rgl's build identity: SHA3-256 of the crate version and the size and
/// modification time of the running executable (Mesa's fallback when it has no
/// build-id note: the timestamp of the library holding the compiler,
/// `disk_cache_get_function_timestamp`). Every rebuild of the binary — and so
/// every change of the compiler inside it — gives a new identity, so entries
/// of another build are never looked up. `None` when the executable cannot be
/// examined: the cache is then off.
pub fn build_identity() -> Option<[u8; 32]> {
    static ID: OnceLock<Option<[u8; 32]>> = OnceLock::new();
    *ID.get_or_init(|| {
        let exe = std::env::current_exe().ok()?;
        let meta = std::fs::metadata(&exe).ok()?;
        let modified = meta
            .modified()
            .ok()?
            .duration_since(std::time::UNIX_EPOCH)
            .ok()?;
        let mut h = KeyHasher::new("rgl build");
        h.bytes(env!("CARGO_PKG_VERSION").as_bytes());
        h.u32(store::ENTRY_VERSION);
        h.u32(codec::PAYLOAD_VERSION);
        h.bytes(&meta.len().to_le_bytes());
        h.bytes(&modified.as_nanos().to_le_bytes());
        Some(h.finish())
    })
}

/// A context's shader cache: one directory, shared with the context's link
/// jobs.
#[derive(Debug)]
pub(crate) struct DiskCache {
    store: Store,
}

/// What a link job needs to look its program up and store it.
#[derive(Clone, Debug)]
pub(crate) struct ProgramLookup {
    pub(crate) cache: Arc<DiskCache>,
    pub(crate) key: CacheKey,
}

impl DiskCache {
    /// The cache `options` describe, under this build's identity (`None` when
    /// it has none).
    pub(crate) fn open(options: &ShaderCacheOptions) -> Option<Arc<DiskCache>> {
        let Some(build_id) = build_identity() else {
            log::warn!("shader cache: cannot identify this rgl build; the cache is off");
            return None;
        };
        Some(Arc::new(DiskCache::with_build_id(options, build_id)))
    }

    pub(crate) fn with_build_id(options: &ShaderCacheOptions, build_id: [u8; 32]) -> DiskCache {
        DiskCache {
            store: Store::new(options.dir.clone(), options.max_size, build_id),
        }
    }

    /// The cache the environment configures, shared by every context that did
    /// not choose its own. `RGL_GLSL` debug output (dumps, sources, logs of
    /// every compile and link) turns it off, since cached results skip the
    /// work that prints them.
    pub(crate) fn from_env() -> Option<Arc<DiskCache>> {
        static SHARED: OnceLock<Option<Arc<DiskCache>>> = OnceLock::new();
        SHARED
            .get_or_init(|| {
                let flags = rgl_glsl::debug::flags();
                if flags.dump || flags.source || flags.log || flags.errors {
                    log::debug!("RGL_GLSL debug output is on: the shader cache is off");
                    return None;
                }
                ShaderCacheOptions::from_env().and_then(|o| DiskCache::open(&o))
            })
            .clone()
    }

    /// The key of the compile record of a shader with `digest`
    /// ([`source_digest`]).
    fn shader_key(&self, digest: &[u8; 32]) -> CacheKey {
        let mut h = KeyHasher::new("rgl compiled shader");
        h.bytes(&self.store.build_id);
        h.bytes(digest);
        CacheKey(h.finish())
    }

    /// The info log of a successful compile of the shader with `digest`, if
    /// one is recorded.
    pub(crate) fn load_shader_record(&self, digest: &[u8; 32]) -> Option<String> {
        let key = self.shader_key(digest);
        let payload = self.store.get(&key)?;
        match codec::decode_shader_record(&payload) {
            Ok(log) => {
                self.store
                    .counters
                    .compiles_skipped
                    .fetch_add(1, Ordering::Relaxed);
                Some(log)
            }
            Err(e) => {
                self.store.reject(&key, &Rejected::Payload(e.to_string()));
                None
            }
        }
    }

    /// Records that the shader with `digest` compiled with `info_log`.
    pub(crate) fn store_shader_record(&self, digest: &[u8; 32], info_log: &str) {
        let key = self.shader_key(digest);
        self.store.put(&key, &codec::encode_shader_record(info_log));
    }

    /// The key of a program linked from shaders with `sources` (stage and
    /// [`source_digest`], in attach order), fixed-function `stand_ins`, the
    /// API `bindings` and the driver's `compiler` options.
    pub(crate) fn program_key(
        &self,
        sources: &[(Stage, [u8; 32])],
        stand_ins: &[Stage],
        bindings: &Bindings,
        compiler: &StageOptions,
    ) -> CacheKey {
        let mut h = KeyHasher::new("rgl linked program");
        h.bytes(&self.store.build_id);
        h.u32(sources.len() as u32);
        for (stage, digest) in sources {
            h.u32(*stage as u32);
            h.bytes(digest);
        }
        h.u32(stand_ins.len() as u32);
        for stage in stand_ins {
            h.u32(*stage as u32);
        }
        h.u32(bindings.attribs.len() as u32);
        for (name, index) in &bindings.attribs {
            h.bytes(name.as_bytes());
            h.u32(*index);
        }
        h.u32(bindings.frag_data.len() as u32);
        for (name, color, index) in &bindings.frag_data {
            h.bytes(name.as_bytes());
            h.u32(*color);
            h.u32(*index);
        }
        h.bytes(format!("{compiler:?}").as_bytes());
        CacheKey(h.finish())
    }

    /// The program stored under `key`, if a trusted entry decodes.
    pub(crate) fn load_program(&self, key: &CacheKey) -> Option<LinkedProgram> {
        let Some(payload) = self.store.get(key) else {
            self.store.counters.misses.fetch_add(1, Ordering::Relaxed);
            return None;
        };
        match codec::decode_program(&payload) {
            Ok(program) => {
                self.store.counters.hits.fetch_add(1, Ordering::Relaxed);
                log::debug!("shader cache: hit {}", key.hex());
                Some(program)
            }
            Err(e) => {
                self.store.reject(key, &Rejected::Payload(e.to_string()));
                self.store.counters.misses.fetch_add(1, Ordering::Relaxed);
                None
            }
        }
    }

    /// Stores `program` (a successful link) under `key`. A program whose
    /// encoding does not read back to the same NIR text is not stored.
    pub(crate) fn store_program(&self, key: &CacheKey, program: &LinkedProgram) {
        // An encoding failure is expected for what the codec refuses (debug);
        // a payload that does not read back is a codec bug (warn).
        let checked = match codec::encode_program(program) {
            Err(e) => Err((log::Level::Debug, format!("does not encode: {e}"))),
            Ok(payload) => match codec::decode_program(&payload) {
                Ok(decoded) if faithful(program, &decoded) => Ok(payload),
                Ok(_) => Err((log::Level::Warn, "does not read back identically".into())),
                Err(e) => Err((log::Level::Warn, format!("does not decode ({e})"))),
            },
        };
        match checked {
            Ok(payload) => self.store.put(key, &payload),
            Err((level, why)) => {
                log::log!(level, "shader cache: a program's entry {why}; not stored");
                self.store
                    .counters
                    .write_failures
                    .fetch_add(1, Ordering::Relaxed);
            }
        }
    }

    /// The key of a driver variant: the program's key, the draw-time
    /// [`VariantKey`](crate::variants::VariantKey) and the driver's
    /// serialisation identity (its compiler's format, host ISA and options;
    /// [`rgl_backend::driver::Driver::shader_cache_identity`]).
    pub(crate) fn variant_key(
        &self,
        program: &CacheKey,
        variant: &crate::variants::VariantKey,
        driver: &[u8],
    ) -> CacheKey {
        let mut h = KeyHasher::new("rgl driver variant");
        h.bytes(&self.store.build_id);
        h.bytes(&program.0);
        h.bytes(format!("{variant:?}").as_bytes());
        h.bytes(driver);
        CacheKey(h.finish())
    }

    /// The stages of the driver variant stored under `key`, if a trusted entry
    /// decodes.
    pub(crate) fn load_variant(&self, key: &CacheKey) -> Option<Vec<codec::VariantStage>> {
        let Some(payload) = self.store.get(key) else {
            self.store
                .counters
                .variant_misses
                .fetch_add(1, Ordering::Relaxed);
            return None;
        };
        match codec::decode_variant(&payload) {
            Ok(stages) => Some(stages),
            Err(e) => self.reject_variant(key, &e.to_string()),
        }
    }

    /// Counts a variant loaded from its entry.
    pub(crate) fn variant_loaded(&self) {
        self.store
            .counters
            .variant_hits
            .fetch_add(1, Ordering::Relaxed);
    }

    /// Deletes the variant entry under `key`, which decoded but could not be
    /// used (`why`: a stage's NIR or the driver refused it), and counts a miss.
    pub(crate) fn reject_variant<T>(&self, key: &CacheKey, why: &str) -> Option<T> {
        self.store.reject(key, &Rejected::Payload(why.to_string()));
        self.store
            .counters
            .variant_misses
            .fetch_add(1, Ordering::Relaxed);
        None
    }

    /// Stores a driver variant's stages under `key`.
    pub(crate) fn store_variant(&self, key: &CacheKey, stages: &[codec::VariantStage]) {
        self.store.put(key, &codec::encode_variant(stages));
    }

    pub(crate) fn stats(&self) -> ShaderCacheStats {
        self.store.counters.snapshot()
    }

    pub(crate) fn dir(&self) -> &Path {
        &self.store.dir
    }
}

/// Whether `decoded` carries everything of `program` the state tracker reads:
/// the interface tables equal, and every stage's NIR prints the same text.
fn faithful(program: &LinkedProgram, decoded: &LinkedProgram) -> bool {
    let nir_text = |p: &LinkedProgram| -> Vec<Option<String>> {
        p.stages
            .iter()
            .map(|s| s.nir.as_ref().map(rgl_nir::print::print_shader))
            .collect()
    };
    let stages = |p: &LinkedProgram| -> Vec<(Stage, rgl_glsl::Version)> {
        p.stages.iter().map(|s| (s.stage, s.version)).collect()
    };
    program.version == decoded.version
        && stages(program) == stages(decoded)
        && program.attributes == decoded.attributes
        && program.frag_outputs == decoded.frag_outputs
        && program.uniforms == decoded.uniforms
        && program.uniform_blocks == decoded.uniform_blocks
        && program.uniform_slots == decoded.uniform_slots
        && program.num_samplers == decoded.num_samplers
        && program.warnings == decoded.warnings
        && nir_text(program) == nir_text(decoded)
}

/// The cache as a driver's [`CodeStore`] for the code its shaders build
/// lazily (the JIT's fused pipeline variants, built at draws): an entry per
/// driver key, hashed with the build identity; the payload is the driver's
/// blob, which carries its own format version and is checked by its loader.
#[derive(Debug)]
pub(crate) struct DriverCodeStore(pub(crate) Arc<DiskCache>);

impl DriverCodeStore {
    fn key(&self, key: &[u8]) -> CacheKey {
        let mut h = KeyHasher::new("rgl driver code");
        h.bytes(&self.0.store.build_id);
        h.bytes(key);
        CacheKey(h.finish())
    }
}

impl CodeStore for DriverCodeStore {
    fn get(&self, key: &[u8]) -> Option<Vec<u8>> {
        let got = self.0.store.get(&self.key(key));
        let counter = if got.is_some() {
            &self.0.store.counters.code_hits
        } else {
            &self.0.store.counters.code_misses
        };
        counter.fetch_add(1, Ordering::Relaxed);
        got
    }
    fn put(&self, key: &[u8], bytes: &[u8]) {
        self.0.store.put(&self.key(key), bytes);
    }
    fn reject(&self, key: &[u8], why: &str) {
        self.0
            .store
            .reject(&self.key(key), &Rejected::Payload(why.to_string()));
    }
}

impl Context {
    /// Replaces this context's on-disk shader cache: `Some` uses the directory
    /// and cap given (instead of the environment's), `None` turns the cache off.
    /// Links already queued keep the cache they started with.
    pub fn set_shader_cache(&mut self, options: Option<ShaderCacheOptions>) {
        self.disk_cache = options.and_then(|o| DiskCache::open(&o));
    }

    /// The directory of this context's shader cache, if it has one.
    pub fn shader_cache_dir(&self) -> Option<&Path> {
        self.disk_cache.as_deref().map(DiskCache::dir)
    }

    /// The counters of this context's shader cache (all zero without one).
    /// Contexts on the environment's cache share its counters.
    pub fn shader_cache_stats(&self) -> ShaderCacheStats {
        self.disk_cache
            .as_deref()
            .map_or_else(ShaderCacheStats::default, DiskCache::stats)
    }

    /// The lookup of a program about to be linked from `sources`, or `None`
    /// without a cache.
    pub(crate) fn program_lookup(
        &self,
        sources: &[(Stage, [u8; 32])],
        stand_ins: &[Stage],
        bindings: &Bindings,
    ) -> Option<ProgramLookup> {
        let cache = self.disk_cache.as_ref()?;
        Some(ProgramLookup {
            key: cache.program_key(sources, stand_ins, bindings, &self.compiler_options),
            cache: Arc::clone(cache),
        })
    }
}
