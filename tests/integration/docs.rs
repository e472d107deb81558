//! The docs cannot go stale. A generated block of `docs/` holds exactly what
//! the binary prints now; three kinds, each closed by a line starting
//! `<!-- end generated`:
//!
//! - `<!-- generated: slasim ARGS -->`: the output of `slasim ARGS` (a `run`
//!   names a store under `target/`, removed first, so the block shows a fresh run).
//! - `<!-- generated from CONFIG …: slasim ARGS -->`: the configs are swept
//!   (`slasim sweep CONFIG --jobs 2`) into one store and `slasim ARGS` runs
//!   on it (`--db STORE` after the subcommand); the output is followed by a
//!   line naming the sweep and the command. Its end marker carries a hash of
//!   the block (`<!-- end generated 0123456789abcdef -->`), so a block edited
//!   by hand fails the cheap test below at once.
//! - `<!-- generated stamp -->`: the version and commit of the binary that
//!   wrote the page's blocks, and each sweep's points and wall time. Not
//!   compared (it changes with every commit and run).
//!
//! `generated_blocks_match_what_the_binary_prints` (run by `cargo test`)
//! refills the first kind and the store blocks of the configs in
//! `CHEAP_CONFIGS` (under a minute in all) and checks every hash;
//! `store_blocks_match_what_the_binary_prints` (ignored: several minutes)
//! refills every store block. `scripts/gen-docs` rewrites the cheap blocks,
//! `scripts/gen-docs --all` every block (these tests with
//! `SLASIM_DOCS_WRITE=1`); stores are kept in `target/docs-stores/`, one per
//! set of configs and state of the sources the binary is built from.

use crate::common;

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::Instant;

use sha2::{Digest, Sha256};

const OPEN: &str = "<!-- generated: slasim ";
const OPEN_STORE: &str = "<!-- generated from ";
const OPEN_STAMP: &str = "<!-- generated stamp -->";
const CLOSE: &str = "<!-- end generated";

/// Configs whose store blocks `cargo test` refills: they sweep in seconds.
const CHEAP_CONFIGS: &[&str] = &[
    "configs/quick.toml",
    "configs/ctc-sp2-bases.toml",
    "configs/fixed-reservations.toml",
    "configs/heuristic-ablation-sdsc.toml",
    "configs/coreservation-6.2.toml",
    "configs/coreservation-6.4.toml",
    "configs/coreservation-6.5.toml",
    "configs/coreservation-6.6.toml",
    "configs/coreservation-6.7.toml",
    "configs/coreservation-6.8.toml",
    "configs/coreservation-6.9.toml",
    "configs/provisioning-ch3.toml",
    "configs/slurm-month.toml",
];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn markdown_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            markdown_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "md") {
            out.push(path);
        }
    }
}

fn sha256(bytes: &[u8]) -> String {
    Sha256::digest(bytes).iter().map(|b| format!("{b:02x}")).collect()
}

/// The hash a store block's end marker carries.
fn block_hash(body: &str) -> String {
    sha256(body.as_bytes())[..16].to_string()
}

/// A store swept by the binary under test: its path and, per config, the
/// points it holds and the wall seconds the sweep took.
struct Store {
    db: PathBuf,
    sweeps: Vec<(String, u64, f64)>,
}

/// The stores of one test run, keyed by their configs.
#[derive(Default)]
struct Stores(BTreeMap<Vec<String>, Store>);

impl Stores {
    /// The store of `configs` (paths relative to the repository), swept now
    /// unless one swept by this very binary from these very configs is kept.
    fn get(&mut self, configs: &[String]) -> &Store {
        self.0.entry(configs.to_vec()).or_insert_with(|| {
            let mut key = sha256(&sources());
            for c in configs {
                let text = std::fs::read(root().join(c)).unwrap_or_else(|e| panic!("{c}: {e}"));
                key = sha256(format!("{key} {c} {}", sha256(&text)).as_bytes());
            }
            let dir = root().join("target/docs-stores");
            std::fs::create_dir_all(&dir).unwrap();
            let db = dir.join(format!("{}.sqlite", &key[..16]));
            let meta = db.with_extension("sweeps");
            if let Ok(text) = std::fs::read_to_string(&meta) {
                let sweeps = text
                    .lines()
                    .map(|l| {
                        let f: Vec<&str> = l.split('\t').collect();
                        (f[0].to_string(), f[1].parse().unwrap(), f[2].parse().unwrap())
                    })
                    .collect();
                return Store { db, sweeps };
            }
            // Swept under a name of its own and renamed when whole: two
            // tests (or processes) may sweep the same configs at once.
            let partial =
                dir.join(format!("{}.{}-{:?}.partial", &key[..16], std::process::id(), std::thread::current().id()));
            let _ = std::fs::remove_file(&partial);
            let mut sweeps = Vec::new();
            for c in configs {
                let started = Instant::now();
                let out = common::slasim()
                    .current_dir(root())
                    .args(["sweep", c, "--jobs", "2", "--no-progress", "--db"])
                    .arg(&partial)
                    .output()
                    .unwrap();
                assert!(out.status.success(), "slasim sweep {c} failed: {}", String::from_utf8_lossy(&out.stderr));
                let seconds = started.elapsed().as_secs_f64();
                let points = slasim::store::query(
                    &partial,
                    &format!(
                        "SELECT count(DISTINCT p.run_id) FROM experiment_points p JOIN experiments e \
                         ON p.experiment = e.hash WHERE e.name = '{}'",
                        config_name(c)
                    ),
                )
                .unwrap()
                .rows[0][0]
                    .parse()
                    .unwrap();
                sweeps.push((c.clone(), points, seconds));
            }
            let text: String = sweeps.iter().map(|(c, p, s)| format!("{c}\t{p}\t{s}\n")).collect();
            std::fs::rename(&partial, &db).unwrap();
            for side in ["-shm", "-wal"] {
                let mut name = partial.clone().into_os_string();
                name.push(side);
                let _ = std::fs::remove_file(name);
            }
            std::fs::write(&meta, text).unwrap();
            Store { db, sweeps }
        })
    }
}

/// What the binary is built from: every file of its crates' sources, their
/// manifests, the lock file and the build script. A commit that changes none of them
/// keeps the stores (the binary itself differs by its embedded commit).
fn sources() -> Vec<u8> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() { walk(&path, out) } else { out.push(path) }
        }
    }
    let mut files = vec![root().join("Cargo.toml"), root().join("Cargo.lock"), root().join("crates/core/build.rs")];
    walk(&root().join("src"), &mut files);
    for krate in ["sim", "core", "slurm", "gym"] {
        files.push(root().join("crates").join(krate).join("Cargo.toml"));
        walk(&root().join("crates").join(krate).join("src"), &mut files);
    }
    files.sort();
    let mut all = Vec::new();
    for f in files {
        all.extend(f.strip_prefix(root()).unwrap().display().to_string().bytes());
        all.extend(sha256(&std::fs::read(&f).unwrap()).bytes());
    }
    all
}

/// The `name` a config declares.
fn config_name(path: &str) -> String {
    let text = std::fs::read_to_string(root().join(path)).unwrap();
    text.lines()
        .find_map(|l| l.strip_prefix("name = \"").and_then(|r| r.strip_suffix('"')))
        .unwrap_or_else(|| panic!("{path}: no `name = \"…\"` line"))
        .to_string()
}

/// A marker's command split as a shell would (it may quote SQL, and span
/// lines).
fn words(place: &str, command: &str) -> Vec<String> {
    shlex::split(command).unwrap_or_else(|| panic!("{place}: cannot split `{command}`"))
}

/// Runs `slasim ARGS` (on `db` when given, inserted after the subcommand)
/// from the repository root and returns what it printed.
fn run_slasim(place: &str, args: &[&str], db: Option<&Path>) -> String {
    let mut cmd = common::slasim();
    cmd.current_dir(root());
    match db {
        Some(db) => {
            cmd.arg(args[0]).arg("--db").arg(db).args(&args[1..]);
        }
        None => {
            cmd.args(args);
        }
    }
    let output = cmd.output().unwrap();
    assert!(
        output.status.success(),
        "{place}: slasim {} failed: {}",
        args.join(" "),
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).unwrap().trim_end().to_string()
}

/// A block's `slasim run … --db target/NAME` shows a fresh run: its store,
/// which must lie under `target/`, is removed first (a second run into it
/// would print that the runs were already stored).
fn forget_store(place: &str, args: &[&str]) {
    let db = args.windows(2).find(|w| w[0] == "--db").map(|w| w[1]);
    let db = db.unwrap_or_else(|| panic!("{place}: a `slasim run` block names its store: --db target/NAME.sqlite"));
    assert!(db.starts_with("target/"), "{place}: a `slasim run` block's store lies under target/, not at {db}");
    let store = root().join(db);
    // A first refill has no store yet; every later one removes it.
    if store.exists() {
        std::fs::remove_file(&store).unwrap_or_else(|e| panic!("{place}: cannot remove {db}: {e}"));
    }
}

/// What refilling a page does.
#[derive(Clone, Copy, PartialEq)]
enum Mode {
    /// Refill the first kind and the cheap store blocks; check every hash.
    Cheap,
    /// Refill every block.
    All,
}

/// A page refilled: its text, how many blocks it has, and the store blocks
/// whose hash does not match their body.
struct Refilled {
    text: String,
    blocks: usize,
    tampered: Vec<String>,
}

/// The text with its generated blocks refilled as `mode` says.
fn refill(path: &Path, text: &str, mode: Mode, stores: &mut Stores) -> Refilled {
    let rel = path.strip_prefix(root()).unwrap_or(path).display().to_string();
    let mut out = String::new();
    let mut rest = text;
    let mut blocks = 0;
    let mut tampered = Vec::new();
    let mut sweeps: Vec<(String, u64, f64)> = Vec::new();
    let mut stamp_at = None;
    // A marker begins a line (one quoted in the text does not count).
    let find = |text: &str| {
        [OPEN, OPEN_STORE, OPEN_STAMP]
            .iter()
            .filter_map(|m| text.match_indices(m).map(|(i, _)| i).find(|&i| i == 0 || text.as_bytes()[i - 1] == b'\n'))
            .min()
    };
    while let Some(open) = find(rest) {
        let line_end = open + rest[open..].find("-->").unwrap_or_else(|| panic!("{rel}: unclosed marker"));
        let marker = &rest[open..line_end];
        let close =
            rest[line_end..].find(CLOSE).unwrap_or_else(|| panic!("{rel}: `{marker}` has no `{CLOSE}`")) + line_end;
        let close_end = close + rest[close..].find("-->").unwrap() + 3;
        let end_marker = &rest[close..close_end];
        let body = rest[line_end + 3..close].trim();
        out.push_str(&rest[..line_end + 3]);
        blocks += 1;
        if marker.starts_with(OPEN_STAMP.trim_end_matches("-->").trim_end()) {
            // Filled once the page's sweeps are known.
            stamp_at = Some((out.len(), body.to_string()));
            out.push_str(CLOSE);
            out.push_str(" -->");
        } else if let Some(args) = marker.strip_prefix(OPEN) {
            let args = words(&rel, args);
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            if args.first() == Some(&"run") {
                forget_store(&rel, &args);
            }
            let fresh = run_slasim(&rel, &args, None);
            let _ = write!(out, "\n\n{fresh}\n\n{CLOSE} -->");
        } else {
            let spec = &marker[OPEN_STORE.len()..];
            let (configs, command) = spec
                .split_once(": slasim ")
                .unwrap_or_else(|| panic!("{rel}: `{marker}`: expected `from CONFIG …: slasim ARGS`"));
            let configs: Vec<String> = configs.split_whitespace().map(str::to_string).collect();
            let args = words(&rel, command);
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            let recorded = end_marker.trim_start_matches(CLOSE).trim_end_matches("-->").trim();
            if recorded != block_hash(body) {
                tampered.push(format!("{rel}: `{}`", marker.trim()));
            }
            let cheap = configs.iter().all(|c| CHEAP_CONFIGS.contains(&c.as_str()));
            if mode == Mode::All || cheap {
                let store = stores.get(&configs);
                for s in &store.sweeps {
                    if !sweeps.iter().any(|(c, _, _)| c == &s.0) {
                        sweeps.push(s.clone());
                    }
                }
                let fresh = run_slasim(&rel, &args, Some(&store.db.clone()));
                let sweep: Vec<String> = configs.iter().map(|c| format!("`{c}`")).collect();
                let command = shlex::try_join(args.iter().copied()).unwrap();
                let body = format!(
                    "{fresh}\n\n*Generated by `slasim sweep` of {}, then `slasim {command}`.*",
                    sweep.join(", ")
                );
                let _ = write!(out, "\n\n{body}\n\n{CLOSE} {} -->", block_hash(&body));
            } else {
                let _ = write!(out, "\n\n{body}\n\n{end_marker}");
            }
        }
        rest = &rest[close_end..];
    }
    out.push_str(rest);
    if let Some((at, old)) = stamp_at {
        let stamp = if mode == Mode::All {
            let version = run_slasim(&rel, &["--version"], None);
            let mut s = format!("*The generated tables of this page: {version}, written by `scripts/gen-docs --all`");
            if !sweeps.is_empty() {
                let list: Vec<String> = sweeps
                    .iter()
                    .map(|(c, points, secs)| {
                        format!("`{c}` ({} points, {secs:.0} s)", slasim::units::thousands(*points as usize))
                    })
                    .collect();
                let _ = write!(s, "; sweeps with `--jobs 2` on {} cores: {}", cores(), list.join(", "));
            }
            s.push_str(".*");
            s
        } else {
            old
        };
        out.insert_str(at, &format!("\n\n{stamp}\n\n"));
    }
    Refilled { text: out, blocks, tampered }
}

fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, usize::from)
}

/// Refills every page of the book as `mode` says; rewrites them with
/// `SLASIM_DOCS_WRITE=1`, else fails naming the stale and tampered pages.
fn refill_book(mode: Mode) {
    let mut files = Vec::new();
    markdown_files(&root().join("docs"), &mut files);
    files.sort();
    // `SLASIM_DOCS_PAGE=docs/src/…/page.md`: that page alone (a new page's
    // blocks, without sweeping every other page's configs again).
    if let Some(page) = std::env::var_os("SLASIM_DOCS_PAGE") {
        files.retain(|f| f.ends_with(&page));
    }
    let write = std::env::var_os("SLASIM_DOCS_WRITE").is_some();
    let mut stores = Stores::default();
    let (mut blocks, mut stale, mut tampered) = (0, Vec::new(), Vec::new());
    for path in files {
        let text = std::fs::read_to_string(&path).unwrap();
        let refilled = refill(&path, &text, mode, &mut stores);
        blocks += refilled.blocks;
        // A stamp is not compared: only what the blocks hold.
        let unstamped = |t: &str| refill_stamps_blank(t);
        if refilled.text != text {
            if write {
                std::fs::write(&path, &refilled.text).unwrap();
            } else if unstamped(&refilled.text) != unstamped(&text) {
                stale.push(path.display().to_string());
            }
        }
        if !write {
            tampered.extend(refilled.tampered);
        }
    }
    assert!(blocks > 0, "no generated block under docs/");
    assert!(
        tampered.is_empty(),
        "generated blocks edited by hand (their hash does not match; run scripts/gen-docs --all):\n{}",
        tampered.join("\n")
    );
    let command = if mode == Mode::All { "scripts/gen-docs --all" } else { "scripts/gen-docs" };
    assert!(stale.is_empty(), "stale generated docs (run {command}): {}", stale.join(", "));
}

/// The text with every stamp block emptied.
fn refill_stamps_blank(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(i) = rest.find(OPEN_STAMP) {
        let j = rest[i..].find(CLOSE).map_or(rest.len(), |j| i + j);
        out.push_str(&rest[..i + OPEN_STAMP.len()]);
        rest = &rest[j..];
    }
    out.push_str(rest);
    out
}

#[test]
fn generated_blocks_match_what_the_binary_prints() {
    refill_book(Mode::Cheap);
}

#[test]
#[ignore = "sweeps every reproduction config (several minutes): run by scripts/gen-docs --check"]
fn store_blocks_match_what_the_binary_prints() {
    refill_book(Mode::All);
}

/// The keys a config table accepts, from the parser's own refusal of an
/// unknown one; `None` when `header` is not a table of keys.
fn keys_of(header: &str, extra: &str) -> Option<Vec<String>> {
    let text = format!("{header}\n{extra}zzz_not_a_key = 1\n");
    let error =
        slasim::experiment::config::Experiment::parse(&slasim::registry(), "probe.toml", &text).err()?.to_string();
    let listed = error.split("unknown field `zzz_not_a_key`, expected ").nth(1)?;
    Some(listed.split('`').skip(1).step_by(2).map(str::to_string).collect())
}

/// Every key path a config accepts: tables are entered, arrays of tables
/// too; each path as written in the reference (`prepare.target_load`).
fn config_keys() -> Vec<String> {
    let mut found = Vec::new();
    let mut tables: Vec<(String, String, String)> = vec![(String::new(), String::new(), String::new())];
    while let Some((path, header, extra)) = tables.pop() {
        let keys = keys_of(&header, &extra).unwrap_or_else(|| panic!("no keys found for table `{path}`"));
        for key in keys {
            let full = if path.is_empty() { key.clone() } else { format!("{path}.{key}") };
            found.push(full.clone());
            // `failures` is a tagged table: its keys depend on `model`.
            let extra = if full == "failures" { "model = \"poisson\"\n".to_string() } else { String::new() };
            if full == "sweep" {
                continue; // documented with the sweep axes
            }
            for header in [format!("[{full}]"), format!("[[{full}]]")] {
                if keys_of(&header, &extra).is_some() {
                    tables.push((full.clone(), header, extra.clone()));
                    break;
                }
            }
        }
    }
    found.sort();
    found
}

/// The config reference lists every key a config accepts, and no other
/// (every kind's, as the `slasim` binary registers them).
#[test]
fn the_config_reference_lists_every_key() {
    let page = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("docs/src/reference/config.md");
    let text = std::fs::read_to_string(&page).unwrap();
    // A key row: | `path` | type | default | meaning |
    let documented: std::collections::BTreeSet<String> = text
        .lines()
        .filter_map(|l| l.strip_prefix("| `"))
        .filter_map(|l| l.split_once('`').map(|(k, _)| k.to_string()))
        .collect();
    let keys = config_keys();
    let missing: Vec<&String> = keys.iter().filter(|k| !documented.contains(*k)).collect();
    let unknown: Vec<&String> = documented.iter().filter(|k| !keys.contains(k)).collect();
    assert!(missing.is_empty(), "config keys missing from {}: {missing:?}", page.display());
    assert!(unknown.is_empty(), "{} lists keys no config accepts: {unknown:?}", page.display());
}

/// The `$ slasim …` lines of every ```console block in the README and the
/// book, split as a shell would (one line each; a trailing `\` joins lines).
fn documented_commands() -> Vec<(String, Vec<String>)> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut files = vec![root.join("README.md")];
    markdown_files(&root.join("docs"), &mut files);
    let mut commands = Vec::new();
    for path in files {
        let text = std::fs::read_to_string(&path).unwrap();
        let mut in_console = false;
        let mut pending = String::new();
        for (n, line) in text.lines().enumerate() {
            let trimmed = line.trim();
            if trimmed.starts_with("```") {
                in_console = trimmed == "```console";
                continue;
            }
            if !in_console {
                continue;
            }
            let line = if pending.is_empty() {
                match trimmed.strip_prefix("$ ") {
                    Some(command) => command.to_string(),
                    None => continue,
                }
            } else {
                format!("{pending} {trimmed}")
            };
            if let Some(start) = line.strip_suffix('\\') {
                pending = start.to_string();
                continue;
            }
            pending.clear();
            // Only slasim's own commands; a pipe or redirection ends the command.
            let line = line.split(['|', '>']).next().unwrap_or("").trim().to_string();
            let words =
                shlex::split(&line).unwrap_or_else(|| panic!("{}:{}: cannot split `{line}`", path.display(), n + 1));
            let words = match words.first().map(String::as_str) {
                Some("slasim") => words,
                Some("cargo") if words.iter().any(|w| w == "--") && words.iter().any(|w| w == "run") => {
                    let after = words.iter().position(|w| w == "--").unwrap_or(0) + 1;
                    std::iter::once("slasim".to_string()).chain(words[after..].iter().cloned()).collect()
                }
                _ => continue,
            };
            commands.push((format!("{}:{}", path.display(), n + 1), words));
        }
    }
    commands
}

/// Every slasim command the docs show parses with the command line as built.
#[test]
fn every_documented_command_parses() {
    let commands = documented_commands();
    assert!(commands.len() >= 10, "only {} documented commands found", commands.len());
    let mut bad = Vec::new();
    for (place, words) in &commands {
        if let Err(e) = slasim::cli::command(&slasim::registry()).try_get_matches_from(words) {
            if !matches!(e.kind(), clap::error::ErrorKind::DisplayHelp | clap::error::ErrorKind::DisplayVersion) {
                bad.push(format!(
                    "{place}: `{}`: {}",
                    words.join(" "),
                    e.render().to_string().lines().next().unwrap_or("")
                ));
            }
        }
    }
    assert!(bad.is_empty(), "documented commands that do not parse:\n{}", bad.join("\n"));
}
