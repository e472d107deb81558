//! A point's stable identity.
//!
//! Contract: a point's canonical TOML text (`canonical_toml`) is hashed
//! (sha256) into a [`PointId`]: the same settings get the same id in any
//! process, on any machine. Settings that cannot be written as TOML are an
//! error ([`Unserialisable`]), never a placeholder id.

use sha2::{Digest, Sha256};

/// The stable identity of a point.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PointId {
    /// 63-bit integer id: `run_id` or `point_id` in the store.
    pub run_id: i64,
    /// Full sha256 of the canonical settings, hex.
    pub hash: String,
}

impl PointId {
    /// The id of a canonical text.
    pub fn of(canonical: &str) -> PointId {
        let digest = Sha256::digest(canonical.as_bytes());
        let mut first = [0u8; 8];
        first.copy_from_slice(&digest[..8]);
        let run_id = (u64::from_be_bytes(first) >> 1) as i64;
        let hash = digest.iter().map(|b| format!("{b:02x}")).collect();
        PointId { run_id, hash }
    }
}

/// A point whose settings cannot be written as TOML (a non-finite number
/// where the format has none): an error, never a placeholder id.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("the point's settings cannot be written as TOML: {0}")]
pub struct Unserialisable(pub String);

/// Canonical TOML text of a point's settings.
pub fn canonical_toml<T: serde::Serialize>(settings: &T) -> Result<String, Unserialisable> {
    toml::to_string(settings).map_err(|e| Unserialisable(e.to_string()))
}
