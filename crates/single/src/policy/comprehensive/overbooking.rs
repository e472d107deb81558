//! Comprehensive overbooking over the plan core: without a full booking (or
//! where the placement prefers one), the overbooked candidate on the nodes
//! free longest whose comprehensive PoS passes the acceptance test.
//!
//! Reference: `overbooking-dissertation-spec.md` §3.1 (comprehensive PoS),
//! §5.4 (placements), §6.1, §6.5.

use crate::cluster::strategy::{Cluster, Placement};
use crate::policy::comprehensive::{Choice, Comprehensive, Rule};
use crate::workload::job::Job;
use slasim_core::units::Time;

/// Comprehensive overbooking.
pub struct ComprehensiveOverbooking;

impl Rule for ComprehensiveOverbooking {
    const RELEASES_EARLY: bool = true;
    const STORES_END_CDF: bool = true;

    fn pick(
        core: &mut Comprehensive<Self>,
        c: &dyn Cluster,
        j: &Job,
        from: Time,
        full: Option<Choice>,
    ) -> (Option<Choice>, bool) {
        let pick = match core.placement {
            // A full booking risks only failures, so it also has the
            // highest PoS.
            Placement::BestFit | Placement::HighestPos => {
                full.or_else(|| core.overbooked_choice(c, j, from, core.placement == Placement::BestFit))
            }
            Placement::FirstFit => {
                let limit = full.map_or(j.deadline, |f| f.start);
                core.overbooked_choice(c, j, from, true).filter(|o| o.start < limit).or(full)
            }
            Placement::LastFit => match (full, core.overbooked_choice(c, j, from, false)) {
                (Some(f), Some(o)) => Some(if o.start > f.start { o } else { f }),
                (f, o) => f.or(o),
            },
        };
        (pick, false)
    }
}

impl Comprehensive<ComprehensiveOverbooking> {
    /// Comprehensive overbooking: the best-placed overbooked candidate from
    /// `from`, its nodes in `best_nodes`.
    fn overbooked_choice(&mut self, c: &dyn Cluster, j: &Job, from: Time, first_only: bool) -> Option<Choice> {
        let ob = self.overbooking.clone()?;
        let mut best: Option<Choice> = None;
        let mut s = from;
        while s < j.deadline {
            // A calibration map is monotone: a bound on the PoS stays a bound.
            let worth = |core: &Self, upper| {
                ob.acceptance.accepts(c.calibrated_pos(core.pos_upper_bound(j, from, s, upper)), j.fee, j.penalty)
            };
            if let Some(end) = self.overbooked_slot(j, s, worth) {
                let pos = self.acceptable_pos(c, j, s, end);
                if let Some(pos) = pos.filter(|&pos| ob.acceptance.accepts(c.calibrated_pos(pos), j.fee, j.penalty)) {
                    let choice = Choice { start: s, end, planned: s, pos, overbooked: true };
                    let better = match self.placement {
                        Placement::HighestPos => best.is_none_or(|b| pos > b.pos),
                        _ => true,
                    };
                    if better {
                        best = Some(choice);
                        self.best_nodes.clear();
                        self.best_nodes.extend_from_slice(&self.chosen);
                        std::mem::swap(&mut self.best_cdf, &mut self.cdf_scratch);
                    }
                    if first_only {
                        return best;
                    }
                }
            }
            match self.plan.ends_from(s + 1).next() {
                Some(next) => s = next,
                None => break,
            }
        }
        best
    }
}
