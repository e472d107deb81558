//! Provisioning report tables: advertised-slot statistics, MOGA vs best
//! effort per point and α, and adaptive pricing, as Markdown.
//!
//! Reference: `provisioning-dissertation-spec.md` §8 (Ch. 3 Figs 4–8, Ch. 4
//! Figs 13–19: the quantities the thesis plots).
//!
//! Contract: read-only SQL on a store with provisioning points; means come
//! with 95 % Student-t intervals over submissions (or over samples for slot
//! counts). Ratios are per-submission ratios, then averaged.

use slasim_core::units::{Unit, amount};
use std::fmt::Write as _;
use std::path::Path;

use anyhow::Context as _;
use polars::prelude::*;

use slasim_core::experiment::registry::Registry;
use slasim_core::report::load::Filter;
use slasim_core::report::plots::{Figure, Panel, Series};
use slasim_core::report::section::{ReportSection, Section};
use slasim_core::report::summary::{MeanCi, mean_ci};
use slasim_core::report::tables::Table;
use slasim_core::store::{StoreError, query};

/// What the provisioning dissertation states of its Ch. 3 slot sets
/// (`provisioning-dissertation-spec.md` §8: Fig 4, "the average number of
/// advertised slots for the CTC cluster was 27 whereas for the SDSC cluster it
/// was 14", and Fig 6, the clusters' utilisation of 63 % and 70 %), both with
/// exact run time estimates: (PWA log, mean advertised slots, utilisation %).
const CH3_SLOTS: [(&str, f64, f64); 2] = [("CTC-SP2", 27.0, 63.0), ("SDSC-SP2", 14.0, 70.0)];

/// The dissertation's Ch. 3 mean advertised slots and utilisation (%) for a
/// trace label, with exact estimates; `None` for other traces or logged
/// estimates (Fig 8 states no count).
pub fn ch3_slots(label: &str, exact: bool) -> Option<(f64, f64)> {
    let upper = label.to_ascii_uppercase();
    CH3_SLOTS.iter().find(|(log, _, _)| exact && upper.starts_with(log)).map(|&(_, slots, util)| (slots, util))
}

/// "mean ± half-width", or "–" without values.
fn mean_and_half(m: MeanCi, digits: usize) -> String {
    if m.mean.is_finite() { format!("{:.*} ± {:.*}", digits, m.mean, digits, m.half) } else { "–".to_string() }
}

fn num(s: &str) -> Option<f64> {
    s.parse().ok()
}

/// One site of a slot-statistics point (Ch. 3).
#[derive(Debug, Clone, PartialEq)]
struct SlotRow {
    trace: String,
    capacity: i64,
    exact: bool,
    utilisation: f64,
    /// Advertised slots at each background arrival.
    at_arrivals: MeanCi,
    /// Advertised slots per hourly observation.
    hourly: f64,
    /// Share of advertised slots with 1–10 processors.
    small: f64,
    start_h: f64,
    duration_h: f64,
    tasks: MeanCi,
    /// Pearson correlation of slots and tasks in the system over the arrivals (Fig 5).
    correlation: f64,
}

/// Pearson's correlation of paired samples; NaN when either is constant.
fn correlation(xs: &[f64], ys: &[f64]) -> f64 {
    let n = xs.len().min(ys.len()) as f64;
    let (mx, my) = (xs.iter().sum::<f64>() / n, ys.iter().sum::<f64>() / n);
    let (mut sxy, mut sxx, mut syy) = (0.0, 0.0, 0.0);
    for (x, y) in xs.iter().zip(ys) {
        sxy += (x - mx) * (y - my);
        sxx += (x - mx) * (x - mx);
        syy += (y - my) * (y - my);
    }
    sxy / (sxx * syy).sqrt()
}

fn slot_rows(db: &Path) -> Result<Vec<SlotRow>, StoreError> {
    let points = query(
        db,
        "SELECT p.point_id, s.trace, s.capacity, p.exact_estimates, s.achieved FROM provision_points p \
         JOIN provision_sites s USING (point_id) WHERE p.kind = 'slots' ORDER BY s.trace, p.exact_estimates DESC",
    )?;
    let mut out = Vec::new();
    for row in &points.rows {
        let id = &row[0];
        let samples = query(db, &format!("SELECT slots, tasks FROM slot_samples WHERE point_id = {id} ORDER BY time"))?;
        let slots: Vec<f64> = samples.rows.iter().filter_map(|r| num(&r[0])).collect();
        let tasks: Vec<f64> = samples.rows.iter().filter_map(|r| num(&r[1])).collect();
        let hourly = query(
            db,
            &format!(
                "SELECT count(*) * 1.0 / count(DISTINCT time), avg(procs <= 10), avg(start) / 3600.0, \
                 avg(duration) / 3600.0 FROM advertised_slots WHERE point_id = {id}"
            ),
        )?;
        let h = hourly.rows.first().cloned().unwrap_or_default();
        let f = |i: usize| h.get(i).and_then(|v| num(v)).unwrap_or(f64::NAN);
        out.push(SlotRow {
            trace: slasim_core::report::load::trace_label(&row[1]),
            capacity: row[2].parse().unwrap_or_default(),
            exact: row[3] == "1",
            utilisation: num(&row[4]).map_or(f64::NAN, |u| 100.0 * u),
            at_arrivals: mean_ci(&slots).unwrap_or_else(missing),
            hourly: f(0),
            small: 100.0 * f(1),
            start_h: f(2),
            duration_h: f(3),
            tasks: mean_ci(&tasks).unwrap_or_else(missing),
            correlation: correlation(&slots, &tasks),
        });
    }
    Ok(out)
}

/// The slot-statistics table (Ch. 3) beside what the dissertation states.
fn slots_table(rows: &[SlotRow]) -> PolarsResult<Table> {
    let stated: Vec<Option<(f64, f64)>> = rows.iter().map(|r| ch3_slots(&r.trace, r.exact)).collect();
    let stated_column = |name: &str, pick: fn((f64, f64)) -> f64| {
        Column::new(name.into(), stated.iter().map(|s| s.map(pick)).collect::<Vec<Option<f64>>>())
    };
    let columns = vec![
        text("trace", rows.iter().map(|r| r.trace.clone())),
        Column::new("processors".into(), rows.iter().map(|r| r.capacity).collect::<Vec<i64>>()),
        text("estimates", rows.iter().map(|r| if r.exact { "exact" } else { "logged" }.to_string())),
        column("utilisation_pct", rows.iter().map(|r| r.utilisation)),
        stated_column("dissertation_utilisation_pct", |s| s.1),
        column("slots_at_arrivals", rows.iter().map(|r| r.at_arrivals.mean)),
        column("slots_at_arrivals_ci", rows.iter().map(|r| r.at_arrivals.half)),
        column("slots_hourly", rows.iter().map(|r| r.hourly)),
        stated_column("dissertation_slots", |s| s.0),
        column("slots_1_10_procs_pct", rows.iter().map(|r| r.small)),
        column("mean_start_h", rows.iter().map(|r| r.start_h)),
        column("mean_duration_h", rows.iter().map(|r| r.duration_h)),
        column("tasks_in_system", rows.iter().map(|r| r.tasks.mean)),
        column("corr_slots_tasks", rows.iter().map(|r| r.correlation)),
    ];
    Ok(Table {
        id: "slots".into(),
        title: "Advertised slots (Ch. 3) beside the dissertation".into(),
        note: "Per slot-statistics point (configs/provisioning-ch3.toml): the site's trace, processors and run \
               time estimates; the utilisation achieved; the mean number of slots the conservative-backfilling \
               cluster advertises at each job arrival, with its 95 % half-width, and at hourly observations; \
               the share of advertised slots with 1–10 processors (Fig 7); the slots' mean start after the \
               observation and mean duration (h; Figs 6, 8); the mean number of tasks in the system and its \
               correlation with the slot count (Fig 5). The dissertation states a mean of 27 slots for CTC and \
               14 for SDSC at 63 % and 70 % utilisation, with exact estimates (Figs 4, 6); it does not say when \
               it sampled."
            .into(),
        df: DataFrame::new_infer_height(columns)?,
    })
}

/// The provisioning-vs-best-effort table (Ch. 4 and 7): one row per point and α.
pub fn runs_table(db: &Path) -> Result<String, StoreError> {
    let mut out = String::from(
        "| group | method | sites | workflow | tasks | procs/task | load (target→achieved) | α | n | makespan (h) \
         | BE makespan (h) | makespan / BE | cost / BE | archive |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n",
    );
    for r in run_rows(db)? {
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} | {:.1} | {} | {} | {} | {} | {} | {} | {} | {} |",
            r.group,
            r.method,
            r.sites,
            r.workflow,
            r.tasks,
            r.procs,
            r.load_achieved,
            r.alpha,
            r.n,
            mean_and_half(r.makespan, 2),
            mean_and_half(r.be_makespan, 2),
            mean_and_half(r.makespan_ratio, 3),
            mean_and_half(r.cost_ratio, 3),
            mean_and_half(r.archive, 1),
        );
    }
    Ok(out)
}

/// The adaptive-pricing table (Ch. 5): one row per point.
pub fn pricing_table(db: &Path) -> Result<String, StoreError> {
    let mut out = String::from(
        "| group | trace | estimates | pricing | share (%) | load | utilisation | α | seed | requests | price f (SU) \
         | reserved wait (h) | BE wait (h) |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|\n",
    );
    let or_dash = |v: f64, digits: usize| if v.is_finite() { format!("{v:.digits$}") } else { "–".to_string() };
    for r in price_rows(db)? {
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            r.group,
            r.trace,
            if r.exact { "exact" } else { "logged" },
            if r.easy { "EASY" } else { "conservative" },
            r.share,
            r.load,
            if r.utilisation.is_finite() {
                amount(format_args!("{:.1}", r.utilisation), Unit::Percent)
            } else {
                "–".to_string()
            },
            r.alpha,
            r.seed,
            r.requests,
            mean_and_half(r.f, 2),
            mean_and_half(r.reserved_wait, 2),
            or_dash(r.be_wait, 2),
        );
    }
    Ok(out)
}

/// One provisioned point and α of the store, aggregated over submissions.
#[derive(Debug, Clone, PartialEq)]
struct RunRow {
    group: String,
    method: String,
    traces: String,
    sites: f64,
    tasks: f64,
    procs: f64,
    load: String,
    workflow: String,
    load_achieved: String,
    alpha: f64,
    n: f64,
    makespan: MeanCi,
    be_makespan: MeanCi,
    makespan_ratio: MeanCi,
    cost_ratio: MeanCi,
    f: MeanCi,
    archive: MeanCi,
}

/// One pricing point of the store.
#[derive(Debug, Clone, PartialEq)]
struct PriceRow {
    group: String,
    trace: String,
    exact: bool,
    easy: bool,
    share: f64,
    load: String,
    utilisation: f64,
    alpha: f64,
    seed: String,
    requests: f64,
    f: MeanCi,
    reserved_wait: MeanCi,
    be_wait: f64,
    charged: f64,
    suffered: f64,
    suffered_queueing: f64,
    /// Mean f of the bought slots under each projection on the state each was
    /// sold on (SU; NaN before schema v8).
    f_conservative: f64,
    f_easy: f64,
}

fn missing() -> MeanCi {
    MeanCi { mean: f64::NAN, half: f64::NAN, n: 0 }
}

/// The sweeps (the config's groups) that named a point: a point belongs to
/// each, and shows in each group's rows. Points of stores from before schema
/// 9 name their group in their settings text instead (see [`setting`]).
const SWEEPS: &str = "LEFT JOIN (SELECT DISTINCT run_id, sweep FROM experiment_points) e ON e.run_id = p.point_id";

/// `column` of `provision_points` as SQL, or NULL in a store from before it.
fn point_column(db: &Path, column: &str) -> Result<String, StoreError> {
    let sql = format!("SELECT 1 FROM pragma_table_info('provision_points') WHERE name = '{column}'");
    Ok(if query(db, &sql)?.rows.is_empty() { "NULL".to_string() } else { format!("p.{column}") })
}

/// The value of `key: ` in the settings text of a point stored before
/// schema 9 (a debug rendering; later stores have columns for it).
fn setting(config: &str, key: &str) -> String {
    config
        .split(&format!("{key}: "))
        .nth(1)
        .map_or(String::new(), |v| v.split([',', ' ', '}']).next().unwrap_or("").trim_matches('"').to_string())
}

fn run_rows(db: &Path) -> Result<Vec<RunRow>, StoreError> {
    let points = query(
        db,
        &format!(
            "SELECT p.point_id, p.config, coalesce(p.method, 'moga'), p.traces, p.sites, p.workflow_tasks, p.task_processors, \
         (SELECT group_concat(CASE WHEN s.target_load IS NULL THEN 'trace' ELSE printf('%.2f', s.target_load) END, ' ') \
          FROM provision_sites s WHERE s.point_id = p.point_id), p.workflow, \
         (SELECT group_concat(CASE WHEN s.target_load IS NULL THEN 'trace' ELSE printf('%.2f', s.target_load) END || '→' || \
          printf('%.2f', s.achieved), ' ') FROM provision_sites s WHERE s.point_id = p.point_id), e.sweep \
         FROM provision_points p {SWEEPS} WHERE p.kind = 'run' ORDER BY p.config, e.sweep"
        ),
    )?;
    let mut out = Vec::new();
    for row in &points.rows {
        let id = &row[0];
        let rows = query(
            db,
            &format!(
                "SELECT alpha, makespan, be_makespan, makespan_ratio, cost_ratio, f, archive_size \
                 FROM provision_submissions WHERE point_id = {id} ORDER BY alpha, submission"
            ),
        )?;
        let mut alphas: Vec<String> = rows.rows.iter().map(|r| r[0].clone()).collect();
        alphas.dedup();
        for alpha in alphas {
            let of = |col: usize, scale: f64| -> MeanCi {
                let v: Vec<f64> = rows
                    .rows
                    .iter()
                    .filter(|r| r[0] == alpha)
                    .filter_map(|r| num(&r[col]))
                    .map(|v| v / scale)
                    .collect();
                mean_ci(&v).unwrap_or_else(missing)
            };
            let traces: Vec<&str> = row[3].split(',').map(|t| t.split('-').next().unwrap_or(t)).collect();
            out.push(RunRow {
                group: if row[10].is_empty() { setting(&row[1], "group") } else { row[10].clone() },
                method: row[2].clone(),
                traces: traces.join("+"),
                sites: num(&row[4]).unwrap_or(f64::NAN),
                tasks: num(&row[5]).unwrap_or(f64::NAN),
                procs: num(&row[6]).unwrap_or(f64::NAN),
                load: row[7].clone(),
                workflow: row[8].rsplit('/').next().unwrap_or(&row[8]).to_string(),
                load_achieved: row[9].clone(),
                alpha: num(&alpha).unwrap_or(f64::NAN),
                n: rows.rows.iter().filter(|r| r[0] == alpha).count() as f64,
                makespan: of(1, 3600.0),
                be_makespan: of(2, 3600.0),
                makespan_ratio: of(3, 1.0),
                cost_ratio: of(4, 1.0),
                f: of(5, 3600.0),
                archive: of(6, 1.0),
            });
        }
    }
    Ok(out)
}

fn price_rows(db: &Path) -> Result<Vec<PriceRow>, StoreError> {
    let has_harm = slasim_core::store::has_table(db, "pricing_harm")?;
    let harm = if has_harm {
        "(SELECT charged FROM pricing_harm h WHERE h.point_id = p.point_id), \
         (SELECT suffered FROM pricing_harm h WHERE h.point_id = p.point_id), \
         (SELECT suffered_vs_queueing FROM pricing_harm h WHERE h.point_id = p.point_id)"
    } else {
        "NULL, NULL, NULL"
    };
    // Stores before v8 have no per-policy audit of the bought slots.
    let has_audit =
        !query(db, "SELECT 1 FROM pragma_table_info('priced_reservations') WHERE name = 'f_easy'")?.rows.is_empty();
    let audit = if has_audit { "f_conservative, f_easy" } else { "NULL, NULL" };
    let (share, alpha, policy) =
        (point_column(db, "share")?, point_column(db, "alpha")?, point_column(db, "pricing_policy")?);
    let points = query(
        db,
        &format!(
            "SELECT p.point_id, p.config, s.trace, p.exact_estimates, CASE WHEN s.target_load IS NULL THEN 'trace' \
             ELSE printf('%.2f', s.target_load) END, s.achieved, s.be_wait, {harm}, e.sweep, {share}, {alpha}, \
             {policy}, p.seed FROM provision_points p \
             JOIN provision_sites s ON s.point_id = p.point_id {SWEEPS} WHERE p.kind = 'price' ORDER BY p.config, e.sweep"
        ),
    )?;
    let mut out = Vec::new();
    for row in &points.rows {
        let id = &row[0];
        let rows = query(
            db,
            &format!("SELECT alpha, f, wait, {audit}, bought FROM priced_reservations WHERE point_id = {id}"),
        )?;
        let bought_mean = |i: usize| -> f64 {
            let v: Vec<f64> = rows.rows.iter().filter(|r| r[5] == "1").filter_map(|r| num(&r[i])).collect();
            if v.is_empty() { f64::NAN } else { v.iter().sum::<f64>() / v.len() as f64 / 3600.0 }
        };
        let col = |i: usize| -> MeanCi {
            let v: Vec<f64> = rows.rows.iter().filter_map(|r| num(&r[i])).map(|v| v / 3600.0).collect();
            mean_ci(&v).unwrap_or_else(missing)
        };
        out.push(PriceRow {
            group: if row[10].is_empty() { setting(&row[1], "group") } else { row[10].clone() },
            trace: row[2].split('-').next().unwrap_or(&row[2]).to_string(),
            exact: row[3] == "1",
            // Stores from before schema 9 keep these in the settings text.
            easy: if row[13].is_empty() { setting(&row[1], "easy") == "true" } else { row[13] == "easy" },
            share: num(&row[11]).or_else(|| num(&setting(&row[1], "share"))).unwrap_or(f64::NAN),
            load: row[4].clone(),
            utilisation: num(&row[5]).map_or(f64::NAN, |u| 100.0 * u),
            alpha: num(&row[12]).or_else(|| num(&setting(&row[1], "alpha"))).unwrap_or(f64::NAN),
            seed: row[14].clone(),
            requests: rows.rows.len() as f64,
            f: col(1),
            reserved_wait: col(2),
            be_wait: num(&row[6]).map_or(f64::NAN, |w| w / 3600.0),
            charged: num(&row[7]).map_or(f64::NAN, |v| v / 3600.0),
            suffered: num(&row[8]).map_or(f64::NAN, |v| v / 3600.0),
            suffered_queueing: num(&row[9]).map_or(f64::NAN, |v| v / 3600.0),
            f_conservative: bought_mean(3),
            f_easy: bought_mean(4),
        });
    }
    Ok(out)
}

/// A float column.
fn column(name: &str, values: impl Iterator<Item = f64>) -> Column {
    Column::new(name.into(), values.map(|v| v.is_finite().then_some(v)).collect::<Vec<Option<f64>>>())
}

fn text(name: &str, values: impl Iterator<Item = String>) -> Column {
    Column::new(name.into(), values.collect::<Vec<String>>())
}

/// The Ch. 7 values the dissertation states (§8): (figure, trace, procs/task,
/// α, makespan / BE, cost / BE).
const CH7_STATED: [(&str, &str, f64, f64, f64, f64); 2] =
    [("Fig 54", "CTC", 3.0, 0.0, 0.85, 2.2), ("Fig 54", "CTC", 3.0, 1.0, 0.89, 1.0)];

/// The provisioning and pricing section of a report. It reads every
/// provisioning and pricing point of the store: the report's filters
/// (experiment, trace) select single-cluster, Grid and Slurm points only.
pub struct ProvisionSection;

impl ReportSection for ProvisionSection {
    fn name(&self) -> &'static str {
        "provision"
    }

    fn build(&self, _registry: &Registry, db: &Path, _filter: &Filter) -> anyhow::Result<Option<Section>> {
        provision_report(db).context("building the provisioning tables")
    }
}

/// The provisioning tables, figures and point count of a store for the HTML
/// report; None if the store has no provisioning or pricing points.
pub fn provision_report(db: &Path) -> anyhow::Result<Option<Section>> {
    if !slasim_core::store::has_table(db, "provision_points")? {
        return Ok(None);
    }
    let slots = slot_rows(db)?;
    let runs = run_rows(db)?;
    let prices = price_rows(db)?;
    if slots.is_empty() && runs.is_empty() && prices.is_empty() {
        return Ok(None);
    }
    let mut tables = Vec::new();
    let mut figures = Vec::new();
    if !slots.is_empty() {
        tables.push(slots_table(&slots)?);
    }
    if !runs.is_empty() {
        let mci = |name: &str, f: fn(&RunRow) -> MeanCi| {
            [
                column(name, runs.iter().map(|r| f(r).mean)),
                column(&format!("{name}_ci"), runs.iter().map(|r| f(r).half)),
            ]
        };
        let mut columns = vec![
            text("group", runs.iter().map(|r| r.group.clone())),
            text("method", runs.iter().map(|r| r.method.clone())),
            text("traces", runs.iter().map(|r| r.traces.clone())),
            column("sites", runs.iter().map(|r| r.sites)),
            column("tasks", runs.iter().map(|r| r.tasks)),
            column("procs_per_task", runs.iter().map(|r| r.procs)),
            text("target_load", runs.iter().map(|r| r.load.clone())),
            column("alpha", runs.iter().map(|r| r.alpha)),
            column("submissions", runs.iter().map(|r| r.n)),
        ];
        columns.extend(mci("makespan_h", |r| r.makespan));
        columns.extend(mci("be_makespan_h", |r| r.be_makespan));
        columns.extend(mci("makespan_ratio", |r| r.makespan_ratio));
        columns.extend(mci("cost_ratio", |r| r.cost_ratio));
        columns.extend(mci("f_su", |r| r.f));
        tables.push(Table {
            id: "provisioning".into(),
            title: "Workflow provisioning vs best effort (Ch. 4 MOGA, Ch. 7 greedy with adaptive pricing)".into(),
            note: "Per point and trade-off factor α: the method (moga: advertised slots; greedy: Fig. 51 with \
                   priced earliest-start queries), sites, workflow size, mean processors per task, target load, \
                   submissions, and means with 95 % half-widths over submissions of the provisioned and \
                   best-effort makespans (h), the per-submission ratios provisioned / best effort of makespan and \
                   allocation cost, and (greedy) the externality f paid (SU = processor-hours)."
                .into(),
            df: DataFrame::new_infer_height(columns)?,
        });
        let mut stated = (Vec::new(), Vec::new(), Vec::new(), Vec::new(), Vec::new(), Vec::new());
        for (fig, trace, procs, alpha, mk, cost) in CH7_STATED {
            let ours = runs.iter().find(|r| {
                r.method == "greedy" && r.traces == trace && (r.procs - procs).abs() < 0.5 && r.alpha == alpha
            });
            for (quantity, thesis, got) in
                [("makespan / BE", mk, ours.map(|r| r.makespan_ratio)), ("cost / BE", cost, ours.map(|r| r.cost_ratio))]
            {
                stated.0.push(format!("{fig} {trace}, {procs} procs/task, α = {alpha}"));
                stated.1.push(quantity.to_string());
                stated.2.push(Some(thesis));
                stated.3.push(got.map(|m| m.mean).filter(|v| v.is_finite()));
                stated.4.push(got.map(|m| m.half).filter(|v| v.is_finite()));
                stated.5.push(
                    got.map(|m| amount(format_args!("{:+.0}", 100.0 * (m.mean / thesis - 1.0)), Unit::Percent))
                        .unwrap_or_default(),
                );
            }
        }
        tables.push(Table {
            id: "provisioning_vs_dissertation".into(),
            title: "Greedy provisioning beside the dissertation's stated Ch. 7 values".into(),
            note: "The ratios the dissertation states in its text for CTC-SP2 (§8 Ch. 7), ours with 95 % \
                   half-widths over submissions (needs the fig54-ctc group of configs/provisioning-ch7.toml), \
                   and the relative difference."
                .into(),
            df: DataFrame::new_infer_height(vec![
                Column::new("setting".into(), stated.0),
                Column::new("quantity".into(), stated.1),
                Column::new("dissertation".into(), stated.2),
                Column::new("ours".into(), stated.3),
                Column::new("ours_ci".into(), stated.4),
                Column::new("difference".into(), stated.5),
            ])?,
        });
        figures.extend(alpha_figures(&runs));
    }
    if !prices.is_empty() {
        let p = &prices;
        let columns = vec![
            text("group", p.iter().map(|r| r.group.clone())),
            text("trace", p.iter().map(|r| r.trace.clone())),
            text("estimates", p.iter().map(|r| if r.exact { "exact" } else { "logged" }.to_string())),
            text("pricing", p.iter().map(|r| if r.easy { "EASY" } else { "conservative" }.to_string())),
            column("share_pct", p.iter().map(|r| r.share)),
            text("target_load", p.iter().map(|r| r.load.clone())),
            column("utilisation_pct", p.iter().map(|r| r.utilisation)),
            column("alpha", p.iter().map(|r| r.alpha)),
            column("requests", p.iter().map(|r| r.requests)),
            column("price_f_su", p.iter().map(|r| r.f.mean)),
            column("price_f_su_ci", p.iter().map(|r| r.f.half)),
            column("reserved_wait_h", p.iter().map(|r| r.reserved_wait.mean)),
            column("reserved_wait_h_ci", p.iter().map(|r| r.reserved_wait.half)),
            column("be_wait_h", p.iter().map(|r| r.be_wait)),
            column("charged_su", p.iter().map(|r| r.charged)),
            column("suffered_su", p.iter().map(|r| r.suffered)),
            column("suffered_over_charged", p.iter().map(|r| r.suffered / r.charged)),
            column("suffered_vs_queueing_su", p.iter().map(|r| r.suffered_queueing)),
            column("vs_queueing_over_charged", p.iter().map(|r| r.suffered_queueing / r.charged)),
        ];
        tables.push(Table {
            id: "pricing".into(),
            title: "Adaptive pricing (Ch. 5) and the provider's view".into(),
            note: "Per pricing point: trace, estimates, the policy prices are computed with, the share of jobs \
                   that buy reservations, load, utilisation achieved, α, requests; the mean externality f paid \
                   per reservation (SU) and the reserved jobs' wait (h) with 95 % half-widths; the best-effort \
                   jobs' mean wait (h). Provider's view: Σ f charged against the delay the best-effort jobs \
                   actually suffered (Σ processors × extra wait against the same run without the reservations, \
                   SU), and their ratio (1: f predicts the harm; above 1: f under-charges); then the same \
                   against the run where the would-be buyers queue as best effort instead (the harm of reserving \
                   rather than queueing; negative: reserving helped the others)."
                .into(),
            df: DataFrame::new_infer_height(columns)?,
        });
        tables.push(pricing_over_seeds(p)?);
        figures.extend(pricing_figures(p));
    }
    let points = query(db, "SELECT count(*) FROM provision_points WHERE kind IN ('slots', 'run', 'price')")?;
    let count = points.rows.first().and_then(|r| r.first()).and_then(|v| v.parse().ok()).unwrap_or(0);
    let first = query(db, "SELECT min(point_id) FROM provision_points WHERE kind = 'run'")?;
    let gantt = first.rows.iter().flatten().filter_map(|v| v.parse::<i64>().ok()).collect();
    Ok(Some(Section { tables, figures, points: count, gantt, omitted: Vec::new() }))
}

type RunKey = (String, String, String, u64, u64, u64);

/// What a curve against α holds fixed: traces, method, load, sites, tasks, processors per task.
fn run_key(r: &RunRow) -> RunKey {
    (r.traces.clone(), r.method.clone(), r.load.clone(), r.sites.to_bits(), r.tasks.to_bits(), r.procs.to_bits())
}

/// Makespan and cost ratios against α, one series per method and setting with ≥ 2 α values.
fn alpha_figures(runs: &[RunRow]) -> Vec<Figure> {
    let mut keys: Vec<RunKey> = runs.iter().map(run_key).collect();
    keys.sort();
    keys.dedup();
    let mut traces: Vec<String> = keys.iter().map(|k| k.0.clone()).collect();
    traces.dedup();
    let mut figures = Vec::new();
    for trace in traces {
        let (mut mk, mut cost) = (Vec::new(), Vec::new());
        for (k, key) in keys.iter().filter(|k| k.0 == trace).enumerate() {
            let mine: Vec<&RunRow> = runs.iter().filter(|r| run_key(r) == *key).collect();
            let curve = |f: fn(&RunRow) -> MeanCi| -> Vec<(f64, f64, f64, f64)> {
                let mut v: Vec<_> = mine
                    .iter()
                    .map(|r| (r.alpha, f(r)))
                    .filter(|(_, m)| m.mean.is_finite())
                    .map(|(a, m)| (a, m.mean, m.mean - m.half, m.mean + m.half))
                    .collect();
                v.sort_by(|a, b| a.0.total_cmp(&b.0));
                v
            };
            let (m, c) = (curve(|r| r.makespan_ratio), curve(|r| r.cost_ratio));
            if m.len() < 2 {
                continue;
            }
            let name = format!(
                "{}, {:.0} procs/task, {} tasks, load {}",
                key.1,
                f64::from_bits(key.5),
                f64::from_bits(key.4),
                key.2
            );
            mk.push(Series::with_error_bars(name.clone(), m, true, k));
            cost.push(Series::with_error_bars(name, c, true, k));
        }
        if mk.is_empty() {
            continue;
        }
        let panel = |title: &str, y: &str, series: Vec<Series>| Panel {
            title: title.to_string(),
            x_label: "trade-off factor α".into(),
            y_label: y.to_string(),
            series,
            diagonal: false,
            ..Default::default()
        };
        figures.push(Figure {
            id: format!("provisioning-alpha-{}", trace.to_lowercase().replace('+', "-")),
            caption: format!(
                "{trace}: provisioned makespan and allocation cost relative to best effort (1 = best effort) \
                 against α, greedy (Ch. 7) and MOGA (Ch. 4); means with 95 % intervals over submissions."
            ),
            panels: vec![
                panel("makespan / best effort", "makespan ratio", mk),
                panel("allocation cost / best effort", "cost ratio", cost),
            ],
        });
    }
    figures
}

/// Pricing points that differ only in their seed, as one row: means over
/// seeds with 95 % Student-t half-widths.
fn pricing_over_seeds(prices: &[PriceRow]) -> PolarsResult<Table> {
    type Key = (String, String, bool, bool, u64, String, u64);
    let key = |r: &PriceRow| -> Key {
        (r.group.clone(), r.trace.clone(), r.exact, r.easy, r.share.to_bits(), r.load.clone(), r.alpha.to_bits())
    };
    let mut keys: Vec<Key> = Vec::new();
    for r in prices {
        if !keys.contains(&key(r)) {
            keys.push(key(r));
        }
    }
    let over = |k: &Key, f: fn(&PriceRow) -> f64| -> MeanCi {
        let v: Vec<f64> = prices.iter().filter(|r| key(r) == *k).map(f).filter(|v| v.is_finite()).collect();
        mean_ci(&v).unwrap_or_else(missing)
    };
    let stat = |name: &str, f: fn(&PriceRow) -> f64| -> [Column; 2] {
        let m: Vec<MeanCi> = keys.iter().map(|k| over(k, f)).collect();
        [column(name, m.iter().map(|x| x.mean)), column(&format!("{name}_ci"), m.iter().map(|x| x.half))]
    };
    let mut columns = vec![
        text("group", keys.iter().map(|k| k.0.clone())),
        text("trace", keys.iter().map(|k| k.1.clone())),
        text("estimates", keys.iter().map(|k| if k.2 { "exact" } else { "logged" }.to_string())),
        text("pricing", keys.iter().map(|k| if k.3 { "EASY" } else { "conservative" }.to_string())),
        column("share_pct", keys.iter().map(|k| f64::from_bits(k.4))),
        text("target_load", keys.iter().map(|k| k.5.clone())),
        column("alpha", keys.iter().map(|k| f64::from_bits(k.6))),
        column("seeds", keys.iter().map(|k| prices.iter().filter(|r| key(r) == *k).count() as f64)),
    ];
    columns.extend(stat("utilisation_pct", |r| r.utilisation));
    columns.extend(stat("price_f_su", |r| r.f.mean));
    columns.extend(stat("reserved_wait_h", |r| r.reserved_wait.mean));
    columns.extend(stat("be_wait_h", |r| r.be_wait));
    columns.extend(stat("suffered_over_charged", |r| r.suffered / r.charged));
    columns.extend(stat("vs_queueing_over_charged", |r| r.suffered_queueing / r.charged));
    columns.extend(stat("bought_f_conservative_su", |r| r.f_conservative));
    columns.extend(stat("bought_f_easy_su", |r| r.f_easy));
    columns.extend(stat("easy_over_conservative", |r| r.f_easy / r.f_conservative));
    Ok(Table {
        id: "pricing_over_seeds".into(),
        title: "Adaptive pricing over seeds".into(),
        note: "Pricing points that differ only in their seed (which jobs buy reservations), as one row: the \
               number of seeds and the means over seeds, with 95 % half-widths, of the utilisation, the mean \
               price f per reservation (SU), the reserved and best-effort waits (h), and the provider's ratios \
               of delay suffered to f charged (against no reservations, and against the buyers queueing). \
               Then the bought slots priced under both projections on the state each was sold on (mean f, SU, \
               conservative and EASY) and their ratio: at α = 0 both pricing arms sell the same slots, so it \
               compares the projections on identical states."
            .into(),
        df: DataFrame::new_infer_height(columns)?,
    })
}

/// Price against α per setting, and the provider's view (suffered vs charged).
fn pricing_figures(prices: &[PriceRow]) -> Vec<Figure> {
    let key = |r: &PriceRow| (r.group.clone(), r.trace.clone(), r.exact, r.easy, r.share.to_bits(), r.load.clone());
    let mut keys: Vec<_> = prices.iter().map(key).collect();
    keys.sort();
    keys.dedup();
    let mut series = Vec::new();
    for (k, kk) in keys.iter().enumerate() {
        let mine: Vec<&PriceRow> = prices.iter().filter(|r| key(r) == *kk && r.f.mean.is_finite()).collect();
        let mut alphas: Vec<f64> = mine.iter().map(|r| r.alpha).collect();
        alphas.sort_by(f64::total_cmp);
        alphas.dedup();
        // One seed: its interval over reservations; several: the interval over seeds.
        let points: Vec<_> = alphas
            .iter()
            .filter_map(|&a| {
                let at: Vec<&&PriceRow> = mine.iter().filter(|r| r.alpha == a).collect();
                let m = match at.as_slice() {
                    [one] => one.f,
                    many => mean_ci(&many.iter().map(|r| r.f.mean).collect::<Vec<_>>())?,
                };
                Some((a, m.mean, m.mean - m.half, m.mean + m.half))
            })
            .collect();
        if points.len() >= 2 {
            let name = format!(
                "{} {} ({}, {}, {} reserved, load {})",
                kk.0,
                kk.1,
                if kk.2 { "exact" } else { "logged" },
                if kk.3 { "EASY" } else { "CB" },
                amount(f64::from_bits(kk.4), Unit::Percent),
                kk.5
            );
            series.push(Series::with_error_bars(name, points, true, k));
        }
    }
    let mut figures = Vec::new();
    if !series.is_empty() {
        figures.push(Figure {
            id: "pricing-alpha".into(),
            caption: "Mean externality f paid per reservation (SU) against the buyers' trade-off factor α (Figs 23, \
                      25, 30); 95 % intervals over seeds (over reservations where a setting ran one seed)."
                .into(),
            panels: vec![Panel {
                title: "price f against α".into(),
                x_label: "trade-off factor α".into(),
                y_label: "mean f (SU)".into(),
                series,
                diagonal: false,
                ..Default::default()
            }],
        });
    }
    let scatter = |f: fn(&PriceRow) -> f64| -> Vec<(f64, f64, f64, f64)> {
        prices
            .iter()
            .filter(|r| r.charged.is_finite() && f(r).is_finite())
            .map(|r| (r.charged, f(r), f(r), f(r)))
            .collect()
    };
    let (absent, queueing) = (scatter(|r| r.suffered), scatter(|r| r.suffered_queueing));
    if !absent.is_empty() {
        let dots = |name: &str, points, colour| Series {
            name: name.to_string(),
            points,
            band: false,
            error_bars: false,
            line: false,
            colour,
            ..Default::default()
        };
        figures.push(Figure {
            id: "pricing-harm".into(),
            caption: "The provider's view: per pricing point, Σ f charged (x) against the delay best-effort jobs \
                      actually suffered (y, Σ processors × extra wait, SU) against the run without the reservation \
                      requests and against the run where those jobs queue instead; the diagonal is a price that \
                      predicts the harm exactly."
                .into(),
            panels: vec![Panel {
                title: "delay suffered against externality charged".into(),
                x_label: "charged Σ f (SU)".into(),
                y_label: "suffered (SU)".into(),
                series: vec![
                    dots("against no reservations", absent, 0),
                    dots("against the buyers queueing instead", queueing, 1),
                ],
                diagonal: true,
                ..Default::default()
            }],
        });
    }
    figures
}
