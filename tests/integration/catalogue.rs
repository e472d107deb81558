//! The trace catalogue and `slasim trace fetch`, against the real files and a
//! loopback HTTP mirror these tests start (CI has no internet).
//!
//! The mirror serves the real KTH-SP2 log (411 KB) from the traces directory,
//! laid out as that directory, with `Range` support; it can alter the bytes,
//! or close the first connection after N bytes. Each test fetches into its own
//! temporary traces directory (`SLASIM_TRACE_DIR`).

use crate::common;

use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use sha2::{Digest, Sha256};
use slasim::trace::catalogue::{self, CATALOGUE};

const KTH: &str = "KTH-SP2-1996-2.1-cln";
const KTH_PATH: &str = "swf/KTH-SP2-1996-2.1-cln.swf.gz";

/// How the mirror misbehaves.
#[derive(Clone, Copy)]
enum Fault {
    None,
    /// Serves the file with one byte altered.
    Corrupt,
    /// The first answer announces the whole length, sends this many bytes and
    /// closes the connection.
    CutFirstAfter(usize),
    /// Answers a range request with the whole file (HTTP 200).
    IgnoreRange,
    /// Serves the file with this many bytes more at its end.
    Longer(usize),
}

/// A loopback HTTP/1.1 server: its base URL and the `Range` header of each
/// request it received (`None` when absent).
struct Mirror {
    url: String,
    ranges: Arc<Mutex<Vec<Option<String>>>>,
}

impl Mirror {
    /// Serves `files` (path under the root → bytes) until the test binary ends.
    fn start(files: Vec<(String, Vec<u8>)>, fault: Fault) -> Mirror {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        let ranges = Arc::new(Mutex::new(Vec::new()));
        let log = Arc::clone(&ranges);
        std::thread::spawn(move || {
            for (n, stream) in listener.incoming().enumerate() {
                let Ok(stream) = stream else { continue };
                // A client gone mid-answer is what some tests do on purpose.
                let _ = serve(stream, &files, fault, n == 0, &log);
            }
        });
        Mirror { url, ranges }
    }

    fn ranges(&self) -> Vec<Option<String>> {
        self.ranges.lock().unwrap().clone()
    }
}

/// Answers one request (then closes the connection).
fn serve(
    mut stream: TcpStream,
    files: &[(String, Vec<u8>)],
    fault: Fault,
    first: bool,
    log: &Mutex<Vec<Option<String>>>,
) -> std::io::Result<()> {
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut request_line = String::new();
    reader.read_line(&mut request_line)?;
    let mut range = None;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line)? == 0 || line == "\r\n" {
            break;
        }
        if let Some((name, value)) = line.split_once(':')
            && name.eq_ignore_ascii_case("range")
        {
            range = Some(value.trim().to_string());
        }
    }
    log.lock().unwrap().push(range.clone());
    let path = request_line.split_whitespace().nth(1).unwrap_or("/").trim_start_matches('/');
    let Some((_, bytes)) = files.iter().find(|(p, _)| p == path) else {
        return stream.write_all(b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
    };
    let mut bytes = bytes.clone();
    match fault {
        Fault::Corrupt => bytes[1000] ^= 0xff,
        Fault::Longer(n) => bytes.extend(std::iter::repeat_n(b'\n', n)),
        _ => {}
    }
    let total = bytes.len();
    let start = range
        .as_deref()
        .and_then(|r| r.strip_prefix("bytes="))
        .and_then(|r| r.strip_suffix('-'))
        .and_then(|r| r.parse::<usize>().ok())
        .filter(|_| !matches!(fault, Fault::IgnoreRange));
    let (head, body) = match start {
        Some(start) if start < total => (
            format!(
                "HTTP/1.1 206 Partial Content\r\nContent-Length: {}\r\nContent-Range: bytes {start}-{}/{total}\r\nConnection: close\r\n\r\n",
                total - start,
                total - 1
            ),
            &bytes[start..],
        ),
        _ => (format!("HTTP/1.1 200 OK\r\nContent-Length: {total}\r\nConnection: close\r\n\r\n"), &bytes[..]),
    };
    stream.write_all(head.as_bytes())?;
    match fault {
        Fault::CutFirstAfter(n) if first => stream.write_all(&body[..n])?,
        _ => stream.write_all(body)?,
    }
    stream.flush()
}

/// A mirror serving the real KTH log.
fn kth_mirror(fault: Fault) -> Mirror {
    let bytes = std::fs::read(common::traces().join(KTH_PATH)).unwrap();
    Mirror::start(vec![(KTH_PATH.to_string(), bytes)], fault)
}

/// `slasim ARGS` with the traces directory `dir` and no mirror from the
/// environment: (success, stdout, stderr).
fn slasim_in(dir: &Path, args: &[&str]) -> (bool, String, String) {
    slasim_with(&[("SLASIM_TRACE_DIR", dir)], args)
}

/// `slasim ARGS` with the environment variables `env` and no mirror from
/// the environment: (success, stdout, stderr).
fn slasim_with(env: &[(&str, &Path)], args: &[&str]) -> (bool, String, String) {
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_slasim"))
        .envs(env.iter().copied())
        .env_remove("SLASIM_TRACE_MIRROR")
        .args(args)
        .output()
        .unwrap();
    (
        output.status.success(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

fn sha256_of(path: &Path) -> String {
    Sha256::digest(std::fs::read(path).unwrap()).iter().map(|b| format!("{b:02x}")).collect()
}

/// Every file under `dir`, relative.
fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else {
                out.push(path.strip_prefix(dir).unwrap().to_path_buf());
            }
        }
    }
    out
}

fn kth_entry() -> &'static catalogue::Entry {
    catalogue::find(KTH).expect("KTH-SP2 is catalogued")
}

#[test]
fn every_shipped_entry_matches_its_file_in_the_traces_directory() {
    use slasim::trace::catalogue::Dataset;
    for (dataset, dir) in [(Dataset::Traces, common::traces()), (Dataset::Signals, common::signals())] {
        let mut checked = 0;
        for entry in CATALOGUE.iter().filter(|e| e.dataset == dataset) {
            let Some(digest) = entry.shipped else { continue };
            let file = dir.join(entry.path);
            assert!(file.is_file(), "{}: catalogued as shipped but missing from {}", entry.name, dir.display());
            let bytes = std::fs::read(&file).unwrap();
            assert_eq!(bytes.len() as u64, digest.size, "{}: size", file.display());
            let sha256: String = Sha256::digest(&bytes).iter().map(|b| format!("{b:02x}")).collect();
            assert_eq!(sha256, digest.sha256, "{}: sha256", file.display());
            if let Some(plain) = entry.plain {
                let mut text = Vec::new();
                std::io::Read::read_to_end(&mut flate2::read::GzDecoder::new(&bytes[..]), &mut text).unwrap();
                let sha256: String = Sha256::digest(&text).iter().map(|b| format!("{b:02x}")).collect();
                assert_eq!((text.len() as u64, sha256.as_str()), (plain.size, plain.sha256), "{}: plain", entry.name);
            }
            checked += 1;
        }
        // Every file the shared data ships (its notes aside) is catalogued.
        let shipped: Vec<PathBuf> =
            files_under(&dir).into_iter().filter(|p| p.extension().is_some_and(|e| e == "gz")).collect();
        for path in &shipped {
            let name = path.to_string_lossy();
            assert!(
                CATALOGUE.iter().any(|e| e.dataset == dataset && e.path == name),
                "{name}: shipped but not catalogued"
            );
        }
        assert_eq!(checked, shipped.len(), "catalogued shipped entries vs .gz files in {}", dir.display());
    }
}

/// A catalogued signal is fetched into the signals directory and found there
/// by its catalogue name, as traces are.
#[test]
fn a_signal_is_fetched_into_the_signals_directory_and_found_by_name() {
    const NAME: &str = "electricitymaps-DE-LU-2022";
    let entry = catalogue::find(NAME).expect("catalogued");
    let bytes = std::fs::read(common::signals().join(entry.path)).unwrap();
    let mirror = Mirror::start(vec![(entry.path.to_string(), bytes)], Fault::None);
    let (signals, traces) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let run = |args: &[&str]| {
        slasim_with(&[("SLASIM_SIGNAL_DIR", signals.path()), ("SLASIM_TRACE_DIR", traces.path())], args)
    };
    let (ok, _, stderr) = run(&["signal", "info", NAME]);
    assert!(!ok && stderr.contains(&format!("slasim trace fetch {NAME}")), "{stderr}");
    let (ok, stdout, stderr) = run(&["trace", "fetch", NAME, "--mirror", &mirror.url]);
    assert!(ok, "{stderr}");
    assert!(stdout.contains(&signals.path().join(entry.path).display().to_string()), "{stdout}");
    assert!(files_under(traces.path()).is_empty(), "nothing written to the traces directory");
    let (ok, stdout, stderr) = run(&["signal", "info", NAME]);
    assert!(ok, "{stderr}");
    assert!(stdout.contains("8,760") || stdout.contains("8760"), "{stdout}");
}

#[test]
fn a_good_file_is_fetched_verified_and_listed_as_present() {
    let mirror = kth_mirror(Fault::None);
    let dir = tempfile::tempdir().unwrap();
    let (ok, stdout, stderr) = slasim_in(dir.path(), &["trace", "fetch", KTH, "--mirror", &mirror.url]);
    assert!(ok, "{stderr}");
    let dest = dir.path().join(KTH_PATH);
    assert!(stdout.contains("downloaded and verified"), "{stdout}");
    assert_eq!(sha256_of(&dest), kth_entry().shipped.unwrap().sha256);
    assert_eq!(files_under(dir.path()), vec![PathBuf::from(KTH_PATH)], "only the file, no .part");

    let (ok, stdout, stderr) = slasim_in(dir.path(), &["trace", "list"]);
    assert!(ok, "{stderr}");
    let kth = stdout.split("\n\n").find(|block| block.starts_with(KTH)).expect("KTH in the list");
    assert!(kth.contains(&format!("present, verified: {}", dest.display())), "{kth}");

    // Present and verified: not downloaded again.
    let requests = mirror.ranges().len();
    let (ok, stdout, stderr) = slasim_in(dir.path(), &["trace", "fetch", KTH, "--mirror", &mirror.url]);
    assert!(ok, "{stderr}");
    assert!(stdout.contains("already present and verified"), "{stdout}");
    assert_eq!(mirror.ranges().len(), requests, "no request for a verified file");
}

#[test]
fn a_corrupted_download_is_refused_and_nothing_is_left() {
    let mirror = kth_mirror(Fault::Corrupt);
    let dir = tempfile::tempdir().unwrap();
    let (ok, _, stderr) = slasim_in(dir.path(), &["trace", "fetch", KTH, "--mirror", &mirror.url]);
    assert!(!ok, "a corrupted file must be refused");
    let expected = kth_entry().shipped.unwrap().sha256;
    assert!(stderr.contains("refused") && stderr.contains(expected) && stderr.contains(KTH_PATH), "{stderr}");
    assert!(files_under(dir.path()).is_empty(), "left behind: {:?}", files_under(dir.path()));
    let (ok, _, _) = slasim_in(dir.path(), &["trace", "info", KTH]);
    assert!(!ok, "no run may find the refused file");
}

#[test]
fn an_interrupted_download_is_resumed_with_a_range_request() {
    const CUT: usize = 100_000;
    let mirror = kth_mirror(Fault::CutFirstAfter(CUT));
    let dir = tempfile::tempdir().unwrap();
    let (ok, stdout, stderr) = slasim_in(dir.path(), &["trace", "fetch", KTH, "--mirror", &mirror.url]);
    assert!(ok, "{stderr}");
    assert!(stdout.contains("downloaded and verified"), "{stdout}");
    assert_eq!(mirror.ranges(), vec![None, Some(format!("bytes={CUT}-"))]);
    assert_eq!(sha256_of(&dir.path().join(KTH_PATH)), kth_entry().shipped.unwrap().sha256);
    assert_eq!(files_under(dir.path()), vec![PathBuf::from(KTH_PATH)]);
}

/// A `.part` of the KTH log's first `len` bytes in the traces directory
/// `dir`, as an earlier fetch leaves it.
fn kept_part(dir: &Path, len: usize) {
    let bytes = std::fs::read(common::traces().join(KTH_PATH)).unwrap();
    let dest = dir.join(KTH_PATH);
    std::fs::create_dir_all(dest.parent().unwrap()).unwrap();
    std::fs::write(slasim::trace::fetch::part_path(&dest), &bytes[..len]).unwrap();
}

#[test]
fn an_earlier_fetchs_part_is_resumed_and_said_so() {
    let mirror = kth_mirror(Fault::None);
    let dir = tempfile::tempdir().unwrap();
    kept_part(dir.path(), 100_000);
    let (ok, stdout, stderr) = slasim_in(dir.path(), &["trace", "fetch", KTH, "--mirror", &mirror.url]);
    assert!(ok, "{stderr}");
    assert!(stdout.contains("downloaded and verified (resumed from byte 100000)"), "{stdout}");
    assert_eq!(mirror.ranges(), vec![Some("bytes=100000-".to_string())]);
    assert_eq!(files_under(dir.path()), vec![PathBuf::from(KTH_PATH)]);
}

#[test]
fn a_range_the_server_ignores_resumes_nothing() {
    let mirror = kth_mirror(Fault::IgnoreRange);
    let dir = tempfile::tempdir().unwrap();
    kept_part(dir.path(), 100_000);
    let (ok, stdout, stderr) = slasim_in(dir.path(), &["trace", "fetch", KTH, "--mirror", &mirror.url]);
    assert!(ok, "{stderr}");
    assert!(stdout.contains("downloaded and verified:") && !stdout.contains("resumed"), "{stdout}");
    assert_eq!(mirror.ranges(), vec![Some("bytes=100000-".to_string())]);
    assert_eq!(sha256_of(&dir.path().join(KTH_PATH)), kth_entry().shipped.unwrap().sha256);
}

#[test]
fn a_longer_file_is_refused_with_its_length() {
    let mirror = kth_mirror(Fault::Longer(10));
    let dir = tempfile::tempdir().unwrap();
    let (ok, _, stderr) = slasim_in(dir.path(), &["trace", "fetch", KTH, "--mirror", &mirror.url]);
    assert!(!ok);
    let size = kth_entry().shipped.unwrap().size;
    assert!(stderr.contains(&format!("longer than the catalogued file ({size} bytes")), "{stderr}");
    assert!(stderr.contains(&format!("it has {} bytes", size + 10)), "{stderr}");
    assert!(files_under(dir.path()).is_empty(), "left behind: {:?}", files_under(dir.path()));
}

#[test]
fn offline_it_says_which_file_to_put_where() {
    // A port nothing listens on: bound, then released.
    let closed = TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let (ok, _, stderr) = slasim_in(dir.path(), &["trace", "fetch", KTH, "--mirror", &format!("http://{closed}")]);
    assert!(!ok);
    let dest = dir.path().join(KTH_PATH);
    let digest = kth_entry().shipped.unwrap();
    assert!(stderr.contains("cannot reach"), "{stderr}");
    assert!(stderr.contains(&format!("put it at {}", dest.display())), "{stderr}");
    assert!(stderr.contains(digest.sha256), "{stderr}");
    assert!(files_under(dir.path()).is_empty());
}

#[test]
fn a_run_finds_a_fetched_file_by_its_catalogue_name() {
    let mirror = kth_mirror(Fault::None);
    let dir = tempfile::tempdir().unwrap();
    let (ok, _, stderr) = slasim_in(dir.path(), &["trace", "info", KTH]);
    assert!(!ok && stderr.contains(&format!("slasim trace fetch {KTH}")), "{stderr}");
    let (ok, _, stderr) = slasim_in(dir.path(), &["trace", "fetch", KTH, "--mirror", &mirror.url]);
    assert!(ok, "{stderr}");
    let (ok, stdout, stderr) = slasim_in(dir.path(), &["trace", "info", KTH]);
    assert!(ok, "{stderr}");
    assert!(stdout.contains(&dir.path().join(KTH_PATH).display().to_string()), "{stdout}");
    assert!(stdout.contains("28,476"), "{stdout}");
}

#[test]
fn a_file_slasim_cannot_verify_is_not_downloaded() {
    let mirror = kth_mirror(Fault::None);
    let dir = tempfile::tempdir().unwrap();
    let (ok, _, stderr) = slasim_in(dir.path(), &["trace", "fetch", "philly-trace-data", "--mirror", &mirror.url]);
    assert!(!ok);
    assert!(stderr.contains("cannot download") && stderr.contains("github.com/msr-fiddle/philly-traces"), "{stderr}");
    assert!(stderr.contains(&dir.path().join("gpu/philly/trace-data.tar.gz").display().to_string()), "{stderr}");
    assert!(mirror.ranges().is_empty(), "nothing requested");
}
