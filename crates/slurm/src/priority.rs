//! Slurm's multifactor priority and its fair-share factor (Fair Tree).
//!
//! Sources: Slurm 22.05, `priority_multifactor.c` (`_get_priority_internal`,
//! `_decay_thread`), `fair_tree.c` (`_calc_tree_fs`), and the documents
//! `priority_multifactor.html` and `fair_tree.html`.
//!
//! Contract:
//! - A pending job's priority is
//!   `w_age·age + w_fs·fairshare + w_size·size + w_part·partition + w_qos·qos
//!    + w_assoc·assoc + Σ w_tres·tres`, each factor in [0, 1], at least 1
//!   and truncated to an integer as Slurm stores it (`uint32_t`).
//!   - age: `min(now − submit, PriorityMaxAge) / PriorityMaxAge`;
//!   - size: with `PriorityFavorSmall=NO` the mean of the job's share of
//!     the machine's nodes and of its CPUs; with `YES`, the mean of the
//!     shares it leaves;
//!   - partition: its `PriorityJobFactor` over the largest of any partition;
//!   - qos: with a QOS dump, the job's QOS `Priority` over the largest of
//!     the dump ([`crate::accounting`]); without one, 0;
//!   - assoc: 0 (its priority lives in slurmdbd, not slurm.conf);
//!   - tres: the job's request over its partition's total, per weighted TRES.
//! - Priorities are set at submission and recomputed for every pending job
//!   at each `PriorityCalcPeriod` tick, after usage is brought up to date;
//!   they change at no other time.
//! - Usage: with `d = 1 − 0.693 / PriorityDecayHalfLife` (Slurm's own
//!   approximation), each tick multiplies every usage by `d^Δt`, then each
//!   job running at the tick that ran for `r` seconds since the last tick
//!   adds `billing · r · d^r` to its user's association and to its account:
//!   `billing` is the job's billable TRES (CPUs without
//!   `TRESBillingWeights`, [`crate::bench`]) times its QOS's `UsageFactor`
//!   (with a QOS dump; `priority_multifactor.c`, `_apply_new_usage`). A job that ended since is not charged again: a real
//!   slurmctld 22.05 leaves that last part uncharged.
//! - Fair Tree: every association has 1 share (Slurm's default). Among
//!   siblings (the accounts under the root; the users of one account) the
//!   level fair-share is `S / U`, `S` its share of its siblings' shares and
//!   `U` its share of their usage (no usage: infinite). Accounts are visited
//!   in descending level fair-share, and within each its users likewise;
//!   the users so ordered get ranks from the number of users down to 1; a
//!   user tied with the one before it shares its rank, and so does the
//!   first user of an account tied with the account before it (Slurm never
//!   merges tied accounts: `_count_tied_accounts`); a user's factor is its
//!   rank over the number of users. Ties keep first-appearance order.

use crate::conf::PrioritySettings;
use crate::machine::{Machine, Need, Resources};
use slasim_sim::units::Time;

/// What the factors are normalised by.
#[derive(Debug, Clone)]
pub struct Norms {
    /// Every node of the machine.
    pub nodes: f64,
    /// Every CPU of the machine.
    pub cpus: f64,
    /// The largest `PriorityJobFactor` of any partition (at least 1).
    pub max_job_factor: f64,
    /// Each partition's totals, for the TRES factors.
    pub partition_totals: Vec<Resources>,
}

impl Norms {
    /// The norms of `machine`.
    pub fn of(machine: &Machine) -> Norms {
        let total = machine.total();
        Norms {
            nodes: machine.size.len().max(1) as f64,
            cpus: f64::from(total.cpus.max(1)),
            max_job_factor: f64::from(
                machine.partitions.iter().map(|p| p.priority_job_factor).max().unwrap_or(1).max(1),
            ),
            partition_totals: machine.partitions.iter().map(|p| p.total).collect(),
        }
    }
}

/// A job's time-independent factors, computed once.
#[derive(Debug, Clone, Copy, Default)]
pub struct Fixed {
    /// The weighted sum of the size, partition and TRES factors.
    pub weighted: f64,
}

/// The weights and settings, ready to use.
#[derive(Debug, Clone)]
pub struct Multifactor {
    settings: PrioritySettings,
    norms: Norms,
    job_factors: Vec<f64>,
}

impl Multifactor {
    /// Multifactor priority on `machine` with `settings`.
    pub fn new(settings: PrioritySettings, machine: &Machine) -> Multifactor {
        let norms = Norms::of(machine);
        let job_factors =
            machine.partitions.iter().map(|p| f64::from(p.priority_job_factor) / norms.max_job_factor).collect();
        Multifactor { settings, norms, job_factors }
    }

    /// The settings.
    pub fn settings(&self) -> &PrioritySettings {
        &self.settings
    }

    /// The job's factors that never change.
    pub fn fixed(&self, partition: usize, need: &Need) -> Fixed {
        let s = &self.settings;
        let total = need.total();
        let (nodes, cpus) = (f64::from(total.nodes) / self.norms.nodes, f64::from(total.cpus) / self.norms.cpus);
        let size = if s.favor_small { ((1.0 - nodes) + (1.0 - cpus)) / 2.0 } else { (nodes + cpus) / 2.0 };
        let part = self.norms.partition_totals[partition];
        let share = |asked: f64, of: f64| if of > 0.0 { (asked / of).min(1.0) } else { 0.0 };
        let tres: f64 = s
            .weight_tres
            .iter()
            .map(|(name, w)| {
                let factor = match name.as_str() {
                    "cpu" => share(f64::from(total.cpus), f64::from(part.cpus)),
                    "mem" => share(total.mem_mib as f64, part.mem_mib as f64),
                    "gres/gpu" => share(f64::from(total.gpus), f64::from(part.gpus)),
                    "node" => share(f64::from(total.nodes), self.norms.nodes),
                    _ => 0.0,
                };
                w * factor
            })
            .sum();
        Fixed {
            weighted: s.weight_job_size * size.clamp(0.0, 1.0)
                + s.weight_partition * self.job_factors[partition]
                + tres,
        }
    }

    /// `fixed` with the QOS factor `qos` (the QOS priority over the
    /// largest, [`crate::accounting`]) weighted by `PriorityWeightQOS`.
    pub fn with_qos(&self, fixed: Fixed, qos: f64) -> Fixed {
        Fixed { weighted: fixed.weighted + self.settings.weight_qos * qos }
    }

    /// The priority of a pending job submitted at `submit`, at `now`.
    #[inline]
    pub fn priority(&self, fixed: Fixed, submit: Time, now: Time, fairshare: f64) -> u32 {
        let s = &self.settings;
        if !s.multifactor {
            return 0;
        }
        let age = if s.max_age > 0 { ((now - submit).max(0) as f64 / s.max_age as f64).min(1.0) } else { 0.0 };
        let p = s.weight_age * age + s.weight_fairshare * fairshare + fixed.weighted;
        // Priority 0 means held: Slurm's floor is 1, and it truncates.
        p.clamp(1.0, f64::from(u32::MAX)) as u32
    }
}

/// Usage and fair-share factors of the accounts and their users.
#[derive(Debug, Clone, Default)]
pub struct FairTree {
    /// Per account: its usage and its user associations.
    accounts: Vec<(f64, Vec<u32>)>,
    /// Per user association: its account and usage.
    assocs: Vec<(u32, f64)>,
    /// Per user association: its fair-share factor.
    factor: Vec<f64>,
    /// Scratch for the ranking.
    order: Vec<(f64, u32)>,
    users: Vec<(f64, u32)>,
}

impl FairTree {
    /// A tree of `accounts` accounts whose user associations are `assoc_accounts[i]`.
    pub fn new(accounts: usize, assoc_accounts: &[u32]) -> FairTree {
        let mut tree = FairTree {
            accounts: vec![(0.0, Vec::new()); accounts],
            assocs: assoc_accounts.iter().map(|&a| (a, 0.0)).collect(),
            factor: vec![0.0; assoc_accounts.len()],
            order: Vec::new(),
            users: Vec::new(),
        };
        for (i, &a) in assoc_accounts.iter().enumerate() {
            tree.accounts[a as usize].1.push(i as u32);
        }
        tree.rank();
        tree
    }

    /// Multiplies every usage by `factor` (at least `f64::MIN_POSITIVE`, as Slurm's floor).
    pub fn decay(&mut self, factor: f64) {
        let factor = factor.max(f64::MIN_POSITIVE);
        for a in &mut self.accounts {
            a.0 *= factor;
        }
        for u in &mut self.assocs {
            u.1 *= factor;
        }
    }

    /// Adds `usage` to association `assoc` and its account.
    pub fn charge(&mut self, assoc: u32, usage: f64) {
        let (account, u) = &mut self.assocs[assoc as usize];
        *u += usage;
        self.accounts[*account as usize].0 += usage;
    }

    /// The fair-share factor of `assoc`, as of the last [`FairTree::rank`].
    #[inline]
    pub fn factor(&self, assoc: u32) -> f64 {
        self.factor[assoc as usize]
    }

    /// Ranks the users (Fair Tree) into their factors.
    pub fn rank(&mut self) {
        let total_users = self.assocs.len();
        if total_users == 0 {
            return;
        }
        // S / U among siblings of equal shares; no usage of its own: infinite.
        let level = |usage: f64, parent_usage: f64, siblings: usize| -> f64 {
            let u = if parent_usage > 0.0 { usage / parent_usage } else { 0.0 };
            if u > 0.0 { (1.0 / siblings as f64) / u } else { f64::INFINITY }
        };
        let active = self.accounts.iter().filter(|a| !a.1.is_empty()).count();
        let root: f64 = self.accounts.iter().map(|a| a.0).sum();
        self.order.clear();
        for (a, (usage, members)) in self.accounts.iter().enumerate() {
            if !members.is_empty() {
                self.order.push((level(*usage, root, active), a as u32));
            }
        }
        self.order.sort_by(|x, y| y.0.total_cmp(&x.0).then(x.1.cmp(&y.1)));
        let (mut rank, mut rnt) = (total_users, total_users);
        for k in 0..self.order.len() {
            let (account_level, a) = self.order[k];
            let account_tied = k > 0 && self.order[k - 1].0 == account_level;
            let (usage, members) = &self.accounts[a as usize];
            self.users.clear();
            for &u in members {
                self.users.push((level(self.assocs[u as usize].1, *usage, members.len()), u));
            }
            self.users.sort_by(|x, y| y.0.total_cmp(&x.0).then(x.1.cmp(&y.1)));
            for i in 0..self.users.len() {
                let (lf, u) = self.users[i];
                let tied = if i == 0 { account_tied } else { self.users[i - 1].0 == lf };
                if !tied {
                    rank = rnt;
                }
                self.factor[u as usize] = rank as f64 / total_users as f64;
                rnt -= 1;
            }
        }
    }
}
