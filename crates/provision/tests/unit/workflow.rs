use proptest::prelude::*;
use slasim_core::rng::stream;
use slasim_provision::workflow::*;

/// Re-validates a workflow through the checked constructor.
use slasim_provision::workflow::generate::{CYBERSHAKE_SGT_TASKS, SyntheticWorkflow, cybershake};

fn revalidate(wf: &Workflow) -> Workflow {
    Workflow::new(wf.tasks().to_vec(), wf.edges().to_vec(), "revalidate").unwrap()
}

fn assert_topological(wf: &Workflow, order: &[u32]) {
    let mut pos = vec![usize::MAX; wf.len()];
    for (i, &v) in order.iter().enumerate() {
        assert_eq!(pos[v as usize], usize::MAX, "task {v} twice");
        pos[v as usize] = i;
    }
    assert_eq!(order.len(), wf.len());
    for e in wf.edges() {
        assert!(pos[e.parent as usize] < pos[e.child as usize], "edge {e:?} violated by {order:?}");
    }
}

fn without_lines(wf: &Workflow) -> Vec<Task> {
    wf.tasks().iter().map(|t| Task { line: None, ..t.clone() }).collect()
}

fn err(text: &str) -> String {
    Workflow::parse(text, "wf.txt").unwrap_err().to_string()
}

fn diamond() -> Workflow {
    let tasks = vec![Task::new("a", 10, 1), Task::new("b", 20, 2), Task::new("c", 30, 3), Task::new("d", 5, 4)];
    let e = |parent, child, transfer| Edge { parent, child, transfer };
    Workflow::new(tasks, vec![e(0, 1, 1), e(0, 2, 2), e(1, 3, 3), e(2, 3, 4)], "diamond").unwrap()
}

#[test]
fn diamond_ranks_order_and_costs() {
    let wf = diamond();
    // Rank(d) = 5 (exit)
    // Rank(b) = 20 + (3 + 5) = 28
    // Rank(c) = 30 + (4 + 5) = 39
    // Rank(a) = 10 + max(1 + 28, 2 + 39) = 51
    assert_eq!(wf.ranks(), vec![51, 28, 39, 5]);
    assert_eq!(wf.heft_order(), vec![0, 2, 1, 3]);
    assert_eq!(wf.critical_path(), 51);
    assert_eq!(wf.levels(), vec![0, 1, 1, 2]);
    assert_eq!(wf.depth(), 3);
    // 10·1 + 20·2 + 30·3 + 5·4
    assert_eq!(wf.best_effort_cost(), 160);
    assert_eq!(wf.max_procs(), 4);
    assert_eq!(wf.tasks()[3].parents, vec![(1, 3), (2, 4)]);
    assert_eq!(wf.tasks()[0].children, vec![(1, 1), (2, 2)]);
    assert_eq!(wf.transfer(2, 3), 4);
    assert_eq!(wf.edge_transfer(2, 3), Some(4));
    assert_eq!(wf.transfer(0, 3), 0);
    assert_eq!(wf.edge_transfer(0, 3), None);
    assert_eq!(wf.edge_transfer(0, 99), None);
    assert_eq!(wf.index_of("c"), Some(2));
    assert_eq!(wf.index_of("z"), None);
}

#[test]
fn zero_runtime_heft_order_is_topological() {
    // Chain a → b → c declared in reverse id order with all-zero ranks: only the level
    // tie-break keeps the order topological (id order alone would give c, b, a).
    let tasks = vec![Task::new("c", 0, 1), Task::new("b", 0, 1), Task::new("a", 0, 1), Task::new("x", 0, 1)];
    let e = |parent, child| Edge { parent, child, transfer: 0 };
    let wf = Workflow::new(tasks, vec![e(2, 1), e(1, 0)], "zero").unwrap();
    assert_eq!(wf.ranks(), vec![0; 4]);
    assert_eq!(wf.heft_order(), vec![2, 3, 1, 0]);
    assert_topological(&wf, &wf.heft_order());
}

#[test]
fn generator_structure_100_tasks_10_levels() {
    let g = SyntheticWorkflow::default();
    assert_eq!(g.level_count(), 10);
    for index in 0..50 {
        let wf = g.generate(&mut stream(1, slasim_provision::streams::WORKFLOWS, index)).unwrap();
        revalidate(&wf);
        assert_eq!(wf.len(), 100);
        let levels = wf.levels();
        assert_eq!(wf.depth(), 10);
        let mut widths = vec![0usize; 10];
        for &l in &levels {
            widths[l as usize] += 1;
        }
        assert!(widths.iter().all(|&w| (1..=19).contains(&w)), "{widths:?}");
        for (v, t) in wf.tasks().iter().enumerate() {
            let l = levels[v] as usize;
            let expected = if l == 0 { 0 } else { widths[l - 1].min(2) };
            assert_eq!(t.parents.len(), expected, "task {v} at level {l}, widths {widths:?}");
            assert!(t.parents.iter().all(|&(p, x)| levels[p as usize] as usize + 1 == l && x == 0));
            assert!((500..=1500).contains(&t.runtime));
            assert!((1..=43).contains(&t.procs));
        }
        assert_topological(&wf, &wf.heft_order());
    }
}

#[test]
fn generator_default_levels_follow_sqrt() {
    let count = |tasks| SyntheticWorkflow { tasks, ..SyntheticWorkflow::default() }.level_count();
    assert_eq!([count(100), count(200), count(300), count(400), count(1), count(2)], [10, 14, 17, 20, 1, 1]);
    let g = SyntheticWorkflow { tasks: 200, ..SyntheticWorkflow::default() };
    assert_eq!(g.generate(&mut stream(3, slasim_provision::streams::WORKFLOWS, 0)).unwrap().depth(), 14);
    // Extremes: one level, and one task per level (a chain).
    let flat = SyntheticWorkflow { tasks: 7, levels: Some(1), ..SyntheticWorkflow::default() };
    assert!(flat.generate(&mut stream(3, slasim_provision::streams::WORKFLOWS, 0)).unwrap().edges().is_empty());
    let chain = SyntheticWorkflow { tasks: 7, levels: Some(7), ..SyntheticWorkflow::default() };
    let wf = chain.generate(&mut stream(3, slasim_provision::streams::WORKFLOWS, 0)).unwrap();
    assert_eq!((wf.depth(), wf.edges().len()), (7, 6));
}

#[test]
fn generator_means_over_many_draws() {
    let g = SyntheticWorkflow { mean_transfer: 250, ..SyntheticWorkflow::default() };
    let (mut procs, mut runtime, mut transfer, mut tasks, mut edges) = (0u64, 0i64, 0i64, 0i64, 0i64);
    for index in 0..200 {
        let wf = g.generate(&mut stream(9, slasim_provision::streams::WORKFLOWS, index)).unwrap();
        procs += wf.tasks().iter().map(|t| u64::from(t.procs)).sum::<u64>();
        runtime += wf.tasks().iter().map(|t| t.runtime).sum::<i64>();
        tasks += wf.len() as i64;
        for e in wf.edges() {
            assert!((150..=350).contains(&e.transfer));
            transfer += e.transfer;
            edges += 1;
        }
    }
    // 20,000 draws: standard errors ≈ 0.09 procs, 2 s runtime, 0.5 s transfer.
    let mean_procs = procs as f64 / tasks as f64;
    assert!((mean_procs - 22.0).abs() < 0.5, "mean procs {mean_procs}");
    let mean_runtime = runtime as f64 / tasks as f64;
    assert!((mean_runtime - 1000.0).abs() < 10.0, "mean runtime {mean_runtime}");
    let mean_transfer = transfer as f64 / edges as f64;
    assert!((mean_transfer - 250.0).abs() < 3.0, "mean transfer {mean_transfer}");
    // Below the latency the transfer is constant.
    let small = SyntheticWorkflow { mean_transfer: 40, ..SyntheticWorkflow::default() };
    let wf = small.generate(&mut stream(9, slasim_provision::streams::WORKFLOWS, 0)).unwrap();
    assert!(wf.edges().iter().all(|e| e.transfer == 40));
}

#[test]
fn generator_caps_processors() {
    let g = SyntheticWorkflow { mean_procs: 10, max_procs: 12, ..SyntheticWorkflow::default() };
    let wf = g.generate(&mut stream(4, slasim_provision::streams::WORKFLOWS, 0)).unwrap();
    assert!(wf.tasks().iter().all(|t| t.procs <= 12));
    assert!(wf.tasks().iter().any(|t| t.procs == 12));
    let ones = SyntheticWorkflow { mean_procs: 1, ..SyntheticWorkflow::default() };
    assert_eq!(ones.generate(&mut stream(4, slasim_provision::streams::WORKFLOWS, 0)).unwrap().max_procs(), 1);
}

#[test]
fn generator_is_deterministic() {
    let g = SyntheticWorkflow { tasks: 300, mean_transfer: 250, ..SyntheticWorkflow::default() };
    let a = g.generate(&mut stream(42, slasim_provision::streams::WORKFLOWS, 5)).unwrap();
    assert_eq!(a, g.generate(&mut stream(42, slasim_provision::streams::WORKFLOWS, 5)).unwrap());
    assert_ne!(a, g.generate(&mut stream(42, slasim_provision::streams::WORKFLOWS, 6)).unwrap());
    assert_ne!(a, g.generate(&mut stream(43, slasim_provision::streams::WORKFLOWS, 5)).unwrap());
}

#[test]
fn generator_rejects_bad_settings() {
    let bad =
        |g: SyntheticWorkflow| g.generate(&mut stream(0, slasim_provision::streams::WORKFLOWS, 0)).unwrap_err().setting;
    let d = SyntheticWorkflow::default;
    assert_eq!(bad(SyntheticWorkflow { tasks: 0, ..d() }), "workflow_tasks");
    assert_eq!(bad(SyntheticWorkflow { levels: Some(0), ..d() }), "workflow_levels");
    assert_eq!(bad(SyntheticWorkflow { levels: Some(101), ..d() }), "workflow_levels");
    assert_eq!(bad(SyntheticWorkflow { mean_runtime: 0, ..d() }), "task_runtime");
    assert_eq!(bad(SyntheticWorkflow { mean_procs: 0, ..d() }), "task_processors");
    assert_eq!(bad(SyntheticWorkflow { mean_procs: 30, max_procs: 20, ..d() }), "task_processors");
    assert_eq!(bad(SyntheticWorkflow { max_procs: 0, mean_procs: 0, ..d() }), "task_processors_max");
    assert_eq!(bad(SyntheticWorkflow { mean_transfer: -1, ..d() }), "edge_transfer");
    let e = SyntheticWorkflow { tasks: 0, ..d() }.validate().unwrap_err();
    assert_eq!(e.to_string(), "setting `workflow_tasks` = 0: must lie in 1..=4294967295");
}

#[test]
fn cybershake_numbers() {
    let wf = cybershake();
    revalidate(&wf);
    assert_eq!(wf.len(), 8039);
    assert_eq!(wf.edges().len(), 5 + 3 * CYBERSHAKE_SGT_TASKS);
    assert_eq!(wf.best_effort_cost(), 52_460_341);
    assert_eq!(wf.critical_path(), 1 + 2100 + 86_400 + 519 + 1);
    assert_eq!(wf.depth(), 5);
    assert_eq!(wf.max_procs(), 288);
    let synth = wf.index_of("synthSGT_0007").unwrap();
    assert_eq!(wf.tasks()[synth as usize].parents, vec![(3, 0), (4, 0)]);
    let peak = wf.index_of("peakValCal_0007").unwrap();
    assert_eq!(wf.tasks()[peak as usize].parents, vec![(synth, 0)]);
    // Ranks: fd_grid_xyz 89021, fd_grid_cvm 89020, preSGT 87220, chk 86920 each.
    let order = wf.heft_order();
    assert_eq!(&order[..5], &[0, 2, 1, 3, 4]);
    assert_topological(&wf, &order);
    assert!(wf.check_fits(&[430], "cybershake").is_ok());
    assert_eq!(
        wf.check_fits(&[128, 100], "cybershake").unwrap_err().to_string(),
        "cybershake: task `fd_grid_cvm` needs 288 processors, more than any site offers (largest site: 128)"
    );
}

#[test]
fn parse_forward_references_comments_and_transfers() {
    let text = "# a diamond\n\nd 5 4 b:3 c:4   # exit task\nb 20 2 a:1\n  c 30 3 a:2\na 10 1\n";
    let wf = Workflow::parse(text, "wf.txt").unwrap();
    let d = diamond();
    let names: Vec<&str> = wf.tasks().iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, ["d", "b", "c", "a"]);
    assert_eq!(wf.tasks().iter().map(|t| t.line).collect::<Vec<_>>(), [Some(3), Some(4), Some(5), Some(6)]);
    assert_eq!(wf.critical_path(), d.critical_path());
    assert_eq!(wf.best_effort_cost(), d.best_effort_cost());
    assert_eq!(wf.transfer(3, 2), 2);
    assert_eq!(wf.heft_order(), vec![3, 2, 1, 0]);
    let plain = Workflow::parse("x 1 1\ny 2 1 x", "f").unwrap();
    assert_eq!(plain.edge_transfer(0, 1), Some(0));
}

#[test]
fn parse_errors_name_file_line_and_field() {
    assert_eq!(
        err("a 10 1\n\nb 5\n"),
        "wf.txt:3: expected `NAME RUNTIME_S PROCS [PARENT[:TRANSFER_S] ...]`, found 2 field(s)"
    );
    assert_eq!(err("a ten 1"), "wf.txt:1: task `a`: field RUNTIME_S = `ten` is not a non-negative integer (seconds)");
    assert_eq!(
        err("# c\na -5 1"),
        "wf.txt:2: task `a`: field RUNTIME_S = `-5` is not a non-negative integer (seconds)"
    );
    assert_eq!(err("a 1.5 1"), "wf.txt:1: task `a`: field RUNTIME_S = `1.5` is not a non-negative integer (seconds)");
    assert_eq!(err("a 5 0"), "wf.txt:1: task `a`: field PROCS = `0` is not an integer >= 1");
    assert_eq!(err("a 5 -2"), "wf.txt:1: task `a`: field PROCS = `-2` is not an integer >= 1");
    assert_eq!(
        err("a 5 1\nb 5 1 a:-3"),
        "wf.txt:2: task `b`: parent field `a:-3` is not PARENT[:TRANSFER_S] with integer TRANSFER_S >= 0"
    );
    assert_eq!(
        err("a 5 1\nb 5 1 :3"),
        "wf.txt:2: task `b`: parent field `:3` is not PARENT[:TRANSFER_S] with integer TRANSFER_S >= 0"
    );
    assert_eq!(
        err("a:b 5 1"),
        "wf.txt:1: task name `a:b` is invalid: must not contain `:` (it separates PARENT:TRANSFER_S)"
    );
    assert_eq!(err("a 5 1\nb 5 1\na 6 1"), "wf.txt:3: duplicate task name `a` (first defined at wf.txt:1)");
    assert_eq!(err("a 5 1\nb 5 1 a zz"), "wf.txt:2: task `b`: unknown parent `zz`");
    assert_eq!(err("a 5 1 a"), "wf.txt:1: task `a` lists itself as a parent");
    assert_eq!(err("a 5 1\nb 5 1 a a:4"), "wf.txt:2: task `b` lists parent `a` more than once");
    assert_eq!(err("x 1 1\nb 1 1 c\nc 1 1 d x\nd 1 1 b\n"), "wf.txt:2: task `b` is on a dependency cycle");
    // A task downstream of a cycle is not reported; one on it is.
    assert_eq!(err("z 1 1 p\np 1 1 q\nq 1 1 p"), "wf.txt:2: task `p` is on a dependency cycle");
    assert_eq!(err("# nothing\n\n   \n"), "wf.txt: the workflow has no tasks");
    assert_eq!(err(""), "wf.txt: the workflow has no tasks");
}

#[test]
fn new_rejects_invalid_parts() {
    let e = |parent, child, transfer| Edge { parent, child, transfer };
    let two = || vec![Task::new("a", 1, 1), Task::new("b", 1, 1)];
    let new = |tasks, edges| Workflow::new(tasks, edges, "code").unwrap_err().to_string();
    assert_eq!(new(vec![], vec![]), "code: the workflow has no tasks");
    assert_eq!(new(two(), vec![e(0, 2, 0)]), "code: edge 0 -> 2 refers to a task outside 0..2");
    assert_eq!(new(two(), vec![e(1, 1, 0)]), "code: task `b` lists itself as a parent");
    assert_eq!(
        new(two(), vec![e(0, 1, -1)]),
        "code: task `b`: parent field `a:-1` is not PARENT[:TRANSFER_S] with integer TRANSFER_S >= 0"
    );
    assert_eq!(new(two(), vec![e(0, 1, 0), e(0, 1, 5)]), "code: task `b` lists parent `a` more than once");
    assert_eq!(new(two(), vec![e(0, 1, 0), e(1, 0, 0)]), "code: task `a` is on a dependency cycle");
    assert_eq!(
        new(vec![Task::new("a", 1, 1), Task::new("a", 1, 1)], vec![]),
        "code: duplicate task name `a` (first defined at code)"
    );
    assert_eq!(
        new(vec![Task::new("a b", 1, 1)], vec![]),
        "code: task name `a b` is invalid: must not contain whitespace"
    );
    assert_eq!(
        new(vec![Task::new("a", -1, 1)], vec![]),
        "code: task `a`: field RUNTIME_S = `-1` is not a non-negative integer (seconds)"
    );
    assert_eq!(new(vec![Task::new("a", 1, 0)], vec![]), "code: task `a`: field PROCS = `0` is not an integer >= 1");
}

#[test]
fn load_reads_files_and_names_the_path() {
    let dir = std::env::temp_dir().join(format!("slasim-workflow-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("wf.txt");
    std::fs::write(&path, "a 10 1\nb 5 500 a:7\n").unwrap();
    let wf = Workflow::load(&path).unwrap();
    assert_eq!((wf.len(), wf.transfer(0, 1)), (2, 7));
    let shown = path.display().to_string();
    assert_eq!(
        wf.check_fits(&[430, 128], &shown).unwrap_err().to_string(),
        format!("{shown}:2: task `b` needs 500 processors, more than any site offers (largest site: 430)")
    );
    assert!(wf.check_fits(&[128, 512], &shown).is_ok());
    std::fs::write(&path, "a 10 1\nb 5 1 c\n").unwrap();
    assert_eq!(Workflow::load(&path).unwrap_err().to_string(), format!("{shown}:2: task `b`: unknown parent `c`"));
    let missing = dir.join("missing.txt");
    let msg = Workflow::load(&missing).unwrap_err().to_string();
    assert!(msg.starts_with(&format!("cannot read workflow file `{}`: ", missing.display())), "{msg}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn check_fits_without_sites_names_the_first_task() {
    let msg = diamond().check_fits(&[], "synthetic workflow").unwrap_err().to_string();
    assert_eq!(msg, "synthetic workflow: task `a` needs 1 processors, more than any site offers (largest site: 0)");
}

#[test]
fn text_round_trips() {
    let g = SyntheticWorkflow { tasks: 60, mean_transfer: 250, ..SyntheticWorkflow::default() };
    for wf in [diamond(), g.generate(&mut stream(5, slasim_provision::streams::WORKFLOWS, 0)).unwrap(), cybershake()] {
        let back = Workflow::parse(&wf.to_text(), "round-trip").unwrap();
        assert_eq!(without_lines(&back), without_lines(&wf));
        assert_eq!(back.edges(), wf.edges());
        assert_eq!(back.to_text(), wf.to_text());
    }
    assert!(diamond().to_text().contains("\nd 5 4 b:3 c:4\n"));
    assert!(cybershake().to_text().contains("\nfd_grid_cvm 2100 288 fd_grid_xyz\n"));
}

proptest! {
    #![proptest_config(crate::testing::cases(64))]

    #[test]
    fn generated_heft_order_is_a_topological_permutation(
        tasks in 1usize..250,
        level_frac in 0.0f64..1.0,
        mean_procs in 1u32..30,
        mean_runtime in 1i64..3000,
        mean_transfer in 0i64..500,
        seed in any::<u64>(),
    ) {
        let levels = 1 + ((tasks - 1) as f64 * level_frac) as usize;
        let g = SyntheticWorkflow {
            tasks,
            levels: Some(levels),
            mean_runtime,
            mean_procs,
            mean_transfer,
            ..SyntheticWorkflow::default()
        };
        let wf = g.generate(&mut stream(seed, slasim_provision::streams::WORKFLOWS, 0)).unwrap();
        prop_assert_eq!(wf.len(), tasks);
        prop_assert_eq!(wf.depth(), levels);
        revalidate(&wf);
        assert_topological(&wf, &wf.heft_order());
    }

    #[test]
    fn heft_order_is_topological_on_random_dags_with_zero_weights(
        (perm, raw, runtimes) in (1usize..40).prop_flat_map(|n| (
            Just((0..n as u32).collect::<Vec<u32>>()).prop_shuffle(),
            proptest::collection::vec((0..n, 0..n, 0i64..3), 0..120),
            proptest::collection::vec(0i64..3, n),
        )),
    ) {
        // Edges go from a lower to a higher position of a random permutation, so ids are in
        // arbitrary order; runtimes and transfers are mostly 0 to force rank ties.
        let n = perm.len();
        let mut edges = Vec::new();
        let mut seen = std::collections::HashSet::new();
        for &(a, b, x) in &raw {
            if a < b && seen.insert((a, b)) {
                edges.push(Edge { parent: perm[a], child: perm[b], transfer: x / 2 });
            }
        }
        let tasks = (0..n).map(|k| Task::new(format!("t{k}"), runtimes[k] / 2, 1)).collect();
        let wf = Workflow::new(tasks, edges, "prop").unwrap();
        assert_topological(&wf, &wf.heft_order());
    }
}
