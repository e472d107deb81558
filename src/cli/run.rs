//! `slasim run`: the battery set of one trace (or the synthetic default) under
//! one or more strategies, stored in SQLite and summarised per strategy.

use std::fmt::Write as _;
use std::path::PathBuf;

use clap::{Args, ValueEnum};

use crate::cli::emit;
use crate::cli::options::PrepareOptions;
use crate::experiment::point::Point;
use crate::experiment::runner::run_points;
use crate::policy::overbooking::{AcceptanceKind, OverbookingConfig};
use crate::policy::{Placement, check_strategy};
use crate::sim::record::RunSummary;
use crate::stats::pdf::{LearnFrom, PdfConfig};
use crate::store::Store;
use crate::workload::WorkloadSource;
use crate::workload::failures::FailureSource;
use crate::workload::synthetic::SyntheticConfig;

/// `--acceptance` values.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub(crate) enum AcceptanceArg {
    Pof,
    Risk,
}

/// `--failures` values.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub(crate) enum FailureModelArg {
    Lanl,
    None,
    Poisson,
    Weibull,
    Hyperexp,
}

impl FailureModelArg {
    pub(crate) fn name(self) -> &'static str {
        match self {
            FailureModelArg::Lanl => "lanl",
            FailureModelArg::None => "none",
            FailureModelArg::Poisson => "poisson",
            FailureModelArg::Weibull => "weibull",
            FailureModelArg::Hyperexp => "hyperexp",
        }
    }
}

#[derive(Debug, Args)]
#[command(allow_negative_numbers = true)]
pub(crate) struct RunArgs {
    /// An SWF trace (plain or .gz, or a name under the traces directory);
    /// without it the embedded synthetic workload is used.
    #[arg(long)]
    trace: Option<PathBuf>,
    /// Skip malformed trace lines instead of failing.
    #[arg(long)]
    lenient: bool,
    /// Strategy to run; repeat for several (default: all of them).
    #[arg(long = "strategy", value_name = "NAME")]
    strategies: Vec<String>,
    /// Placement policy: first-fit, best-fit, conservative or last-fit.
    #[arg(long, default_value = "best-fit")]
    placement: String,
    /// PoF_max of the PoF acceptance test (and shortened backfilling's maxPoF).
    #[arg(long, default_value_t = 0.1)]
    pof_max: f64,
    /// Acceptance test of overbooked placements.
    #[arg(long, value_enum, default_value_t = AcceptanceArg::Pof)]
    acceptance: AcceptanceArg,
    /// Security factor of the risk test (default 2 heuristic, 4 comprehensive).
    #[arg(long)]
    security_factor: Option<f64>,
    /// Runtime statistics: runtime, resources, user, application, all, or a
    /// combination joined by + (e.g. runtime+resources).
    #[arg(long, default_value = "runtime")]
    pdf_source: String,
    /// Time step Δ of the runtime PDFs, seconds.
    #[arg(long, default_value_t = 60)]
    pdf_step: i64,
    /// Learn the runtime PDFs from the simulation input itself ("oracle"
    /// statistics) instead of the history before it.
    #[arg(long)]
    oracle_pdfs: bool,
    /// Node failures (default: lanl with a trace, poisson with the LANL rates
    /// for the synthetic workload).
    #[arg(long, value_enum)]
    failures: Option<FailureModelArg>,
    /// Seed of the synthetic workload and of synthetic failures.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// SQLite file the runs are stored in.
    #[arg(long, default_value = "slasim.sqlite")]
    db: PathBuf,
    /// Worker threads (default: one per core).
    #[arg(long)]
    jobs: Option<usize>,
    #[command(flatten)]
    prepare: PrepareOptions,
}

pub(crate) fn run(args: RunArgs) -> anyhow::Result<()> {
    let strategies: Vec<String> = if args.strategies.is_empty() {
        crate::policy::strategy_names().iter().map(|s| s.to_string()).collect()
    } else {
        args.strategies.clone()
    };
    for s in &strategies {
        check_strategy(s)?;
    }
    let placement = Placement::parse(&args.placement)?;
    let workload = match &args.trace {
        Some(path) => WorkloadSource::Swf { path: path.clone(), lenient: args.lenient },
        None => WorkloadSource::Synthetic(SyntheticConfig { seed: args.seed, ..SyntheticConfig::default() }),
    };
    let model = args.failures.map_or(if args.trace.is_some() { "lanl" } else { "poisson" }, FailureModelArg::name);
    let failures = FailureSource::default_for(model).ok_or_else(|| anyhow::anyhow!("unknown failure model {model}"))?;
    let prepare = args.prepare.config();
    prepare.validate_split()?;
    let overbooking = OverbookingConfig {
        acceptance: match args.acceptance {
            AcceptanceArg::Pof => AcceptanceKind::Pof,
            AcceptanceArg::Risk => AcceptanceKind::Risk,
        },
        pof_max: args.pof_max,
        security_factor: args.security_factor,
        pdf: PdfConfig {
            source: args.pdf_source.parse()?,
            step_seconds: args.pdf_step,
            learn_from: if args.oracle_pdfs { LearnFrom::Input } else { LearnFrom::History },
            ..PdfConfig::default()
        },
        ..OverbookingConfig::default()
    };
    overbooking.validate()?;
    let batteries = if prepare.whole_log { 1 } else { prepare.batteries };
    let mut points = Vec::new();
    for strategy in &strategies {
        for battery in 0..batteries {
            points.push(Point {
                strategy: strategy.clone(),
                placement,
                seed: args.seed,
                battery,
                workload: workload.clone(),
                prepare: prepare.clone(),
                failures: failures.clone(),
                overbooking: overbooking.clone(),
            });
        }
    }
    let threads = args.jobs.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let mut store = Store::open(&args.db)?;
    let results = run_points(&points, threads, Some(&mut store))?;

    let mut text = String::new();
    writeln!(
        text,
        "workload {}, {} batteries, placement {placement}, failures {model}, stored in {}",
        workload.name(),
        batteries,
        args.db.display()
    )?;
    writeln!(
        text,
        "overbooking: {} test, PoF_max {}, runtime statistics by {}",
        match overbooking.acceptance {
            AcceptanceKind::Pof => "PoF",
            AcceptanceKind::Risk => "risk",
        },
        overbooking.pof_max,
        overbooking.pdf.source
    )?;
    let skipped = results.iter().filter(|r| r.skipped).count();
    if skipped > 0 {
        writeln!(text, "{skipped} of {} runs were already stored and were not simulated again", results.len())?;
    }
    let unresolved: u32 = results.iter().map(|r| r.unresolved).sum();
    if unresolved > 0 {
        tracing::warn!(unresolved, "jobs left without an outcome were counted as failed");
    }
    writeln!(text, "\nmeans per battery:")?;
    writeln!(
        text,
        "{:<26} {:>9} {:>10} {:>8} {:>9} {:>11} {:>10} {:>11} {:>11}",
        "strategy", "accepted", "successful", "failed", "rejected", "fees", "penalties", "gain", "utilisation"
    )?;
    for strategy in &strategies {
        let runs: Vec<RunSummary> =
            results.iter().zip(&points).filter(|(_, p)| &p.strategy == strategy).map(|(r, _)| r.summary).collect();
        let n = runs.len().max(1) as f64;
        let mean = |f: fn(&RunSummary) -> f64| runs.iter().map(f).sum::<f64>() / n;
        writeln!(
            text,
            "{:<26} {:>9.1} {:>10.1} {:>8.1} {:>9.1} {:>11.1} {:>10.1} {:>11.1} {:>10.1}%",
            strategy,
            mean(|s| f64::from(s.accepted)),
            mean(|s| f64::from(s.successful)),
            mean(|s| f64::from(s.failed)),
            mean(|s| f64::from(s.rejected)),
            mean(|s| s.fees),
            mean(|s| s.penalties),
            mean(|s| s.gain),
            100.0 * mean(|s| s.utilisation),
        )?;
    }
    let overbooking_runs: Vec<&str> = strategies
        .iter()
        .map(String::as_str)
        .filter(|s| crate::policy::strategy(s).is_ok_and(|i| i.reads.overbooking))
        .collect();
    if !overbooking_runs.is_empty() {
        writeln!(text, "\ncalibration of overbooked jobs (all batteries):")?;
        writeln!(
            text,
            "{:<26} {:>11} {:>19} {:>19}",
            "strategy", "overbooked", "mean predicted PoF", "observed failures"
        )?;
        for strategy in overbooking_runs {
            let runs: Vec<RunSummary> =
                results.iter().zip(&points).filter(|(_, p)| p.strategy == strategy).map(|(r, _)| r.summary).collect();
            let overbooked: u32 = runs.iter().map(|s| s.overbooked).sum();
            let failed: u32 = runs.iter().map(|s| s.overbooked_failed).sum();
            let pof: f64 = runs.iter().map(|s| s.overbooked_pof_sum).sum();
            let n = f64::from(overbooked.max(1));
            writeln!(text, "{:<26} {:>11} {:>19.4} {:>19.4}", strategy, overbooked, pof / n, f64::from(failed) / n)?;
        }
    }
    emit(&text)
}
