//! `slasim provision`: slot advertisement, workflow provisioning (MOGA or
//! greedy) and adaptive pricing, each point resolved as a config point
//! would be and run on the sweep executor.

use slasim_core::units::{Unit, amount, percent};
use std::fmt::Write as _;

use std::process::ExitCode;

use clap::{Args, FromArgMatches, Subcommand, ValueEnum};

use crate::kind::pricing::PricingSettings;
use crate::kind::provision::point::Method;
use crate::kind::provision::{ProvisionSettings, SiteSettings, default_alphas};
use crate::plan::HoleCharging;
use crate::pricing::Policy;
use slasim_core::cli::emit;
use slasim_core::cli::list::ListOf;
use slasim_core::cli::options::{StoreOptions, as_flags, value_enum};
use slasim_core::cli::points::execute;
use slasim_core::cli::subcommand::Place;
use slasim_core::experiment::point::Point;
use slasim_core::experiment::registry::Registry;
use slasim_core::report::summary::mean_ci;
use slasim_core::setting::InvalidSetting;
use slasim_core::store;
use slasim_single::workload::prepare::Estimates;

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
    /// Adaptive pricing (Ch. 5): a share of the jobs of the first days of a
    /// trace buy priced reservations (eq. 18 queries, eq. 20 choice with α);
    /// store every request and print prices and waits per α.
    Price(PriceArgs),
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
    #[arg(long, default_value_t = PricingSettings::default().days)]
    days: f64,
    /// Percentage of the jobs that buy reservations.
    #[arg(long, default_value_t = PricingSettings::default().share, allow_negative_numbers = true)]
    share: f64,
    /// Trade-off factor α between price (0) and wait (1); repeat (default 0, 0.25, 0.5, 0.75, 1).
    #[arg(long = "alpha", allow_negative_numbers = true)]
    alphas: Vec<f64>,
    /// The scheduler the site prices with.
    #[arg(long, value_enum, default_value_t = Policy::Conservative)]
    pricing_policy: Policy,
    /// What jobs request as their run times.
    #[arg(long, value_enum, default_value_t = Estimates::Exact)]
    estimates: Estimates,
    /// Raise the offered utilisation to this (0.88 = 88 %) with a week-shifted copy.
    #[arg(long)]
    utilisation: Option<f64>,
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
pub(crate) struct SlotsArgs {
    /// An SWF log (default: the embedded synthetic workload).
    #[arg(long)]
    trace: Option<String>,
    /// Processors (default: the trace header's).
    #[arg(long)]
    capacity: Option<u32>,
    /// What jobs request as their run times (Ch. 3: exact for Figs. 4–7, logged for Fig. 8).
    #[arg(long, value_enum, default_value_t = Estimates::Exact)]
    estimates: Estimates,
    /// Raise the offered utilisation to this (0.88 = 88 %) with a week-shifted copy.
    #[arg(long)]
    utilisation: Option<f64>,
    /// Seed (load copy).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    #[command(flatten)]
    store: StoreOptions,
}

#[derive(Debug, Args)]
pub(crate) struct RunArgs {
    /// How the workflow is provisioned.
    #[arg(long, value_enum, default_value_t = RunMethod::Moga)]
    method: RunMethod,
    /// Greedy provisioning: the scheduler the sites price with.
    #[arg(long, value_enum, default_value_t = Policy::Conservative)]
    pricing_policy: Policy,
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
    /// Target utilisation per site (repeat; cycled like the traces; 0.88 = 88 %).
    #[arg(long = "utilisation")]
    utilisations: Vec<f64>,
    /// synthetic, cybershake, or a workflow file (one task per line: NAME RUNTIME PROCS [PARENT[:TRANSFER]...]).
    #[arg(long, default_value = "synthetic")]
    workflow: String,
    /// Tasks of the synthetic workflow.
    #[arg(long, default_value_t = ProvisionSettings::default().tasks)]
    tasks: usize,
    /// Mean processors per task of the synthetic workflow.
    #[arg(long, default_value_t = ProvisionSettings::default().task_processors)]
    task_processors: u32,
    /// Mean transfer time between sites, seconds (synthetic workflow).
    #[arg(long, default_value_t = 0)]
    mean_transfer: i64,
    /// Trade-off factor α in [0, 1] (repeat; default 0, 0.1, …, 1).
    #[arg(long = "alpha", allow_negative_numbers = true)]
    alphas: Vec<f64>,
    /// Submission instants.
    #[arg(long, default_value_t = ProvisionSettings::default().submissions)]
    submissions: usize,
    /// What background jobs request as their run times.
    #[arg(long, value_enum, default_value_t = Estimates::Exact)]
    estimates: Estimates,
    /// How MOGA plans pay for holes.
    #[arg(long, value_enum, default_value_t = HoleCharging::Whole)]
    hole_charging: HoleCharging,
    /// Seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    #[command(flatten)]
    store: StoreOptions,
}

/// `slasim provision`, registered by [`crate::register`].
pub struct ProvisionSubcommand;

impl slasim_core::cli::subcommand::Subcommand for ProvisionSubcommand {
    fn name(&self) -> &'static str {
        "provision"
    }

    fn command(&self) -> clap::Command {
        ProvisionCommand::augment_subcommands(clap::Command::new("provision"))
            .about("Provisioning: slot statistics, workflow provisioning (MOGA or greedy) and adaptive pricing")
            .subcommand_required(true)
            .arg_required_else_help(true)
    }

    fn run(&self, registry: &Registry, matches: &clap::ArgMatches) -> anyhow::Result<ExitCode> {
        let command = ProvisionCommand::from_arg_matches(matches)?;
        run(registry, command).map(|()| ExitCode::SUCCESS)
    }
}

/// `slasim list methods`: the provisioning methods, added by
/// [`crate::ProvisionKind`].
pub static METHODS: ListOf = ListOf {
    name: "methods",
    about: "Provisioning methods (`method` in `[provision]`)",
    place: Place::Last,
    header: ["method", "what it does"],
    rows: |_| Method::ALL.iter().map(|(m, about)| (m.name().to_string(), about.to_string())).collect(),
};

/// `slasim provision run --method`: how the workflow is provisioned.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum RunMethod {
    /// The MOGA over the sites' advertised slots, every α from its archive (Ch. 4).
    Moga,
    /// Task by task, each at the start its α-weighted price and wait make best (Ch. 7).
    Greedy,
}

impl RunMethod {
    /// The domain's method.
    pub fn method(self) -> Method {
        match self {
            RunMethod::Moga => Method::Moga,
            RunMethod::Greedy => Method::Greedy,
        }
    }
}

value_enum!(Policy {
    Policy::Conservative => "conservative": "price by replanning the queue with conservative backfilling",
    Policy::Easy => "easy": "price by replanning the queue with EASY backfilling",
});

value_enum!(HoleCharging {
    HoleCharging::Whole => "whole": "a non-divisible slot (a hole) costs its whole size once used (Table 1)",
    HoleCharging::Used => "used": "holes are charged for the parts used (an ablation)",
});

pub(crate) fn run(registry: &Registry, command: ProvisionCommand) -> anyhow::Result<()> {
    match command {
        ProvisionCommand::Slots(args) => slots(registry, args),
        ProvisionCommand::Run(args) => run_command(registry, args),
        ProvisionCommand::Price(args) => price(registry, args),
    }
}

/// The flags of `provision run` and `provision slots` for the settings they set.
const RUN_FLAGS: &[(&str, &str)] = &[
    ("provision.alphas", "--alpha"),
    ("provision.submissions", "--submissions"),
    ("provision.sites.utilisation", "--utilisation"),
    ("provision.sites.capacity", "--capacity"),
    ("provision.sites", "--sites"),
];

/// The flags of `provision price` for the settings they set.
const PRICE_FLAGS: &[(&str, &str)] = &[
    ("pricing.share", "--share"),
    ("pricing.alpha", "--alpha"),
    ("pricing.days", "--days"),
    ("pricing.start_within_hours", "--start-within"),
    ("pricing.site.utilisation", "--utilisation"),
    ("pricing.site.capacity", "--capacity"),
];

/// A site named on the command line: `synthetic` without a trace.
fn site(trace: Option<&str>, capacity: Option<u32>, utilisation: Option<f64>) -> SiteSettings {
    SiteSettings { trace: trace.unwrap_or("synthetic").to_string(), capacity, utilisation }
}

fn slots(registry: &Registry, args: SlotsArgs) -> anyhow::Result<()> {
    let settings = ProvisionSettings {
        method: Method::Slots,
        seed: args.seed,
        estimates: args.estimates,
        sites: vec![site(args.trace.as_deref(), args.capacity, args.utilisation)],
        ..ProvisionSettings::default()
    };
    let point = Point::new(settings.resolve().map_err(|e| as_flags(e, RUN_FLAGS))?);
    let (_, ids) =
        execute(registry, &[(point, "slots".to_string())], args.store.jobs, &args.store.db, "slasim provision slots")?;
    let id = ids[0];
    let db = &args.store.db;
    let q = |sql: &str| store::query(db, &sql.replace("?ID", &id.to_string()));
    let mut out = String::new();
    let _ = writeln!(out, "advertised slots (point {id}; stored in {})", db.display());
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

fn run_command(registry: &Registry, args: RunArgs) -> anyhow::Result<()> {
    if args.sites == 0 {
        return Err(InvalidSetting::new("--sites", 0, "must be at least 1").into());
    }
    let traces = if args.traces.is_empty() { vec!["synthetic".to_string()] } else { args.traces.clone() };
    let cycle = |i: usize, list: &[f64]| (!list.is_empty()).then(|| list[i % list.len()]);
    let sites: Vec<SiteSettings> = (0..args.sites)
        .map(|i| SiteSettings {
            trace: traces[i % traces.len()].clone(),
            capacity: (!args.capacities.is_empty()).then(|| args.capacities[i % args.capacities.len()]),
            utilisation: cycle(i, &args.utilisations),
        })
        .collect();
    let settings = ProvisionSettings {
        method: args.method.method(),
        pricing_policy: args.pricing_policy,
        seed: args.seed,
        estimates: args.estimates,
        sites,
        workflow: args.workflow.clone(),
        tasks: args.tasks,
        task_processors: args.task_processors,
        mean_transfer: args.mean_transfer,
        alphas: if args.alphas.is_empty() { default_alphas() } else { args.alphas.clone() },
        submissions: args.submissions,
        hole_charging: args.hole_charging,
        ..ProvisionSettings::default()
    };
    let point = Point::new(settings.resolve().map_err(|e| as_flags(e, RUN_FLAGS))?);
    let (report, ids) = execute(
        registry,
        &[(point, args.method.method().name().to_string())],
        args.store.jobs,
        &args.store.db,
        "slasim provision run",
    )?;
    let id = ids[0];
    let mut out = String::new();
    let _ = writeln!(
        out,
        "provisioning point {id} ({}; stored in {})",
        if report.already > 0 { "already stored" } else { "ran now" },
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

fn price(registry: &Registry, args: PriceArgs) -> anyhow::Result<()> {
    let alphas = if args.alphas.is_empty() { vec![0.0, 0.25, 0.5, 0.75, 1.0] } else { args.alphas.clone() };
    let points: Vec<(Point, String)> = alphas
        .iter()
        .map(|&alpha| {
            let settings = PricingSettings {
                seed: args.seed,
                alpha,
                share: args.share,
                days: args.days,
                pricing_policy: args.pricing_policy,
                estimates: args.estimates,
                start_within_hours: args.start_within_hours,
                site: site(args.trace.as_deref(), args.capacity, args.utilisation),
            };
            let point = settings.resolve().map_err(|e| as_flags(e, PRICE_FLAGS))?;
            Ok((Point::new(point), format!("α = {alpha}")))
        })
        .collect::<anyhow::Result<_>>()?;
    let (_, ids) = execute(registry, &points, args.store.jobs, &args.store.db, "slasim provision price")?;
    let mut out = format!(
        "adaptive pricing: {} of the jobs of the first {} days buy reservations ({} backfilling); stored in {}\n",
        amount(args.share, Unit::Percent),
        args.days,
        match args.pricing_policy {
            Policy::Easy => "EASY",
            Policy::Conservative => "conservative",
        },
        args.store.db.display()
    );
    let _ = writeln!(
        out,
        "{:>5}  {:>8}  {:>6}  {:>17}  {:>19}  {:>13}  {:>11}",
        "alpha", "requests", "bought", "price f (SU)", "reserved wait (h)", "BE wait (h)", "utilisation"
    );
    for (alpha, id) in alphas.iter().zip(&ids) {
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
        let pct = |v: &str| v.parse::<f64>().map_or("-".to_string(), percent);
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
