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
    while let Some(open) = rest.find(OPEN) {
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
