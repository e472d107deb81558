//! Node features and a job's constraint: which nodes a job may be given.
//!
//! Sources: Slurm 22.05, `sbatch(1)` (`--constraint`), `slurm.conf(5)`
//! (NodeName `Features`), `src/slurmctld/job_mgr.c` (`build_feature_list`,
//! which parses a job's features at submit) and
//! `src/slurmctld/node_scheduler.c` (`_match_feature`,
//! `_valid_feature_counts`: a node set is usable when its features satisfy
//! the job's list; `ESLURM_REQUESTED_NODE_CONFIG_UNAVAILABLE` at submit
//! when no node of the partition does).
//!
//! Contract:
//! - A constraint is sacct's `Constraints` field: one feature `a`, features
//!   that must all be on the node `a&b&c`, or features of which one must be
//!   `a|b|c`. A feature name is letters, digits and `_ . : - +`.
//! - Forms not modelled are refused with the reason: counts (`a*2`),
//!   brackets (`[a|b]`, matching OR), parentheses, negation (`!a`), commas,
//!   and `&` mixed with `|` in one constraint.
//! - A node satisfies a constraint when it has all (`&`) or one (`|`) of
//!   its features (names compared exactly, as Slurm does). The machine
//!   ([`crate::machine::Machine::admit`]) gives a job only such nodes; a
//!   constraint no node of the job's partition satisfies is a located error
//!   (Slurm refuses the job at submit: "Requested node configuration is not
//!   available").
//! - Departure: Slurm's `a|b` lets each node satisfy a different feature,
//!   as here; its matching OR (`[a|b]`, all nodes one feature) and counts
//!   are refused rather than approximated.

/// A job's constraint, parsed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Constraint {
    /// Every one of these features (one feature is a list of one).
    All(Vec<String>),
    /// At least one of these features.
    Any(Vec<String>),
}

impl Constraint {
    /// Parses sacct's `Constraints` value.
    pub fn parse(text: &str) -> Result<Constraint, String> {
        let text = text.trim();
        if text.is_empty() {
            return Err("empty constraint".into());
        }
        for (c, what) in [
            ('[', "brackets (matching OR, `[a|b]`)"),
            (']', "brackets (matching OR, `[a|b]`)"),
            ('(', "parentheses"),
            (')', "parentheses"),
            ('*', "a node count (`a*2`)"),
            ('!', "negation (`!a`)"),
            (',', "a comma (write `a&b` for AND)"),
        ] {
            if text.contains(c) {
                return Err(format!("`{text}`: {what} is not modelled (only `a`, `a&b` and `a|b`)"));
            }
        }
        let (and, or) = (text.contains('&'), text.contains('|'));
        if and && or {
            return Err(format!("`{text}`: `&` mixed with `|` is not modelled (only `a`, `a&b` and `a|b`)"));
        }
        let sep = if or { '|' } else { '&' };
        let mut names = Vec::new();
        for name in text.split(sep) {
            let name = name.trim();
            if name.is_empty() {
                return Err(format!("`{text}`: an empty feature name"));
            }
            if let Some(bad) = name.chars().find(|c| !(c.is_ascii_alphanumeric() || "_.:-+".contains(*c))) {
                return Err(format!("`{text}`: `{bad}` is not allowed in a feature name"));
            }
            names.push(name.to_string());
        }
        Ok(if or { Constraint::Any(names) } else { Constraint::All(names) })
    }

    /// Does a node with `features` satisfy it?
    pub fn satisfied_by(&self, features: &[String]) -> bool {
        let has = |f: &String| features.iter().any(|x| x == f);
        match self {
            Constraint::All(names) => names.iter().all(has),
            Constraint::Any(names) => names.iter().any(has),
        }
    }
}
