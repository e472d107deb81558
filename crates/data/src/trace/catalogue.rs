//! The trace catalogue: every file slasim knows by name, with its size, its
//! SHA-256, its licence, how to cite it and where it is published.
//!
//! Contract: [`CATALOGUE`] is a data file, embedded and parsed once: one row
//! of `crates/data/catalogue/files.csv` per file, whose licence and citation
//! name texts stated once in `crates/data/catalogue/sources.toml`; a test
//! parses every row. The sums are those of the copies the tests and
//! reproductions use (a test checks each against the real file). An entry's file lives at
//! [`Entry::path`] under a traces directory. Its bytes are either the
//! *shipped* form ([`Entry::shipped`], usually gzip) or, for files whose
//! public source serves them uncompressed, the *plain* form
//! ([`Entry::plain`]) at the same path without `.gz`: readers take plain or
//! gzip, so resolution ([`super::resolve_trace`]) and verification accept
//! either name, each against its own sum. [`Entry::served`] says which of the
//! two the public URL serves, or that it serves neither and the user must act
//! ([`Served::Manual`]): then slasim says where to get the file and where to
//! put it, and verifies only what it has a sum for.

use std::collections::BTreeMap;
use std::sync::LazyLock;

use serde::Deserialize;

/// A file's length in bytes and its SHA-256 (lowercase hex).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Digest {
    /// Length in bytes.
    pub size: u64,
    /// SHA-256 of the bytes, lowercase hex.
    pub sha256: &'static str,
}

/// What an entry's public URL serves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Served {
    /// The shipped bytes ([`Entry::shipped`]), saved at [`Entry::path`].
    Shipped,
    /// The plain bytes ([`Entry::plain`]), saved at [`Entry::plain_path`].
    Plain,
    /// Neither, or nothing slasim can check: the text says what to do.
    Manual(&'static str),
}

/// One catalogued file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Entry {
    /// The name runs and `slasim trace fetch` accept.
    pub name: &'static str,
    /// Where the file lives under the traces directory.
    pub path: &'static str,
    /// The shipped file's size and sum; `None` for a file not shipped, whose
    /// sum slasim does not know.
    pub shipped: Option<Digest>,
    /// The uncompressed bytes' size and sum, accepted at [`Entry::plain_path`].
    pub plain: Option<Digest>,
    /// The public source.
    pub url: &'static str,
    /// What [`Entry::url`] serves.
    pub served: Served,
    /// Licence or terms of use.
    pub licence: &'static str,
    /// How to cite it.
    pub cite: &'static str,
    /// Which directory tree it lives in.
    pub dataset: Dataset,
}

/// The directory tree an entry's [`Entry::path`] is relative to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dataset {
    /// The traces directory ([`super::trace_dirs`]): job logs, failure logs, GPU traces.
    Traces,
    /// The signals directory ([`crate::dirs::signal_dirs`]): carbon intensity, grid mix, prices.
    Signals,
}

impl Dataset {
    /// The directories its files are looked up in, in order; the first is
    /// where `slasim trace fetch` writes.
    pub fn dirs(self) -> Vec<std::path::PathBuf> {
        match self {
            Dataset::Traces => super::trace_dirs(),
            Dataset::Signals => crate::dirs::signal_dirs(),
        }
    }
}

impl Entry {
    /// The plain form's path: [`Entry::path`] without `.gz` (`None` when the
    /// entry has no plain form or its path has no `.gz`).
    pub fn plain_path(&self) -> Option<&'static str> {
        self.plain.and(self.path.strip_suffix(".gz"))
    }

    /// The file names the entry's file may have under a traces directory,
    /// each with the sum it must have (`None`: not known), shipped form first.
    pub fn forms(&self) -> Vec<(&'static str, Option<Digest>)> {
        let mut forms = vec![(self.path, self.shipped)];
        if let Some(plain) = self.plain_path() {
            forms.push((plain, self.plain));
        }
        forms
    }

    /// Whether `name` names this entry: its catalogue name, or the file name
    /// or relative path of one of its forms.
    pub fn is_named(&self, name: &str) -> bool {
        name == self.name || self.forms().iter().any(|(path, _)| name == *path || path.rsplit('/').next() == Some(name))
    }
}

/// The entry `name` names (see [`Entry::is_named`]).
pub fn find(name: &str) -> Option<&'static Entry> {
    CATALOGUE.iter().find(|entry| entry.is_named(name))
}

/// Every catalogued file, in the order of `files.csv`; `tests/integration/catalogue.rs`
/// checks the sums against the files.
pub static CATALOGUE: LazyLock<Vec<Entry>> = LazyLock::new(|| match parse(FILES, SOURCES) {
    Ok(entries) => entries,
    // Embedded at build time and parsed by a test: a defect of the build, not of any input.
    Err(e) => panic!("the embedded trace catalogue is malformed: {e}"),
});

/// The catalogue's rows, one per file.
const FILES: &str = include_str!("../../catalogue/files.csv");

/// The licences and citations the rows name.
const SOURCES: &str = include_str!("../../catalogue/sources.toml");

/// `sources.toml`: texts by key.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Sources {
    licences: BTreeMap<String, String>,
    citations: BTreeMap<String, String>,
}

/// One row of `files.csv`.
#[derive(Deserialize)]
struct Row {
    name: String,
    path: String,
    dataset: String,
    served: String,
    url: String,
    shipped_size: Option<u64>,
    shipped_sha256: String,
    plain_size: Option<u64>,
    plain_sha256: String,
    licence: String,
    licence_note: String,
    cite: String,
    cite_note: String,
    manual: String,
}

/// The catalogue's texts live as long as the process: parsed once, never freed.
fn leak(text: String) -> &'static str {
    Box::leak(text.into_boxed_str())
}

/// The entries of `files` (CSV with a header), their licences and
/// citations looked up in `sources` (TOML); an error names the row (its line
/// in `files.csv`) and the field.
fn parse(files: &str, sources: &str) -> Result<Vec<Entry>, String> {
    let sources: Sources = toml::from_str(sources).map_err(|e| format!("sources.toml: {e}"))?;
    let mut reader = csv::Reader::from_reader(files.as_bytes());
    let mut entries = Vec::new();
    for record in reader.deserialize::<Row>() {
        let row = record.map_err(|e| format!("files.csv: {e}"))?;
        let at = |field: &str, why: String| format!("files.csv: file {}: {field}: {why}", row.name);
        let digest = |size: Option<u64>, sha256: &str, field: &str| match (size, sha256) {
            (None, "") => Ok(None),
            (Some(size), sum) if sum.len() == 64 && sum.bytes().all(|b| b.is_ascii_hexdigit()) => {
                Ok(Some(Digest { size, sha256: leak(sum.to_string()) }))
            }
            _ => Err(at(field, format!("size {size:?} and sha256 `{sha256}`: give both (64 hex digits) or neither"))),
        };
        let text = |texts: &BTreeMap<String, String>, key: &str, field: &str| {
            texts.get(key).cloned().ok_or_else(|| at(field, format!("`{key}` is not in sources.toml")))
        };
        let mut licence = text(&sources.licences, &row.licence, "licence")?;
        if !row.licence_note.is_empty() {
            licence = format!("{licence} ({})", row.licence_note);
        }
        let mut cite = text(&sources.citations, &row.cite, "cite")?;
        if !row.cite_note.is_empty() {
            cite = format!("{cite}; {}", row.cite_note);
        }
        let served = match (row.served.as_str(), row.manual.is_empty()) {
            ("shipped", true) => Served::Shipped,
            ("plain", true) => Served::Plain,
            ("manual", false) => Served::Manual(leak(row.manual.clone())),
            (other, _) => {
                return Err(at(
                    "served",
                    format!("`{other}`: shipped or plain (manual empty), or manual with its text"),
                ));
            }
        };
        let dataset = match row.dataset.as_str() {
            "traces" => Dataset::Traces,
            "signals" => Dataset::Signals,
            other => return Err(at("dataset", format!("`{other}`: traces or signals"))),
        };
        entries.push(Entry {
            shipped: digest(row.shipped_size, &row.shipped_sha256, "shipped")?,
            plain: digest(row.plain_size, &row.plain_sha256, "plain")?,
            name: leak(row.name),
            path: leak(row.path),
            url: leak(row.url),
            served,
            licence: leak(licence),
            cite: leak(cite),
            dataset,
        });
    }
    Ok(entries)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_files_are_unique_and_each_source_has_the_sum_it_needs() {
        for (i, entry) in CATALOGUE.iter().enumerate() {
            for other in &CATALOGUE[i + 1..] {
                assert_ne!(entry.name, other.name);
                for (path, _) in entry.forms() {
                    assert!(!other.is_named(path.rsplit('/').next().unwrap_or(path)), "{path} names two entries");
                }
            }
            for digest in entry.shipped.iter().chain(entry.plain.iter()) {
                assert!(digest.sha256.len() == 64 && digest.sha256.bytes().all(|b| b.is_ascii_hexdigit()));
            }
            match entry.served {
                Served::Shipped => assert!(entry.shipped.is_some(), "{}", entry.name),
                Served::Plain => assert!(entry.plain_path().is_some(), "{}", entry.name),
                Served::Manual(_) => {}
            }
            assert_eq!(find(entry.name), Some(entry));
        }
    }

    /// Every row of the data file parses; a bad one is named by the file,
    /// its row's name and the field; each licence and citation is stated once.
    #[test]
    fn every_row_parses_and_a_bad_row_is_located() {
        let entries = parse(FILES, SOURCES).unwrap();
        assert_eq!(entries.len(), FILES.lines().count() - 1);
        assert_eq!(entries.len(), CATALOGUE.len());
        let bad = FILES.replacen(",pwa,,pwa,", ",pwa,,nobody,", 1);
        assert_eq!(
            parse(&bad, SOURCES).unwrap_err(),
            "files.csv: file CEA-Curie-2011-2.1-cln: cite: `nobody` is not in sources.toml"
        );
        let bad = FILES.replacen(",traces,shipped,", ",traces,sent,", 1);
        assert!(parse(&bad, SOURCES).unwrap_err().contains("file CEA-Curie-2011-2.1-cln: served: `sent`"));
        let sources: Sources = toml::from_str(SOURCES).unwrap();
        for texts in [&sources.licences, &sources.citations] {
            let mut seen: Vec<&String> = texts.values().collect();
            seen.sort();
            seen.dedup();
            assert_eq!(seen.len(), texts.len(), "a text is stated twice in sources.toml");
        }
    }

    #[test]
    fn an_entry_is_found_by_its_name_file_name_path_or_plain_name() {
        let ctc = find("CTC-SP2-1996-3.1-cln").unwrap();
        assert_eq!(find("CTC-SP2-1996-3.1-cln.swf.gz"), Some(ctc));
        assert_eq!(find("swf/CTC-SP2-1996-3.1-cln.swf.gz"), Some(ctc));
        assert_eq!(find("CTC-SP2-1996-3.1-cln.swf"), Some(ctc));
        assert_eq!(find("CTC"), None);
    }
}
