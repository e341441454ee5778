//! The files of the on-disk shader cache (the role of Mesa's `disk_cache_os.c`):
//! where an entry lives, its header, the checks a read makes before trusting
//! one, the atomic write, and the size cap with least-recently-used eviction.
//!
//! Layout: the entry of key `k` (64 hex digits) is `DIR/k[0..2]/k[2..]`, as Mesa
//! splits its SHA-1 names. An entry file is
//!
//! | bytes | field |
//! |---|---|
//! | 8 | magic `RGLSHDC\0` |
//! | 4 | entry format version ([`ENTRY_VERSION`]), little-endian |
//! | 32 | build identity of the rgl that wrote it |
//! | 32 | the entry's own key |
//! | 8 | payload length, little-endian |
//! | 4 | CRC-32 of the payload, little-endian |
//! | n | payload |
//!
//! A read accepts a file only if every field matches and the file ends exactly
//! after the payload; anything else (truncated, flipped bits, another format,
//! another build, a file copied under another name, a stranger's file) is
//! reported as a [`Rejected`] reason, logged, and deleted so the next write
//! replaces it. Writes go to a temporary file in the entry's folder that is then
//! renamed over the entry (atomic on POSIX file systems), so concurrent
//! processes writing one entry leave one of the complete files, never a mix.
//! Every file error is logged and swallowed: the cache is an optimisation, and
//! the caller compiles when it gets nothing.
//!
//! Recency: a hit sets the entry's modification time to now, and eviction
//! removes the files with the oldest modification times first (Mesa's
//! `disk_cache_evict_lru_item` picks by access time; mtime is used here since
//! `noatime` mounts do not update access times).

use std::fs;
use std::io::{ErrorKind, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, PoisonError};
use std::time::SystemTime;

use super::{CacheKey, Counters};

/// File magic of an entry.
pub(crate) const MAGIC: [u8; 8] = *b"RGLSHDC\0";
/// Version of the entry layout above; bump it on any change.
pub(crate) const ENTRY_VERSION: u32 = 1;
/// Header size in bytes.
pub(crate) const HEADER_LEN: usize = 8 + 4 + 32 + 32 + 8 + 4;
/// Prefix of temporary files; never the name of an entry (entries are hex).
const TMP_PREFIX: &str = ".tmp-";

/// The file at the top of the cache directory holding the bytes its entries
/// take, as decimal text (Mesa's disk cache keeps its size in an `index`
/// file for the same reason): a process's first write reads it instead of
/// counting every entry file, which took one `stat` per entry in every
/// process.
pub(crate) const SIZE_FILE: &str = "size";

/// Why an entry file was not trusted.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Rejected {
    /// Shorter than its header says.
    #[error("truncated ({0} bytes)")]
    Truncated(usize),
    /// Longer than its header says.
    #[error("{0} bytes after the payload")]
    Trailing(usize),
    /// Not an rgl cache entry.
    #[error("bad magic")]
    Magic,
    /// Another entry format version.
    #[error("entry format {0}, expected {ENTRY_VERSION}")]
    Version(u32),
    /// Written by another build of rgl.
    #[error("written by another rgl build")]
    Build,
    /// The file holds another key's entry.
    #[error("holds the entry of another key")]
    Key,
    /// The payload does not match its checksum.
    #[error("checksum mismatch")]
    Checksum,
    /// The payload is intact but does not decode.
    #[error("payload: {0}")]
    Payload(String),
}

/// The entry file of `key`'s bytes with `payload`, as [`Store::put`] writes it.
pub(crate) fn encode_entry(build_id: &[u8; 32], key: &CacheKey, payload: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(HEADER_LEN + payload.len());
    out.extend_from_slice(&MAGIC);
    out.extend_from_slice(&ENTRY_VERSION.to_le_bytes());
    out.extend_from_slice(build_id);
    out.extend_from_slice(&key.0);
    out.extend_from_slice(&(payload.len() as u64).to_le_bytes());
    out.extend_from_slice(&crc32fast::hash(payload).to_le_bytes());
    out.extend_from_slice(payload);
    out
}

/// The payload of an entry file, if every header field checks out.
pub(crate) fn decode_entry<'a>(
    build_id: &[u8; 32],
    key: &CacheKey,
    file: &'a [u8],
) -> Result<&'a [u8], Rejected> {
    if file.len() < HEADER_LEN {
        return Err(Rejected::Truncated(file.len()));
    }
    let (header, payload) = file.split_at(HEADER_LEN);
    let field = |at: usize, n: usize| &header[at..at + n];
    if field(0, 8) != MAGIC {
        return Err(Rejected::Magic);
    }
    let mut word = [0u8; 4];
    word.copy_from_slice(field(8, 4));
    let version = u32::from_le_bytes(word);
    if version != ENTRY_VERSION {
        return Err(Rejected::Version(version));
    }
    if field(12, 32) != build_id {
        return Err(Rejected::Build);
    }
    if field(44, 32) != key.0 {
        return Err(Rejected::Key);
    }
    let mut len = [0u8; 8];
    len.copy_from_slice(field(76, 8));
    let len = u64::from_le_bytes(len);
    word.copy_from_slice(field(84, 4));
    let crc = u32::from_le_bytes(word);
    match (payload.len() as u64).cmp(&len) {
        std::cmp::Ordering::Less => return Err(Rejected::Truncated(file.len())),
        std::cmp::Ordering::Greater => {
            return Err(Rejected::Trailing(payload.len() - len as usize))
        }
        std::cmp::Ordering::Equal => {}
    }
    if crc32fast::hash(payload) != crc {
        return Err(Rejected::Checksum);
    }
    Ok(payload)
}

/// One cache directory as this process sees it.
#[derive(Debug)]
pub(crate) struct Store {
    pub(crate) dir: PathBuf,
    pub(crate) max_size: u64,
    pub(crate) build_id: [u8; 32],
    /// Bytes in the directory as last counted plus what this process wrote
    /// since; `None` until the first write counts them. Other processes'
    /// writes are seen at the next recount, which happens whenever a write
    /// would pass the cap by this estimate.
    size: Mutex<Option<u64>>,
    /// Makes temporary file names unique inside the process.
    tmp_serial: AtomicU64,
    pub(crate) counters: Counters,
}

impl Store {
    pub(crate) fn new(dir: PathBuf, max_size: u64, build_id: [u8; 32]) -> Store {
        Store {
            dir,
            max_size,
            build_id,
            size: Mutex::new(None),
            tmp_serial: AtomicU64::new(0),
            counters: Counters::default(),
        }
    }

    /// The entry file of `key`.
    pub(crate) fn entry_path(&self, key: &CacheKey) -> PathBuf {
        let hex = key.hex();
        self.dir.join(&hex[..2]).join(&hex[2..])
    }

    /// The checked payload of `key`'s entry, or `None` (no entry, an unreadable
    /// one, or one [`decode_entry`] rejects, which is then deleted). The caller
    /// counts the hit once the payload decodes, or calls [`Store::reject`].
    pub(crate) fn get(&self, key: &CacheKey) -> Option<Vec<u8>> {
        let path = self.entry_path(key);
        let file = match fs::read(&path) {
            Ok(bytes) => bytes,
            Err(e) => {
                if e.kind() != ErrorKind::NotFound {
                    log::warn!("shader cache: cannot read {}: {e}", path.display());
                }
                return None;
            }
        };
        match decode_entry(&self.build_id, key, &file) {
            Ok(payload) => {
                touch(&path);
                Some(payload.to_vec())
            }
            Err(why) => {
                self.reject(key, &why);
                None
            }
        }
    }

    /// Records that `key`'s entry cannot be used and deletes it.
    pub(crate) fn reject(&self, key: &CacheKey, why: &Rejected) {
        let path = self.entry_path(key);
        log::warn!(
            "shader cache: ignoring {}: {why}; it will be recompiled",
            path.display()
        );
        self.counters.rejected.fetch_add(1, Ordering::Relaxed);
        if let Err(e) = fs::remove_file(&path) {
            log::debug!("shader cache: cannot remove {}: {e}", path.display());
        }
    }

    /// Stores `payload` as `key`'s entry, evicting old entries first if the
    /// cap needs it. Failures are logged; nothing is returned.
    pub(crate) fn put(&self, key: &CacheKey, payload: &[u8]) {
        let entry = encode_entry(&self.build_id, key, payload);
        let size = entry.len() as u64;
        if size > self.max_size {
            log::debug!(
                "shader cache: a {size}-byte entry exceeds the {}-byte cap; not stored",
                self.max_size
            );
            self.counters.write_failures.fetch_add(1, Ordering::Relaxed);
            return;
        }
        if let Err(e) = self.make_room(size) {
            log::warn!(
                "shader cache: cannot make room in {}: {e}",
                self.dir.display()
            );
            self.counters.write_failures.fetch_add(1, Ordering::Relaxed);
            return;
        }
        let path = self.entry_path(key);
        match self.write_atomically(&path, &entry) {
            Ok(()) => {
                self.counters.writes.fetch_add(1, Ordering::Relaxed);
                let mut known = self.size.lock().unwrap_or_else(PoisonError::into_inner);
                if let Some(total) = known.as_mut() {
                    // Other processes add to the file too: start from its
                    // value when it is larger than ours.
                    *total = self.read_size().unwrap_or(0).max(*total) + size;
                    self.write_size(*total);
                }
            }
            Err(e) => {
                log::warn!("shader cache: cannot write {}: {e}", path.display());
                self.counters.write_failures.fetch_add(1, Ordering::Relaxed);
            }
        }
    }

    fn write_atomically(&self, path: &Path, bytes: &[u8]) -> std::io::Result<()> {
        let folder = path.parent().unwrap_or(&self.dir);
        fs::create_dir_all(folder)?;
        let serial = self.tmp_serial.fetch_add(1, Ordering::Relaxed);
        let tmp = folder.join(format!(
            "{TMP_PREFIX}{}-{serial}-{}",
            std::process::id(),
            path.file_name().and_then(|n| n.to_str()).unwrap_or("entry")
        ));
        let written = fs::File::create(&tmp)
            .and_then(|mut f| f.write_all(bytes))
            .and_then(|()| fs::rename(&tmp, path));
        if written.is_err() {
            let _ = fs::remove_file(&tmp);
        }
        written
    }

    /// Evicts least recently used files until `incoming` more bytes fit under
    /// the cap. The directory is counted at the first write and again whenever
    /// the running estimate says the cap would be passed.
    fn make_room(&self, incoming: u64) -> std::io::Result<()> {
        let mut known = self.size.lock().unwrap_or_else(PoisonError::into_inner);
        if known.is_none() {
            *known = self.read_size();
        }
        if let Some(total) = *known {
            if total + incoming <= self.max_size {
                return Ok(());
            }
        }
        let mut files = self.scan()?;
        let mut total: u64 = files.iter().map(|f| f.size).sum();
        if total + incoming > self.max_size {
            files.sort_by_key(|f| f.modified);
            for f in files {
                if total + incoming <= self.max_size {
                    break;
                }
                match fs::remove_file(&f.path) {
                    Ok(()) => {
                        total = total.saturating_sub(f.size);
                        self.counters.evictions.fetch_add(1, Ordering::Relaxed);
                        log::debug!("shader cache: evicted {}", f.path.display());
                    }
                    // Another process evicted or replaced it first.
                    Err(e) if e.kind() == ErrorKind::NotFound => {
                        total = total.saturating_sub(f.size)
                    }
                    Err(e) => return Err(e),
                }
            }
        }
        *known = Some(total);
        self.write_size(total);
        Ok(())
    }

    /// The size recorded in [`SIZE_FILE`]; `None` when it is missing or
    /// unreadable (the next write then counts the directory).
    fn read_size(&self) -> Option<u64> {
        fs::read_to_string(self.dir.join(SIZE_FILE))
            .ok()
            .and_then(|text| text.trim().parse().ok())
    }

    /// Records `total` in [`SIZE_FILE`] (atomically; a failure only means
    /// the next process counts the directory). Concurrent writers can lose
    /// each other's additions, so the figure is an estimate: it is corrected
    /// whenever it says the cap would be passed and the directory is counted.
    fn write_size(&self, total: u64) {
        let serial = self.tmp_serial.fetch_add(1, Ordering::Relaxed);
        let tmp = self.dir.join(format!(
            "{TMP_PREFIX}{}-{serial}-{SIZE_FILE}",
            std::process::id()
        ));
        let written = fs::create_dir_all(&self.dir)
            .and_then(|()| fs::write(&tmp, total.to_string()))
            .and_then(|()| fs::rename(&tmp, self.dir.join(SIZE_FILE)));
        if let Err(e) = written {
            let _ = fs::remove_file(&tmp);
            log::debug!("shader cache: cannot record its size: {e}");
        }
    }

    /// Every file in the entry folders (entries and temporary files), with its
    /// size and modification time. A missing cache directory is empty.
    fn scan(&self) -> std::io::Result<Vec<CacheFile>> {
        scan_dir(&self.dir)
    }

    /// Bytes the cache directory holds now (entries and temporary files).
    #[cfg(test)]
    pub(crate) fn disk_usage(&self) -> u64 {
        self.scan()
            .map(|files| files.iter().map(|f| f.size).sum())
            .unwrap_or(0)
    }
}

/// [`Store::scan`] over the cache directory `dir`.
fn scan_dir(dir: &Path) -> std::io::Result<Vec<CacheFile>> {
    let mut out = Vec::new();
    let top = match fs::read_dir(dir) {
        Ok(top) => top,
        Err(e) if e.kind() == ErrorKind::NotFound => return Ok(out),
        Err(e) => return Err(e),
    };
    for folder in top.flatten() {
        let name = folder.file_name();
        let is_entry_folder = name.len() == 2
            && name
                .to_str()
                .is_some_and(|n| n.bytes().all(|b| b.is_ascii_hexdigit()));
        if !is_entry_folder {
            continue;
        }
        let Ok(files) = fs::read_dir(folder.path()) else {
            continue;
        };
        for file in files.flatten() {
            let Ok(meta) = file.metadata() else { continue };
            if meta.is_file() {
                out.push(CacheFile {
                    path: file.path(),
                    size: meta.len(),
                    modified: meta.modified().unwrap_or(SystemTime::UNIX_EPOCH),
                });
            }
        }
    }
    Ok(out)
}

/// The paths of every file in `dir`'s entry folders, sorted (for tests that
/// look for the entries an operation wrote).
#[cfg(test)]
pub(crate) fn entry_files(dir: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = scan_dir(dir)
        .map(|files| files.into_iter().map(|f| f.path).collect())
        .unwrap_or_default();
    out.sort();
    out
}

struct CacheFile {
    path: PathBuf,
    size: u64,
    modified: SystemTime,
}

/// Marks `path` as just used: its modification time becomes now. A read-only
/// entry stays as it is (it is then evicted as if unused).
fn touch(path: &Path) {
    let touched = fs::File::options()
        .append(true)
        .open(path)
        .and_then(|f| f.set_modified(SystemTime::now()));
    if let Err(e) = touched {
        log::debug!("shader cache: cannot touch {}: {e}", path.display());
    }
}
