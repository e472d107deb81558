//! The energy section of a report: what each strategy's runs drew, next to
//! what they earned; and, for runs with node power states, what each energy
//! policy, idle timeout and power cap saved against the wait it cost.
//!
//! Contract: built from the `energy` rows of the loaded points' runs (summed
//! over a run's clusters); a store without metered runs (or from before the
//! `energy` table) gives no table and no figure. The power tables
//! ([`power_table`], [`equal_energy_table`]) and figures ([`power_figures`])
//! read the `energy_states` rows (schema v11) and each run's settings (see
//! [`PowerRow`]); a store without power states gives none of them. Numbers
//! are means over runs in run-id order and rows are sorted: the same store
//! gives the same bytes.

use slasim_core::units::{Unit, amount};
use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::Path;

use polars::prelude::*;

use crate::policy::energy::EnergyPolicyRef;
use crate::report::figures::{series_per_strategy, values};
use slasim_core::report::load::{Kind, frame_of, has_table};
use slasim_core::report::plots::{Figure, Panel, Series};
use slasim_core::report::render::number;
use slasim_core::report::render::slug;
use slasim_core::report::tables::{floats, strs};

const JOULES_PER_KWH: f64 = 3.6e6;

/// One row per metered run of `points`: trace, strategy, gain, kWh and the
/// shares of busy, idle and down node-seconds.
pub fn load_energy(path: &Path, points: &DataFrame) -> anyhow::Result<DataFrame> {
    let empty = || -> anyhow::Result<DataFrame> {
        Ok(df!(
            "trace" => Vec::<String>::new(),
            "strategy" => Vec::<String>::new(),
            "gain" => Vec::<f64>::new(),
            "kwh" => Vec::<f64>::new(),
            "busy" => Vec::<f64>::new(),
            "idle" => Vec::<f64>::new(),
            "down" => Vec::<f64>::new(),
        )?)
    };
    if !has_table(path, "energy")? {
        return empty();
    }
    let sql = "SELECT run_id, sum(joules), sum(idle_node_seconds), sum(busy_node_seconds), sum(down_node_seconds) \
               FROM energy GROUP BY run_id";
    let columns = [
        ("run_id", Kind::Int),
        ("joules", Kind::Real),
        ("idle", Kind::Real),
        ("busy", Kind::Real),
        ("down", Kind::Real),
    ];
    let metered = frame_of(path, sql, &[], &columns)?;
    let ids = metered.column("run_id")?.i64()?.clone();
    let (joules, idle, busy, down) =
        (floats(&metered, "joules")?, floats(&metered, "idle")?, floats(&metered, "busy")?, floats(&metered, "down")?);
    let by_run: HashMap<i64, usize> = ids.iter().enumerate().filter_map(|(i, id)| id.map(|id| (id, i))).collect();
    if by_run.is_empty() {
        return empty();
    }
    let run_ids = points.column("run_id")?.i64()?.clone();
    let (traces, strategies, gains) = (strs(points, "trace")?, strs(points, "strategy")?, floats(points, "gain")?);
    let mut rows: Vec<RunEnergy> = Vec::new();
    for (p, id) in run_ids.iter().enumerate() {
        let Some(&i) = id.and_then(|id| by_run.get(&id)) else { continue };
        let (j, s_idle, s_busy, s_down) =
            (joules[i].unwrap_or(0.0), idle[i].unwrap_or(0.0), busy[i].unwrap_or(0.0), down[i].unwrap_or(0.0));
        let total = (s_idle + s_busy + s_down).max(f64::MIN_POSITIVE);
        rows.push(RunEnergy {
            trace: traces[p].clone(),
            strategy: strategies[p].clone(),
            gain: gains[p].unwrap_or(0.0),
            kwh: j / JOULES_PER_KWH,
            busy: 100.0 * s_busy / total,
            idle: 100.0 * s_idle / total,
            down: 100.0 * s_down / total,
        });
    }
    Ok(df!(
        "trace" => rows.iter().map(|r| r.trace.clone()).collect::<Vec<_>>(),
        "strategy" => rows.iter().map(|r| r.strategy.clone()).collect::<Vec<_>>(),
        "gain" => rows.iter().map(|r| r.gain).collect::<Vec<_>>(),
        "kwh" => rows.iter().map(|r| r.kwh).collect::<Vec<_>>(),
        "busy" => rows.iter().map(|r| r.busy).collect::<Vec<_>>(),
        "idle" => rows.iter().map(|r| r.idle).collect::<Vec<_>>(),
        "down" => rows.iter().map(|r| r.down).collect::<Vec<_>>(),
    )?)
}

/// One metered run: shares in % of its node-time.
struct RunEnergy {
    trace: String,
    strategy: String,
    gain: f64,
    kwh: f64,
    busy: f64,
    idle: f64,
    down: f64,
}

/// Per trace and strategy: metered runs, mean energy (kWh), mean gain per
/// run, gain per kWh, and the mean shares of busy, idle and down node-time.
pub fn energy_table(runs: &DataFrame) -> PolarsResult<DataFrame> {
    runs.clone()
        .lazy()
        .group_by([col("trace"), col("strategy")])
        .agg([
            len().cast(DataType::Int64).alias("runs"),
            col("kwh").mean().alias("energy_kwh"),
            col("gain").mean(),
            (col("gain").sum() / col("kwh").sum()).alias("gain_per_kwh"),
            col("busy").mean().alias("busy_percent"),
            col("idle").mean().alias("idle_percent"),
            col("down").mean().alias("down_percent"),
        ])
        .sort(["trace", "strategy"], SortMultipleOptions::default())
        .collect()
}

/// Energy against gain, one point per metered run, one series per strategy.
pub fn energy_figures(runs: &DataFrame) -> anyhow::Result<Vec<Figure>> {
    let (traces, kwh, gain) = (strs(runs, "trace")?, values(runs, "kwh")?, values(runs, "gain")?);
    let mut names = traces.clone();
    names.sort();
    names.dedup();
    let mut figures = Vec::new();
    for trace in names {
        let series = series_per_strategy(runs, |i| traces[i] == trace, |i| (kwh[i], gain[i], gain[i], gain[i]), false)?;
        if series.is_empty() {
            continue;
        }
        figures.push(Figure {
            id: format!("energy-vs-gain-{}", slug(&trace)),
            caption: format!("{trace}: energy each metered run drew (kWh) against its gain (VC), per strategy"),
            panels: vec![Panel {
                title: format!("{trace}: energy vs gain"),
                x_label: "energy per run (kWh)".into(),
                y_label: "gain per run (VC)".into(),
                series,
                diagonal: false,
                ..Default::default()
            }],
        });
    }
    Ok(figures)
}

/// The runs of a store with node power states: what each energy policy,
/// idle timeout and power cap drew against the wait it cost.
///
/// Contract: built from the `energy_states` rows (schema v11) of the loaded
/// points' runs and each run's resolved settings (`runs.config`:
/// `[energy_policy] name, idle_timeout`, `[energy] cap_watts`,
/// `[energy.sleep]`); absent keys read as their defaults (`none`, 0, no
/// cap). A (trace, strategy, capacity) is reported when one of its runs has
/// a sleep state, a cap or a policy other than `none`; its metered runs of
/// policy `none` are then the baselines. Rows are sorted, and every number
/// is a mean over runs taken in run-id order, so the same store gives the
/// same bytes.
#[derive(Debug, Clone, PartialEq)]
pub struct PowerRow {
    /// Trace label.
    pub trace: String,
    /// Strategy.
    pub strategy: String,
    /// Nodes.
    pub capacity: i64,
    /// Energy policy name.
    pub policy: String,
    /// Seconds idle before a switch-off (0 for a policy that does not read it).
    pub idle_timeout: i64,
    /// The cluster's power cap, if any.
    pub cap: Option<f64>,
    /// Runs averaged.
    pub runs: usize,
    /// Mean of the runs' mean waits (s).
    pub wait: f64,
    /// Mean energy per run (kWh).
    pub kwh: f64,
    /// Mean switch-offs begun per run.
    pub switch_offs: f64,
    /// Mean gain per run (VC).
    pub gain: f64,
    /// Mean fees per run (VC).
    pub fees: f64,
}

/// What one run's settings say about its power model.
#[derive(Debug, Clone, PartialEq)]
struct PowerSettings {
    policy: String,
    idle_timeout: i64,
    cap: Option<f64>,
    power_states: bool,
}

/// The power settings of a run's canonical TOML (defaults where absent).
fn power_settings(config: &str) -> PowerSettings {
    let value: toml::Table = toml::from_str(config).unwrap_or_default();
    let number = |v: &toml::Value| v.as_float().or_else(|| v.as_integer().map(|i| i as f64));
    let policy = value.get("energy_policy").and_then(|p| p.as_table());
    let energy = value.get("energy").and_then(|e| e.as_table());
    let name = policy.and_then(|p| p.get("name")).and_then(|n| n.as_str()).unwrap_or("none").to_string();
    let idle_timeout = policy.and_then(|p| p.get("idle_timeout")).and_then(|t| t.as_integer()).unwrap_or(0);
    let cap = energy.and_then(|e| e.get("cap_watts")).and_then(number);
    let sleep = energy.is_some_and(|e| e.contains_key("sleep"));
    PowerSettings { power_states: sleep || cap.is_some() || name != "none", policy: name, idle_timeout, cap }
}

/// Policy order in tables: `none` (the baseline) first, then by name.
fn policy_rank(policy: &str) -> (bool, &str) {
    (policy != "none", policy)
}

fn cap_order(a: Option<f64>, b: Option<f64>) -> std::cmp::Ordering {
    match (a, b) {
        (None, None) => std::cmp::Ordering::Equal,
        (None, Some(_)) => std::cmp::Ordering::Less,
        (Some(_), None) => std::cmp::Ordering::Greater,
        (Some(a), Some(b)) => a.total_cmp(&b),
    }
}

fn same_cap(a: Option<f64>, b: Option<f64>) -> bool {
    cap_order(a, b) == std::cmp::Ordering::Equal
}

/// The power rows of `points`' runs: one per trace, strategy, capacity,
/// energy policy, idle timeout and cap, averaged over its runs (batteries,
/// and any other axis swept with them).
pub fn load_power(path: &Path, points: &DataFrame) -> anyhow::Result<Vec<PowerRow>> {
    if !has_table(path, "energy_states")? || !has_table(path, "runs")? {
        return Ok(Vec::new());
    }
    let sql = "SELECT s.run_id, r.config, sum(s.joules), \
               sum(CASE WHEN s.state = 'switching-off' THEN s.transitions ELSE 0 END) \
               FROM energy_states s JOIN runs r ON r.run_id = s.run_id GROUP BY s.run_id ORDER BY s.run_id";
    let columns = [("run_id", Kind::Int), ("config", Kind::Text), ("joules", Kind::Real), ("switch_offs", Kind::Real)];
    let metered = frame_of(path, sql, &[], &columns)?;
    let ids = metered.column("run_id")?.i64()?.clone();
    let configs = strs(&metered, "config")?;
    let (joules, offs) = (floats(&metered, "joules")?, floats(&metered, "switch_offs")?);
    let by_run: HashMap<i64, usize> = ids.iter().enumerate().filter_map(|(i, id)| id.map(|id| (id, i))).collect();
    if by_run.is_empty() {
        return Ok(Vec::new());
    }
    let run_ids = points.column("run_id")?.i64()?.clone();
    let (traces, strategies) = (strs(points, "trace")?, strs(points, "strategy")?);
    let (capacity, wait, gain, fees) =
        (floats(points, "capacity")?, floats(points, "wait_mean")?, floats(points, "gain")?, floats(points, "fees")?);
    // (key, settings, per-run values), in run-id order.
    type Key = (String, String, i64, String, i64, Option<f64>);
    let mut groups: Vec<(Key, Vec<[f64; 5]>)> = Vec::new();
    let mut modelled: Vec<(String, String, i64)> = Vec::new();
    let mut order: Vec<usize> = (0..points.height()).collect();
    order.sort_by_key(|&p| run_ids.get(p));
    for p in order {
        let Some(&i) = run_ids.get(p).and_then(|id| by_run.get(&id)) else { continue };
        let s = power_settings(&configs[i]);
        let family = (traces[p].clone(), strategies[p].clone(), capacity[p].unwrap_or(0.0) as i64);
        if s.power_states && !modelled.contains(&family) {
            modelled.push(family.clone());
        }
        let key: Key = (family.0, family.1, family.2, s.policy, s.idle_timeout, s.cap);
        let values = [
            wait[p].unwrap_or(0.0),
            joules[i].unwrap_or(0.0) / JOULES_PER_KWH,
            offs[i].unwrap_or(0.0),
            gain[p].unwrap_or(0.0),
            fees[p].unwrap_or(0.0),
        ];
        match groups.iter_mut().find(|(k, _)| {
            k.0 == key.0 && k.1 == key.1 && k.2 == key.2 && k.3 == key.3 && k.4 == key.4 && same_cap(k.5, key.5)
        }) {
            Some((_, v)) => v.push(values),
            None => groups.push((key, vec![values])),
        }
    }
    let mut rows: Vec<PowerRow> = groups
        .into_iter()
        .filter(|(k, _)| modelled.iter().any(|f| f.0 == k.0 && f.1 == k.1 && f.2 == k.2))
        .map(|((trace, strategy, capacity, policy, idle_timeout, cap), v)| {
            let mean = |j: usize| v.iter().map(|r| r[j]).sum::<f64>() / v.len() as f64;
            PowerRow {
                trace,
                strategy,
                capacity,
                policy,
                idle_timeout,
                cap,
                runs: v.len(),
                wait: mean(0),
                kwh: mean(1),
                switch_offs: mean(2),
                gain: mean(3),
                fees: mean(4),
            }
        })
        .collect();
    rows.sort_by(|a, b| {
        (&a.trace, &a.strategy, a.capacity)
            .cmp(&(&b.trace, &b.strategy, b.capacity))
            .then(cap_order(a.cap, b.cap))
            .then(policy_rank(&a.policy).cmp(&policy_rank(&b.policy)))
            .then(a.idle_timeout.cmp(&b.idle_timeout))
    });
    Ok(rows)
}

/// The baseline of `row`: the `none` row of its trace, strategy and
/// capacity with the same cap, else the uncapped one (never itself).
fn baseline<'a>(rows: &'a [PowerRow], row: &PowerRow) -> Option<&'a PowerRow> {
    let family = |r: &&PowerRow| {
        r.trace == row.trace && r.strategy == row.strategy && r.capacity == row.capacity && r.policy == "none"
    };
    let own = rows.iter().filter(family).find(|r| same_cap(r.cap, row.cap));
    let uncapped = rows.iter().filter(family).find(|r| r.cap.is_none());
    [own, uncapped].into_iter().flatten().find(|r| *r != row)
}

/// Per trace, strategy, capacity, cap, energy policy and idle timeout:
/// runs, mean wait (s), mean energy (kWh), the energy saved against the
/// `none` baseline (%), and mean switch-offs per run.
pub fn power_table(rows: &[PowerRow]) -> PolarsResult<DataFrame> {
    let saved: Vec<Option<f64>> = rows
        .iter()
        .map(|r| baseline(rows, r).filter(|b| b.kwh > 0.0).map(|b| 100.0 * (b.kwh - r.kwh) / b.kwh))
        .collect();
    df!(
        "trace" => rows.iter().map(|r| r.trace.clone()).collect::<Vec<_>>(),
        "strategy" => rows.iter().map(|r| r.strategy.clone()).collect::<Vec<_>>(),
        "capacity" => rows.iter().map(|r| r.capacity).collect::<Vec<_>>(),
        "cap_watts" => rows.iter().map(|r| r.cap).collect::<Vec<_>>(),
        "energy_policy" => rows.iter().map(|r| r.policy.clone()).collect::<Vec<_>>(),
        "idle_timeout_s" => rows.iter().map(|r| reads_timeout(&r.policy).then_some(r.idle_timeout)).collect::<Vec<_>>(),
        "runs" => rows.iter().map(|r| r.runs as i64).collect::<Vec<_>>(),
        "wait_mean_s" => rows.iter().map(|r| r.wait).collect::<Vec<_>>(),
        "energy_kwh" => rows.iter().map(|r| r.kwh).collect::<Vec<_>>(),
        "saved_percent" => saved,
        "switch_offs" => rows.iter().map(|r| r.switch_offs).collect::<Vec<_>>(),
    )
}

/// Does `policy` read the idle timeout? (An unknown name is shown with it.)
fn reads_timeout(policy: &str) -> bool {
    EnergyPolicyRef::named(policy).map_or(true, |p| p.reads_idle_timeout)
}

/// A policy's (energy, wait) curve: its Pareto front ([`pareto_front`]) of
/// the points by energy, equal energies merged first (mean wait, smallest
/// idle timeout).
fn curve(rows: &[&PowerRow]) -> Vec<(f64, f64, i64)> {
    pareto_front(merged(rows))
}

/// The points no other point beats on both energy and wait, by energy: the
/// best wait a policy reaches for its energy. A timeout whose run spends
/// more energy and waits longer than another's is not a trade-off anyone
/// would choose, so it does not bend the curve.
pub fn pareto_front(points: Vec<(f64, f64, i64)>) -> Vec<(f64, f64, i64)> {
    let mut front: Vec<(f64, f64, i64)> = Vec::new();
    for p in points {
        if front.last().is_none_or(|last| p.1 < last.1) {
            front.push(p);
        }
    }
    front
}

/// The points by energy, equal energies merged.
fn merged(rows: &[&PowerRow]) -> Vec<(f64, f64, i64)> {
    let mut points: Vec<(f64, f64, i64)> = rows.iter().map(|r| (r.kwh, r.wait, r.idle_timeout)).collect();
    points.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.2.cmp(&b.2)));
    let mut merged: Vec<(f64, f64, i64, usize)> = Vec::new();
    for (e, w, t) in points {
        match merged.last_mut() {
            Some(last) if close(last.0, e) => {
                last.1 += w;
                last.3 += 1;
            }
            _ => merged.push((e, w, t, 1)),
        }
    }
    merged.into_iter().map(|(e, w, t, n)| (e, w / n as f64, t)).collect()
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * a.abs().max(b.abs()).max(1.0)
}

/// The wait of a curve at energy `e`, piecewise-linear in energy; `None`
/// outside its range.
pub fn interpolate(curve: &[(f64, f64)], e: f64) -> Option<f64> {
    let (first, last) = (curve.first()?, curve.last()?);
    if (e < first.0 && !close(e, first.0)) || (e > last.0 && !close(e, last.0)) {
        return None;
    }
    if let Some(p) = curve.iter().find(|p| close(p.0, e)) {
        return Some(p.1);
    }
    let k = curve.windows(2).position(|w| w[0].0 <= e && e <= w[1].0)?;
    let (a, b) = (curve[k], curve[k + 1]);
    Some(a.1 + (b.1 - a.1) * (e - a.0) / (b.0 - a.0))
}

/// The two policies `power-equal-energy` compares.
const REACTIVE: &str = "idle-shutdown";
const PLANNED: &str = "planned-wakeup";

/// Per trace, strategy, capacity and cap with both `idle-shutdown` and
/// `planned-wakeup` runs: each policy's mean wait at equal energy,
/// interpolated along its Pareto front over the swept idle timeouts, at the
/// energies of idle-shutdown's points inside planned-wakeup's range (or the
/// ends of the overlap, if none is inside); "no overlap" when the energy
/// ranges do not meet.
pub fn equal_energy_table(rows: &[PowerRow]) -> PolarsResult<DataFrame> {
    let mut families: Vec<(&str, &str, i64, Option<f64>)> = Vec::new();
    for r in rows {
        let f = (r.trace.as_str(), r.strategy.as_str(), r.capacity, r.cap);
        if !families.iter().any(|g| g.0 == f.0 && g.1 == f.1 && g.2 == f.2 && same_cap(g.3, f.3)) {
            families.push(f);
        }
    }
    let mut out = EqualEnergyColumns::default();
    for (trace, strategy, capacity, cap) in families {
        let of = |policy: &str| -> Vec<&PowerRow> {
            rows.iter()
                .filter(|r| {
                    r.trace == trace
                        && r.strategy == strategy
                        && r.capacity == capacity
                        && same_cap(r.cap, cap)
                        && r.policy == policy
                })
                .collect()
        };
        let (reactive, planned) = (curve(&of(REACTIVE)), curve(&of(PLANNED)));
        let (Some(r0), Some(r1), Some(p0), Some(p1)) =
            (reactive.first(), reactive.last(), planned.first(), planned.last())
        else {
            continue;
        };
        let key = (trace.to_string(), strategy.to_string(), capacity, cap);
        let (lo, hi) = (r0.0.max(p0.0), r1.0.min(p1.0));
        if lo > hi && !close(lo, hi) {
            let note = format!(
                "no overlap: {REACTIVE} {}–{}, {PLANNED} {}–{}",
                number(r0.0),
                amount(number(r1.0), Unit::KilowattHours),
                number(p0.0),
                amount(number(p1.0), Unit::KilowattHours)
            );
            out.push(&key, None, None, None, None, note);
            continue;
        }
        let mut levels: Vec<(f64, Option<i64>)> = reactive
            .iter()
            .filter(|p| (p.0 >= lo || close(p.0, lo)) && (p.0 <= hi || close(p.0, hi)))
            .map(|p| (p.0, Some(p.2)))
            .collect();
        if levels.is_empty() {
            levels.push((lo, None));
            if !close(lo, hi) {
                levels.push((hi, None));
            }
        }
        let waits = |c: &[(f64, f64, i64)]| -> Vec<(f64, f64)> { c.iter().map(|p| (p.0, p.1)).collect() };
        let (rc, pc) = (waits(&reactive), waits(&planned));
        for (e, timeout) in levels {
            let (Some(rw), Some(pw)) = (interpolate(&rc, e), interpolate(&pc, e)) else { continue };
            out.push(&key, Some(e), timeout, Some(rw), Some(pw), "yes".into());
        }
    }
    let saved: Vec<Option<f64>> =
        out.reactive.iter().zip(&out.planned).map(|(r, p)| Some(r.as_ref()? - p.as_ref()?)).collect();
    let saved_percent: Vec<Option<f64>> = out
        .reactive
        .iter()
        .zip(&saved)
        .map(|(r, s)| r.filter(|r| *r > 0.0).and_then(|r| s.map(|s| 100.0 * s / r)))
        .collect();
    df!(
        "trace" => out.trace,
        "strategy" => out.strategy,
        "capacity" => out.capacity,
        "cap_watts" => out.cap,
        "energy_kwh" => out.energy,
        "idle_timeout_s" => out.timeout,
        "idle_shutdown_wait_s" => out.reactive,
        "planned_wakeup_wait_s" => out.planned,
        "wait_saved_s" => saved,
        "wait_saved_percent" => saved_percent,
        "overlap" => out.overlap,
    )
}

/// The columns of `power-equal-energy` as they are built.
#[derive(Default)]
struct EqualEnergyColumns {
    trace: Vec<String>,
    strategy: Vec<String>,
    capacity: Vec<i64>,
    cap: Vec<Option<f64>>,
    energy: Vec<Option<f64>>,
    timeout: Vec<Option<i64>>,
    reactive: Vec<Option<f64>>,
    planned: Vec<Option<f64>>,
    overlap: Vec<String>,
}

impl EqualEnergyColumns {
    fn push(
        &mut self,
        key: &(String, String, i64, Option<f64>),
        energy: Option<f64>,
        timeout: Option<i64>,
        reactive: Option<f64>,
        planned: Option<f64>,
        overlap: String,
    ) {
        self.trace.push(key.0.clone());
        self.strategy.push(key.1.clone());
        self.capacity.push(key.2);
        self.cap.push(key.3);
        self.energy.push(energy);
        self.timeout.push(timeout);
        self.reactive.push(reactive);
        self.planned.push(planned);
        self.overlap.push(overlap);
    }
}

/// The power figures: per trace, energy against mean wait (a Pareto plot),
/// one curve per strategy and energy policy (and capacity or cap, where the
/// trace has several) over the swept idle timeouts or caps; and energy
/// against gain when the runs earned fees.
pub fn power_figures(rows: &[PowerRow]) -> Vec<Figure> {
    let mut traces: Vec<&str> = rows.iter().map(|r| r.trace.as_str()).collect();
    traces.dedup();
    let mut figures = Vec::new();
    for trace in traces {
        let mine: Vec<&PowerRow> = rows.iter().filter(|r| r.trace == trace).collect();
        let several = |f: &dyn Fn(&PowerRow) -> String| {
            let mut v: Vec<String> = mine.iter().map(|r| f(r)).collect();
            v.sort();
            v.dedup();
            v.len() > 1
        };
        let by_capacity = several(&|r| r.capacity.to_string());
        let timeouts = several(&|r| r.idle_timeout.to_string());
        let by_cap = timeouts && several(&|r| format!("{:?}", r.cap));
        let label = |r: &PowerRow| {
            let mut s = format!("{} · {}", r.strategy, r.policy);
            if by_capacity {
                let _ = write!(s, " · {} nodes", r.capacity);
            }
            if by_cap {
                match r.cap {
                    Some(c) => {
                        let _ = write!(s, " · cap {}", amount(number(c), Unit::Watts));
                    }
                    None => s.push_str(" · no cap"),
                }
            }
            s
        };
        let mut names: Vec<String> = Vec::new();
        for r in &mine {
            let name = label(r);
            if !names.contains(&name) {
                names.push(name);
            }
        }
        let series = |y: fn(&PowerRow) -> f64| -> Vec<Series> {
            names
                .iter()
                .enumerate()
                .map(|(k, name)| {
                    let mut points: Vec<(f64, f64, f64, f64)> =
                        mine.iter().filter(|r| label(r) == *name).map(|r| (r.kwh, y(r), y(r), y(r))).collect();
                    points.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.total_cmp(&b.1)));
                    Series {
                        name: name.clone(),
                        points,
                        band: false,
                        error_bars: false,
                        line: true,
                        colour: k,
                        ..Default::default()
                    }
                })
                .collect()
        };
        figures.push(Figure {
            id: format!("power-energy-vs-wait-{}", slug(trace)),
            caption: format!(
                "{trace}: mean energy per run (kWh) against mean wait (s), one curve per strategy and energy \
                 policy over the swept idle timeouts (or power caps); lower left is better"
            ),
            panels: vec![Panel {
                title: format!("{trace}: energy vs wait"),
                x_label: "energy per run (kWh)".into(),
                y_label: "mean wait (s)".into(),
                series: series(|r| r.wait),
                diagonal: false,
                ..Default::default()
            }],
        });
        if mine.iter().any(|r| r.fees != 0.0) {
            figures.push(Figure {
                id: format!("power-energy-vs-gain-{}", slug(trace)),
                caption: format!(
                    "{trace}: mean energy per run (kWh) against mean gain (VC), one curve per strategy and energy \
                     policy over the swept idle timeouts (or power caps)"
                ),
                panels: vec![Panel {
                    title: format!("{trace}: energy vs gain"),
                    x_label: "energy per run (kWh)".into(),
                    y_label: "gain per run (VC)".into(),
                    series: series(|r| r.gain),
                    diagonal: false,
                    ..Default::default()
                }],
            });
        }
    }
    figures
}
