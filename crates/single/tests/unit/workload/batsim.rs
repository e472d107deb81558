use slasim_single::workload::batsim::*;

#[test]
fn reads_delay_jobs_and_names_other_profile_types() {
    let text = r#"{"nb_res": 4, "jobs": [
        {"id": 1, "subtime": 0, "res": 2, "walltime": 100, "profile": "d"},
        {"id": "w!2", "subtime": 10.4, "res": 1, "profile": "d"}],
        "profiles": {"d": {"type": "delay", "delay": 20.6}}}"#;
    let t = parse(text).unwrap();
    assert_eq!(t.records.len(), 2);
    let (a, b) = (t.records[0], t.records[1]);
    assert_eq!((a.job, a.submit, a.runtime, a.requested_procs, a.requested_time), (1, 0, 21, 2, 100));
    assert_eq!((b.job, b.submit, b.requested_time), (2, 10, -1));
    assert_eq!(t.header.entries[0], ("MaxProcs".to_string(), "4".to_string()));
    let bad = r#"{"nb_res": 4, "jobs": [{"id": 1, "subtime": 0, "res": 2, "profile": "p"}],
        "profiles": {"p": {"type": "parallel_homogeneous", "cpu": 1e9, "com": 0}}}"#;
    let e = parse(bad).unwrap_err();
    assert!(e.contains("profile `p` has type `parallel_homogeneous`"), "{e}");
    assert!(
        parse(r#"{"nb_res": 4, "jobs": [{"id": 1, "subtime": 0, "res": 2, "profile": "x"}]}"#)
            .unwrap_err()
            .contains("profile `x` is not defined")
    );
    assert!(parse("{\"jobs\": []}").unwrap_err().contains("nb_res"));
    assert!(parse("[").unwrap_err().contains("not a JSON"));
}

#[test]
fn duplicate_ids_are_renumbered_in_file_order() {
    let text = r#"{"nb_res": 4, "jobs": [
        {"id": 7, "subtime": 0, "res": 1, "profile": "d"},
        {"id": 7, "subtime": 1, "res": 1, "profile": "d"}],
        "profiles": {"d": {"type": "delay", "delay": 5}}}"#;
    let t = parse(text).unwrap();
    assert_eq!(t.records.iter().map(|r| r.job).collect::<Vec<_>>(), vec![1, 2]);
}
