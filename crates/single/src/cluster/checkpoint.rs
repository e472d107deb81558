//! Checkpoint and restart of a killed job: the cluster's mechanics, set by
//! the overbooking strategies that kill jobs at the end of their booking.
//!
//! Reference: `seed-000-001-spec.md` (checkpointing at the end of a
//! shortened booking, the work resumed in a later gap).

use serde::{Deserialize, Serialize};

use slasim_core::units::Time;

/// Paper A's checkpoint/restart model: an overbooked job killed at the end of
/// its booking writes a checkpoint (taking `checkpoint_seconds` of its
/// booking) and may resume its remaining work, after `restart_seconds` of
/// restoring, in a later window that holds the rest of its estimate before its
/// deadline.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct CheckpointConfig {
    /// Checkpoint and resume killed overbooked jobs.
    pub enabled: bool,
    /// Seconds the checkpoint takes (lost from the killed execution's progress).
    pub checkpoint_seconds: Time,
    /// Seconds to restore before resumed work continues.
    pub restart_seconds: Time,
}

impl CheckpointConfig {
    /// True for the default (off) settings.
    pub fn is_default(&self) -> bool {
        *self == CheckpointConfig::default()
    }
}

impl Default for CheckpointConfig {
    fn default() -> Self {
        CheckpointConfig { enabled: false, checkpoint_seconds: 60, restart_seconds: 60 }
    }
}
