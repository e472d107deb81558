//! Provisioning and pricing through the command line: a real-trace run,
//! greedy provisioning on CTC-SP2, priced reservations, and bad input (the
//! in-process tests are the provisioning crate's, `crates/provision/tests`).

use crate::common;

/// `slasim provision run --method greedy` on CTC-SP2: every submission's
/// reserved run ends when planned, α = 1 costs the best-effort cost, α = 0
/// costs more and finishes no later on average; the method is stored.
#[test]
fn greedy_provisioning_on_ctc_through_the_cli() {
    let dir = tempfile::tempdir().expect("temp dir");
    let db = dir.path().join("greedy.sqlite");
    let out = common::slasim()
        .args(["provision", "run", "--method", "greedy", "--trace", "CTC-SP2-1996-3.1-cln.swf.gz", "--capacity", "430"])
        .args(["--submissions", "4", "--alpha", "0", "--alpha", "1", "--db"])
        .arg(&db)
        .output()
        .expect("runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let conn = rusqlite::Connection::open(&db).expect("store");
    let method: String = conn.query_row("SELECT method FROM provision_points", [], |r| r.get(0)).expect("query");
    assert_eq!(method, "greedy");
    let row = |alpha: f64| -> (i64, i64, f64, f64, f64, f64) {
        conn.query_row(
            "SELECT count(*), sum(enacted_makespan = makespan), avg(makespan), avg(be_makespan), avg(cost_ratio), max(f) \
             FROM provision_submissions WHERE alpha = ?1",
            [alpha],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?, r.get(5)?)),
        )
        .expect("query")
    };
    let (n0, enacted0, mk0, _, cost0, f0) = row(0.0);
    let (n1, enacted1, mk1, be, cost1, f1) = row(1.0);
    assert_eq!((n0, enacted0, n1, enacted1), (4, 4, 4, 4));
    assert_eq!((cost1, f1), (1.0, 0.0));
    assert!(cost0 >= 1.0 && f0 > 0.0, "{cost0} {f0}");
    assert!(mk0 <= mk1 && mk1 <= be, "{mk0} {mk1} {be}");
    let bad =
        common::slasim().args(["provision", "run", "--method", "cheapest", "--db"]).arg(&db).output().expect("runs");
    assert_eq!(bad.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("--method"), "{}", String::from_utf8_lossy(&bad.stderr));
}

/// `slasim provision run` on SDSC-SP2 (6 procs/task, 4 submissions, α 0 and 1) into `db`.
fn sdsc_run(db: &std::path::Path, jobs: &str) -> std::process::Output {
    common::slasim()
        .args(["provision", "run", "--trace", "SDSC-SP2-1998-4.2-cln.swf.gz", "--task-processors", "6"])
        .args(["--submissions", "4", "--alpha", "0", "--alpha", "1", "--jobs", jobs, "--db"])
        .arg(db)
        .output()
        .expect("runs")
}

#[test]
fn a_real_trace_run_stores_every_submission_and_enacts_the_plans() {
    let dir = tempfile::tempdir().expect("temp dir");
    let db = dir.path().join("p.sqlite");
    let out = sdsc_run(&db, "2");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("makespan/BE"), "{text}");
    let conn = rusqlite::Connection::open(&db).expect("store");
    let (rows, enacted_equal, finished_be): (i64, i64, i64) = conn
        .query_row(
            "SELECT count(*), sum(enacted_makespan = makespan), sum(be_makespan IS NOT NULL) FROM provision_submissions",
            [],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )
        .expect("query");
    assert_eq!(rows, 8);
    // With exact estimates a reserved plan runs exactly as planned.
    assert_eq!(enacted_equal, 8);
    assert_eq!(finished_be, 8);
    // α = 1 never costs more than α = 0, and costs at least the best-effort cost.
    let bad: i64 = conn
        .query_row(
            "SELECT count(*) FROM provision_submissions a JOIN provision_submissions b USING (point_id, submission) \
             WHERE a.alpha = 0 AND b.alpha = 1 AND (b.cost > a.cost + 1e-6 OR b.cost < b.be_cost - 1e-6)",
            [],
            |r| r.get(0),
        )
        .expect("query");
    assert_eq!(bad, 0);
    // A second run finds the point stored and does not run it again.
    let again = sdsc_run(&db, "1");
    assert!(String::from_utf8_lossy(&again.stdout).contains("already stored"));
    // One thread stores exactly what two stored (MOGA evaluations and forks are spread over threads).
    let db1 = dir.path().join("p1.sqlite");
    let one = sdsc_run(&db1, "1");
    assert!(one.status.success(), "{}", String::from_utf8_lossy(&one.stderr));
    let rows = |path: &std::path::Path| -> Vec<String> {
        let conn = rusqlite::Connection::open(path).expect("store");
        let mut st =
            conn.prepare("SELECT * FROM provision_submissions ORDER BY point_id, submission, alpha").expect("sql");
        st.query_map([], |r| {
            Ok(format!(
                "{:?}",
                (
                    r.get::<_, i64>(1)?,
                    r.get::<_, f64>(3)?,
                    r.get::<_, Option<i64>>(4)?,
                    r.get::<_, Option<f64>>(5)?,
                    r.get::<_, Option<i64>>(7)?
                )
            ))
        })
        .expect("query")
        .collect::<Result<_, _>>()
        .expect("rows")
    };
    assert_eq!(rows(&db), rows(&db1));
}

#[test]
fn bad_input_is_refused_with_its_place() {
    let dir = tempfile::tempdir().expect("temp dir");
    let run = |args: &[&str]| {
        let out = common::slasim().args(args).output().expect("runs");
        (out.status.code(), String::from_utf8_lossy(&out.stderr).into_owned())
    };
    let (code, err) = run(&["provision", "run", "--alpha", "1.5", "--submissions", "1"]);
    assert_eq!(code, Some(1));
    assert!(err.contains("alpha") && err.contains("1.5"), "{err}");

    // A workflow file is refused with its file:line and the field or task at fault.
    let refused = |name: &str, text: &str, place: &str, word: &str| {
        let path = dir.path().join(name);
        std::fs::write(&path, text).expect("write");
        let (code, err) = run(&["provision", "run", "--workflow", path.to_str().expect("utf-8"), "--submissions", "1"]);
        assert_eq!(code, Some(1), "{name}");
        assert!(err.contains(place) && err.to_lowercase().contains(word), "{name}: {err}");
    };
    refused("cyclic.wf", "a 10 1 b\nb 10 1 a\n", "cyclic.wf:1", "cycle");
    refused("unknown.wf", "a 10 1\nb 10 1 zz\n", "unknown.wf:2", "zz");
    refused("negative.wf", "# a comment\na -5 1\n", "negative.wf:2", "runtime");
    refused("wide.wf", "a 10 1\nhuge 10 100000 a\n", "wide.wf:2", "huge");

    // A config: a bad value names its file:line; the old dialect names the key to use instead.
    let config = dir.path().join("bad.toml");
    std::fs::write(
        &config,
        "name = \"x\"\n[provision]\n[[sweep]]\nname = \"g\"\n[sweep.axes]\nalphas = [[0.5, -0.1]]\n",
    )
    .expect("write");
    let (code, err) = run(&["sweep", config.to_str().expect("utf-8")]);
    assert_eq!(code, Some(1));
    assert!(err.contains("bad.toml:6") && err.contains("alphas"), "{err}");

    std::fs::write(&config, "name = \"x\"\n[provision]\nbogus = 1\n[[sweep]]\n").expect("write");
    let (code, err) = run(&["sweep", config.to_str().expect("utf-8")]);
    assert_eq!(code, Some(1));
    assert!(err.contains("bad.toml:3") && err.contains("bogus"), "{err}");

    std::fs::write(&config, "name = \"x\"\n\n[[group]]\nname = \"g\"\npool = [{ trace = \"synthetic\" }]\n")
        .expect("write");
    let (code, err) = run(&["sweep", config.to_str().expect("utf-8")]);
    assert_eq!(code, Some(1));
    assert!(err.contains("bad.toml:3") && err.contains("[[sweep]]"), "{err}");
}

#[test]
fn priced_reservations_on_ctc_cost_nothing_at_alpha_one_and_more_at_alpha_zero() {
    let dir = tempfile::tempdir().expect("temp dir");
    let db = dir.path().join("price.sqlite");
    let out = common::slasim()
        .args(["provision", "price", "--trace", "CTC-SP2-1996-3.1-cln.swf.gz", "--capacity", "430", "--days", "10"])
        .args(["--alpha", "0", "--alpha", "1", "--db"])
        .arg(&db)
        .output()
        .expect("runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let conn = rusqlite::Connection::open(&db).expect("store");
    let (requests, bought, negative): (i64, i64, i64) = conn
        .query_row("SELECT count(*), sum(bought), sum(f < 0) FROM priced_reservations", [], |r| {
            Ok((r.get(0)?, r.get(1)?, r.get(2)?))
        })
        .expect("query");
    assert!(requests > 100, "{requests}");
    // Every chosen offer was admissible when it was bought, and no price is negative.
    assert_eq!((bought, negative), (requests, 0));
    let mean = |alpha: f64| -> f64 {
        conn.query_row("SELECT avg(f) FROM priced_reservations WHERE alpha = ?1", [alpha], |r| r.get(0)).expect("query")
    };
    // α = 1 always finds an offer with f = 0 (after the end of the schedule); α = 0 pays for earlier starts.
    assert_eq!(mean(1.0), 0.0);
    assert!(mean(0.0) > 0.0);
    let waits = |alpha: f64| -> f64 {
        conn.query_row("SELECT avg(wait) FROM priced_reservations WHERE alpha = ?1", [alpha], |r| r.get(0))
            .expect("query")
    };
    assert!(waits(0.0) < waits(1.0));
    // Every bought slot is priced under both policies on the state it was sold
    // on; the conservative price is the f charged, to the last bit.
    let (audited, equal, easy_priced): (i64, i64, i64) = conn
        .query_row(
            "SELECT count(f_conservative), sum(f_conservative = f), sum(f_easy > 0) FROM priced_reservations WHERE bought",
            [],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )
        .expect("query");
    assert_eq!((audited, equal), (bought, bought));
    // α = 1 buys the slots conservative projection calls free; EASY's disagrees on some.
    assert!(easy_priced > 0);
    // The provider's view: at α = 1 nothing is charged; the counterfactual run measured the same jobs.
    let harm = |alpha: f64| -> (f64, Option<f64>) {
        conn.query_row(
            "SELECT charged, suffered FROM pricing_harm JOIN priced_reservations USING (point_id) WHERE alpha = ?1 LIMIT 1",
            [alpha],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .expect("query")
    };
    assert_eq!(harm(1.0).0, 0.0);
    assert!(harm(0.0).0 > 0.0 && harm(0.0).1.is_some(), "{:?}", harm(0.0));
    // Reservations delay the queue by more than nothing even when nothing was charged (later arrivals).
    assert!(harm(1.0).1.is_some_and(|s| s > 0.0), "{:?}", harm(1.0));
    let report = dir.path().join("report");
    let out = common::slasim().arg("report").arg("--db").arg(&db).arg("--out").arg(&report).output().expect("runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let csv = std::fs::read_to_string(report.join("tables/pricing.csv")).expect("pricing table");
    assert!(csv.starts_with("group,trace,estimates,pricing") && csv.lines().count() == 3, "{csv}");

    let bad = common::slasim().args(["provision", "price", "--share", "150", "--db"]).arg(&db).output().expect("runs");
    assert_eq!(bad.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("share"), "{}", String::from_utf8_lossy(&bad.stderr));
    let bad =
        common::slasim().args(["provision", "price", "--start-within", "-1", "--db"]).arg(&db).output().expect("runs");
    assert_eq!(bad.status.code(), Some(1));
    let err = String::from_utf8_lossy(&bad.stderr);
    assert!(err.contains("--start-within") && err.contains("deadline"), "{err}");

    // A one-hour start deadline: every reservation bought starts within the hour, even at α = 1.
    let db = dir.path().join("deadline.sqlite");
    let out = common::slasim()
        .args(["provision", "price", "--trace", "CTC-SP2-1996-3.1-cln.swf.gz", "--capacity", "430", "--days", "10"])
        .args(["--alpha", "1", "--start-within", "1", "--db"])
        .arg(&db)
        .output()
        .expect("runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let conn = rusqlite::Connection::open(&db).expect("store");
    let (bought, late): (i64, i64) = conn
        .query_row("SELECT sum(bought), sum(bought AND wait > 3600) FROM priced_reservations", [], |r| {
            Ok((r.get(0)?, r.get(1)?))
        })
        .expect("query");
    assert!(bought > 100 && late == 0, "{bought} {late}");
}
