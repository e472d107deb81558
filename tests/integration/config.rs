//! The config reader on single-cluster configs: products, zips, duplicates,
//! each failure model's defaults, and where errors point.

use slasim::experiment::config::{Experiment, SweepPoint};
use slasim::experiment::locate::ConfigError;
use slasim::single::point::SinglePoint;
use slasim::single::workload::failures::FailureSource;

const CONFIG: &str = r#"
name = "t"
[workload.synthetic]
jobs = 3000
[prepare]
input_jobs = 1000
batteries = 2
battery_size = 500

[[sweep]]
name = "pof"
[sweep.axes]
strategy = ["conservative-backfilling", "heuristic-overbooking"]
pof_max = { from = 0.1, to = 0.3, step = 0.1 }
battery = "all"

[[sweep]]
name = "risk"
zip = [["penalty_ratio", "security_factor"]]
[sweep.axes]
strategy = ["heuristic-overbooking"]
acceptance = ["risk"]
penalty_ratio = [0.5, 1.0]
security_factor = [2.0, 3.0]
"#;

fn single(p: &SweepPoint) -> &SinglePoint {
    p.point.get().unwrap_or_else(|| panic!("a single-cluster point, got {:?}", p.point))
}

/// A `failures` axis switches to each model with its own defaults.
#[test]
fn a_failures_axis_takes_each_models_defaults() {
    let text = "[[sweep]]\n[sweep.axes]\nfailures = [\"weibull\", \"none\", \"poisson\", \"hyperexp\"]\n";
    let e = Experiment::parse(&slasim::registry(), "f.toml", text).unwrap();
    let got: Vec<FailureSource> =
        e.points.all(&slasim::registry()).unwrap().iter().map(|p| single(p).failures.clone()).collect();
    let want: Vec<FailureSource> =
        ["weibull", "none", "poisson", "hyperexp"].iter().map(|m| FailureSource::default_for(m).unwrap()).collect();
    assert_eq!(got, want);
}

#[test]
fn expands_products_zips_and_dedupes() {
    let e = Experiment::parse(&slasim::registry(), "t.toml", CONFIG).unwrap();
    // pof: CB does not read PoF_max → 2 batteries; HO: 3 × 2 = 6. risk: zipped 2 pairs × battery 0.
    assert_eq!(e.points.len(), 2 + 6 + 2);
    let all = e.points.all(&slasim::registry()).unwrap();
    let pof: Vec<f64> = all
        .iter()
        .filter(|p| single(p).strategy.name() == "heuristic-overbooking" && p.sweep == "pof")
        .map(|p| single(p).overbooking.pof_max)
        .collect();
    assert_eq!(pof, vec![0.1, 0.1, 0.2, 0.2, 0.3, 0.3]);
    let risk: Vec<(f64, Option<f64>)> = all
        .iter()
        .filter(|p| p.sweep == "risk")
        .map(|p| (single(p).prepare.penalty_ratio, single(p).overbooking.security_factor))
        .collect();
    assert_eq!(risk, vec![(0.5, Some(2.0)), (1.0, Some(3.0))]);
    assert_eq!(e.name, "t");
    // Stable: the same text expands to the same ids.
    let again = Experiment::parse(&slasim::registry(), "t.toml", CONFIG).unwrap();
    assert_eq!(again.points, e.points);
}

fn error(text: &str) -> ConfigError {
    Experiment::parse(&slasim::registry(), "c.toml", text).unwrap_err()
}

#[test]
fn errors_name_the_file_line_and_key() {
    let e = error("[prepare]\nbatteries = 2\nbogus = 1\n[[sweep]]\n");
    assert_eq!((e.file.as_str(), e.line), ("c.toml", 3), "{e}");
    assert!(e.message.contains("unknown field `bogus`"), "{e}");

    let e = error("[prepare]\nbatteries = \"two\"\n[[sweep]]\n");
    assert_eq!(e.line, 2, "{e}");
    assert!(e.to_string().starts_with("c.toml:2:"), "{e}");

    let e = error("[[sweep]]\n[sweep.axes]\nstrategy = [\"conservative-backfilling\"]\npof_max = []\n");
    assert_eq!(e.line, 4, "{e}");
    assert!(e.message.contains("axis `pof_max` has no values"), "{e}");

    let e = error("[[sweep]]\n[sweep.axes]\npof_max = [0.1, 1.5]\nstrategy = [\"heuristic-overbooking\"]\n");
    assert_eq!(e.line, 3, "{e}");
    assert!(e.message.contains("`pof_max` = 1.5"), "{e}");

    // Refused even when no swept strategy reads the setting.
    let e = error("[[sweep]]\n[sweep.axes]\nstrategy = [\"conservative-backfilling\"]\npof_max = [1.5]\n");
    assert_eq!(e.line, 4, "{e}");
    assert!(e.message.contains("`pof_max` = 1.5"), "{e}");

    let e = error("[[sweep]]\n[sweep.axes]\nstrategy = [\"easy-peasy\"]\n");
    assert_eq!(e.line, 3, "{e}");
    assert!(e.message.contains("valid strategy names"), "{e}");

    let e = error("[[sweep]]\n[sweep.axes]\npofmax = [0.1]\n");
    assert_eq!(e.line, 3, "{e}");
    assert!(e.message.contains("pofmax"), "{e}");

    let e = error("name = \"x\"\n");
    assert!(e.message.contains("no [[sweep]]"), "{e}");
}
