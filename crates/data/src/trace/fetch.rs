//! Downloading catalogued files into the traces directory, verified.
//!
//! Contract: [`fetch`] puts an entry's file at its place under
//! [`FetchOptions::dir`] only once its size and SHA-256 match the catalogue.
//! The bytes go first to `<file>.part` beside the destination, a name runs
//! never read; a broken transfer is resumed from the `.part`'s length with an
//! HTTP `Range` request (within one call, up to [`FetchOptions::attempts`]
//! requests, and by the next call when the process died); the verified
//! `.part` is renamed into place, atomically on one file system. On a sum or
//! size mismatch the `.part` is deleted and nothing is left where runs read.
//! A file already in place and verified is not downloaded again; one in place
//! whose sums differ is left alone and reported, never overwritten.
//!
//! Sources: the entry's public URL ([`Entry::url`], which serves the shipped
//! or the plain form, see [`Served`]), or a mirror with the traces
//! directory's layout (`<mirror>/<Entry::path>`, the shipped form). Entries
//! whose URL serves neither ([`Served::Manual`]) are never downloaded: the
//! error says where to get the file and where to put it, and the sum to check
//! when the catalogue has one. Every failure is a [`FetchError`] naming the
//! file; nothing panics, and connecting and each read time out.

use std::fs::{File, OpenOptions};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

use sha2::{Digest as _, Sha256};

use super::catalogue::{Digest, Entry, Served};

/// Environment variable naming a mirror (the `--mirror` default).
pub const MIRROR_ENV: &str = "SLASIM_TRACE_MIRROR";

/// How to fetch.
#[derive(Debug, Clone)]
pub struct FetchOptions {
    /// The traces directory written to.
    pub dir: PathBuf,
    /// A base URL with the traces directory's layout, used instead of the
    /// entries' public URLs.
    pub mirror: Option<String>,
    /// Limit on connecting (DNS, TCP, TLS).
    pub connect_timeout: Duration,
    /// Limit on each read of the response.
    pub read_timeout: Duration,
    /// Requests per file before a broken transfer is given up (the `.part`
    /// stays for the next call to resume).
    pub attempts: u32,
}

impl FetchOptions {
    /// Fetching into `dir` from the public sources, or the mirror of
    /// [`MIRROR_ENV`] when set.
    pub fn new(dir: PathBuf) -> Self {
        FetchOptions {
            dir,
            mirror: std::env::var(MIRROR_ENV).ok().filter(|m| !m.is_empty()),
            connect_timeout: Duration::from_secs(20),
            read_timeout: Duration::from_secs(60),
            attempts: 3,
        }
    }
}

/// What [`fetch`] did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fetched {
    /// The file was already in place and verified; nothing was downloaded.
    Present(PathBuf),
    /// The file was downloaded and verified; `resumed_from` is the length of
    /// an earlier fetch's `.part` that this download continued (0 when none
    /// was, or when the server sent the whole file instead).
    Downloaded {
        /// Where it is.
        path: PathBuf,
        /// Bytes the download resumed from.
        resumed_from: u64,
        /// Requests made.
        requests: u32,
    },
}

/// Why a file was not fetched.
#[derive(Debug, thiserror::Error)]
pub enum FetchError {
    /// The public URL does not serve a form slasim can check.
    #[error(
        "{name}: slasim cannot download this file: {note}.\n  source: {url}\n  put it at: {dest}{sum}",
        dest = .dest.display(),
        sum = sum_note(.digest)
    )]
    Manual {
        /// Catalogue name.
        name: String,
        /// Public source.
        url: String,
        /// What to do.
        note: String,
        /// Where runs will find it.
        dest: PathBuf,
        /// The sum it must have there, when the catalogue knows it.
        digest: Option<Digest>,
    },
    /// The server could not be reached.
    #[error(
        "cannot reach {url} ({cause}): offline? Get the file another way and put it at {dest} \
         (size {size} bytes, sha256 {sha256}); `slasim trace list` then shows it verified{partial}",
        dest = .dest.display(), size = .digest.size, sha256 = .digest.sha256,
        partial = kept_note(.partial, .dest)
    )]
    Offline {
        /// The URL requested.
        url: String,
        /// Where the file belongs.
        dest: PathBuf,
        /// Its size and sum.
        digest: Digest,
        /// Bytes kept in the `.part`.
        partial: u64,
        /// The client's error.
        cause: String,
    },
    /// The server answered with an error status.
    #[error("{url}: the server answered HTTP {status}")]
    Status {
        /// The URL requested.
        url: String,
        /// The status code.
        status: u16,
    },
    /// The transfer kept breaking.
    #[error(
        "{url}: the transfer broke {attempts} times (last: {cause}); {partial} bytes are kept in {part} and the next fetch resumes them",
        part = .part.display()
    )]
    Broken {
        /// The URL requested.
        url: String,
        /// The `.part` kept.
        part: PathBuf,
        /// Its length.
        partial: u64,
        /// Requests made.
        attempts: u32,
        /// The last error.
        cause: String,
    },
    /// The downloaded bytes are not the catalogued file.
    #[error(
        "{file}: refused: the download from {url} does not match the catalogue: expected {} bytes, sha256 {}; \
         got {got_size} bytes, sha256 {got_sha256}. Nothing was kept",
        .expected.size, .expected.sha256, file = .file.display()
    )]
    Mismatch {
        /// The file it was to become.
        file: PathBuf,
        /// The URL requested.
        url: String,
        /// What the catalogue says.
        expected: Digest,
        /// Bytes received.
        got_size: u64,
        /// Their sum.
        got_sha256: String,
    },
    /// The server sent more bytes than the catalogued file has.
    #[error(
        "{file}: refused: the download from {url} is longer than the catalogued file ({} bytes, sha256 {}): {}. \
         Nothing was kept",
        .expected.size, .expected.sha256, longer_note(.announced, .expected.size), file = .file.display()
    )]
    Longer {
        /// The file it was to become.
        file: PathBuf,
        /// The URL requested.
        url: String,
        /// What the catalogue says.
        expected: Digest,
        /// The whole length the server announced, if it did.
        announced: Option<u64>,
    },
    /// A file is in place but is not the catalogued one.
    #[error(
        "{file}: exists but does not match the catalogue (expected {} bytes, sha256 {}; it has {got_size} bytes, \
         sha256 {got_sha256}); left as it is: move it away to fetch the catalogued file",
        .expected.size, .expected.sha256, file = .file.display()
    )]
    Differs {
        /// The file in place.
        file: PathBuf,
        /// What the catalogue says.
        expected: Digest,
        /// Its size.
        got_size: u64,
        /// Its sum.
        got_sha256: String,
    },
    /// A local file could not be read or written.
    #[error("{}: {cause}", .path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The error.
        cause: std::io::Error,
    },
}

/// The length of a too long download, as far as it is known: only what
/// the server announced is, since slasim stops reading one byte past the
/// catalogued size.
fn longer_note(announced: &Option<u64>, size: u64) -> String {
    match announced {
        Some(n) => format!("it has {n} bytes"),
        None => format!("it has more than {size} bytes"),
    }
}

/// " (size …, sha256 …)" when the sum is known.
fn sum_note(digest: &Option<Digest>) -> String {
    digest.map_or_else(String::new, |d| format!(" (size {} bytes, sha256 {})", d.size, d.sha256))
}

/// What is kept of a broken download, when anything is.
fn kept_note(partial: &u64, dest: &Path) -> String {
    if *partial == 0 {
        return String::new();
    }
    format!(". {partial} bytes are kept in {} and the next fetch resumes them", part_path(dest).display())
}

fn io_error(path: &Path) -> impl FnOnce(std::io::Error) -> FetchError + '_ {
    move |cause| FetchError::Io { path: path.to_path_buf(), cause }
}

/// A file's size and SHA-256 (lowercase hex).
pub fn digest_of(path: &Path) -> std::io::Result<(u64, String)> {
    let mut file = File::open(path)?;
    let mut hasher = Sha256::new();
    let mut buffer = vec![0u8; 1 << 16];
    let mut size = 0u64;
    loop {
        let n = file.read(&mut buffer)?;
        if n == 0 {
            break;
        }
        hasher.update(&buffer[..n]);
        size += n as u64;
    }
    Ok((size, hasher.finalize().iter().map(|b| format!("{b:02x}")).collect()))
}

/// Whether `path` has `expected`'s size and sum: `Ok(None)` when it has,
/// `Ok(Some((size, sha256)))` with what it has when not. The size is compared
/// first, so a file of the wrong length is not read.
pub fn check(path: &Path, expected: &Digest) -> std::io::Result<Option<(u64, String)>> {
    let size = std::fs::metadata(path)?.len();
    if size != expected.size {
        return Ok(Some((size, String::from("(not computed: the size differs)"))));
    }
    let (size, sha256) = digest_of(path)?;
    Ok(if sha256 == expected.sha256 { None } else { Some((size, sha256)) })
}

/// The `.part` beside `dest`.
pub fn part_path(dest: &Path) -> PathBuf {
    let mut name = dest.as_os_str().to_owned();
    name.push(".part");
    PathBuf::from(name)
}

/// Fetches `entry` (see the module's contract).
pub fn fetch(entry: &Entry, options: &FetchOptions) -> Result<Fetched, FetchError> {
    // A verified form already in place ends it, whichever form it is.
    for (path, digest) in entry.forms() {
        let file = options.dir.join(path);
        if let Some(digest) = digest
            && file.is_file()
        {
            match check(&file, &digest).map_err(io_error(&file))? {
                None => return Ok(Fetched::Present(file)),
                Some((got_size, got_sha256)) => {
                    return Err(FetchError::Differs { file, expected: digest, got_size, got_sha256 });
                }
            }
        }
    }
    let manual = |note: &str| {
        let (path, digest) = entry.forms().into_iter().find(|(_, d)| d.is_some()).unwrap_or((entry.path, None));
        FetchError::Manual {
            name: entry.name.to_string(),
            url: entry.url.to_string(),
            note: note.to_string(),
            dest: options.dir.join(path),
            digest,
        }
    };
    let (url, path, digest) = match (&options.mirror, entry.served) {
        (Some(mirror), _) => match entry.shipped {
            Some(digest) => (format!("{}/{}", mirror.trim_end_matches('/'), entry.path), entry.path, digest),
            None => {
                return Err(manual(match entry.served {
                    Served::Manual(note) => note,
                    _ => "the catalogue has no sum for the shipped file, so a mirror's copy cannot be verified",
                }));
            }
        },
        (None, Served::Shipped) => match entry.shipped {
            Some(digest) => (entry.url.to_string(), entry.path, digest),
            None => return Err(manual("the catalogue has no sum for it")),
        },
        (None, Served::Plain) => match (entry.plain_path(), entry.plain) {
            (Some(path), Some(digest)) => (entry.url.to_string(), path, digest),
            _ => return Err(manual("the catalogue has no sum for the bytes its URL serves")),
        },
        (None, Served::Manual(note)) => return Err(manual(note)),
    };
    download(&url, &options.dir.join(path), &digest, options)
}

/// Downloads `url` to `dest` through its `.part`, resuming, then verifies.
fn download(url: &str, dest: &Path, digest: &Digest, options: &FetchOptions) -> Result<Fetched, FetchError> {
    let part = part_path(dest);
    if let Some(parent) = dest.parent() {
        std::fs::create_dir_all(parent).map_err(io_error(parent))?;
    }
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_connect(Some(options.connect_timeout))
        .timeout_recv_response(Some(options.read_timeout))
        .timeout_per_read(Some(options.read_timeout))
        .user_agent(concat!("slasim/", env!("CARGO_PKG_VERSION")))
        .build()
        .into();
    let part_len = |part: &Path| std::fs::metadata(part).map_or(0, |m| m.len());
    // A .part longer than the file cannot be a prefix of it.
    if part_len(&part) > digest.size {
        std::fs::remove_file(&part).map_err(io_error(&part))?;
    }
    // Bytes of an earlier fetch this one continues: none when the server
    // answers a range request with the whole file.
    let mut resumed_from = part_len(&part);
    // The whole length the last answer announced.
    let mut announced = None;
    let mut requests = 0;
    let mut last_error = String::new();
    // Until the .part is as long as the file; a clean answer that ends short
    // ends it too (verification then refuses it).
    while part_len(&part) < digest.size {
        if requests == options.attempts.max(1) {
            return Err(FetchError::Broken {
                url: url.to_string(),
                part: part.clone(),
                partial: part_len(&part),
                attempts: requests,
                cause: last_error,
            });
        }
        requests += 1;
        let offset = part_len(&part);
        let mut request = agent.get(url);
        if offset > 0 {
            request = request.header("Range", format!("bytes={offset}-"));
        }
        let response = request.call().map_err(|cause| FetchError::Offline {
            url: url.to_string(),
            dest: dest.to_path_buf(),
            digest: *digest,
            partial: offset,
            cause: cause.to_string(),
        })?;
        let status = response.status().as_u16();
        let append = match status {
            206 if offset > 0 && content_range_starts_at(&response, offset) => true,
            200 => false,
            // The .part is no prefix the server knows: start again.
            206 | 416 if offset > 0 => {
                std::fs::remove_file(&part).map_err(io_error(&part))?;
                resumed_from = 0;
                continue;
            }
            _ => return Err(FetchError::Status { url: url.to_string(), status }),
        };
        if !append {
            resumed_from = 0;
        }
        announced = whole_length(&response, status);
        let start = if append { offset } else { 0 };
        let mut file = if append { OpenOptions::new().append(true).open(&part) } else { File::create(&part) }
            .map_err(io_error(&part))?;
        // One byte more than the file lacks: a longer answer fails verification.
        let mut body = response.into_body().into_reader().take(digest.size - start + 1);
        let copied = copy(&mut body, &mut file);
        file.flush().map_err(io_error(&part))?;
        match copied {
            Ok(()) => break,
            Err(cause) => last_error = cause.to_string(),
        }
    }
    if part_len(&part) > digest.size {
        std::fs::remove_file(&part).map_err(io_error(&part))?;
        return Err(FetchError::Longer {
            file: dest.to_path_buf(),
            url: url.to_string(),
            expected: *digest,
            announced,
        });
    }
    match check(&part, digest).map_err(io_error(&part))? {
        None => {
            std::fs::rename(&part, dest).map_err(io_error(dest))?;
            Ok(Fetched::Downloaded { path: dest.to_path_buf(), resumed_from, requests })
        }
        Some((got_size, got_sha256)) => {
            std::fs::remove_file(&part).map_err(io_error(&part))?;
            Err(FetchError::Mismatch {
                file: dest.to_path_buf(),
                url: url.to_string(),
                expected: *digest,
                got_size,
                got_sha256,
            })
        }
    }
}

/// The whole file's length an answer announces: a 206's `Content-Range`
/// total, a 200's `Content-Length`.
fn whole_length(response: &ureq::http::Response<ureq::Body>, status: u16) -> Option<u64> {
    let header = |name| response.headers().get(name).and_then(|v| v.to_str().ok());
    match status {
        206 => header("content-range").and_then(|v| v.rsplit('/').next()).and_then(|v| v.trim().parse().ok()),
        _ => header("content-length").and_then(|v| v.trim().parse().ok()),
    }
}

/// Whether a 206 answer's `Content-Range` starts at `offset`.
fn content_range_starts_at(response: &ureq::http::Response<ureq::Body>, offset: u64) -> bool {
    response
        .headers()
        .get("content-range")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("bytes "))
        .and_then(|v| v.split('-').next())
        .and_then(|v| v.trim().parse::<u64>().ok())
        == Some(offset)
}

/// Copies until the end, writing what arrived even when reading then fails.
fn copy(from: &mut impl Read, to: &mut File) -> std::io::Result<()> {
    let mut buffer = vec![0u8; 1 << 16];
    loop {
        let n = from.read(&mut buffer)?;
        if n == 0 {
            return Ok(());
        }
        to.write_all(&buffer[..n])?;
    }
}

/// Whether an entry's file is in the traces directories, and verified.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Local {
    /// In none of them.
    Missing,
    /// There, with the catalogued size and sum.
    Verified(PathBuf),
    /// There, but the catalogue has no sum for it.
    Unverified(PathBuf),
    /// There, with other bytes.
    Differs(PathBuf),
}

/// Where `entry`'s file is ([`super::locate`]) and whether it verifies.
pub fn local(entry: &Entry) -> Result<Local, FetchError> {
    for dir in entry.dataset.dirs() {
        for (path, digest) in entry.forms() {
            let file = dir.join(path);
            if !file.is_file() {
                continue;
            }
            return Ok(match digest {
                None => Local::Unverified(file),
                Some(digest) => match check(&file, &digest).map_err(io_error(&file))? {
                    None => Local::Verified(file),
                    Some(_) => Local::Differs(file),
                },
            });
        }
    }
    Ok(Local::Missing)
}
