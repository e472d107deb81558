//! The machine model: nodes with CPUs, memory, GPUs (a count and a model)
//! and features, partitions over them ([`Machine`]), and what a job asks of
//! them ([`Request`]).
//!
//! The Slurm twin and the SLA planners both run on it; neither uses the
//! other's code. Each builds its own state (what is free now, what is
//! planned) over the sizes described here.
//!
//! Contract:
//! - A node has a size in whole CPUs, MiB and whole GPUs ([`Resources`]), at
//!   most one GPU model (an index into [`Machine::models`]), a weight (lower
//!   first, as Slurm's `Weight`) and features. Nodes are numbered from 0 in
//!   the order they were described.
//! - A partition is a named set of nodes. A machine without partitions is one
//!   pool: every node.
//! - A GPU card is [`MILLI`] thousandths: a job may ask for whole cards or for
//!   a share of one card ([`Gpus::Share`]), as GPU-sharing traces do.
//! - A machine is built from identical nodes ([`Machine::identical`], an SWF
//!   header's processors), from a GPU trace's node list
//!   ([`Machine::from_gpu_nodes`]) or by its describer (the Slurm twin's
//!   `slurm.conf` reader) through [`Machine::push`]. Each builder refuses what
//!   the model cannot hold with an error naming where it came from.
//! - [`Machine::check`] says whether a request can ever be held (on an idle
//!   machine), and if not why, naming the field at fault ([`Unfit`]).

use std::path::Path;

pub mod request;

pub use request::{Gpus, Request, Unfit};
use slasim_data::trace::gpu::GpuNode;

/// Thousandths of a GPU card in one card.
pub const MILLI: u16 = 1000;

/// The most GPU models one machine may have (a request's allowed models are
/// a bit set).
pub const MAX_MODELS: usize = 64;

/// A node's size, or an amount of its resources.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub struct Resources {
    /// CPUs.
    pub cpus: u32,
    /// MiB.
    pub mem_mib: u64,
    /// GPUs (whole cards).
    pub gpus: u32,
}

impl Resources {
    /// Does it hold `other` in every resource?
    #[inline]
    pub fn covers(&self, other: &Resources) -> bool {
        self.cpus >= other.cpus && self.mem_mib >= other.mem_mib && self.gpus >= other.gpus
    }

    /// Adds `other` in every resource.
    #[inline]
    pub fn add(&mut self, other: &Resources) {
        self.cpus += other.cpus;
        self.mem_mib += other.mem_mib;
        self.gpus += other.gpus;
    }

    /// Takes `other` away in every resource (which it covers).
    #[inline]
    pub fn sub(&mut self, other: &Resources) {
        self.cpus -= other.cpus;
        self.mem_mib -= other.mem_mib;
        self.gpus -= other.gpus;
    }
}

/// A named set of nodes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Partition {
    /// Its name.
    pub name: String,
    /// Its nodes, in node order.
    pub nodes: Vec<u32>,
}

/// One node as its describer gives it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct NodeSpec {
    /// Its name.
    pub name: String,
    /// Its size.
    pub size: Resources,
    /// Its GPUs' model, if it has GPUs and the description names one.
    pub gpu_model: Option<String>,
    /// Its weight (lower first).
    pub weight: u32,
    /// Its features.
    pub features: Vec<String>,
}

/// A description the model cannot hold.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{origin}: {detail}")]
pub struct MachineError {
    /// Where the description came from (a file, and a line where known).
    pub origin: String,
    /// What is wrong.
    pub detail: String,
}

/// Nodes and partitions (module contract).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Machine {
    /// Node names.
    pub names: Vec<String>,
    /// Node sizes.
    pub size: Vec<Resources>,
    /// Each node's GPU model, an index into [`Machine::models`].
    pub gpu_model: Vec<Option<u8>>,
    /// GPU model names, in the order first described.
    pub models: Vec<String>,
    /// Node weights (lower first).
    pub weight: Vec<u32>,
    /// Node features.
    pub features: Vec<Vec<String>>,
    /// Partitions.
    pub partitions: Vec<Partition>,
}

impl Machine {
    /// `nodes` identical nodes of `cpus` CPUs each, without memory limits,
    /// GPUs or partitions: the machine of an SWF header.
    pub fn identical(nodes: u32, cpus: u32) -> Machine {
        let mut machine = Machine::default();
        for i in 0..nodes {
            let size = Resources { cpus, mem_mib: u64::MAX, gpus: 0 };
            machine.push(NodeSpec { name: format!("n{i}"), size, ..NodeSpec::default() }, "").ok();
        }
        machine
    }

    /// The machine of a GPU trace's node list (`path` names it in errors):
    /// one node per row, its GPUs of its model. A list without a GPU is
    /// refused, since its pods could never run.
    pub fn from_gpu_nodes(nodes: &[GpuNode], path: &Path) -> Result<Machine, MachineError> {
        let mut machine = Machine::default();
        let origin = path.display().to_string();
        for (i, node) in nodes.iter().enumerate() {
            let whole = |v: u64, what: &str| {
                u32::try_from(v).map_err(|_| MachineError {
                    origin: format!("{origin}:{}", i + 2),
                    detail: format!("node {}: {v} {what} is more than the model holds", node.name),
                })
            };
            let size = Resources {
                cpus: whole(node.cpus, "CPUs")?,
                // The v2026 list has no memory column: no limit.
                mem_mib: node.memory_mib.unwrap_or(u64::MAX),
                gpus: whole(node.gpus, "GPUs")?,
            };
            let model = (node.gpus > 0 && !node.model.is_empty()).then(|| node.model.clone());
            let spec = NodeSpec { name: node.name.clone(), size, gpu_model: model, weight: 1, features: Vec::new() };
            machine.push(spec, &format!("{origin}:{}", i + 2))?;
        }
        if machine.total().gpus == 0 {
            return Err(MachineError {
                origin,
                detail: format!("the node list has {} nodes and no GPU: a GPU trace's pods could not run", nodes.len()),
            });
        }
        Ok(machine)
    }

    /// Adds a node (`origin` names its description in errors) and returns
    /// its number.
    pub fn push(&mut self, node: NodeSpec, origin: &str) -> Result<u32, MachineError> {
        let model = match node.gpu_model {
            Some(name) => Some(match self.models.iter().position(|m| *m == name) {
                Some(i) => i as u8,
                None if self.models.len() < MAX_MODELS => {
                    self.models.push(name);
                    (self.models.len() - 1) as u8
                }
                None => {
                    return Err(MachineError {
                        origin: origin.to_string(),
                        detail: format!("node {}: GPU model {name}: more than {MAX_MODELS} models", node.name),
                    });
                }
            }),
            None => None,
        };
        self.names.push(node.name);
        self.size.push(node.size);
        self.gpu_model.push(model);
        self.weight.push(node.weight);
        self.features.push(node.features);
        Ok((self.names.len() - 1) as u32)
    }

    /// Its number of nodes.
    pub fn len(&self) -> usize {
        self.size.len()
    }

    /// Whether it has no node.
    pub fn is_empty(&self) -> bool {
        self.size.is_empty()
    }

    /// Every CPU, MiB and GPU of the machine (memory saturates where nodes
    /// have no limit).
    pub fn total(&self) -> Resources {
        self.size.iter().fold(Resources::default(), |t, s| Resources {
            cpus: t.cpus + s.cpus,
            mem_mib: t.mem_mib.saturating_add(s.mem_mib),
            gpus: t.gpus + s.gpus,
        })
    }

    /// The partition named `name`.
    pub fn partition(&self, name: &str) -> Option<u16> {
        self.partitions.iter().position(|p| p.name == name).map(|i| i as u16)
    }

    /// The set of models named by `spec`, names separated by `|` (a v2023
    /// `gpu_spec`); an unknown name is an error naming it and the models
    /// the machine has.
    pub fn models_of(&self, spec: &str) -> Result<u64, String> {
        let mut mask = 0u64;
        for name in spec.split('|').map(str::trim).filter(|n| !n.is_empty()) {
            let i =
                self.models.iter().position(|m| m == name).ok_or_else(|| {
                    format!("unknown GPU model {name:?} (the machine has {})", self.models.join(", "))
                })?;
            mask |= 1 << i;
        }
        Ok(mask)
    }

    /// The nodes a request may be given: its partition's, else every node
    /// (none for a partition the machine lacks: [`Machine::check`] says so).
    pub fn candidates<'a>(&'a self, request: &Request) -> Candidates<'a> {
        match request.partition {
            Some(p) => Candidates::Listed(self.partitions.get(usize::from(p)).map_or(&[][..], |p| &p.nodes).iter()),
            None => Candidates::All(0..self.len() as u32),
        }
    }

    /// Can node `n`, idle, hold one node's share of `request`: its size,
    /// its GPU model and its features?
    #[inline]
    pub fn holds(&self, n: u32, request: &Request) -> bool {
        let i = n as usize;
        let size = &self.size[i];
        size.cpus as u64 * 1000 >= u64::from(request.cpu_milli)
            && size.mem_mib >= request.mem_mib
            && size.gpus >= request.gpus.cards()
            && (request.models == 0
                || request.gpus.cards() == 0
                || self.gpu_model[i].is_some_and(|m| request.models & (1 << m) != 0))
            && request.features.iter().all(|f| self.features[i].contains(f))
    }

    /// Whether `request` can ever be held, on the idle machine; if not,
    /// the field at fault and why (the first of: partition, GPU model,
    /// features, GPUs, CPUs, memory, node count).
    pub fn check(&self, request: &Request) -> Result<(), Unfit> {
        request::check(self, request)
    }
}

/// The nodes a request may be given ([`Machine::candidates`]).
#[derive(Debug, Clone)]
pub enum Candidates<'a> {
    /// Every node.
    All(std::ops::Range<u32>),
    /// A partition's nodes.
    Listed(std::slice::Iter<'a, u32>),
}

impl Iterator for Candidates<'_> {
    type Item = u32;

    #[inline]
    fn next(&mut self) -> Option<u32> {
        match self {
            Candidates::All(r) => r.next(),
            Candidates::Listed(i) => i.next().copied(),
        }
    }
}
