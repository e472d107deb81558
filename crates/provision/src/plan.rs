//! Resource plans: a subset of the advertised slots, its makespan (SC) and
//! allocation cost (AC), and MOGA provisioning with the trade-off α.
//!
//! Reference: `provisioning-dissertation-spec.md` §3.2 (eq. 3–6), §3.5
//! "Evaluation" steps 1–6, §3.6 (eq. 15), §11 A6 (ready times in Fig. 2), A8
//! (charging divisible slots for the used parts), A9 (infeasible plans, the
//! all-edge-slots fallback), A13 (one MOGA per submission, every α from its
//! archive).
//!
//! Contract:
//! - Bit i of a genome selects advertised slot i of the global set Â (the
//!   sites' slot lists concatenated in site order). Each site's selected
//!   slots form a bin; tasks are taken in HEFT order and each goes to the bin
//!   where Fig. 2 (with the task's ready time on that site) starts it first
//!   (ties: lowest site). A task no bin can host makes the plan infeasible.
//! - SC = last finish − submission. AC: a non-divisible slot that any task
//!   used costs n·d·c + f once; a divisible slot costs procs × time × c of
//!   what tasks took from it (+ f once). Unused selected slots cost nothing.
//! - Evaluation reuses its buffers; it is deterministic.

use crate::moga::{self, Genome, MogaConfig, Objectives};
use crate::slots::{Advertised, FreeSlot, SlotSet};
use crate::workflow::Workflow;
use slasim_core::threads::{Budget, Panicked};
use slasim_core::units::Time;

/// How a plan pays for the non-divisible slots (holes) its tasks use.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum HoleCharging {
    /// Table 1: a non-divisible slot costs n·d·c + f once any task uses it (the spec).
    #[default]
    Whole,
    /// An ablation: holes are charged like divisible slots, for the parts used.
    Used,
}

/// Where and when a task runs in a plan.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TaskPlacement {
    /// The task.
    pub task: u32,
    /// The site.
    pub site: u32,
    /// Start.
    pub start: Time,
    /// End (start + runtime).
    pub end: Time,
}

/// Evaluates plans of one workflow submitted at one instant against the sites' slots.
#[derive(Clone)]
pub struct PlanEvaluator<'w> {
    workflow: &'w Workflow,
    order: Vec<u32>,
    submit: Time,
    /// Â: (site, slot), bit i = entry i.
    slots: Vec<(u32, Advertised)>,
    /// The origin slot i's fragments carry. Divisible slots of one site with the
    /// same unit price and no fixed charge cost the same per processor-second,
    /// so they share one origin and their fragments merge (the set stays small).
    origin_of: Vec<u32>,
    sites: usize,
    bins: Vec<SlotSet>,
    finish: Vec<Time>,
    site_of: Vec<u32>,
    start_of: Vec<Time>,
    charged: Vec<bool>,
    used: Vec<(u32, u32, Time, Time)>,
    charging: HoleCharging,
    /// The shortest task runtime: fragments shorter than it are parked.
    min_runtime: Time,
    /// Per site, the fragments parked out of its bin (still free: part of what a plan leaves).
    parked: Vec<Vec<FreeSlot>>,
    /// Multi-site: each site's trial placement, and what the best one took.
    trials: Vec<SlotSet>,
    best_used: Vec<(u32, u32, Time, Time)>,
    /// If kept ([`PlanEvaluator::placements_taken`]): per task, the (origin,
    /// processors) its placement took.
    taken: Option<Vec<Vec<(u32, u32)>>>,
}

impl<'w> PlanEvaluator<'w> {
    /// An evaluator for `workflow` submitted at `submit`, with `sites[s]` the slots site s advertised.
    pub fn new(workflow: &'w Workflow, submit: Time, sites: &[Vec<Advertised>]) -> PlanEvaluator<'w> {
        let slots: Vec<(u32, Advertised)> =
            sites.iter().enumerate().flat_map(|(s, list)| list.iter().map(move |a| (s as u32, *a))).collect();
        let n = workflow.tasks().len();
        let origin_of = (0..slots.len())
            .map(|i| {
                let (site, a) = &slots[i];
                let shares = |b: &Advertised| b.divisible && b.f == 0.0 && b.c == a.c;
                if !shares(a) {
                    return i as u32;
                }
                slots.iter().position(|(s, b)| s == site && shares(b)).map_or(i as u32, |j| j as u32)
            })
            .collect();
        PlanEvaluator {
            origin_of,
            workflow,
            order: workflow.heft_order(),
            submit,
            charged: vec![false; slots.len()],
            slots,
            sites: sites.len(),
            bins: (0..sites.len()).map(|_| SlotSet::from_slots(Vec::new())).collect(),
            finish: vec![0; n],
            site_of: vec![0; n],
            start_of: vec![0; n],
            used: Vec::new(),
            charging: HoleCharging::Whole,
            min_runtime: workflow.tasks().iter().map(|t| t.runtime).filter(|&r| r > 0).min().unwrap_or(0),
            parked: vec![Vec::new(); sites.len()],
            trials: (0..sites.len()).map(|_| SlotSet::from_slots(Vec::new())).collect(),
            best_used: Vec::new(),
            taken: None,
        }
    }

    /// The same evaluator charging holes by `charging`.
    pub fn with_charging(mut self, charging: HoleCharging) -> Self {
        self.charging = charging;
        self
    }

    /// |Â|: the genome length.
    pub fn bits(&self) -> usize {
        self.slots.len()
    }

    /// The global slot set Â as (site, slot).
    pub fn slots(&self) -> &[(u32, Advertised)] {
        &self.slots
    }

    /// A genome selecting every edge (extensible) slot: the A9 fallback plan.
    pub fn edge_slots(&self) -> Genome {
        let mut g = Genome::zeros(self.slots.len());
        for (i, (_, a)) in self.slots.iter().enumerate() {
            if a.extensible {
                g.set(i, true);
            }
        }
        g
    }

    /// SC and AC of the plan `genome` (both +∞ if infeasible).
    pub fn evaluate(&mut self, genome: &Genome) -> Objectives {
        match self.schedule(genome) {
            Some((makespan, cost)) => Objectives { cost, makespan: makespan as f64 },
            None => Objectives::INFEASIBLE,
        }
    }

    /// Where each task runs under `genome`, in task order, and what the plan
    /// takes from each site (`None` if infeasible).
    pub fn placements(&mut self, genome: &Genome) -> Option<(Vec<TaskPlacement>, Vec<SitePlan>)> {
        self.schedule(genome)?;
        let placements = (0..self.workflow.tasks().len())
            .map(|t| TaskPlacement {
                task: t as u32,
                site: self.site_of[t],
                start: self.start_of[t],
                end: self.finish[t],
            })
            .collect();
        let mut sites: Vec<SitePlan> = (0..self.sites)
            .map(|s| SitePlan {
                selected: Vec::new(),
                remaining: self.bins[s].slots().iter().chain(&self.parked[s]).copied().collect(),
            })
            .collect();
        let mut offset = vec![0u32; self.sites + 1];
        for (s, _) in &self.slots {
            offset[*s as usize + 1] += 1;
        }
        for s in 0..self.sites {
            offset[s + 1] += offset[s];
        }
        for (i, (s, _)) in self.slots.iter().enumerate() {
            if genome.get(i) {
                sites[*s as usize].selected.push(i as u32 - offset[*s as usize]);
            }
        }
        Some((placements, sites))
    }

    /// The origin of advertised slot `i` of Â: slots with one origin pool
    /// their processors (a site's divisible slots of one price).
    pub fn origin(&self, i: usize) -> Option<u32> {
        self.origin_of.get(i).copied()
    }

    /// [`PlanEvaluator::placements`], plus per task the (origin, processors)
    /// it took from the selected slots (see [`PlanEvaluator::origin`]).
    #[allow(clippy::type_complexity)]
    pub fn placements_taken(
        &mut self,
        genome: &Genome,
    ) -> Option<(Vec<TaskPlacement>, Vec<SitePlan>, Vec<Vec<(u32, u32)>>)> {
        self.taken = Some(vec![Vec::new(); self.workflow.tasks().len()]);
        let placed = self.placements(genome);
        let taken = self.taken.take().unwrap_or_default();
        placed.map(|(placements, sites)| (placements, sites, taken))
    }

    /// Places every task; returns (makespan, allocation cost).
    fn schedule(&mut self, genome: &Genome) -> Option<(Time, f64)> {
        for site in 0..self.sites {
            let (slots, origin_of) = (&self.slots, &self.origin_of);
            self.bins[site].refill(
                slots
                    .iter()
                    .enumerate()
                    .filter(|&(i, (s, _))| *s as usize == site && genome.get(i))
                    .map(|(i, (_, a))| slot_of(origin_of[i], a)),
            );
            self.parked[site].clear();
            self.bins[site].park_shorter_than(self.min_runtime, &mut self.parked[site]);
        }
        self.charged.iter_mut().for_each(|c| *c = false);
        let mut cost = 0.0;
        let mut last = self.submit;
        for k in 0..self.order.len() {
            let t = self.order[k] as usize;
            let task = &self.workflow.tasks()[t];
            let (procs, runtime) = (task.procs, task.runtime);
            let mut best: Option<(Time, usize)> = None;
            if self.sites == 1 {
                let ready = self.ready(t, 0);
                best = self.bins[0].place(procs, runtime, ready, &mut self.used).map(|start| (start, 0));
            } else {
                // Each site tries on a copy; the earliest start's copy (and what it
                // took) becomes that site's bin, so no placement is done twice.
                for site in 0..self.sites {
                    let ready = self.ready(t, site as u32);
                    self.trials[site].clone_from(&self.bins[site]);
                    if let Some(start) = self.trials[site].place(procs, runtime, ready, &mut self.used)
                        && best.is_none_or(|(b, _)| start < b)
                    {
                        best = Some((start, site));
                        self.best_used.clone_from(&self.used);
                    }
                }
                if let Some((_, site)) = best {
                    std::mem::swap(&mut self.bins[site], &mut self.trials[site]);
                    std::mem::swap(&mut self.used, &mut self.best_used);
                }
            }
            let (start, site) = best?;
            self.bins[site].take_parked(&mut self.parked[site]);
            cost += self.charge();
            if let Some(taken) = self.taken.as_mut() {
                taken[t] = self.used.iter().map(|u| (u.0, u.1)).collect();
            }
            self.site_of[t] = site as u32;
            self.start_of[t] = start;
            self.finish[t] = start + runtime;
            last = last.max(start + runtime);
        }
        Some((last - self.submit, cost))
    }

    /// The earliest start of task `t` on `site`: its parents' finishes plus
    /// transfers from other sites, never before the submission.
    fn ready(&self, t: usize, site: u32) -> Time {
        self.workflow.tasks()[(t as u32) as usize]
            .parents
            .iter()
            .copied()
            .map(|(p, transfer)| {
                let p = p as usize;
                self.finish[p] + if self.site_of[p] == site { 0 } else { transfer }
            })
            .fold(self.submit, Time::max)
    }

    /// The cost of what the last placement took (A8).
    fn charge(&mut self) -> f64 {
        let mut cost = 0.0;
        for &(origin, procs, start, end) in &self.used {
            let (_, slot) = &self.slots[origin as usize];
            if slot.divisible || self.charging == HoleCharging::Used {
                cost += f64::from(procs) * (end - start) as f64 * slot.c;
                if !self.charged[origin as usize] {
                    cost += slot.f;
                }
            } else if !self.charged[origin as usize] {
                cost += f64::from(slot.procs) * slot.duration as f64 * slot.c + slot.f;
            }
            self.charged[origin as usize] = true;
        }
        cost
    }
}

/// An advertised slot as a free slot of a bin: edge slots extend without end.
fn slot_of(origin: u32, a: &Advertised) -> FreeSlot {
    let end = if a.extensible { Time::MAX } else { a.start + a.duration };
    FreeSlot { start: a.start, end, procs: a.procs, divisible: a.divisible, extensible: a.extensible, origin }
}

/// What a plan takes from one site: the positions of the selected slots in
/// its advertisement, and what the plan's tasks leave of them. Reserving the
/// plan replaces the first by the second in the site's free set.
#[derive(Debug, Clone, PartialEq)]
pub struct SitePlan {
    /// Positions of the selected slots in the site's advertised list.
    pub selected: Vec<u32>,
    /// The selected slots' free fragments after every task was placed.
    pub remaining: Vec<FreeSlot>,
}

/// The plan eq. 15 picks for one α.
#[derive(Debug, Clone, PartialEq)]
pub struct Choice {
    /// The trade-off factor.
    pub alpha: f64,
    /// Its archive member.
    pub member: usize,
    /// Its cost and makespan.
    pub objectives: Objectives,
    /// Where its tasks run.
    pub placements: Vec<TaskPlacement>,
    /// What it takes from each site.
    pub sites: Vec<SitePlan>,
}

/// One MOGA provisioning: the archive's objectives and the choice per α.
#[derive(Debug, Clone, PartialEq)]
pub struct Provisioning {
    /// The Pareto archive (cost, makespan) in archive order.
    pub archive: Vec<Objectives>,
    /// One choice per α, in the order asked.
    pub choices: Vec<Choice>,
    /// |Â|.
    pub slots: usize,
    /// True if the archive was empty and the all-edge-slots plan was used (A9).
    pub fallback: bool,
}

/// Provisions `workflow` submitted at `submit` on the sites' advertised slots
/// with one MOGA run, and picks a plan per α by eq. 15.
pub fn provision(
    workflow: &Workflow,
    submit: Time,
    sites: &[Vec<Advertised>],
    config: &MogaConfig,
    alphas: &[f64],
    rng: &mut impl rand::Rng,
) -> Result<Provisioning, Panicked> {
    provision_charging(workflow, submit, sites, config, alphas, HoleCharging::Whole, &Budget::serial(), rng)
}

/// [`provision`] with a choice of how holes are charged, its plan evaluations
/// spread over the threads `budget` has free (the result does not depend on
/// them). A plan evaluation that panics is an error, not an infeasible plan.
#[allow(clippy::too_many_arguments)]
pub fn provision_charging(
    workflow: &Workflow,
    submit: Time,
    sites: &[Vec<Advertised>],
    config: &MogaConfig,
    alphas: &[f64],
    charging: HoleCharging,
    budget: &Budget,
    rng: &mut impl rand::Rng,
) -> Result<Provisioning, Panicked> {
    let mut evaluator = PlanEvaluator::new(workflow, submit, sites).with_charging(charging);
    // Helper threads start from a copy of the fresh evaluator.
    let template = evaluator.clone();
    // Populations repeat genomes as they converge: evaluate each once.
    let mut seen: std::collections::HashMap<Genome, Objectives> = std::collections::HashMap::new();
    let mut todo: Vec<usize> = Vec::new();
    let mut failed: Option<Panicked> = None;
    let archive = moga::run_batched(evaluator.bits(), config, rng, |population, out| {
        out.clear();
        todo.clear();
        for (i, g) in population.iter().enumerate() {
            match seen.get(g) {
                Some(o) => out.push(*o),
                None => {
                    todo.push(i);
                    out.push(Objectives::INFEASIBLE);
                }
            }
        }
        if failed.is_some() {
            return;
        }
        let fresh = budget.map(
            "plan evaluation",
            &todo,
            &mut evaluator,
            || template.clone(),
            |e: &mut PlanEvaluator<'_>, &i| e.evaluate(&population[i]),
        );
        match fresh {
            Ok(fresh) => {
                for (&i, o) in todo.iter().zip(fresh) {
                    out[i] = o;
                    seen.insert(population[i].clone(), o);
                }
            }
            Err(e) => failed = Some(e),
        }
    });
    if let Some(e) = failed {
        return Err(e);
    }
    let mut members: Vec<(Genome, Objectives)> = archive.members().to_vec();
    let mut fallback = false;
    if members.is_empty() {
        let edge = evaluator.edge_slots();
        let objectives = evaluator.evaluate(&edge);
        if objectives.is_feasible() {
            members.push((edge, objectives));
        }
        fallback = true;
    }
    let front: Vec<Objectives> = members.iter().map(|(_, o)| *o).collect();
    let choices = alphas
        .iter()
        .filter_map(|&alpha| {
            let member = moga::select(&front, alpha)?;
            let (placements, sites) = evaluator.placements(&members[member].0)?;
            Some(Choice { alpha, member, objectives: front[member], placements, sites })
        })
        .collect();
    Ok(Provisioning { archive: front, choices, slots: evaluator.bits(), fallback })
}
