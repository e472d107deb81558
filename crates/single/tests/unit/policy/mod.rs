mod batsim;
mod comprehensive;
mod machine_easy;
mod machine_overbooking;
mod machine_reservations;
mod overbooking;
mod shifting;
mod slack_dvfs;

use slasim_single::cluster::strategy::Placement;
use slasim_single::policy::*;

#[test]
fn unknown_names_list_the_valid_ones() {
    let err = check_strategy("easy-peasy").unwrap_err();
    assert_eq!(
        err.to_string(),
        "unknown strategy `easy-peasy`; valid strategy names: conservative-backfilling, heuristic-planning, \
         comprehensive-overbooking, heuristic-overbooking, shortened-backfilling, fcfs, easy, conservative, batsim, \
         sjf, sjf-easy, smallest-first, smallest-first-easy, wfp3, wfp3-easy, uni, uni-easy, f1, f1-easy"
    );
    let err = Placement::parse("worst-fit").unwrap_err();
    assert!(err.to_string().contains("first-fit, best-fit, highest-pos, last-fit"));
    assert_eq!(Placement::parse("first-fit"), Ok(Placement::FirstFit));
}

/// A resolved strategy is written and read as its bare name, prints as
/// one (padded in tables), and an unknown name does not read.
#[test]
fn a_strategy_ref_is_its_name() {
    #[derive(Debug, PartialEq, serde::Serialize, serde::Deserialize)]
    struct Point {
        strategy: StrategyRef,
    }
    let easy = StrategyRef::named("easy").unwrap();
    let text = toml::to_string(&Point { strategy: easy }).unwrap();
    assert_eq!(text, "strategy = \"easy\"\n");
    assert_eq!(toml::from_str::<Point>(&text).unwrap().strategy, easy);
    assert!(easy.queueing && easy.takes_reservations());
    assert_eq!(format!("[{easy:<6}]"), "[easy  ]");
    let err = toml::from_str::<Point>("strategy = \"easy-peasy\"").unwrap_err().to_string();
    assert!(err.contains("unknown strategy `easy-peasy`; valid strategy names:"), "{err}");
}
