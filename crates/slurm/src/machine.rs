//! A heterogeneous machine as `select/cons_tres` sees it: nodes with CPUs,
//! memory and GPUs, partitions over node sets, and jobs placed on nodes by
//! cores.
//!
//! Source: Slurm 22.05, `slurm.conf(5)` (NodeName, PartitionName,
//! SelectTypeParameters) and the cons_tres selection plugin
//! (`src/plugins/select/cons_tres/job_test.c`).
//!
//! Contract:
//! - The nodes (sizes, GPU models, weights, features) and partitions are the
//!   machine model the SLA planners share ([`Machine::spec`], built by
//!   [`Machine::spec_of`]); the twin adds what is free on each node and its
//!   partitions' Slurm settings.
//! - A job asks its partition for `nodes` nodes and, over them, CPUs, memory
//!   and GPUs. Each node it is given holds an equal share of each
//!   ([`Need`]: the total over the nodes, rounded up), so a job of 6 CPUs on
//!   2 nodes takes 3 on each.
//! - Nodes are shared by cores: a node runs several jobs while its free CPUs,
//!   free GPUs and (with `CR_Core_Memory`) free memory cover them. With
//!   `CR_Core` memory is no limit.
//! - Nodes are chosen as cons_tres's `_eval_nodes` chooses them
//!   ([`Machine::pick`]): runs of consecutive nodes of one weight that can
//!   hold the job, the lowest weight first, then the run that suffices with
//!   the fewest free CPUs; its first nodes, and for a job's last node its
//!   node with the fewest free CPUs (best fit).
//! - [`Machine::admit`] checks that every job can ever run: its partition is
//!   defined and up, it asks for no more nodes than the partition has, and
//!   enough of its nodes are large enough. A job that cannot is an error
//!   naming the job, its origin (dump file and line) and the field.
//! - Before that, a job's request is what `DefMemPerCPU` and `MaxMemPerCPU`
//!   make of it ([`crate::memory`]), and a job with a constraint
//!   ([`crate::features`]) may only be given nodes whose features satisfy
//!   it: [`Machine::node_sets`], looked up with [`Machine::allows`].
//!
//! Departure from Slurm, named on the docs' Slurm page: the even spread of
//! a multi-node job's CPUs, memory and GPUs (Slurm may place more tasks on
//! some nodes).

use crate::conf::{Consumable, SlurmConf};
use slasim_data::trace::sacct::jobs::{SlurmJob, SlurmWorkload, Tres};
use slasim_machine::{NodeSpec, Resources};
use slasim_sim::units::Time;
use slasim_sim::units::{Unit, amount};

/// What a job takes on each of its nodes, and on how many.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Need {
    /// Nodes.
    pub nodes: u32,
    /// CPUs on each.
    pub cpus: u32,
    /// MiB on each (0 with `CR_Core`).
    pub mem_mib: u64,
    /// GPUs on each.
    pub gpus: u32,
}

impl Need {
    /// The per-node share of `request` (totals), as the machine counts it.
    pub fn of(request: &Tres, consumable: Consumable) -> Need {
        let nodes = request.nodes.max(1);
        let per = |total: u64| total.div_ceil(u64::from(nodes));
        Need {
            nodes,
            cpus: per(u64::from(request.cpus.max(1))) as u32,
            mem_mib: match consumable {
                Consumable::Core => 0,
                Consumable::CoreMemory => per(request.mem_mib),
            },
            gpus: per(u64::from(request.gpus)) as u32,
        }
    }

    /// What it takes on each of its nodes.
    #[inline]
    pub fn per_node(&self) -> Resources {
        Resources { cpus: self.cpus, mem_mib: self.mem_mib, gpus: self.gpus }
    }

    /// Can `free` (a node's size, or what is free on it) hold its share of
    /// one node: free cores, GPUs and (with `CR_Core_Memory`) memory, as
    /// cons_common's `can_job_run_on_node` tests each node.
    #[inline]
    pub fn fits(&self, free: &Resources) -> bool {
        free.covers(&self.per_node())
    }

    /// The totals it takes over all its nodes.
    pub fn total(&self) -> Tres {
        Tres {
            cpus: self.cpus * self.nodes,
            mem_mib: self.mem_mib * u64::from(self.nodes),
            nodes: self.nodes,
            gpus: self.gpus * self.nodes,
        }
    }
}

/// One amount of a node's resources.
type Amount = fn(&Resources) -> u64;

/// A partition of the machine.
#[derive(Debug, Clone, PartialEq)]
pub struct Partition {
    /// Its name.
    pub name: String,
    /// Its nodes, in the order they are tried (weight, then file order).
    pub nodes: Vec<u32>,
    /// Per node of the machine, its position in `nodes` (`u32::MAX` when
    /// not in the partition).
    pub position: Vec<u32>,
    /// `MaxTime` in seconds, if limited.
    pub max_time: Option<Time>,
    /// `DefaultTime` in seconds, if set.
    pub default_time: Option<Time>,
    /// `PriorityTier`.
    pub priority_tier: u32,
    /// `PriorityJobFactor`.
    pub priority_job_factor: u32,
    /// Jobs of a partition that is not up never start.
    pub up: bool,
    /// The sum of its nodes' sizes (memory saturates).
    pub total: Resources,
    /// `DefMemPerCPU` and `MaxMemPerCPU` (its own, else the cluster's).
    pub mem_per_cpu: crate::memory::MemPerCpu,
}

/// A job's time limit when neither it nor its partition has one: Slurm's
/// "infinite" is a year in the backfill scheduler's plans.
pub const NO_LIMIT: Time = 365 * 86_400;

/// Nodes, partitions and what is free on each node now.
#[derive(Debug, Clone)]
pub struct Machine {
    /// The nodes (names, sizes, GPU models, weights, features, in file
    /// order) and partitions (names and nodes, in file order), as the SLA
    /// planners see them too ([`Machine::spec_of`]).
    pub spec: slasim_machine::Machine,
    /// What is free on each node.
    pub free: Vec<Resources>,
    /// Partitions with their Slurm settings, in file order (as in `spec`).
    pub partitions: Vec<Partition>,
    /// What cons_tres allocates besides cores.
    pub consumable: Consumable,
    /// Sets of nodes a job may be given, by [`Machine::set`]; set 0 (empty
    /// here) is every node.
    pub node_sets: Vec<Vec<bool>>,
    /// Per node, the low byte of cons_tres's `sched_weight`
    /// ([`Machine::near_gpus`], [`Machine::sync_weights`]).
    weight_low: Vec<u8>,
    /// How many nodes have a low byte below 0xff (none on a machine
    /// without GPUs: syncing costs nothing there).
    lowered: usize,
}

/// The nodes [`Machine::pick`] chose (a slice of them, by `Deref`), with
/// the buffer of runs it chose among, kept across picks.
#[derive(Debug, Clone, Default)]
pub struct Picked {
    nodes: Vec<u32>,
    runs: Vec<Run>,
}

impl std::ops::Deref for Picked {
    type Target = [u32];
    fn deref(&self) -> &[u32] {
        &self.nodes
    }
}

/// A run of [`Machine::pick`]: consecutive nodes of one weight that can
/// hold the job, at positions `first..first + len` of the partition's nodes,
/// with their free CPUs.
#[derive(Debug, Clone, Copy)]
struct Run {
    weight: u64,
    cpus: u64,
    first: u32,
    len: u32,
}

/// Whether a GPU job of `need` passes cons_tres's GPU and CPU tests on a
/// node with `free` (`_can_job_run_on_node`, before memory is checked).
#[inline]
pub fn holds_gpus(need: &Need, free: &Resources) -> bool {
    need.gpus > 0 && free.gpus >= need.gpus && free.cpus >= need.cpus.max(1)
}

/// The first position at or after `i` set in the bitset `words`, if any.
#[inline]
fn next_set(words: &[u64], i: usize) -> Option<usize> {
    let mut w = i / 64;
    let mut word = words.get(w)? & (u64::MAX << (i % 64));
    while word == 0 {
        w += 1;
        word = *words.get(w)?;
    }
    Some(w * 64 + word.trailing_zeros() as usize)
}

/// The low byte of `sched_weight` a GPU job sets on a node that holds its
/// GPUs: 0xff less its GPUs per node.
#[inline]
fn near_byte(need: &Need) -> u8 {
    u8::MAX - need.gpus.min(u32::from(u8::MAX)) as u8
}

/// A job the machine can never run, or whose partition it lacks.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{origin}: job {id}: {field}: {detail}")]
pub struct JobError {
    /// Where the job came from (a dump's file and line).
    pub origin: String,
    /// Slurm's job id.
    pub id: u64,
    /// The field at fault (`Partition`, `ReqTRES gres/gpu`, …).
    pub field: String,
    /// What is wrong.
    pub detail: String,
}

impl Machine {
    /// The machine `conf` describes, empty.
    ///
    /// `conf` is as [`crate::conf::read`] gives it, which refuses what
    /// [`Machine::spec_of`] cannot hold (a located error).
    pub fn new(conf: &SlurmConf) -> Machine {
        let spec = Machine::spec_of(conf);
        let partitions = conf
            .partitions
            .iter()
            .map(|p| {
                // `_eval_nodes` tries nodes by weight, then in file order.
                let mut nodes: Vec<u32> = p.nodes.iter().map(|&i| i as u32).collect();
                nodes.sort_by_key(|&i| (spec.weight[i as usize], i));
                let mut position = vec![u32::MAX; spec.len()];
                for (k, &n) in nodes.iter().enumerate() {
                    position[n as usize] = k as u32;
                }
                let total = nodes.iter().fold(Resources::default(), |t, &i| {
                    let s = &spec.size[i as usize];
                    Resources {
                        cpus: t.cpus + s.cpus,
                        mem_mib: t.mem_mib.saturating_add(s.mem_mib),
                        gpus: t.gpus + s.gpus,
                    }
                });
                Partition {
                    name: p.name.clone(),
                    nodes,
                    position,
                    max_time: p.max_time,
                    default_time: p.default_time,
                    priority_tier: p.priority_tier,
                    priority_job_factor: p.priority_job_factor,
                    up: p.up,
                    total,
                    mem_per_cpu: crate::memory::MemPerCpu {
                        default: p.def_mem_per_cpu.or(conf.site.def_mem_per_cpu),
                        max: p.max_mem_per_cpu.or(conf.site.max_mem_per_cpu),
                    },
                }
            })
            .collect();
        let weight_low = vec![u8::MAX; spec.size.len()];
        Machine {
            free: spec.size.clone(),
            spec,
            partitions,
            consumable: conf.consumable,
            node_sets: vec![Vec::new()],
            weight_low,
            lowered: 0,
        }
    }

    /// The shared machine model of `conf` (`slurm.conf(5)` `NodeName`:
    /// `CPUs`, `RealMemory`, `Gres=gpu[:type]:N`, `Weight`, `Features`;
    /// `PartitionName`: `Nodes`): its nodes added in file order by
    /// [`slasim_machine::Machine::push`], each named in errors by the file
    /// and its `NodeName` line, and its partitions in file order over their
    /// nodes in file order.
    ///
    /// The only description the model refuses, more GPU models than
    /// [`slasim_machine::MAX_MODELS`], is refused by the conf reader first;
    /// a conf built otherwise keeps such a node's GPUs without a model.
    pub fn spec_of(conf: &SlurmConf) -> slasim_machine::Machine {
        let mut spec = slasim_machine::Machine::default();
        for n in &conf.nodes {
            let node = NodeSpec {
                name: n.name.clone(),
                size: Resources { cpus: n.cpus, mem_mib: n.real_memory_mib, gpus: n.gpus },
                gpu_model: n.gpu_model.clone().filter(|_| n.gpus > 0),
                weight: n.weight,
                features: n.features.clone(),
            };
            let origin = format!("{}:{}", conf.path.display(), n.line);
            if spec.push(node.clone(), &origin).is_err() {
                spec.push(NodeSpec { gpu_model: None, ..node }, &origin).ok();
            }
        }
        spec.partitions = conf
            .partitions
            .iter()
            .map(|p| slasim_machine::Partition {
                name: p.name.clone(),
                nodes: p.nodes.iter().map(|&i| i as u32).collect(),
            })
            .collect();
        spec
    }

    /// May a job of node set `set` be given node `n`? Set 0 is every node.
    #[inline]
    pub fn allows(&self, set: u16, n: u32) -> bool {
        set == 0 || self.node_sets[set as usize][n as usize]
    }

    /// The number of node set `nodes` (one flag per node), added when new;
    /// every node is set 0.
    pub fn set(&mut self, nodes: Vec<bool>) -> u16 {
        if nodes.iter().all(|&b| b) {
            return 0;
        }
        match self.node_sets.iter().position(|s| *s == nodes) {
            Some(i) => i as u16,
            None => {
                self.node_sets.push(nodes);
                (self.node_sets.len() - 1) as u16
            }
        }
    }

    /// The nodes whose features satisfy `job`'s constraint (all without
    /// one); its constraint is checked by [`Machine::admit`].
    pub fn satisfying(&self, job: &SlurmJob) -> Vec<bool> {
        match job.constraints.as_deref().map(crate::features::Constraint::parse) {
            Some(Ok(c)) => self.spec.features.iter().map(|f| c.satisfied_by(f)).collect(),
            _ => vec![true; self.spec.len()],
        }
    }

    /// `job`'s request as its partition `p`'s `DefMemPerCPU` and
    /// `MaxMemPerCPU` leave it ([`crate::memory`]).
    pub fn request_of(&self, p: usize, job: &SlurmJob) -> Tres {
        let rules = self.partitions[p].mem_per_cpu;
        if rules.is_set() { rules.apply(&job.request) } else { job.request }
    }

    /// Every CPU, MiB and GPU of the machine (memory saturates).
    pub fn total(&self) -> Resources {
        self.spec.total()
    }

    /// The partition named `name`.
    pub fn partition(&self, name: &str) -> Option<usize> {
        self.partitions.iter().position(|p| p.name == name)
    }

    /// Checks that `job` of `workload` fits the machine, and returns its
    /// partition's index, its per-node need, its time limit, and whether
    /// that limit is above the partition's `MaxTime` (then it never runs:
    /// Slurm holds it, or rejects it under `EnforcePartLimits`).
    pub fn admit(&self, workload: &SlurmWorkload, job: &SlurmJob) -> Result<(usize, Need, Time, bool), JobError> {
        let fail = |field: &str, detail: String| JobError {
            origin: job.origin.to_string(),
            id: job.id,
            field: field.to_string(),
            detail,
        };
        let name = workload.partitions.get(job.partition as usize).map(String::as_str).unwrap_or("");
        let p = self.partition(name).ok_or_else(|| {
            let known: Vec<&str> = self.partitions.iter().map(|p| p.name.as_str()).collect();
            fail(
                "Partition",
                format!("partition {name:?} is not defined by the slurm.conf (it has {})", known.join(", ")),
            )
        })?;
        let part = &self.partitions[p];
        if !part.up {
            return Err(fail(
                "Partition",
                format!("partition {} is not UP in the slurm.conf: its jobs would never start", part.name),
            ));
        }
        let need = Need::of(&self.request_of(p, job), self.consumable);
        if need.nodes as usize > part.nodes.len() {
            return Err(fail(
                "ReqTRES node",
                format!("asks for {} nodes; partition {} has {}", need.nodes, part.name, part.nodes.len()),
            ));
        }
        // `Constraints`: only nodes whose features satisfy it
        // (`build_feature_list`, then `_valid_feature_counts` at submit).
        if let Some(text) = &job.constraints {
            let c = crate::features::Constraint::parse(text).map_err(|d| fail("Constraints", d))?;
            let satisfying = part.nodes.iter().filter(|&&n| c.satisfied_by(&self.spec.features[n as usize])).count();
            let fitting = part
                .nodes
                .iter()
                .filter(|&&n| c.satisfied_by(&self.spec.features[n as usize]) && need.fits(&self.spec.size[n as usize]))
                .count();
            if fitting < need.nodes as usize {
                return Err(fail(
                    "Constraints",
                    format!(
                        "`{text}`: {satisfying} nodes of partition {} have these features, {fitting} of them large                          enough; the job needs {} (Slurm: Requested node configuration is not available)",
                        part.name, need.nodes
                    ),
                ));
            }
        }
        let large_enough = part.nodes.iter().filter(|&&n| need.fits(&self.spec.size[n as usize])).count();
        if large_enough < need.nodes as usize {
            // The first resource no node of the partition has enough of.
            let resources: [(&str, &str, u64, Amount); 3] = [
                ("ReqTRES gres/gpu", "GPUs", u64::from(need.gpus), |r| u64::from(r.gpus)),
                ("ReqTRES cpu", "CPUs", u64::from(need.cpus), |r| u64::from(r.cpus)),
                ("ReqTRES mem", "MiB", need.mem_mib, |r| r.mem_mib),
            ];
            let short = resources.iter().find_map(|&(field, unit, asked, of)| {
                let most = part.nodes.iter().map(|&n| of(&self.spec.size[n as usize])).max().unwrap_or(0);
                (most < asked).then(|| {
                    let detail = format!(
                        "asks for {asked} {unit} per node; no node of partition {} has more than {most}",
                        part.name
                    );
                    (field, detail)
                })
            });
            let (field, detail) = short.unwrap_or_else(|| {
                let detail = format!(
                    "asks for {} nodes of {} CPUs, {} and {} GPUs each; partition {} has only {large_enough} such nodes",
                    need.nodes,
                    need.cpus,
                    amount(need.mem_mib, Unit::Mebibytes),
                    need.gpus,
                    part.name
                );
                ("ReqTRES", detail)
            });
            return Err(fail(field, detail));
        }
        let limit = match (job.time_limit, part.default_time, part.max_time) {
            (Some(l), _, _) => l,
            (None, Some(d), _) => d,
            (None, None, Some(max)) => max,
            (None, None, None) => NO_LIMIT,
        };
        let over = job.time_limit.zip(part.max_time).is_some_and(|(l, max)| l > max);
        Ok((p, need, limit.max(1), over))
    }

    /// Puts into `out` the nodes of partition `p` that cons_tres gives a job
    /// of `need` now among those that pass `usable`; false (and `out`
    /// unspecified) when there are not enough. See [`Machine::pick`].
    #[inline]
    pub fn find(&self, p: usize, need: &Need, mut usable: impl FnMut(u32) -> bool, out: &mut Picked) -> bool {
        let free = &self.free;
        self.pick(p, need, |n| (need.fits(&free[n as usize]) && usable(n)).then_some(free[n as usize].cpus), out)
    }

    /// Puts into `out` the nodes of partition `p` that cons_tres chooses
    /// for a job of `need`, given `free`: a node's free CPUs when it can hold
    /// the job, else `None`; false (and `out` unspecified) when there are not
    /// enough.
    ///
    /// Slurm 22.05, `select/cons_tres` `_eval_nodes` (job_test.c): the nodes
    /// that can hold the job form runs of consecutive nodes (in slurm.conf
    /// order) of one weight. Of the lowest weight, the run that suffices
    /// with the fewest free CPUs is taken (the first on a tie): its first
    /// nodes, or, for the last node a job needs, its node with the fewest
    /// free CPUs (best fit). When no run suffices, the run with the most
    /// free CPUs is taken whole, and the rest chosen again.
    ///
    /// A job with GPUs counts at most its own CPUs on a node:
    /// `gres_select_filter_sock_core` (cons_common, gres_select_filter.c)
    /// caps a GRES job's available CPUs at its tasks on the node times its
    /// CPUs per task. So its best fit ties among the nodes that hold it,
    /// and the first is taken.
    pub fn pick(&self, p: usize, need: &Need, free: impl FnMut(u32) -> Option<u32>, out: &mut Picked) -> bool {
        self.pick_from(p, need, free, Some, out)
    }

    /// [`Machine::pick`] when `free` holds the job on no node but those at
    /// the positions (in partition `p`'s `nodes`) set in the bitset `among`.
    /// Why: on a full machine a few of a partition's thousands of nodes can
    /// hold the job, and only they are looked at.
    pub fn pick_among(
        &self,
        p: usize,
        need: &Need,
        free: impl FnMut(u32) -> Option<u32>,
        among: &[u64],
        out: &mut Picked,
    ) -> bool {
        self.pick_from(p, need, free, |i| next_set(among, i), out)
    }

    /// [`Machine::pick`], looking at the positions `next` gives: the first
    /// at or after a position that may hold the job, if any.
    ///
    /// The runs are found in one scan. Why: a run taken whole was a
    /// maximal run, so the runs of `_eval_nodes`' next round are the
    /// others, in the same order; scanning the nodes again each round cost
    /// a multi-node job on a fragmented machine its nodes times the
    /// partition's.
    #[inline]
    fn pick_from(
        &self,
        p: usize,
        need: &Need,
        mut free: impl FnMut(u32) -> Option<u32>,
        next: impl Fn(usize) -> Option<usize>,
        out: &mut Picked,
    ) -> bool {
        let mut free = |n: u32| free(n).map(|f| if need.gpus > 0 { f.min(need.cpus) } else { f });
        out.nodes.clear();
        out.runs.clear();
        if need.nodes == 0 {
            return true;
        }
        // Sorted by (weight, index): a run is a stretch of this list.
        let nodes = &self.partitions[p].nodes;
        let mut i = 0;
        while let Some(k) = next(i).filter(|&k| k < nodes.len()) {
            let n = nodes[k];
            i = k + 1;
            let Some(f) = free(n) else {
                continue;
            };
            let weight = self.weight(n, need);
            let (mut cpus, mut last) = (u64::from(f), n);
            while i < nodes.len() {
                let m = nodes[i];
                if m != last + 1 || self.weight(m, need) != weight {
                    break;
                }
                let Some(f) = free(m) else { break };
                cpus += u64::from(f);
                last = m;
                i += 1;
            }
            out.runs.push(Run { weight, cpus, first: k as u32, len: (i - k) as u32 });
        }
        loop {
            let rest = need.nodes - out.nodes.len() as u32;
            // (index in `runs`, suffices)
            let mut best: Option<(usize, bool)> = None;
            for (x, run) in out.runs.iter().enumerate() {
                let suffices = run.len >= rest;
                let better = best.is_none_or(|(b, s)| {
                    let b = &out.runs[b];
                    match run.weight.cmp(&b.weight) {
                        std::cmp::Ordering::Less => true,
                        std::cmp::Ordering::Greater => false,
                        std::cmp::Ordering::Equal => match (suffices, s) {
                            (true, false) => true,               // the first run that suffices
                            (true, true) => run.cpus < b.cpus,   // a tighter one
                            (false, false) => run.cpus > b.cpus, // none suffices yet: the largest
                            (false, true) => false,
                        },
                    }
                });
                if better {
                    best = Some((x, suffices));
                }
            }
            let Some((b, _)) = best else {
                return false;
            };
            let Run { first, len, .. } = out.runs.remove(b);
            let run = &nodes[first as usize..(first + len) as usize];
            if rest == 1 {
                // Best fit: the fewest free CPUs, the first on a tie.
                let mut fit: Option<(u32, u32)> = None;
                for &n in run {
                    let f = free(n).unwrap_or(u32::MAX);
                    if fit.is_none_or(|(b, _)| f < b) {
                        fit = Some((f, n));
                    }
                }
                out.nodes.extend(fit.map(|(_, n)| n));
            } else {
                out.nodes.extend_from_slice(&run[..len.min(rest) as usize]);
            }
            if out.nodes.len() as u32 >= need.nodes {
                return true;
            }
        }
    }

    /// Node `n`'s `sched_weight` as `_eval_nodes` compares it for a job of
    /// `need`: its `Weight` above the low byte ([`Machine::weight_low`]),
    /// which a GPU job's own evaluation of the node has just set.
    #[inline]
    fn weight(&self, n: u32, need: &Need) -> u64 {
        let low = if need.gpus > 0 { near_byte(need) } else { self.weight_low[n as usize] };
        (u64::from(self.spec.weight[n as usize]) << 8) | u64::from(low)
    }

    /// Whether some node's weight is below its `Weight` (a GPU job's test
    /// lowered it).
    #[inline]
    pub fn weights_lowered(&self) -> bool {
        self.lowered > 0
    }

    /// `_sync_node_weight` (node_scheduler.c): `select_nodes` sets the
    /// `sched_weight` of the nodes of a job's partition (its node sets) to
    /// their `Weight` with the low byte 0xff, before it tests the job.
    pub fn sync_weights(&mut self, p: usize) {
        if self.lowered == 0 {
            return;
        }
        for &n in &self.partitions[p].nodes {
            let low = &mut self.weight_low[n as usize];
            if *low != u8::MAX {
                *low = u8::MAX;
                self.lowered -= 1;
            }
        }
    }

    /// `_can_job_run_on_node` (cons_tres job_test.c): a GPU job evaluated
    /// on node `n` with `free` there, when its GPUs and CPUs fit (memory is
    /// checked after), sets the node's low byte to 0xff less the GPUs it
    /// would use there ("favor nodes with more co-located GPUs",
    /// `gres_select_filter_remove_unusable`'s `near_gpus`, capped at the
    /// job's GPUs per node). `free` is what the test saw: what is free, in
    /// a will-run test what the running jobs taken away leave, and in the
    /// main scheduler's second test of a job that cannot start now the
    /// node's whole size (`SELECT_MODE_TEST_ONLY`). The backfill
    /// scheduler's tests never set it back: until a `select_nodes` of a job
    /// of a partition holding the node does ([`Machine::sync_weights`]),
    /// the jobs without GPUs a backfill pass tests prefer such nodes (a
    /// lower weight).
    #[inline]
    pub fn near_gpus(&mut self, n: u32, need: &Need, free: &Resources) {
        if holds_gpus(need, free) {
            self.mark_near(n, need);
        }
    }

    /// Each of `nodes` evaluated for a GPU job of `need` that
    /// [`holds_gpus`] there.
    pub fn mark_near_each(&mut self, nodes: &[u32], need: &Need) {
        for &n in nodes {
            self.mark_near(n, need);
        }
    }

    /// Node `n` evaluated for a GPU job of `need` that [`holds_gpus`] there.
    #[inline]
    pub fn mark_near(&mut self, n: u32, need: &Need) {
        let low = &mut self.weight_low[n as usize];
        if *low == u8::MAX {
            self.lowered += 1;
        }
        *low = near_byte(need);
    }

    /// Gives `need` on each of `nodes` to a job.
    pub fn take(&mut self, nodes: &[u32], need: &Need) {
        let share = need.per_node();
        for &n in nodes {
            self.free[n as usize].sub(&share);
        }
    }

    /// Takes `need` back from each of `nodes`.
    pub fn give(&mut self, nodes: &[u32], need: &Need) {
        let share = need.per_node();
        for &n in nodes {
            self.free[n as usize].add(&share);
        }
    }
}
