//! Preemption modes, as slurm.conf (`PreemptMode`, globally and per
//! partition) and sacctmgr's QOS dump (`PreemptMode`) write them.
//!
//! Source: Slurm 22.05 `src/common/slurm_protocol_defs.c`
//! `preempt_mode_num` and `preempt_mode_string`; the slurm.conf(5) and
//! sacctmgr(1) man pages.

/// What a job preempted under a mode undergoes (slurm.conf's and sacctmgr's `PreemptMode`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PreemptAction {
    /// `OFF` (for a QOS: `cluster`).
    Off,
    /// `CANCEL`.
    Cancel,
    /// `REQUEUE`.
    Requeue,
    /// `SUSPEND` (also written `ON`).
    Suspend,
}

/// A `PreemptMode`: one action, possibly with `GANG` or `WITHIN`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PreemptMode {
    /// The action.
    pub action: PreemptAction,
    /// `GANG`.
    pub gang: bool,
    /// `WITHIN`.
    pub within: bool,
}

/// Parses a `PreemptMode` as `preempt_mode_num` does: comma-separated
/// words, at most one of `off`/`cluster`, `cancel`, `requeue`,
/// `suspend`/`on`, with `gang` or `within` but not both.
pub fn parse_preempt_mode(value: &str) -> Result<PreemptMode, String> {
    let mut mode = PreemptMode { action: PreemptAction::Off, gang: false, within: false };
    let mut actions = 0;
    for word in value.split(',').map(str::trim) {
        let action = match word.to_ascii_lowercase().as_str() {
            "gang" => {
                mode.gang = true;
                continue;
            }
            "within" => {
                mode.within = true;
                continue;
            }
            "off" | "cluster" => PreemptAction::Off,
            "cancel" => PreemptAction::Cancel,
            "requeue" => PreemptAction::Requeue,
            "suspend" | "on" => PreemptAction::Suspend,
            _ => {
                return Err(format!(
                    "`{word}` is not a preempt mode (OFF, CANCEL, REQUEUE, SUSPEND, GANG, WITHIN): `{value}`"
                ));
            }
        };
        mode.action = action;
        actions += 1;
    }
    if actions > 1 {
        return Err(format!("more than one of OFF, CANCEL, REQUEUE and SUSPEND: `{value}`"));
    }
    if mode.gang && mode.within {
        return Err(format!("GANG and WITHIN cannot be combined: `{value}`"));
    }
    Ok(mode)
}

/// Whether slasim models a `PreemptMode`: `OFF`, `CANCEL` or `REQUEUE`,
/// without `GANG` or `WITHIN`.
pub fn modelled(mode: PreemptMode) -> bool {
    !mode.gang && !mode.within && mode.action != PreemptAction::Suspend
}
