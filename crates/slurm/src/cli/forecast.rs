//! `slurm forecast`: start-time forecasts from a snapshot of a live queue,
//! or their scores on a kept run ([`crate::forecast`]).

use super::compare::{first_in, kept_run};
use super::*;

/// `slurm forecast`: each pending job's forecast, or with `--kept` the
/// scores over a kept run's snapshots.
pub(super) fn forecast(args: ForecastArgs) -> anyhow::Result<std::process::ExitCode> {
    use crate::forecast::{Centre, History, Snapshot};
    let table = if let Some(dir) = &args.kept {
        let run = kept_run(dir)?;
        let centre = Centre::read(&run.slurm_conf, run.dumps.paths(), run.controller_start, run.backfill_start)?;
        let snapshots = first_in(dir, &["snapshots.txt", "snapshots.txt.gz"])
            .ok_or_else(|| anyhow::anyhow!("{}: no snapshots.txt or snapshots.txt.gz", dir.display()))?;
        crate::forecast::score(
            &centre,
            &run.dump,
            &crate::forecast::read_snapshots(&snapshots)?,
            args.replicas,
            args.seed,
        )?
    } else {
        let (Some(conf), Some(queue), Some(at)) = (&args.slurm_conf, &args.queue, args.at) else {
            anyhow::bail!("--slurm-conf, --queue and --at are needed without --kept");
        };
        let centre = Centre::read(conf, args.dumps.paths(), args.controller_start, args.backfill_start)?;
        let text = std::fs::read_to_string(queue).with_context(|| format!("{}: cannot read", queue.display()))?;
        let mut snapshot = Snapshot {
            path: queue.clone(),
            at,
            jobs: crate::forecast::parse_queue(&text, queue, 1)?,
            ..Snapshot::default()
        };
        if let Some(path) = &args.sprio {
            let text = std::fs::read_to_string(path).with_context(|| format!("{}: cannot read", path.display()))?;
            snapshot.ages = crate::forecast::parse_sprio(&text, path, 1)?;
        }
        let history = match &args.history {
            Some(path) => {
                let options = slasim_data::trace::sacct::NativeOptions { lenient: false };
                Some(History::before(&slasim_data::trace::sacct::read_native(path, options)?.0, at))
            }
            None => None,
        };
        crate::forecast::table(
            &snapshot,
            &crate::forecast::forecast(&centre, &snapshot, history.as_ref(), args.replicas, args.seed)?,
        )
    };
    emit(&if args.markdown { table.to_markdown() } else { table.to_text() })?;
    Ok(std::process::ExitCode::SUCCESS)
}
