//! Paper A's shortened backfilling over the plan core: a promising job
//! without a full booking is booked for d' = ⌈x/(1 + maxPoF)⌉, or anchored
//! earlier on promising predecessors.
//!
//! Reference: `seed-000-001-spec.md`, paper A (d' = d/(1 + maxPoF),
//! predecessor overbooking).

use crate::cluster::strategy::Cluster;
use crate::policy::comprehensive::{Choice, Comprehensive, Rule};
use crate::policy::overbooking::Overbooking;
use crate::workload::job::Job;
use slasim_core::units::Time;

/// Paper A's shortened backfilling.
pub struct ShortenedBackfilling;

impl Rule for ShortenedBackfilling {
    const RELEASES_EARLY: bool = true;
    const STORES_END_CDF: bool = false;

    fn pick(
        core: &mut Comprehensive<Self>,
        _: &dyn Cluster,
        j: &Job,
        from: Time,
        full: Option<Choice>,
    ) -> (Option<Choice>, bool) {
        if full.is_some() {
            (full, false)
        } else {
            // Its nodes are already in `chosen`.
            (core.shortened_choice(j, from), true)
        }
    }

    fn spare(overbooking: Option<&Overbooking>, j: &Job) -> Time {
        match overbooking {
            Some(ob) if ob.model.pdf(j).mean_ratio() <= 1.0 / (1.0 + ob.pof_max) => {
                j.estimate - shortened(j.estimate, ob.pof_max)
            }
            _ => 0,
        }
    }
}

impl Comprehensive<ShortenedBackfilling> {
    /// Paper A's rule for a promising job: shortened, or anchored earlier on
    /// promising predecessors. Its nodes are left in `chosen`.
    fn shortened_choice(&mut self, j: &Job, from: Time) -> Option<Choice> {
        let ob = self.overbooking.clone()?;
        let pdf = ob.model.pdf(j);
        if pdf.mean_ratio() > 1.0 / (1.0 + ob.pof_max) {
            return None;
        }
        let short = shortened(j.estimate, ob.pof_max);
        let mut t_s = from;
        // An anchor lies before its gap, so gaps up to the deadline count.
        while t_s < j.deadline {
            if self.profile.free_at(t_s) >= j.nodes
                && let Some(until) = self.choose_longest(t_s, j.nodes)
            {
                let end = until.min(j.deadline);
                let pos = |allotment: Time| 1.0 - pdf.cdf((100 * allotment.min(j.estimate) / j.estimate) as usize);
                if end - t_s >= short {
                    return Some(Choice { start: t_s, end, planned: t_s, pos: 1.0 - pos(end - t_s), overbooked: true });
                }
                // Predecessor overbooking: every chosen node's slot ending at
                // t_s must belong to a promising job.
                let mut anchor_shift = Time::MAX;
                let mut any = false;
                let mut usable = true;
                for &node in &self.chosen {
                    if let Some(slot) = self.plan.ending_at(node, t_s) {
                        any = true;
                        match self.booking(slot.job).map(|b| b.spare).filter(|&o| o > 0) {
                            Some(o) => anchor_shift = anchor_shift.min(o),
                            None => usable = false,
                        }
                    }
                }
                if any && usable {
                    let anchor = t_s - anchor_shift;
                    let others_free = self
                        .chosen
                        .iter()
                        .all(|&node| self.plan.ending_at(node, t_s).is_some() || self.plan.is_free(node, anchor, t_s));
                    if anchor >= from && others_free && anchor + short <= end {
                        return Some(Choice {
                            start: t_s,
                            end,
                            planned: anchor,
                            pos: 1.0 - pos(end - t_s),
                            overbooked: true,
                        });
                    }
                }
            }
            match self.plan.ends_from(t_s + 1).next() {
                Some(next) => t_s = next,
                None => break,
            }
        }
        None
    }
}

/// Paper A's shortened duration d' = ⌈x / (1 + maxPoF)⌉.
pub fn shortened(x: Time, max_pof: f64) -> Time {
    ((x as f64 / (1.0 + max_pof)).ceil() as Time).max(1)
}
