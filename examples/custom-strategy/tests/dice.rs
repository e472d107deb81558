//! The dice point kind registered outside slasim: swept on two workers,
//! swept in two shards and merged into the same store, queried, reported
//! (its own section) and rolled by its own subcommand.

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

/// The dice kind's report section: its table, from its rows (4 dice, 2
/// points of 5 rolls each), in the page and on its own.
#[test]
fn a_registered_kind_has_its_report_section() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("dice.sqlite");
    let db = db.to_str().unwrap();
    ok(&["sweep", "dice.toml", "--db", db, "--no-progress"]);
    let table = ok(&["report", "--db", db, "--table", "dice-faces"]);
    let rows: Vec<&str> = table.lines().filter(|l| l.starts_with("| ") && !l.starts_with("| faces")).collect();
    assert_eq!(rows.len(), 4, "{table}");
    let sql = "SELECT faces, count(*), sum(total) * 1.0 / sum(rolls) FROM dice_points GROUP BY faces ORDER BY faces";
    let stored = ok(&["query", "--db", db, "--csv", sql]);
    for (row, line) in rows.iter().zip(stored.lines().skip(1)) {
        let cells: Vec<&str> = row.split('|').map(str::trim).filter(|c| !c.is_empty()).collect();
        let want: Vec<&str> = line.split(',').collect();
        assert_eq!(cells[..2], want[..2], "{table}\n{stored}");
        let (got, want): (f64, f64) = (cells[2].parse().unwrap(), want[2].parse().unwrap());
        assert!((got - want).abs() < 1e-3, "{table}\n{stored}");
    }
    let out = dir.path().join("report");
    let summary = ok(&["report", "--db", db, "--out", out.to_str().unwrap()]);
    assert!(out.join("tables/dice-faces.csv").is_file(), "{summary}");
    assert!(std::fs::read_to_string(out.join("index.html")).unwrap().contains("Dice: mean roll by faces"));
}

/// `slasim dice roll` rolls what a stored point rolled, and refuses a die
/// without faces as every command refuses a bad flag.
#[test]
fn a_registered_kind_has_its_subcommand() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("dice.sqlite");
    let db = db.to_str().unwrap();
    ok(&["sweep", "dice.toml", "--db", db, "--no-progress"]);
    let sql = "SELECT group_concat(value, ' ') FROM (SELECT r.value FROM dice_rolls r JOIN dice_points p \
               USING (point_id) WHERE p.faces = 8 AND p.seed = 2 ORDER BY r.roll)";
    let stored = ok(&["query", "--db", db, "--csv", sql]);
    let rolled = ok(&["dice", "roll", "--faces", "8", "--seed", "2", "--rolls", "5"]);
    assert_eq!(rolled.trim(), stored.lines().nth(1).unwrap().trim(), "{stored}");
    assert!(ok(&["--help"]).contains("dice"));
    let refused = Command::new(BIN).args(["dice", "roll", "--faces", "0"]).output().unwrap();
    assert_eq!(refused.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("--faces"));
}
