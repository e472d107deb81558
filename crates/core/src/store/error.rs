//! Store errors: each names the database file.
//!
//! Contract: every failure of the store (SQLite, a schema it cannot use, a
//! refused or failing query) is a [`StoreError`] naming the file; nothing
//! here touches a database.

use std::path::{Path, PathBuf};

use crate::store::schema::SCHEMA_VERSION;

/// Store errors; each names the database file.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// SQLite failed.
    #[error("{path}: {source}", path = .path.display())]
    Sqlite { path: PathBuf, source: rusqlite::Error },
    /// A store from before schema 9 holds points whose ids this slasim
    /// derives differently: resuming it would run them again.
    #[error(
        "{path}: written by an older slasim (schema {found}) and holding {kinds}, whose point ids this version \
         derives differently; it can still be read (query, report), but not resumed or extended: \
         write to a new store with --db", path = .path.display()
    )]
    OlderIds { path: PathBuf, found: i64, kinds: String },
    /// The file was written by a newer slasim.
    #[error(
        "{path}: schema version {found} is newer than this slasim understands ({SCHEMA_VERSION}); \
         use a newer slasim or another --db file (nothing was changed)", path = .path.display()
    )]
    NewerSchema { path: PathBuf, found: i64 },
    /// The file does not exist (read-only opening).
    #[error("{path}: no such store", path = .path.display())]
    Missing { path: PathBuf },
    /// `query` was given a statement that writes.
    #[error("only read-only statements are allowed (SELECT, WITH …, read-only PRAGMA); refused: {sql}")]
    WriteRefused { sql: String },
    /// The SQL could not be prepared or run.
    #[error("{path}: SQL error: {message}", path = .path.display())]
    Sql { path: PathBuf, message: String },
}

pub(crate) fn sqlite(path: &Path) -> impl Fn(rusqlite::Error) -> StoreError + '_ {
    move |source| StoreError::Sqlite { path: path.to_path_buf(), source }
}
