//! The dice point kind registered outside slasim: swept on two workers,
//! swept in two shards and merged into the same store, and queried.

use std::path::Path;
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_slasim-custom-strategy");

fn ok(args: &[&str]) -> String {
    let out = Command::new(BIN)
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("the example binary starts");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{args:?} failed: {stderr}");
    String::from_utf8_lossy(&out.stdout).into_owned() + &stderr
}

/// Every row of the dice tables and the experiment's points, in key order.
fn dice_rows(db: &Path) -> Vec<String> {
    let conn = rusqlite::Connection::open(db).unwrap();
    let mut rows = Vec::new();
    for sql in [
        "SELECT point_id, seed, rolls, faces, total FROM dice_points ORDER BY point_id",
        "SELECT point_id, roll, value, 0, 0 FROM dice_rolls ORDER BY point_id, roll",
        "SELECT run_id, sweep, 0, 0, 0 FROM experiment_points ORDER BY run_id",
    ] {
        let mut stmt = conn.prepare(sql).unwrap();
        let found = stmt
            .query_map([], |r| {
                let cells: Vec<String> = (0..5)
                    .map(|i| r.get::<_, rusqlite::types::Value>(i).map(|v| format!("{v:?}")))
                    .collect::<Result<_, _>>()?;
                Ok(cells.join(" "))
            })
            .unwrap()
            .map(Result::unwrap);
        rows.extend(found);
    }
    rows
}

#[test]
fn a_registered_kind_is_swept_sharded_merged_and_queried() {
    let dir = tempfile::tempdir().unwrap();
    let path = |name: &str| dir.path().join(name).to_str().unwrap().to_string();
    let whole = path("whole.sqlite");
    assert!(ok(&["sweep", "dice.toml", "--db", &whole, "--jobs", "2", "--no-progress"]).contains("8 simulated"));
    let (one, two, merged) = (path("one.sqlite"), path("two.sqlite"), path("merged.sqlite"));
    ok(&["sweep", "dice.toml", "--shard", "1/2", "--db", &one, "--no-progress"]);
    ok(&["sweep", "dice.toml", "--shard", "2/2", "--db", &two, "--no-progress"]);
    assert!(ok(&["merge", &one, &two, "--db", &merged]).contains("8 points"));
    let rows = dice_rows(Path::new(&whole));
    assert_eq!(rows.len(), 8 + 8 * 5 + 8);
    assert_eq!(rows, dice_rows(Path::new(&merged)), "the merged store differs from the whole sweep");
    // A second sweep resumes: nothing left to roll.
    assert!(ok(&["sweep", "dice.toml", "--db", &whole, "--no-progress"]).contains("8 already there, 0 simulated"));
    let out = ok(&[
        "query",
        "--db",
        &merged,
        "--csv",
        "SELECT faces, count(*) AS n FROM dice_rolls JOIN dice_points USING (point_id) GROUP BY faces ORDER BY faces",
    ]);
    assert!(out.contains("4,10") && out.contains("12,10"), "{out}");
    // Its axes are listed with the built-in kinds'.
    assert!(ok(&["list", "axes"]).contains("faces of the die"));
}
