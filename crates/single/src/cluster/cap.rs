//! A power cap that follows a series: a grid budget plus the site's share
//! of a renewable supply, known in advance (`[energy.cap_series]`).
//!
//! Reference: a day-ahead power contract as in power-capped scheduling
//! with renewable supply (Goiri et al., "GreenSlot: scheduling energy
//! consumption in green datacenters", SC 2011: the green supply is known
//! ahead from a forecast, brown power from the grid fills the rest); here
//! the supply is the `[signals]` renewable series itself, the run's
//! contract.
//!
//! Contract:
//! - The cap at virtual time `t` is `grid_watts + renewable_scale · R(t)`,
//!   `R(t)` the renewable supply in watts aligned onto the run's time as the
//!   accounting aligns it ([`slasim_data::signal::Alignment`]). Under linear
//!   interpolation each sample interval counts at its lower end, so the cap
//!   used is a step function never above the series
//!   ([`slasim_data::signal::AlignedSignal::lower_step`]). It is counted in
//!   whole milliwatts, rounded down; the committed watts round up.
//! - The series is a contract known in advance: the cluster (and so every
//!   strategy) sees its future values.
//! - The cluster's committed watts are a step function of the future
//!   ([`CapLedger`]): every node commits its state's watts (as with the
//!   constant cap) until its next known change: a running job's node until
//!   the job's kill time (no execution runs past it), a switching node until
//!   its transition ends; then the watts of the state it comes to (idle, or
//!   asleep). A decision that raises the committed watts (a start, a
//!   switch, a repair, a pstate change) is admitted only if the committed
//!   watts stay within the cap at every future instant: a job with no kill
//!   time counts as running forever.
//! - The cap's lowest value must hold every node idle: the committed watts
//!   then never exceed it whatever happens without a decision (a job end
//!   or a failure lowers them; a busy node draws at least an idle one's
//!   watts, a failed one no more than any other state).

use slasim_core::units::{Unit, amount};
use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use slasim_core::setting::InvalidSetting;
use slasim_core::units::Time;
use slasim_data::signal::AlignedSignal;

/// The series a cap follows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum CapSignal {
    /// `[signals] renewable`.
    Renewable,
}

/// A cap that follows a series (`[energy.cap_series]`).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CapSeriesConfig {
    /// The series: `renewable`, the `[signals]` renewable supply.
    pub follows: CapSignal,
    /// Watts the grid supplies at every instant.
    pub grid_watts: f64,
    /// The site's share of the supply (a region's supply is GW-scale):
    /// the cap adds this times the supply's watts.
    pub renewable_scale: f64,
}

impl CapSeriesConfig {
    /// Both numbers finite and 0 or more.
    pub fn validate(&self) -> Result<(), InvalidSetting> {
        for (name, v) in [
            ("energy.cap_series.grid_watts", self.grid_watts),
            ("energy.cap_series.renewable_scale", self.renewable_scale),
        ] {
            if !v.is_finite() || v < 0.0 {
                return Err(InvalidSetting::new(name, v, "must be a finite number, 0 or more"));
            }
        }
        Ok(())
    }
}

/// The cap series on the run's virtual time.
#[derive(Debug, Clone)]
pub struct CapSeries {
    signal: AlignedSignal,
    grid: f64,
    /// Watts of cap per unit of the signal.
    per_unit: f64,
    period: Time,
}

/// Milliwatts of a cap, rounded down.
fn cap_milliwatts(watts: f64) -> i64 {
    (watts * 1000.0).floor() as i64
}

impl CapSeries {
    /// The cap `config` defines on the aligned signals: `renewable` the
    /// supply (`None`: not given, refused), `watts_per_unit` its watts per
    /// unit (1 for W, 10⁶ for MWh/h).
    pub fn new(
        config: &CapSeriesConfig,
        renewable: Option<&AlignedSignal>,
        watts_per_unit: f64,
    ) -> Result<CapSeries, InvalidSetting> {
        let signal = match config.follows {
            CapSignal::Renewable => renewable.cloned().ok_or_else(|| {
                InvalidSetting::new(
                    "energy.cap_series.follows",
                    "renewable",
                    "needs a renewable supply: give [signals] renewable = \"FILE\"",
                )
            })?,
        };
        let per_unit = config.renewable_scale * watts_per_unit;
        let period = signal.period_seconds();
        Ok(CapSeries { signal, grid: config.grid_watts, per_unit, period })
    }

    /// Checks that its lowest value holds `nodes` nodes idle at `idle_watts`
    /// (committed milliwatts, rounded up, as the cluster counts them).
    pub fn check_idle(&self, nodes: u32, idle_watts: f64) -> Result<(), InvalidSetting> {
        // Rounded up, as the cluster counts committed watts.
        let idle = (idle_watts * 1000.0).ceil() as i64 * i64::from(nodes);
        let lowest = self.lowest_milliwatts();
        if lowest < idle {
            return Err(InvalidSetting::new(
                "energy.cap_series.grid_watts",
                format!(
                    "{} (the cap's lowest value is {}; {nodes} idle nodes draw {})",
                    self.grid,
                    amount(lowest as f64 / 1000.0, Unit::Watts),
                    amount(idle as f64 / 1000.0, Unit::Watts)
                ),
                "the cap must hold every node idle at its lowest: raise grid_watts or renewable_scale",
            ));
        }
        Ok(())
    }

    /// The cap's lowest value, milliwatts.
    pub fn lowest_milliwatts(&self) -> i64 {
        cap_milliwatts(self.grid + self.per_unit * self.signal.lowest())
    }

    /// The cap over virtual second `[n, n + 1)` in milliwatts, and the
    /// first second after `n` where it may change.
    pub fn step(&self, n: Time) -> (i64, Time) {
        let (value, until) = self.signal.lower_step(n);
        (cap_milliwatts(self.grid + self.per_unit * value), until)
    }

    /// The cap over virtual second `[t, t + 1)`, watts (what the cluster admits against).
    pub fn watts_at(&self, t: Time) -> f64 {
        self.step(t).0 as f64 / 1000.0
    }
}

/// What a node commits from its next known change on: the time and the
/// milliwatts it then drops by.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Drop {
    at: Time,
    by: i64,
}

/// The cluster's committed watts over the future under a cap series
/// (module docs): now's total, less each node's drop at its next known
/// change. Every drop is 0 or more, so the committed watts never rise
/// without a decision.
#[derive(Debug, Clone)]
pub struct CapLedger {
    cap: CapSeries,
    /// Sum of the drops by time.
    drops: BTreeMap<Time, i64>,
    /// Each node's pending drop, if any.
    node: Vec<Option<Drop>>,
    /// Bumped at every change of the drops (a cache key).
    version: u64,
    /// The last earliest-start search: (version, total, raise, length, answer).
    last_search: Option<(u64, i64, i64, Time, Option<Time>)>,
}

impl CapLedger {
    /// No drop pending on `nodes` nodes.
    pub fn new(cap: CapSeries, nodes: u32) -> CapLedger {
        CapLedger { cap, drops: BTreeMap::new(), node: vec![None; nodes as usize], version: 0, last_search: None }
    }

    /// The cap.
    pub fn cap(&self) -> &CapSeries {
        &self.cap
    }

    /// True if `node` has a pending drop.
    pub fn pending(&self, node: usize) -> bool {
        self.node[node].is_some()
    }

    /// Forgets `node`'s pending drop (its state changed).
    pub fn clear(&mut self, node: usize) {
        if let Some(d) = self.node[node].take() {
            self.version += 1;
            if let Some(sum) = self.drops.get_mut(&d.at) {
                *sum -= d.by;
                if *sum == 0 {
                    self.drops.remove(&d.at);
                }
            }
        }
    }

    /// `node`'s committed milliwatts drop by `by` (≥ 0) at `at`.
    pub fn falls_at(&mut self, node: usize, at: Time, by: i64) {
        self.clear(node);
        debug_assert!(by >= 0, "a drop never raises the committed watts");
        if by != 0 {
            self.version += 1;
            *self.drops.entry(at).or_insert(0) += by;
            self.node[node] = Some(Drop { at, by });
        }
    }

    /// When `node`'s pending drop falls, and by how much.
    pub fn drop_of(&self, node: usize) -> Option<(Time, i64)> {
        self.node[node].map(|d| (d.at, d.by))
    }

    /// Visits the stretches `[t, next)` from `from` on over which the
    /// committed milliwatts (`total` now) and the cap are constant, split at
    /// `split` too, as `visit(t, next, committed, cap)`, while it returns true.
    fn pieces(&self, total: i64, from: Time, split: Time, mut visit: impl FnMut(Time, Time, i64, i64) -> bool) {
        let mut committed = total - self.drops.range(..=from).map(|(_, d)| d).sum::<i64>();
        let mut later = self.drops.range(from.saturating_add(1)..).peekable();
        let mut t = from;
        loop {
            let (cap, cap_until) = self.cap.step(t);
            let mut next = cap_until;
            if t < split {
                next = next.min(split);
            }
            if let Some(&(&at, _)) = later.peek() {
                next = next.min(at);
            }
            let next = next.max(t + 1);
            if !visit(t, next, committed, cap) {
                return;
            }
            t = next;
            while let Some(&(&at, &by)) = later.peek() {
                if at > t {
                    break;
                }
                committed -= by;
                later.next();
            }
        }
    }

    /// The first stretch `[t, end)` from `from` on where the committed
    /// watts (`total` now) raised by `early` before `until` and by `late`
    /// from then on exceed the cap; `None` if they never do.
    ///
    /// The committed watts never rise and the cap repeats with its loop, so
    /// a scan of one loop ([`AlignedSignal::period_seconds`]) past the last
    /// change of the raise covers all time; before the invariant (the
    /// committed watts within the cap) a raise of 0 or less needs no scan.
    pub fn violation(&self, total: i64, from: Time, until: Time, early: i64, late: i64) -> Option<(Time, Time)> {
        let period = self.cap.period;
        let (early, limit) = if until >= from.saturating_add(period) {
            // Only the early raise is seen in the scan: the larger covers all time.
            (if late > 0 { early.max(late) } else { early }, from.saturating_add(period))
        } else if late > 0 {
            (early, until.max(from).saturating_add(period))
        } else {
            (early, until)
        };
        let mut found = None;
        self.pieces(total, from, until, |t, next, committed, cap| {
            if t >= limit {
                return false;
            }
            let raise = if t < until { early } else { late };
            if committed + raise > cap {
                found = Some((t, next));
                return false;
            }
            true
        });
        found
    }

    /// The earliest time after `now` from which committed watts `total`
    /// raised by `raise` for `length` seconds stay within the cap, with the
    /// drops now pending and no other decision; `None` if there is none
    /// within two loops of the cap after the last drop (then only an event,
    /// a job end or a switch, can make room). One forward scan.
    pub fn earliest(&mut self, total: i64, now: Time, raise: i64, length: Time) -> Option<Time> {
        if let Some((version, committed, r, l, answer)) = self.last_search
            && version == self.version
            && committed == total
            && r == raise
            && l == length
            && answer.is_none_or(|t| t > now)
        {
            return answer;
        }
        let period = self.cap.period;
        // A drop past any horizon (a job without a kill time) never falls.
        let last = self.drops.keys().rev().find(|&&t| t < Time::MAX / 8).copied().unwrap_or(now);
        let horizon = last.max(now).saturating_add(2 * period);
        let clear = length.clamp(1, period);
        let mut m = now + 1;
        let mut answer = None;
        self.pieces(total, m, Time::MAX, |t, next, committed, cap| {
            if t >= m.saturating_add(clear) {
                answer = Some(m);
                return false;
            }
            if t > horizon {
                return false;
            }
            if committed + raise > cap {
                m = next;
            }
            true
        });
        self.last_search = Some((self.version, total, raise, length, answer));
        answer
    }
}
