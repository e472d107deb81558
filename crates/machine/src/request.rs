//! What a job asks of a machine: on each of its nodes, CPUs (in thousandths),
//! memory and GPUs (whole cards or a share of one), restricted to GPU models,
//! features and a partition; and why a request can never be held.
//!
//! Contract:
//! - A request's amounts are per node; a job of several nodes asks each of
//!   them for the same share.
//! - CPUs are counted in thousandths (GPU traces ask for 3.152 CPUs);
//!   a node's size is whole CPUs, so a node of `c` CPUs holds `1000 c`.
//! - [`Gpus::Share`] asks for a part of one card, `1..MILLI` thousandths,
//!   placed on one card; [`Gpus::Whole`] asks for whole cards, each free of
//!   any share.
//! - `models` is a bit set over [`crate::Machine::models`] (0: any model);
//!   it only restricts a request that asks for GPUs.

use slasim_sim::units::{Unit, amount};

use crate::{MILLI, Machine};

/// The GPUs a request asks for on each node.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Gpus {
    /// Whole cards (0: none).
    Whole(u32),
    /// A share of one card, in thousandths (`1..MILLI`).
    Share(u16),
}

impl Gpus {
    /// The GPUs of a trace row: `count` cards of `milli` thousandths each
    /// (v2023 `num_gpu`, `gpu_milli`). A share is of one card; a share above
    /// a whole card, or of several cards, is an error saying why.
    pub fn of(count: u32, milli: u32) -> Result<Gpus, String> {
        match (count, milli) {
            (0, _) => Ok(Gpus::Whole(0)),
            (_, m) if m == u32::from(MILLI) => Ok(Gpus::Whole(count)),
            (_, 0) => Err(format!("{count} GPUs of 0 thousandths each")),
            (_, m) if m > u32::from(MILLI) => {
                Err(format!("a share of {m} thousandths is more than one card ({MILLI})"))
            }
            (1, m) => Ok(Gpus::Share(m as u16)),
            (n, m) => Err(format!("{n} cards of {m} thousandths each: a share is of one card")),
        }
    }

    /// The cards a node needs at least: the whole cards, or one for a share.
    #[inline]
    pub fn cards(self) -> u32 {
        match self {
            Gpus::Whole(n) => n,
            Gpus::Share(_) => 1,
        }
    }

    /// Thousandths of a card asked for in all.
    #[inline]
    pub fn milli(self) -> u64 {
        match self {
            Gpus::Whole(n) => u64::from(n) * u64::from(MILLI),
            Gpus::Share(m) => u64::from(m),
        }
    }
}

/// What a job asks for (module contract).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Request {
    /// Nodes (≥ 1).
    pub nodes: u32,
    /// Thousandths of a CPU on each node.
    pub cpu_milli: u32,
    /// MiB on each node.
    pub mem_mib: u64,
    /// GPUs on each node.
    pub gpus: Gpus,
    /// The GPU models allowed, a bit set over the machine's models (0: any).
    pub models: u64,
    /// Features every node given must have.
    pub features: Vec<String>,
    /// Its partition (`None`: every node).
    pub partition: Option<u16>,
}

impl Request {
    /// `nodes` whole nodes of `machine`'s first node's size: the seeds'
    /// request on a machine of identical nodes.
    pub fn whole_nodes(machine: &Machine, nodes: u32) -> Request {
        let size = machine.size.first().copied().unwrap_or_default();
        Request {
            nodes,
            cpu_milli: size.cpus * 1000,
            mem_mib: 0,
            gpus: Gpus::Whole(size.gpus),
            models: 0,
            features: Vec::new(),
            partition: None,
        }
    }
}

/// Why a request can never be held.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{field}: {detail}")]
pub struct Unfit {
    /// The field at fault: `nodes`, `partition`, `gpu model`, `features`,
    /// `gpus`, `cpus` or `memory`.
    pub field: &'static str,
    /// Why.
    pub detail: String,
}

/// [`Machine::check`].
pub(crate) fn check(machine: &Machine, r: &Request) -> Result<(), Unfit> {
    let fail = |field, detail| Err(Unfit { field, detail });
    if r.nodes == 0 {
        return fail("nodes", "asks for no node".into());
    }
    let partition = match r.partition {
        Some(p) => {
            let Some(partition) = machine.partitions.get(usize::from(p)) else {
                return fail("partition", format!("no partition {p}; the machine has {}", machine.partitions.len()));
            };
            if let Some(n) = partition.nodes.iter().find(|&&n| n as usize >= machine.len()) {
                let detail = format!("partition {} names node {n}; the machine has {}", partition.name, machine.len());
                return fail("partition", detail);
            }
            Some(partition)
        }
        None => None,
    };
    // Most requests fit: enough nodes that can each hold a share end the
    // check without the detail an unfit one needs.
    let wanted = r.nodes as usize;
    if machine.candidates(r).filter(|&n| machine.holds(n, r)).take(wanted).count() == wanted {
        return Ok(());
    }
    let place = partition.map_or_else(|| "the machine".into(), |p| format!("partition {}", p.name));
    let candidates: Vec<u32> = machine.candidates(r).collect();
    if (candidates.len() as u64) < u64::from(r.nodes) {
        return fail("nodes", format!("asks for {}; {place} has {}", nodes(r.nodes), candidates.len()));
    }
    let cards = r.gpus.cards();
    let mut place = place;
    let mut candidates = candidates;
    if cards > 0 && r.models != 0 {
        let names: Vec<&str> = (0..machine.models.len())
            .filter(|i| r.models & (1 << i) != 0)
            .map(|i| machine.models[i].as_str())
            .collect();
        candidates.retain(|&n| machine.gpu_model[n as usize].is_some_and(|m| r.models & (1 << m) != 0));
        if candidates.is_empty() {
            return fail("gpu model", format!("no node of {place} has GPUs of model {}", names.join(" or ")));
        }
        place = format!("{place} with {} GPUs", names.join(" or "));
    }
    for f in &r.features {
        candidates.retain(|&n| machine.features[n as usize].contains(f));
        if candidates.is_empty() {
            return fail("features", format!("no node of {place} has feature {f:?}"));
        }
    }
    let most =
        |of: fn(&crate::Resources) -> u64| candidates.iter().map(|&n| of(&machine.size[n as usize])).max().unwrap_or(0);
    let gpus = most(|s| u64::from(s.gpus));
    if u64::from(cards) > gpus {
        let asked = match r.gpus {
            Gpus::Share(m) => format!("a share of {m} thousandths of a GPU"),
            Gpus::Whole(n) => format!("{n} GPUs"),
        };
        return fail("gpus", format!("asks for {asked} on a node; no node of {place} has more than {gpus}"));
    }
    let cpus = most(|s| u64::from(s.cpus) * 1000);
    if u64::from(r.cpu_milli) > cpus {
        return fail(
            "cpus",
            format!(
                "asks for {} CPUs on a node; no node of {place} has more than {}",
                r.cpu_milli as f64 / 1000.0,
                cpus / 1000
            ),
        );
    }
    let mem = most(|s| s.mem_mib);
    if r.mem_mib > mem {
        let (asked, most) = (amount(r.mem_mib, Unit::Mebibytes), amount(mem, Unit::Mebibytes));
        return fail("memory", format!("asks for {asked} on a node; no node of {place} has more than {most}"));
    }
    let holding = candidates.iter().filter(|&&n| machine.holds(n, r)).count();
    if (holding as u64) < u64::from(r.nodes) {
        return fail("nodes", format!("asks for {}; {holding} of {place} can hold one node's share", nodes(r.nodes)));
    }
    Ok(())
}

/// `1 node`, `2 nodes`.
fn nodes(n: u32) -> String {
    if n == 1 { "1 node".into() } else { format!("{n} nodes") }
}
