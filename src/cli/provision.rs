//! `slasim provision`: slot advertisement and MOGA workflow provisioning.

use std::fmt::Write as _;
use std::path::PathBuf;

use clap::{Args, Subcommand};

use crate::cli::emit;
use crate::cli::options::StoreOptions;
use crate::experiment::provisioning::{
    CLI_FORK_WINDOW, Defaults, ProvisionConfig, ResolvedPoint, default_alphas, sweep, workflow_spec, workload,
};
use crate::provision::experiment::{PricingPoint, ProvisionPoint, SiteSpec};
use crate::provision::moga::MogaConfig;
use crate::provision::plan::HoleCharging;
use crate::report::summary::mean_ci;
use crate::setting::InvalidSetting;
use crate::store;

#[derive(Debug, Subcommand)]
pub(crate) enum ProvisionCommand {
    /// Simulate a trace under the slot-set scheduler and record its advertised
    /// slots (count and tasks at every arrival, every slot hourly); print the statistics.
    Slots(SlotsArgs),
    /// Provision a workflow at M submission instants against the trace's
    /// background load (the MOGA on advertised slots, or greedily with
    /// adaptive pricing), run it best effort in a fork of the same state, and
    /// store makespan and cost per submission and α.
    Run(RunArgs),
    /// Run (or resume) a provisioning config (configs/provisioning-*.toml).
    Sweep(SweepArgs),
    /// Adaptive pricing (Ch. 5): a share of the jobs of the first days of a
    /// trace buy priced reservations (eq. 18 queries, eq. 20 choice with α);
    /// store every request and print prices and waits per α.
    Price(PriceArgs),
    /// Markdown tables of a store's provisioning points: slot statistics, MOGA
    /// vs best effort per point and α, adaptive pricing (means ± 95 % intervals).
    Report(ReportArgs),
}

#[derive(Debug, Args)]
pub(crate) struct PriceArgs {
    /// An SWF log (default: the embedded synthetic workload).
    #[arg(long)]
    trace: Option<String>,
    /// Processors (default: the trace header's; the thesis runs CTC-SP2 on 430).
    #[arg(long)]
    capacity: Option<u32>,
    /// The first DAYS days of the trace.
    #[arg(long, default_value_t = 30.0)]
    days: f64,
    /// Percentage of the jobs that buy reservations.
    #[arg(long, default_value_t = 10.0, allow_negative_numbers = true)]
    share: f64,
    /// Trade-off factor α (repeat; default 0, 0.25, 0.5, 0.75, 1).
    #[arg(long = "alpha", allow_negative_numbers = true)]
    alphas: Vec<f64>,
    /// Price with EASY instead of conservative backfilling.
    #[arg(long)]
    easy: bool,
    /// Jobs request their logged estimates instead of their actual runtimes.
    #[arg(long)]
    logged_estimates: bool,
    /// Raise the offered load to this utilisation with a week-shifted copy.
    #[arg(long)]
    target_load: Option<f64>,
    /// A start deadline: buyers accept only starts within H hours of their submission.
    #[arg(long = "start-within", value_name = "H", allow_negative_numbers = true)]
    start_within_hours: Option<f64>,
    /// Seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    #[command(flatten)]
    store: StoreOptions,
}

#[derive(Debug, Args)]
pub(crate) struct ReportArgs {
    /// SQLite file.
    #[arg(long, default_value = "slasim.sqlite")]
    db: PathBuf,
}

#[derive(Debug, Args)]
pub(crate) struct SlotsArgs {
    /// An SWF log (default: the embedded synthetic workload).
    #[arg(long)]
    trace: Option<String>,
    /// Processors (default: the trace header's).
    #[arg(long)]
    capacity: Option<u32>,
    /// Jobs request their actual runtimes (Ch. 3); otherwise the logged estimates.
    #[arg(long)]
    exact_estimates: bool,
    /// Raise the offered load to this utilisation with a week-shifted copy.
    #[arg(long)]
    target_load: Option<f64>,
    /// Seed (load copy).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// SQLite file.
    #[arg(long, default_value = "slasim.sqlite")]
    db: PathBuf,
}

#[derive(Debug, Args)]
pub(crate) struct RunArgs {
    /// An SWF log per site (repeat; sites cycle through them). Default: the embedded synthetic workload.
    #[arg(long = "trace")]
    traces: Vec<String>,
    /// Sites.
    #[arg(long, default_value_t = 1)]
    sites: usize,
    /// Processors per site (repeat; cycled like the traces; default: each trace header's).
    /// The thesis runs CTC-SP2 on 430 processors.
    #[arg(long = "capacity")]
    capacities: Vec<u32>,
    /// Target load per site (repeat; cycled like the traces).
    #[arg(long = "target-load")]
    target_loads: Vec<f64>,
    /// synthetic, cybershake, or a workflow file (one task per line: NAME RUNTIME PROCS [PARENT[:TRANSFER]...]).
    #[arg(long, default_value = "synthetic")]
    workflow: String,
    /// Tasks of the synthetic workflow.
    #[arg(long, default_value_t = 100)]
    tasks: usize,
    /// Mean processors per task of the synthetic workflow.
    #[arg(long, default_value_t = 22)]
    task_processors: u32,
    /// Mean transfer time between sites, seconds (synthetic workflow).
    #[arg(long, default_value_t = 0)]
    mean_transfer: i64,
    /// Trade-off factor α in [0, 1] (repeat; default 0, 0.1, …, 1).
    #[arg(long = "alpha", allow_negative_numbers = true)]
    alphas: Vec<f64>,
    /// Submission instants.
    #[arg(long, default_value_t = 50)]
    submissions: usize,
    /// Background jobs request their logged estimates instead of their actual runtimes.
    #[arg(long)]
    logged_estimates: bool,
    /// Ablation: charge non-divisible slots (holes) for the parts used, not whole (Table 1).
    #[arg(long)]
    charge_holes_by_use: bool,
    /// moga (advertised slots, Ch. 4), greedy (adaptive pricing, Ch. 7, Fig. 51)
    /// or greedy-easy (sites price with EASY).
    #[arg(long, default_value = "moga")]
    method: String,
    /// Seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    #[command(flatten)]
    store: StoreOptions,
}

#[derive(Debug, Args)]
pub(crate) struct SweepArgs {
    /// The config file.
    config: PathBuf,
    #[command(flatten)]
    store: StoreOptions,
}

pub(crate) fn run(command: ProvisionCommand) -> anyhow::Result<()> {
    match command {
        ProvisionCommand::Slots(args) => slots(args),
        ProvisionCommand::Run(args) => run_command(args),
        ProvisionCommand::Sweep(args) => sweep_command(args),
        ProvisionCommand::Price(args) => price(args),
        ProvisionCommand::Report(args) => {
            let mut out = String::from("## Advertised slots\n\n");
            out += &crate::report::provision::slots_table(&args.db)?;
            out += "\n## MOGA provisioning vs best effort\n\n";
            out += &crate::report::provision::runs_table(&args.db)?;
            out += "\n## Adaptive pricing\n\n";
            out += &crate::report::provision::pricing_table(&args.db)?;
            emit(&out)
        }
    }
}

fn slots(args: SlotsArgs) -> anyhow::Result<()> {
    if let Some(l) = args.target_load {
        crate::setting::positive("target_load", l)?;
    }
    let site = SiteSpec {
        trace: workload(args.trace.as_deref().unwrap_or("synthetic")),
        target_load: args.target_load,
        capacity: args.capacity,
    };
    let point = ResolvedPoint::Slots { group: "cli".to_string(), site, exact: args.exact_estimates, seed: args.seed };
    let id = point.id();
    sweep(None, std::slice::from_ref(&point), &args.db, 1, |_| {})?;
    let q = |sql: &str| store::query(&args.db, &sql.replace("?ID", &id.to_string()));
    let mut out = String::new();
    let _ = writeln!(out, "advertised slots (point {id}; stored in {})", args.db.display());
    out +=
        &q("SELECT s.trace, s.capacity, s.jobs, round(s.offered, 3) AS offered, round(s.achieved, 3) AS achieved, \
               (SELECT count(*) FROM slot_samples WHERE point_id = ?ID) AS samples, \
               (SELECT round(avg(slots), 2) FROM slot_samples WHERE point_id = ?ID) AS mean_slots, \
               (SELECT max(slots) FROM slot_samples WHERE point_id = ?ID) AS max_slots, \
               (SELECT round(avg(tasks), 1) FROM slot_samples WHERE point_id = ?ID) AS mean_tasks \
               FROM provision_sites s WHERE s.point_id = ?ID")?
        .to_text();
    let _ = writeln!(out, "\nhourly observations: slot sizes and times (hours)");
    out += &q("SELECT count(*) AS slots, round(avg(procs), 1) AS mean_procs, \
               round(avg(CASE WHEN procs <= 10 THEN 1.0 ELSE 0.0 END), 3) AS share_1_10_procs, \
               round(avg(start) / 3600.0, 2) AS mean_start_h, round(avg(duration) / 3600.0, 2) AS mean_duration_h, \
               round(avg(edge), 3) AS edge_share FROM advertised_slots WHERE point_id = ?ID")?
    .to_text();
    let _ = writeln!(out, "\nslot count over time (daily means of the arrival samples, first 14 days)");
    out += &q("SELECT (time - (SELECT min(time) FROM slot_samples WHERE point_id = ?ID)) / 86400 AS day, \
               round(avg(slots), 1) AS mean_slots, round(avg(tasks), 1) AS mean_tasks \
               FROM slot_samples WHERE point_id = ?ID GROUP BY day ORDER BY day LIMIT 14")?
    .to_text();
    emit(&out)
}

fn run_command(args: RunArgs) -> anyhow::Result<()> {
    if args.sites == 0 {
        return Err(InvalidSetting::new("--sites", 0, "must be at least 1").into());
    }
    let alphas = if args.alphas.is_empty() { default_alphas() } else { args.alphas.clone() };
    for &a in &alphas {
        crate::setting::probability("--alpha", a)?;
    }
    for &l in &args.target_loads {
        crate::setting::positive("--target-load", l)?;
    }
    let traces = if args.traces.is_empty() { vec!["synthetic".to_string()] } else { args.traces.clone() };
    let sites: Vec<SiteSpec> = (0..args.sites)
        .map(|i| SiteSpec {
            trace: workload(&traces[i % traces.len()]),
            target_load: (!args.target_loads.is_empty()).then(|| args.target_loads[i % args.target_loads.len()]),
            capacity: (!args.capacities.is_empty()).then(|| args.capacities[i % args.capacities.len()]),
        })
        .collect();
    let defaults = Defaults::default();
    let workflow =
        workflow_spec(&args.workflow, args.tasks, args.task_processors, &defaults, Some(args.mean_transfer), u32::MAX)?;
    let point = ProvisionPoint {
        sites,
        workflow,
        alphas,
        submissions: args.submissions,
        exact_estimates: !args.logged_estimates,
        moga: MogaConfig::default(),
        seed: args.seed,
        enact: true,
        fork_window: CLI_FORK_WINDOW,
        charging: if args.charge_holes_by_use { HoleCharging::Used } else { HoleCharging::Whole },
        method: args.method.parse().map_err(|e: InvalidSetting| e.renamed("--method"))?,
    };
    point.validate()?;
    let resolved = ResolvedPoint::Run { group: "cli".to_string(), point, task_processors: args.task_processors };
    let id = resolved.id();
    let report = sweep(None, std::slice::from_ref(&resolved), &args.store.db, args.store.threads(), |_| {})?;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "provisioning point {id} ({}; stored in {})",
        if report.skipped > 0 { "already stored" } else { "ran now" },
        args.store.db.display()
    );
    out += &run_table(&args.store.db, id)?;
    emit(&out)
}

/// Means and 95 % intervals over submissions, per α, of one stored point.
pub(crate) fn run_table(db: &std::path::Path, id: i64) -> anyhow::Result<String> {
    let table = store::query(
        db,
        &format!(
            "SELECT alpha, makespan, be_makespan, cost, be_cost, makespan_ratio, cost_ratio, archive_size, \
             coalesce(enacted_makespan = makespan, 0) FROM provision_submissions WHERE point_id = {id} ORDER BY alpha, submission"
        ),
    )?;
    let num = |s: &str| s.parse::<f64>().ok();
    let mut by_alpha: Vec<(String, Vec<Vec<Option<f64>>>)> = Vec::new();
    for row in &table.rows {
        let values: Vec<Option<f64>> = row[1..].iter().map(|v| num(v)).collect();
        match by_alpha.last_mut() {
            Some((a, list)) if *a == row[0] => list.push(values),
            _ => by_alpha.push((row[0].clone(), vec![values])),
        }
    }
    let ci = |list: &[Vec<Option<f64>>], col: usize, scale: f64| {
        let v: Vec<f64> = list.iter().filter_map(|r| r[col]).map(|x| x / scale).collect();
        mean_ci(&v).map_or_else(|| "-".to_string(), |m| format!("{:.3} ± {:.3}", m.mean, m.half))
    };
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{:>5}  {:>17}  {:>17}  {:>17}  {:>17}  {:>15}  {:>15}  {:>7}  {:>9}",
        "alpha",
        "makespan h",
        "BE makespan h",
        "cost SU",
        "BE cost SU",
        "makespan/BE",
        "cost/BE",
        "archive",
        "enacted=="
    );
    for (alpha, list) in &by_alpha {
        let enacted = list.iter().filter(|r| r[7] == Some(1.0)).count();
        let _ = writeln!(
            out,
            "{:>5}  {:>17}  {:>17}  {:>17}  {:>17}  {:>15}  {:>15}  {:>7}  {:>9}",
            alpha,
            ci(list, 0, 3600.0),
            ci(list, 1, 3600.0),
            ci(list, 2, 3600.0),
            ci(list, 3, 3600.0),
            ci(list, 4, 1.0),
            ci(list, 5, 1.0),
            ci(list, 6, 1.0).split(' ').next().unwrap_or("-"),
            format!("{enacted}/{}", list.len()),
        );
    }
    let _ = writeln!(
        out,
        "(means ± 95 % intervals over submissions; SU = processor-hours; enacted== counts plans whose reserved run matched the planned makespan)"
    );
    Ok(out)
}

fn sweep_command(args: SweepArgs) -> anyhow::Result<()> {
    let config = ProvisionConfig::load(&args.config)?;
    let points = config.points()?;
    let bar = indicatif::ProgressBar::new(points.len() as u64);
    let report = sweep(Some(&config.name), &points, &args.store.db, args.store.threads(), |_| bar.inc(1))?;
    bar.finish_and_clear();
    emit(&format!(
        "{}: {} points ({} already stored, {} run now) in {}\n",
        config.name,
        report.points,
        report.skipped,
        report.ran,
        args.store.db.display()
    ))
}

fn price(args: PriceArgs) -> anyhow::Result<()> {
    if let Some(l) = args.target_load {
        crate::setting::positive("--target-load", l)?;
    }
    if let Some(h) = args.start_within_hours
        && !(h.is_finite() && h >= 0.0)
    {
        return Err(InvalidSetting::new(
            "--start-within",
            h,
            "must be ≥ 0 hours: a deadline before the earliest start",
        )
        .into());
    }
    let alphas = if args.alphas.is_empty() { vec![0.0, 0.25, 0.5, 0.75, 1.0] } else { args.alphas.clone() };
    let site = SiteSpec {
        trace: workload(args.trace.as_deref().unwrap_or("synthetic")),
        target_load: args.target_load,
        capacity: args.capacity,
    };
    let points: Vec<ResolvedPoint> = alphas
        .iter()
        .map(|&alpha| {
            let point = PricingPoint {
                site: site.clone(),
                exact_estimates: !args.logged_estimates,
                days: args.days,
                share: args.share,
                alpha,
                easy: args.easy,
                seed: args.seed,
                start_within: args.start_within_hours.map(|h| (h * 3600.0).round() as i64),
            };
            point.validate().map(|()| ResolvedPoint::Price { group: "cli".to_string(), point })
        })
        .collect::<Result<_, _>>()?;
    sweep(None, &points, &args.store.db, args.store.threads(), |_| {})?;
    let mut out = format!(
        "adaptive pricing: {} % of the jobs of the first {} days buy reservations ({} backfilling); stored in {}\n",
        args.share,
        args.days,
        if args.easy { "EASY" } else { "conservative" },
        args.store.db.display()
    );
    let _ = writeln!(
        out,
        "{:>5}  {:>8}  {:>6}  {:>17}  {:>19}  {:>13}  {:>11}",
        "alpha", "requests", "bought", "price f (SU)", "reserved wait (h)", "BE wait (h)", "utilisation"
    );
    for (alpha, p) in alphas.iter().zip(&points) {
        let id = p.id();
        let rows = store::query(
            &args.store.db,
            &format!("SELECT f, wait, bought FROM priced_reservations WHERE point_id = {id}"),
        )?;
        let site = store::query(
            &args.store.db,
            &format!("SELECT be_wait, achieved FROM provision_sites WHERE point_id = {id}"),
        )?;
        let col = |i: usize, scale: f64| -> Vec<f64> {
            rows.rows.iter().filter_map(|r| r[i].parse::<f64>().ok()).map(|v| v / scale).collect()
        };
        let ci = |v: Vec<f64>| mean_ci(&v).map_or("-".to_string(), |m| format!("{:.2} ± {:.2}", m.mean, m.half));
        let bought = col(2, 1.0).iter().filter(|&&b| b > 0.0).count();
        let (be, util) = site.rows.first().map_or((String::new(), String::new()), |r| (r[0].clone(), r[1].clone()));
        let hours = |v: &str| v.parse::<f64>().map_or("-".to_string(), |w| format!("{:.2}", w / 3600.0));
        let pct = |v: &str| v.parse::<f64>().map_or("-".to_string(), |u| format!("{:.1} %", 100.0 * u));
        let _ = writeln!(
            out,
            "{:>5}  {:>8}  {:>6}  {:>17}  {:>19}  {:>13}  {:>11}",
            alpha,
            rows.rows.len(),
            bought,
            ci(col(0, 3600.0)),
            ci(col(1, 3600.0)),
            hours(&be),
            pct(&util)
        );
    }
    emit(&out)
}
