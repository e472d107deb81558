//! The columns of a sacct dump: the header's field names found in any order,
//! and each line split at `|` with a surplus resolved into the one free-text
//! column (`--parsable2` leaves a `|` in a job name unescaped).

use std::path::Path;

use crate::trace::sacct::{RECOMMENDED_FORMAT, REQUIRED, SacctError, looks_like_header, shorten};

/// Columns whose text may hold a `|` (free text, not escaped by `--parsable2`).
pub(super) const FREE_TEXT: [&str; 13] = [
    "JobName",
    "Comment",
    "AdminComment",
    "SystemComment",
    "SubmitLine",
    "WorkDir",
    "StdIn",
    "StdOut",
    "StdErr",
    "Constraints",
    "Container",
    "Extra",
    "WCKey",
];

/// The columns read, by index into [`Columns::index`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Col {
    JobIdRaw,
    JobId,
    Submit,
    Start,
    End,
    Elapsed,
    ElapsedRaw,
    Timelimit,
    TimelimitRaw,
    AllocCpus,
    NCpus,
    ReqCpus,
    NNodes,
    AllocNodes,
    State,
    User,
    Uid,
    Group,
    Gid,
    Partition,
    JobName,
}

pub(super) const COLUMNS: [(&str, Col); 21] = [
    ("JobIDRaw", Col::JobIdRaw),
    ("JobID", Col::JobId),
    ("Submit", Col::Submit),
    ("Start", Col::Start),
    ("End", Col::End),
    ("Elapsed", Col::Elapsed),
    ("ElapsedRaw", Col::ElapsedRaw),
    ("Timelimit", Col::Timelimit),
    ("TimelimitRaw", Col::TimelimitRaw),
    ("AllocCPUS", Col::AllocCpus),
    ("NCPUS", Col::NCpus),
    ("ReqCPUS", Col::ReqCpus),
    ("NNodes", Col::NNodes),
    ("AllocNodes", Col::AllocNodes),
    ("State", Col::State),
    ("User", Col::User),
    ("UID", Col::Uid),
    ("Group", Col::Group),
    ("GID", Col::Gid),
    ("Partition", Col::Partition),
    ("JobName", Col::JobName),
];

/// One line split at every `|`.
#[derive(Debug, Default)]
pub(super) struct Fields {
    pub(super) buf: Vec<u8>,
    pub(super) ranges: Vec<(usize, usize)>,
}

impl Fields {
    pub(super) fn split(&mut self) {
        self.ranges.clear();
        let mut start = 0;
        for (i, &b) in self.buf.iter().enumerate() {
            if b == b'|' {
                self.ranges.push((start, i));
                start = i + 1;
            }
        }
        self.ranges.push((start, self.buf.len()));
    }

    pub(super) fn len(&self) -> usize {
        self.ranges.len()
    }

    pub(super) fn get(&self, i: usize) -> Option<&[u8]> {
        self.ranges.get(i).map(|&(a, b)| &self.buf[a..b])
    }

    pub(super) fn iter(&self) -> impl Iterator<Item = &[u8]> {
        self.ranges.iter().map(|&(a, b)| &self.buf[a..b])
    }
}

/// Where each read column is in a line.
#[derive(Debug, Clone)]
pub(super) struct Columns {
    /// Header names, as written.
    pub(super) names: Vec<String>,
    pub(super) index: [Option<usize>; COLUMNS.len()],
    /// The single free-text column, if the header has exactly one.
    pub(super) free_text: Option<usize>,
    /// Every free-text column in the header.
    pub(super) free_text_names: Vec<String>,
}

impl Columns {
    pub(super) fn from_header(path: &Path, line: u64, record: &Fields) -> Result<Columns, SacctError> {
        let names: Vec<String> = record.iter().map(|f| String::from_utf8_lossy(f).trim().to_string()).collect();
        let text = names.join("|");
        if !looks_like_header(&text) {
            return Err(SacctError::Header {
                path: path.to_path_buf(),
                line,
                detail: format!(
                    "not a sacct header: expected field names separated by `|`, naming JobIDRaw or JobID \
                     (run sacct with --parsable2 and without --noheader, e.g. --format={RECOMMENDED_FORMAT}); found \"{}\"",
                    shorten(&text)
                ),
            });
        }
        let mut index = [None; COLUMNS.len()];
        for (i, name) in names.iter().enumerate() {
            if let Some(slot) = COLUMNS.iter().position(|(n, _)| n.eq_ignore_ascii_case(name)) {
                index[slot].get_or_insert(i);
            }
        }
        let has = |name: &str| COLUMNS.iter().position(|(n, _)| *n == name).is_some_and(|slot| index[slot].is_some());
        for required in REQUIRED {
            if !required.split('|').any(has) {
                return Err(SacctError::Header {
                    path: path.to_path_buf(),
                    line,
                    detail: format!(
                        "column {} missing from the header (required: {}; ask sacct for --format={RECOMMENDED_FORMAT})",
                        required.replace('|', " or "),
                        REQUIRED.join(", ").replace('|', " or ")
                    ),
                });
            }
        }
        let free: Vec<usize> =
            (0..names.len()).filter(|&i| FREE_TEXT.iter().any(|n| n.eq_ignore_ascii_case(&names[i]))).collect();
        Ok(Columns {
            free_text: (free.len() == 1).then(|| free[0]),
            free_text_names: free.iter().map(|&i| names[i].clone()).collect(),
            names,
            index,
        })
    }

    pub(super) fn get(&self, col: Col) -> Option<usize> {
        self.index[col as usize]
    }

    pub(super) fn name(&self, col: Col) -> &str {
        self.get(col).map_or(COLUMNS[col as usize].0, |i| self.names[i].as_str())
    }
}
