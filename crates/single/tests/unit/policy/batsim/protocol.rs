use serde_json::json;
use slasim_single::cluster::energy::EnergyConfig;
use slasim_single::policy::batsim::protocol::*;

#[test]
fn interval_sets_round_trip_and_refuse_bad_text() {
    let s = IntervalSet::parse("7 0-3 9-12").unwrap();
    assert_eq!(s.to_string(), "0-3 7 9-12");
    assert_eq!(s.len(), 9);
    assert_eq!(IntervalSet::from_nodes(&[3, 1, 2, 7, 0]).to_string(), "0-3 7");
    assert!(IntervalSet::parse("0-3 2").unwrap_err().contains("appears twice"));
    assert!(IntervalSet::parse("3-1").unwrap_err().contains("reversed"));
    assert!(IntervalSet::parse("a").unwrap_err().contains("not a resource"));
    assert!(IntervalSet::parse("  ").unwrap_err().contains("names no resource"));
    assert!(IntervalSet::parse("-1").is_err());
}

#[test]
fn decisions_parse_and_unsupported_ones_are_named() {
    let e = json!({"timestamp": 5.0, "type": "EXECUTE_JOB", "data": {"job_id": "w0!1", "alloc": "0-1"}});
    let (t, d) = Decision::parse(&e).unwrap();
    assert_eq!(t, 5.0);
    assert_eq!(d, Decision::Execute { job: "w0!1".into(), alloc: IntervalSet(vec![(0, 1)]) });
    let e = json!({"timestamp": 5.0, "type": "SET_RESOURCE_STATE", "data": {"resources": "0-3", "state": "3"}});
    let (_, d) = Decision::parse(&e).unwrap();
    assert_eq!(d, Decision::SetResourceState { resources: IntervalSet(vec![(0, 3)]), state: 3 });
    let e = json!({"timestamp": 5.0, "type": "SET_RESOURCE_STATE", "data": {"resources": "2", "state": 0}});
    let (_, d) = Decision::parse(&e).unwrap();
    assert_eq!(d, Decision::SetResourceState { resources: IntervalSet(vec![(2, 2)]), state: 0 });
    let e = json!({"timestamp": 5.0, "type": "SET_RESOURCE_STATE", "data": {"resources": "2", "state": "sleep"}});
    let err = Decision::parse(&e).unwrap_err();
    assert!(err.why.contains("is not a pstate number"), "{err:?}");
    assert!(err.event.contains("SET_RESOURCE_STATE"));
    let e = json!({"timestamp": 5.0, "type": "QUERY", "data": {"requests": {"consumed_energy": {}}}});
    assert_eq!(Decision::parse(&e).unwrap().1, Decision::QueryEnergy);
    let e = json!({"timestamp": 5.0, "type": "QUERY", "data": {"requests": {"air_temperature_all": {}}}});
    assert!(Decision::parse(&e).unwrap_err().why.contains("only `consumed_energy`"));
    let e = json!({"timestamp": 5.0, "type": "EXECUTE_JOB", "data": {"job_id": 3}});
    assert!(Decision::parse(&e).unwrap_err().why.contains("not a string"));
    let e = json!({"timestamp": 5.0, "type": "FROBNICATE"});
    assert!(Decision::parse(&e).unwrap_err().why.contains("unknown event type"));
}

#[test]
fn simulation_begins_gives_the_power_states_batsim_gives() {
    use slasim_single::cluster::energy::SleepState;
    let mut model = EnergyConfig::watts(95.0, 190.0, 0.0);
    let plain = simulation_begins(2, "w", &[1], Some(&model));
    assert_eq!(plain["data"]["compute_resources"][1]["properties"], json!({}));
    model.compute_pstates = 3;
    model.sleep = Some(SleepState {
        watts: 9.75,
        switch_off_seconds: 6,
        switch_off_joules: 600.0,
        switch_on_seconds: 150,
        switch_on_joules: 18_000.0,
    });
    let begins = simulation_begins(2, "w", &[1], Some(&model));
    let props = &begins["data"]["compute_resources"][1]["properties"];
    assert_eq!(props["wattage_per_state"], "95.0:190.0, 95.0:190.0, 95.0:190.0, 9.75:9.75, 100.0:100.0, 120.0:120.0");
    assert_eq!(props["sleep_pstates"], "3:4:5");
    assert_eq!(props["wattage_off"], "9.75");
    assert_eq!(simulation_begins(2, "w", &[1], None)["data"]["compute_resources"][0]["properties"], json!({}));
    // DVFS: the configured pstates, each with its watts, before the sleep pstate.
    use slasim_single::cluster::energy::{Pstate, Pstates};
    model.compute_pstates = 1;
    model.pstates =
        Pstates::new(&[Pstate::nominal(95.0, 190.0), Pstate { speed: 0.5, idle_watts: 60.0, busy_watts: 80.0 }])
            .unwrap();
    let begins = simulation_begins(2, "w", &[1], Some(&model));
    let props = &begins["data"]["compute_resources"][0]["properties"];
    assert_eq!(props["wattage_per_state"], "95.0:190.0, 60.0:80.0, 9.75:9.75, 100.0:100.0, 120.0:120.0");
    assert_eq!(props["sleep_pstates"], "2:3:4");
    model.sleep = None;
    let begins = simulation_begins(2, "w", &[1], Some(&model));
    let props = &begins["data"]["compute_resources"][0]["properties"];
    assert_eq!(props, &json!({"wattage_per_state": "95.0:190.0, 60.0:80.0"}));
}

#[test]
fn reply_frames_are_checked() {
    assert!(parse_reply("{\"now\": 3", 0).unwrap_err().why.contains("not JSON"));
    assert!(parse_reply("{\"events\": []}", 0).unwrap_err().why.contains("`now`"));
    assert!(parse_reply("{\"now\": 1.0, \"events\": []}", 2).unwrap_err().why.contains("before"));
    let late = "{\"now\": 4.0, \"events\": [{\"timestamp\": 5.0, \"type\": \"NOTIFY\", \"data\": {}}]}";
    assert!(parse_reply(late, 4).unwrap_err().why.contains("outside"));
    let ok = "{\"now\": 4.0, \"events\": [{\"timestamp\": 4.0, \"type\": \"NOTIFY\", \"data\": {}}]}";
    assert_eq!(parse_reply(ok, 4).unwrap().len(), 1);
    assert_eq!(message(3, &[]), "{\"now\":3.0,\"events\":[]}");
    assert_eq!(message(0, &[]), "{\"now\":1e-6,\"events\":[]}");
}
