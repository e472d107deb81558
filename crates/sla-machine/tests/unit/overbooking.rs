//! Heuristic overbooking on a centre's machine: the settings only a
//! strategy that overbooks reads, statistics from the other batteries, and
//! what it cannot run with.

use slasim_single::policy::overbooking::AcceptanceKind;
use slasim_single::stats::aged::PdfUpdate;
use slasim_single::stats::pdf::{LearnFrom, PdfConfig};
use slasim_sla_machine::battery::{JobResult, measure};
use slasim_sla_machine::kind::SlaMachineSettings;
use slasim_sla_machine::overbooking::OverbookingSettings;
use slasim_slurm::synthetic::SlurmSynthetic;

use crate::unit::slurm_jobs::on_conf;

fn synthetic(dir: &std::path::Path, strategy: &str) -> SlaMachineSettings {
    SlaMachineSettings {
        synthetic: Some(SlurmSynthetic { days: 1.0, load: 1.2, users: 10, accounts: 2 }),
        batteries: 3,
        battery: 1,
        seed: 3,
        overbooking: Some(OverbookingSettings { pof_max: 0.5, ..OverbookingSettings::default() }),
        ..on_conf(dir, None, strategy)
    }
}

fn run(settings: SlaMachineSettings) -> anyhow::Result<Vec<JobResult>> {
    let point = settings.resolve()?;
    point.results(&point.open()?)
}

/// Heuristic overbooking takes windows shorter than a job's limit that
/// heuristic planning leaves, learning from the two other batteries; a job
/// in such a window succeeds or is killed at its end; only the strategy
/// that overbooks names the settings in its point; the same settings give
/// the same results.
#[test]
fn heuristic_overbooking_takes_windows_heuristic_planning_leaves() {
    let dir = tempfile::tempdir().unwrap();
    let planned = run(synthetic(dir.path(), "heuristic-planning")).unwrap();
    let over = run(synthetic(dir.path(), "heuristic-overbooking")).unwrap();
    assert_eq!(planned.len(), over.len());
    assert!(planned.iter().all(|r| r.allotment.is_none() && r.outcome != "killed"));
    let overbooked: Vec<&JobResult> = over.iter().filter(|r| r.allotment.is_some()).collect();
    assert!(!overbooked.is_empty(), "no job overbooked");
    for r in &overbooked {
        assert!(matches!(r.outcome, "success" | "killed"), "{r:?}");
        if r.outcome == "killed" {
            assert_eq!(r.end.unwrap() - r.start.unwrap(), r.allotment.unwrap(), "{r:?}");
        }
    }
    let (p, o) = (measure_of(&planned, dir.path()), measure_of(&over, dir.path()));
    assert!(o.rejected < p.rejected, "{} against {}", o.rejected, p.rejected);
    assert_eq!(o.overbooked, overbooked.len() as i64);
    assert_eq!(run(synthetic(dir.path(), "heuristic-overbooking")).unwrap(), over);
    // The settings belong to the points that read them.
    assert!(synthetic(dir.path(), "heuristic-planning").resolve().unwrap().overbooking.is_none());
    let point = synthetic(dir.path(), "heuristic-overbooking").resolve().unwrap();
    assert_eq!(point.overbooking.map(|o| o.pof_max), Some(0.5));
    // Learning from the battery itself (the oracle) is another point.
    let mut oracle = synthetic(dir.path(), "heuristic-overbooking");
    if let Some(o) = oracle.overbooking.as_mut() {
        o.pdf.learn_from = LearnFrom::Input;
    }
    assert_ne!(oracle.resolve().unwrap(), synthetic(dir.path(), "heuristic-overbooking").resolve().unwrap());
    run(oracle).unwrap();
}

fn measure_of(results: &[JobResult], dir: &std::path::Path) -> slasim_sla_machine::battery::Measures {
    let point = synthetic(dir, "heuristic-planning").resolve().unwrap();
    let loaded = point.open().unwrap();
    measure(loaded.machine(), results)
}

/// Overbooking settings that cannot run are refused with their key, under
/// every strategy: a PoF_max outside [0, 1], a security factor that is not positive,
/// statistics that learn online, and one battery (no other to learn from)
/// unless it learns from the battery itself.
#[test]
fn overbooking_settings_that_cannot_run_are_refused_with_their_key() {
    let dir = tempfile::tempdir().unwrap();
    let with = |settings: OverbookingSettings, batteries: u32| SlaMachineSettings {
        overbooking: Some(settings),
        batteries,
        battery: 0,
        ..synthetic(dir.path(), "heuristic-overbooking")
    };
    let refused = |s: SlaMachineSettings| format!("{:#}", s.resolve().unwrap_err());
    let pof = refused(with(OverbookingSettings { pof_max: 1.5, ..OverbookingSettings::default() }, 3));
    assert!(pof.contains("`sla_machine.overbooking.pof_max`"), "{pof}");
    let sf = OverbookingSettings { acceptance: AcceptanceKind::Risk, security_factor: Some(0.0), ..Default::default() };
    let sf = refused(with(sf, 3));
    assert!(sf.contains("`sla_machine.overbooking.security_factor`"), "{sf}");
    let online = PdfConfig { update: PdfUpdate::Online, ..PdfConfig::default() };
    let online = refused(with(OverbookingSettings { pdf: online, ..Default::default() }, 3));
    assert!(online.contains("`sla_machine.overbooking.pdf.update`"), "{online}");
    // A point of one battery resolves, and is refused when it runs.
    let alone = format!("{:#}", run(with(OverbookingSettings::default(), 1)).unwrap_err());
    assert!(alone.contains("`sla_machine.batteries`") && alone.contains("learn_from"), "{alone}");
    let input = PdfConfig { learn_from: LearnFrom::Input, ..PdfConfig::default() };
    run(with(OverbookingSettings { pdf: input, ..Default::default() }, 1)).unwrap();
    // Checked whoever reads it: a sweep's other strategies are refused too.
    let planning = SlaMachineSettings {
        strategy: "heuristic-planning".into(),
        ..with(OverbookingSettings { pof_max: 1.5, ..OverbookingSettings::default() }, 3)
    };
    assert!(refused(planning).contains("`sla_machine.overbooking.pof_max`"));
}
