use slasim_slurm::report::*;

#[test]
fn settings_are_flattened_and_only_differing_ones_kept() {
    let a = settings_of(
        "conf_sha256 = \"x\"\n[settings]\nseed = 1\npriority_weight_age = 0.0\n[settings.synthetic]\nload = 0.9\n",
    );
    let b = settings_of(
        "conf_sha256 = \"x\"\n[settings]\nseed = 1\npriority_weight_age = 4000.0\n[settings.synthetic]\nload = 0.9\n",
    );
    assert_eq!(a.get("synthetic_load"), Some(&Value::Real(0.9)));
    let point = |settings| PointRow {
        id: 0,
        sweep: String::new(),
        conf: String::new(),
        conf_text: String::new(),
        conf_sha256: String::new(),
        settings,
        jobs: 0,
        mean_wait: None,
        median_wait: None,
        max_wait: None,
        p95_wait: None,
        bounded_slowdown: None,
        makespan: 0.0,
        cpu_utilisation: None,
        gpu_utilisation: None,
        backfilled: 0,
        preemptions: None,
    };
    let c = settings_of("[settings]\nseed = 1\n");
    assert_eq!(swept(&[point(a.clone()), point(b)]), vec!["priority_weight_age".to_string()]);
    assert_eq!(swept(&[point(a), point(c)]), vec!["priority_weight_age".to_string(), "synthetic_load".to_string()]);
}
