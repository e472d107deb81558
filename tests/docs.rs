//! The docs cannot go stale: every generated block of `docs/` (opened by
//! `<!-- generated: slasim ARGS -->`, closed by `<!-- end generated -->`)
//! holds exactly what `slasim ARGS` prints now. `scripts/gen-docs` rewrites
//! them (this test with `SLASIM_DOCS_WRITE=1`).

mod common;

use std::path::{Path, PathBuf};

const OPEN: &str = "<!-- generated: slasim ";
const CLOSE: &str = "<!-- end generated -->";

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

/// The text with every generated block refilled, and how many blocks it has.
fn refill(path: &Path, text: &str) -> (String, usize) {
    let mut out = String::new();
    let mut rest = text;
    let mut blocks = 0;
    // A marker begins a line (one quoted in the text does not count).
    let find =
        |text: &str| text.match_indices(OPEN).map(|(i, _)| i).find(|&i| i == 0 || text.as_bytes()[i - 1] == b'\n');
    while let Some(open) = find(rest) {
        let line_end = open + rest[open..].find("-->").unwrap_or_else(|| panic!("{}: unclosed marker", path.display()));
        let args: Vec<&str> = rest[open + OPEN.len()..line_end].split_whitespace().collect();
        let close = rest[line_end..]
            .find(CLOSE)
            .unwrap_or_else(|| panic!("{}: `{OPEN}{}` has no `{CLOSE}`", path.display(), args.join(" ")))
            + line_end;
        let output = common::slasim().args(&args).output().unwrap();
        assert!(
            output.status.success(),
            "{}: slasim {} failed: {}",
            path.display(),
            args.join(" "),
            String::from_utf8_lossy(&output.stderr)
        );
        out.push_str(&rest[..line_end + 3]);
        out.push_str("\n\n");
        out.push_str(String::from_utf8(output.stdout).unwrap().trim_end());
        out.push_str("\n\n");
        rest = &rest[close..];
        blocks += 1;
    }
    out.push_str(rest);
    (out, blocks)
}

#[test]
fn generated_blocks_match_what_the_binary_prints() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("docs");
    let mut files = Vec::new();
    markdown_files(&root, &mut files);
    files.sort();
    let write = std::env::var_os("SLASIM_DOCS_WRITE").is_some();
    let mut blocks = 0;
    let mut stale = Vec::new();
    for path in files {
        let text = std::fs::read_to_string(&path).unwrap();
        let (fresh, n) = refill(&path, &text);
        blocks += n;
        if fresh != text {
            if write {
                std::fs::write(&path, fresh).unwrap();
            } else {
                stale.push(path.display().to_string());
            }
        }
    }
    assert!(blocks > 0, "no generated block under {}", root.display());
    assert!(stale.is_empty(), "stale generated docs (run scripts/gen-docs): {}", stale.join(", "));
}

/// The keys a config table accepts, from the parser's own refusal of an
/// unknown one; `None` when `header` is not a table of keys.
fn keys_of(header: &str, extra: &str) -> Option<Vec<String>> {
    let text = format!("{header}\n{extra}zzz_not_a_key = 1\n");
    let error = slasim::experiment::config::Experiment::parse("probe.toml", &text).err()?.to_string();
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

/// The config reference lists every key a config accepts, and no other.
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
        if let Err(e) = slasim::cli::command().try_get_matches_from(words) {
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
