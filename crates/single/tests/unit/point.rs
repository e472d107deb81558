use slasim_single::point::*;
use slasim_single::policy::overbooking::OverbookingConfig;
use slasim_single::policy::{Placement, StrategyRef};
use slasim_single::workload::WorkloadSource;
use slasim_single::workload::failures::FailureSource;
use slasim_single::workload::prepare::PrepareConfig;

fn point() -> SinglePoint {
    SinglePoint {
        strategy: StrategyRef::named("heuristic-planning").unwrap(),
        placement: Placement::BestFit,
        seed: 1,
        battery: 3,
        workload: WorkloadSource::default(),
        prepare: PrepareConfig::default(),
        failures: FailureSource::default_for("lanl").unwrap(),
        overbooking: OverbookingConfig::default(),
        reservations: Default::default(),
        classic: Default::default(),
        batsim: None,
        energy: None,
        energy_policy: Default::default(),
        signals: None,
        shifting: None,
        store_jobs: true,
    }
}

#[test]
fn id_is_stable_and_sensitive() {
    let p = point();
    let text = p.canonical().unwrap();
    assert!(text.contains("strategy = \"heuristic-planning\""), "{text}");
    let back: SinglePoint = toml::from_str(&text).unwrap();
    assert_eq!(back, p);
    assert_eq!(p.id(), point().id());
    assert!(p.id().unwrap().run_id >= 0);
    let other = SinglePoint { battery: 4, ..point() };
    assert_ne!(p.id(), other.id());
}

fn p_text() -> String {
    point().canonical().unwrap()
}

#[test]
fn unread_settings_normalise_away() {
    let mut a = point();
    a.overbooking.pof_max = 0.35;
    // Heuristic planning reads neither PoF_max nor its placement.
    let b = SinglePoint { placement: Placement::FirstFit, ..a.clone() };
    assert_eq!(a.normalized().id(), point().normalized().id());
    assert_eq!(b.normalized().id(), point().normalized().id());
    // Heuristic overbooking reads PoF_max, but not the security factor under the PoF test.
    let mut c = SinglePoint { strategy: StrategyRef::named("heuristic-overbooking").unwrap(), ..a.clone() };
    let d = c.clone();
    c.overbooking.security_factor = Some(3.0);
    assert_eq!(c.normalized().id(), d.normalized().id());
    let mut e = d.clone();
    e.overbooking.pof_max = 0.4;
    assert_ne!(e.normalized().id(), d.normalized().id());
    // An unknown name is refused where the point is read, naming the valid ones.
    let text = p_text().replace("heuristic-planning", "nope");
    let err = toml::from_str::<SinglePoint>(&text).unwrap_err().to_string();
    assert!(err.contains("unknown strategy `nope`") && err.contains("valid strategy names"), "{err}");
}
