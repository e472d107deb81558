//! The developer docs say which files each kind of extension touches, and
//! the code keeps to it.
//!
//! `docs/src/dev/extending.md` has, per extension (a strategy, a model, a
//! stored metric, a point kind, an axis), `files` blocks of `new PATH` and
//! `edit PATH` lines, where `<x>` in a path stands for any one name. Each
//! built-in of that extension is found in the code by what defines it (an
//! `impl Strategy for`, a `column!(` descriptor, …) and must live in a file
//! its section lists; every listed pattern must match a file that exists.
//! `docs/src/dev/architecture.md` repeats the lists in one table, checked
//! to name the same paths.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn sources(dir: &Path, out: &mut Vec<String>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path.strip_prefix(root()).unwrap().to_string_lossy().replace('\\', "/"));
        }
    }
}

/// The source folders of the crates an extension goes in (the kernel crate
/// holds no extension).
const SOURCES: [&str; 7] = [
    "src",
    "crates/core/src",
    "crates/single/src",
    "crates/grid/src",
    "crates/provision/src",
    "crates/slurm/src",
    "crates/gym/src",
];

/// Every file of [`SOURCES`], relative to the workspace root.
fn all_sources() -> Vec<String> {
    let mut files = Vec::new();
    for dir in SOURCES {
        sources(&root().join(dir), &mut files);
    }
    files
}

/// Every file of [`SOURCES`], relative to the workspace root, with its text
/// (comments dropped: docs name things without defining them).
fn src_files() -> Vec<(String, String)> {
    let mut files = all_sources();
    files.sort();
    files
        .into_iter()
        .map(|f| {
            let text = std::fs::read_to_string(root().join(&f)).unwrap();
            let code = text.lines().map(|l| l.split("//").next().unwrap_or("")).collect::<Vec<_>>().join("\n");
            (f, code)
        })
        .collect()
}

/// Does `path` match `pattern`, where a `<x>` in a segment stands for one or
/// more characters other than `/`?
fn matches(pattern: &str, path: &str) -> bool {
    let (p, f): (Vec<&str>, Vec<&str>) = (pattern.split('/').collect(), path.split('/').collect());
    p.len() == f.len()
        && p.iter().zip(&f).all(|(p, f)| match (p.find('<'), p.find('>')) {
            (Some(a), Some(b)) => {
                let (prefix, suffix) = (&p[..a], &p[b + 1..]);
                f.len() > prefix.len() + suffix.len() && f.starts_with(prefix) && f.ends_with(suffix)
            }
            _ => p == f,
        })
}

/// One `files` line.
#[derive(Debug, Clone)]
struct Listed {
    new: bool,
    pattern: String,
}

/// The `files` blocks of extending.md, by section title.
fn sections() -> Vec<(String, Vec<Listed>)> {
    let text = std::fs::read_to_string(root().join("docs/src/dev/extending.md")).unwrap();
    let mut out: Vec<(String, Vec<Listed>)> = Vec::new();
    let mut in_block = false;
    for line in text.lines() {
        if let Some(title) = line.strip_prefix("## ") {
            out.push((title.trim().to_string(), Vec::new()));
        } else if line.trim() == "```files" {
            in_block = true;
        } else if in_block && line.trim() == "```" {
            in_block = false;
        } else if in_block {
            let mut words = line.split_whitespace();
            let (verb, pattern) = (words.next().unwrap_or(""), words.next().unwrap_or(""));
            assert!(verb == "new" || verb == "edit", "extending.md: a files line must start with new or edit: {line}");
            let section = out.last_mut().expect("a files block under a section");
            section.1.push(Listed { new: verb == "new", pattern: pattern.to_string() });
        }
    }
    out
}

fn listed(title: &str) -> Vec<Listed> {
    let all = sections();
    let found = all.iter().find(|(t, _)| t == title).unwrap_or_else(|| panic!("extending.md has no section {title}"));
    assert!(!found.1.is_empty(), "extending.md: section {title} lists no files");
    found.1.clone()
}

/// The files whose code satisfies `defines`, except those under `outside`.
fn defining(files: &[(String, String)], defines: impl Fn(&str) -> bool, outside: &[&str]) -> Vec<String> {
    files
        .iter()
        .filter(|(f, code)| !outside.iter().any(|o| f.starts_with(o)) && defines(code))
        .map(|(f, _)| f.clone())
        .collect()
}

/// Each file in `found` matches one of the section's patterns (of `new`
/// lines only if `new`), and `found` is not empty (the check sees the code).
fn lives_where_listed(title: &str, what: &str, found: &[String], new: Option<bool>) {
    assert!(!found.is_empty(), "no file defines {what}: the check no longer sees the code");
    let listed = listed(title);
    let wrong: Vec<&String> = found
        .iter()
        .filter(|f| !listed.iter().any(|l| new.is_none_or(|n| l.new == n) && matches(&l.pattern, f)))
        .collect();
    assert!(wrong.is_empty(), "extending.md, section {title}: {what} lives in files it does not list: {wrong:#?}");
}

#[test]
fn every_listed_pattern_names_files_that_exist() {
    let files = all_sources();
    for (title, listed) in sections() {
        for l in listed {
            assert!(
                files.iter().any(|f| matches(&l.pattern, f)),
                "extending.md, section {title}: {} matches no file",
                l.pattern
            );
        }
    }
}

#[test]
fn the_five_extensions_have_their_lists() {
    let titles: Vec<String> = sections().into_iter().filter(|(_, l)| !l.is_empty()).map(|(t, _)| t).collect();
    for t in ["A strategy", "A model", "A stored metric", "A point kind", "An axis"] {
        assert!(titles.iter().any(|x| x == t), "extending.md lists no files for {t}: {titles:?}");
    }
}

#[test]
fn strategies_live_where_the_docs_say() {
    let files = src_files();
    let strategy = |code: &str| {
        code.lines().any(|l| {
            let l = l.trim_start();
            l.starts_with("impl") && (l.contains(" Strategy for ") || l.contains(" Rule for "))
        })
    };
    lives_where_listed("A strategy", "a strategy", &defining(&files, strategy, &[]), Some(true));
    let registry = defining(&files, |c| c.contains("static BUILTIN: [StrategyInfo"), &[]);
    lives_where_listed("A strategy", "the built-in strategies' registry", &registry, Some(false));
}

#[test]
fn models_live_where_the_docs_say() {
    let files = src_files();
    let model = |code: &str| code.lines().any(|l| l.trim_start().starts_with("impl") && l.contains(" Model for "));
    // The core's own generic models (the client) and the test models of
    // its contract live in the kernel crate, which holds no extension.
    let models = defining(&files, model, &[]);
    lives_where_listed("A model", "a model", &models, Some(true));
    let benches = defining(&files, |c| c.contains("Bench::new("), &[]);
    lives_where_listed("A model", "a bench", &benches, Some(false));
}

#[test]
fn stored_metrics_live_where_the_docs_say() {
    let files = src_files();
    // `columns.rs` defines the macro; every table lists its columns elsewhere.
    let described = defining(&files, |c| c.contains("column!(\""), &["crates/core/src/store/columns.rs"]);
    lives_where_listed("A stored metric", "a column descriptor", &described, Some(false));
}

#[test]
fn point_kinds_live_where_the_docs_say() {
    let files = src_files();
    let kind = |c: &str| c.lines().any(|l| l.trim_start().starts_with("impl PointKind for "));
    lives_where_listed("A point kind", "a point kind", &defining(&files, kind, &[]), Some(true));
    // Every kind comes in through its `Kind`'s registration; the engine's
    // registry has no entry of its own.
    let registering = defining(&files, |c| c.contains(".add_point_kind(&"), &["crates/core/src/registry.rs"]);
    lives_where_listed("A point kind", "a kind's registration", &registering, Some(true));
    assert!(!files.iter().any(|(_, c)| c.contains("BUILTIN: [&'static dyn PointKind")));
    // A kind's rows are written with the descriptors' inserts, in its
    // writer (or its kind's file); the engine's store writes only its own.
    let writers = defining(&files, |c| c.contains("insert_all("), &["crates/core/src/store/"]);
    lives_where_listed("A point kind", "a writer", &writers, Some(true));
}

#[test]
fn axes_live_where_the_docs_say() {
    let files = src_files();
    // A kind's axes are a field of its KindInfo.
    let axes = defining(&files, |c| c.contains(": KindInfo = KindInfo {"), &["crates/core/src/experiment/point.rs"]);
    lives_where_listed("An axis", "a kind's axes", &axes, Some(false));
    let grouped = defining(&files, |c| c.contains("uses [axis("), &["crates/core/src/store/columns.rs"]);
    lives_where_listed("An axis", "a column the report groups by", &grouped, Some(false));
}

/// The table "Where each extension goes" of architecture.md names, per
/// extension, exactly the patterns of its section in extending.md.
#[test]
fn the_architecture_page_lists_the_same_files() {
    let text = std::fs::read_to_string(root().join("docs/src/dev/architecture.md")).unwrap();
    let start =
        text.find("## Where each extension goes").expect("architecture.md: the section Where each extension goes");
    let mut rows = 0;
    for line in text[start..].lines().skip(1).take_while(|l| !l.starts_with("## ")) {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        if cells.len() < 3 || cells[1] == "extension" || cells[1].starts_with("---") {
            continue;
        }
        let title = format!("A{} {}", if cells[1].starts_with(['a', 'e', 'i', 'o', 'u']) { "n" } else { "" }, cells[1]);
        let named: BTreeSet<String> = cells[2]
            .split('`')
            .skip(1)
            .step_by(2)
            .filter(|p| p.starts_with("src/") || p.starts_with("crates/"))
            .map(str::to_string)
            .collect();
        let want: BTreeSet<String> = listed(&title).into_iter().map(|l| l.pattern).collect();
        assert_eq!(named, want, "architecture.md's row for {title} against extending.md");
        rows += 1;
    }
    assert_eq!(rows, 5, "architecture.md: one row per extension");
}

#[test]
fn the_pattern_matcher_matches_one_name_per_placeholder() {
    assert!(matches("src/policy/<name>.rs", "src/policy/heuristic.rs"));
    assert!(!matches("src/policy/<name>.rs", "src/policy/comprehensive/overbooking.rs"));
    assert!(!matches("src/policy/<name>.rs", "src/policy/.rs"));
    assert!(matches("src/<owner>/<room>/<name>.rs", "src/provision/site/actor.rs"));
    assert!(matches("src/grid/bench.rs", "src/grid/bench.rs"));
    assert!(!matches("src/grid/bench.rs", "src/cluster/bench.rs"));
}
