use slasim_provision::kind::provision::point::{Method, MethodSettings, ProvisionPoint};
use slasim_provision::kind::provision::*;
use slasim_provision::plan::HoleCharging;
use slasim_provision::pricing::Policy;

#[test]
fn a_point_holds_what_its_method_reads() {
    let differing = |method| ProvisionSettings {
        method,
        pricing_policy: Policy::Easy,
        enact: false,
        submissions: 7,
        hole_charging: HoleCharging::Used,
        workflow: "cybershake".into(),
        ..ProvisionSettings::default()
    };
    let plain = |method| ProvisionSettings { method, ..ProvisionSettings::default() };
    let slots = differing(Method::Slots).resolve().unwrap();
    assert_eq!(slots.method, MethodSettings::Slots);
    assert_eq!(canonical(&slots), canonical(&plain(Method::Slots).resolve().unwrap()));
    let greedy = differing(Method::Greedy).resolve().unwrap();
    assert!(matches!(greedy.method, MethodSettings::Greedy { pricing_policy: Policy::Easy, .. }));
    assert_eq!(greedy.method_name(), "greedy-easy");
    let moga = differing(Method::Moga).resolve().unwrap();
    let MethodSettings::Moga { enact, hole_charging, .. } = &moga.method else { panic!("{moga:?}") };
    assert_eq!((*enact, *hole_charging), (false, HoleCharging::Used));
    let text = canonical(&moga).unwrap();
    assert!(text.contains("pricing_policy = \"conservative\""), "{text}");
    // The canonical text reads back into the same point (the Gantt chart re-runs stored points).
    for point in [slots, greedy, moga] {
        let back: ProvisionPoint = toml::from_str(&canonical(&point).unwrap()).unwrap();
        assert_eq!(back, point);
    }
}
