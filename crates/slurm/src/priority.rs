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
//! - Fair Tree (`fair_tree.c`, `_calc_tree_fs`, `_calc_assoc_fs`,
//!   `_cmp_level_fs`; `assoc_mgr.c`, `_normalize_assoc_shares_fair_tree`,
//!   `_get_children_level_shares`). The tree: with an association dump,
//!   the centre's ([`crate::accounting::Accounting::fair_tree`]: accounts
//!   under their parents, users under their accounts, their `Share`s);
//!   without one, the workload's accounts under the root and their users,
//!   1 share each (Slurm's default). An association's usage is its jobs'
//!   and its children's. Among siblings the level fair-share is `S / U`:
//!   `S` its shares over its siblings' (a `Share=parent` child counts its
//!   children's), `U` its usage over its parent's (none: infinite; `S = 0`:
//!   0); a `Share=parent` user is infinite, a `Share=parent` account
//!   NO_VAL. From the root down, siblings are visited in descending level
//!   fair-share (users before accounts when equal, else the dump's order),
//!   each account's children in turn; the users so ordered get ranks from
//!   the number of user associations down to 1; a user tied with the
//!   sibling before it shares its rank, and so does the first child of an
//!   account tied with the one before it (Slurm 22.05 never merges tied
//!   accounts: its `_count_tied_accounts` stops at the first account after
//!   one); a user's factor is its rank over the number of users.

use crate::conf::PrioritySettings;
use crate::machine::{Machine, Need};
use slasim_machine::Resources;
use slasim_sim::units::Time;

/// Slurm's decay factor per second for a `PriorityDecayHalfLife` of
/// `half_life` seconds, its own approximation of 2^(−1/half-life); 1 (no
/// decay) when it is 0.
pub fn decay_per_second(half_life: Time) -> f64 {
    if half_life > 0 { 1.0 - 0.693 / half_life as f64 } else { 1.0 }
}

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
            nodes: machine.spec.len().max(1) as f64,
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

/// One association of the fair-share tree.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TreeNode {
    /// Its parent account (`None`: the root's child).
    pub parent: Option<u32>,
    /// Its raw shares (`None`: `Share=parent`).
    pub shares: Option<u32>,
    /// A user association (a leaf), else an account.
    pub user: bool,
}

/// Usage and fair-share factors of the associations (Fair Tree).
#[derive(Debug, Clone, Default)]
pub struct FairTree {
    nodes: Vec<TreeNode>,
    /// Per node: its usage (`usage_raw`), charged to it and its ancestors.
    usage: Vec<f64>,
    /// Per node: its share among its siblings (`shares_norm`).
    share: Vec<f64>,
    /// Per node: its level fair-share, as of the last rank.
    level: Vec<f64>,
    /// The children of each node, contiguous: `children[from[p]..from[p + 1]]`;
    /// the root's children are the last range.
    children: Vec<u32>,
    from: Vec<u32>,
    /// Per user (in node order): its node.
    user_node: Vec<u32>,
    /// Per user: its fair-share factor.
    factor: Vec<f64>,
}

impl FairTree {
    /// The tree without an association dump: `accounts` accounts under the
    /// root, each with 1 share, whose user associations are
    /// `assoc_accounts[i]`, each with 1 share. An account no association
    /// names is left out.
    pub fn new(accounts: usize, assoc_accounts: &[u32]) -> FairTree {
        let mut named = vec![false; accounts];
        for &a in assoc_accounts {
            named[a as usize] = true;
        }
        let mut node_of = vec![0u32; accounts];
        let mut nodes = Vec::new();
        for (a, _) in named.iter().enumerate().filter(|(_, named)| **named) {
            node_of[a] = nodes.len() as u32;
            nodes.push(TreeNode { parent: None, shares: Some(1), user: false });
        }
        nodes.extend(assoc_accounts.iter().map(|&a| TreeNode {
            parent: Some(node_of[a as usize]),
            shares: Some(1),
            user: true,
        }));
        FairTree::of(nodes)
    }

    /// The tree of `nodes` (parents before their children or after: any
    /// order); users are numbered in node order.
    pub fn of(nodes: Vec<TreeNode>) -> FairTree {
        let n = nodes.len();
        let slot = |p: Option<u32>| p.map_or(n, |p| p as usize);
        let mut count = vec![0u32; n + 2];
        for node in &nodes {
            count[slot(node.parent) + 1] += 1;
        }
        for i in 1..count.len() {
            count[i] += count[i - 1];
        }
        let from = count.clone();
        let mut children = vec![0u32; n];
        for (i, node) in nodes.iter().enumerate() {
            let s = slot(node.parent);
            children[count[s] as usize] = i as u32;
            count[s] += 1;
        }
        let user_node: Vec<u32> = (0..n as u32).filter(|&i| nodes[i as usize].user).collect();
        let mut tree = FairTree {
            usage: vec![0.0; n],
            share: vec![0.0; n],
            level: vec![0.0; n],
            factor: vec![0.0; user_node.len()],
            user_node,
            children,
            from,
            nodes,
        };
        for p in 0..=n {
            // `_get_children_level_shares`: a `Share=parent` child counts its children's.
            let level_shares = tree.level_shares(p);
            for k in tree.from[p]..tree.from[p + 1] {
                let c = tree.children[k as usize] as usize;
                // `_normalize_assoc_shares_fair_tree`.
                tree.share[c] = match tree.nodes[c].shares {
                    Some(s) if level_shares > 0 => f64::from(s) / level_shares as f64,
                    _ => 0.0,
                };
            }
        }
        tree.rank();
        tree
    }

    fn level_shares(&self, p: usize) -> u64 {
        (self.from[p]..self.from[p + 1])
            .map(|k| {
                let c = self.children[k as usize] as usize;
                self.nodes[c].shares.map_or_else(|| self.level_shares(c), u64::from)
            })
            .sum()
    }

    /// The number of user associations.
    pub fn users(&self) -> usize {
        self.user_node.len()
    }

    /// Multiplies every usage by `factor` (at least `f64::MIN_POSITIVE`, as Slurm's floor).
    pub fn decay(&mut self, factor: f64) {
        let factor = factor.max(f64::MIN_POSITIVE);
        for u in &mut self.usage {
            *u *= factor;
        }
    }

    /// Adds `usage` to user `user` and every account above it.
    pub fn charge(&mut self, user: u32, usage: f64) {
        let mut node = Some(self.user_node[user as usize]);
        while let Some(n) = node {
            self.usage[n as usize] += usage;
            node = self.nodes[n as usize].parent;
        }
    }

    /// Charges user `user` for a run of `billing` per second, started at
    /// `start`, from `since` (or its start) to `now`, decayed by `d` per
    /// second as `_apply_new_usage` does: `billing · r · d^r` for the `r`
    /// seconds run.
    #[inline]
    pub fn charge_run(&mut self, user: u32, billing: f64, start: Time, since: Time, now: Time, d: f64) {
        let from = start.max(since);
        if now > from {
            let r = (now - from) as f64;
            self.charge(user, billing * r * d.powf(r));
        }
    }

    /// The fair-share factor of user `user`, as of the last [`FairTree::rank`].
    #[inline]
    pub fn factor(&self, user: u32) -> f64 {
        self.factor[user as usize]
    }

    /// Ranks the users (Fair Tree) into their factors.
    pub fn rank(&mut self) {
        let total_users = self.user_node.len();
        if total_users == 0 {
            return;
        }
        let root = self.nodes.len();
        let root_usage: f64 =
            (self.from[root]..self.from[root + 1]).map(|k| self.usage[self.children[k as usize] as usize]).sum();
        let (mut rank, mut rnt) = (total_users, total_users);
        self.rank_level(root, root_usage, &mut rank, &mut rnt, false);
    }

    /// `_calc_tree_fs` on the children of `p` (usage `parent_usage`).
    fn rank_level(&mut self, p: usize, parent_usage: f64, rank: &mut usize, rnt: &mut usize, account_tied: bool) {
        let (from, to) = (self.from[p] as usize, self.from[p + 1] as usize);
        for k in from..to {
            let c = self.children[k] as usize;
            // `_calc_assoc_fs`: S / U, U the usage within the parent's (0
            // when the parent has none); `Share=parent`: a user ranks
            // first, an account is NO_VAL.
            self.level[c] = match self.nodes[c].shares {
                None if self.nodes[c].user => f64::INFINITY,
                None => f64::from(u32::MAX - 1),
                Some(_) if self.share[c] == 0.0 => 0.0,
                Some(_) => {
                    let u = if parent_usage > 0.0 { self.usage[c] / parent_usage } else { 0.0 };
                    if u > 0.0 { self.share[c] / u } else { f64::INFINITY }
                }
            };
        }
        // `_cmp_level_fs`: higher first, users before accounts; ties keep
        // the dump's order (glibc's qsort is a stable merge sort here).
        let (level, nodes) = (&self.level, &self.nodes);
        self.children[from..to].sort_by(|&x, &y| {
            let (x, y) = (x as usize, y as usize);
            level[y].total_cmp(&level[x]).then(nodes[y].user.cmp(&nodes[x].user))
        });
        let total_users = self.user_node.len() as f64;
        for k in from..to {
            let c = self.children[k] as usize;
            let tied =
                if k == from { account_tied } else { self.level[self.children[k - 1] as usize] == self.level[c] };
            if self.nodes[c].user {
                if !tied {
                    *rank = *rnt;
                }
                let user = self.user_node.partition_point(|&u| (u as usize) < c);
                self.factor[user] = *rank as f64 / total_users;
                *rnt -= 1;
            } else {
                // Slurm 22.05 never merges tied accounts: `_count_tied_accounts`
                // stops at the first account after this one.
                self.rank_level(c, self.usage[c], rank, rnt, tied);
            }
        }
    }
}
