//! The co-reservation thesis' published values, to put next to ours.
//!
//! Reference: `coreservation-thesis-spec.md` ch. 6: Table 6 (the job-only
//! reference), Figs. 19c/20c (§6.4), Table 9 (§6.5), Tables 11–12 and Fig.
//! 25b (§6.6), Table 14 (§6.7), Table 17 (§6.8), Tables 19–20 (§6.9). All
//! single runs.
//!
//! Contract: [`coreservation_values`] lists every value with the run
//! setting it belongs to; [`TABLE_6`] is Table 6 by cluster.

/// One value the co-reservation thesis reports (`coreservation-thesis-spec.md`
/// ch. 6; all single runs), with the run setting it belongs to.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ThesisValue {
    /// Where it is printed.
    pub section: &'static str,
    /// Our algorithm name.
    pub algorithm: &'static str,
    /// Our request workload name.
    pub workload: &'static str,
    /// Cluster candidates.
    pub clusters: u32,
    /// minsize, s.
    pub minsize: i64,
    /// max_zeitfenster.
    pub starts: u32,
    /// Alg. 5's s, when the value depends on it.
    pub start_weight: Option<f64>,
    /// The cluster (BM) for per-cluster values.
    pub cluster: Option<u32>,
    /// Our metric (a `grid_points` or `cluster_runs` column).
    pub metric: &'static str,
    /// The thesis' value, in our unit (fractions, seconds).
    pub value: f64,
    /// How it was read.
    pub note: &'static str,
}

/// Table 6: the job-only simulation of BM 0-6: (jobs, utilisation %,
/// expansion factor, wall-clock accuracy).
pub const TABLE_6: [(f64, f64, f64, f64); 7] = [
    (2226.0, 68.0, 2.0, 0.23),
    (1026.0, 65.0, 1.73, 0.45),
    (2167.0, 72.0, 2.04, 0.37),
    (1829.0, 84.0, 1.63, 0.40),
    (1955.0, 82.0, 2.4, 0.36),
    (1771.0, 68.0, 1.13, 0.36),
    (2068.0, 85.0, 5.92, 0.32),
];

/// Every value of the thesis a Grid report compares with.
pub fn coreservation_values() -> Vec<ThesisValue> {
    let mut v = Vec::new();
    let base = ThesisValue {
        section: "",
        algorithm: "",
        workload: "",
        clusters: 4,
        minsize: 300,
        starts: 20,
        start_weight: None,
        cluster: None,
        metric: "failure_rate",
        value: 0.0,
        note: "",
    };
    // §6.4, Figs. 19c and 20c: Alg. 1's failure rate per (minsize, w) and C.
    let grid = [(1, 1, 4), (1, 1, 7), (1, 3, 4), (1, 3, 7), (300, 20, 4), (300, 20, 7), (1, 200, 4), (1, 200, 7)];
    let r1 = [0.12, 0.06, 0.06, 0.01, 0.07, 0.02, 0.06, 0.0];
    let r3 = [0.3, 0.11, 0.08, 0.05, 0.1, 0.03, 0.07, 0.02];
    for (workload, rates, fig) in [("r1", r1, "§6.4 Fig. 19c"), ("r3", r3, "§6.4 Fig. 20c")] {
        for (&(minsize, starts, clusters), value) in grid.iter().zip(rates) {
            v.push(ThesisValue { section: fig, algorithm: "a1", workload, clusters, minsize, starts, value, ..base });
        }
    }
    // §6.5, Table 9: total messages on R3, C4, over 213 requests.
    for (algorithm, total) in [("a1", 2016.0), ("a2", 2089.0)] {
        v.push(ThesisValue {
            section: "§6.5 Table 9",
            algorithm,
            workload: "r3",
            metric: "messages_mean",
            value: total / 213.0,
            note: "total messages / 213 requests",
            ..base
        });
    }
    // §6.6, Table 11 (failure rates), Fig. 25b (unfairness), Table 12 (waits, R3).
    for (workload, a2, a3, u2, u3) in
        [("r1", 0.07, 0.51, 0.33, 0.02), ("r2", 0.07, 0.60, 0.43, 0.01), ("r3", 0.11, 0.75, 0.50, 0.01)]
    {
        for (algorithm, metric, value) in [
            ("a2", "failure_rate", a2),
            ("a3", "failure_rate", a3),
            ("a2", "unfairness_mean", u2),
            ("a3", "unfairness_mean", u3),
        ] {
            let section = if metric == "failure_rate" { "§6.6 Table 11" } else { "§6.6 Fig. 25b" };
            v.push(ThesisValue { section, algorithm, workload, metric, value, ..base });
        }
    }
    v.push(ThesisValue {
        section: "§6.6 Fig. 25b",
        algorithm: "a3-star",
        workload: "r3",
        metric: "unfairness_mean",
        value: 0.0,
        ..base
    });
    for (algorithm, max, top10) in [("a2", 499_859.0, 337_874.0), ("a3", 261_616.0, 219_572.0)] {
        v.push(ThesisValue {
            section: "§6.6 Table 12",
            algorithm,
            workload: "r3",
            metric: "wait_max",
            value: max,
            ..base
        });
        v.push(ThesisValue {
            section: "§6.6 Table 12",
            algorithm,
            workload: "r3",
            metric: "wait_top10",
            value: top10,
            ..base
        });
    }
    // Table 11 per cluster: filtering degree and infeasibility rate of A2 and A3; Table 15: A3b's infeasibility.
    let per_bm: [(&str, &str, &str, [f64; 4]); 15] = [
        ("r1", "a2", "filtering_degree", [0.20, 0.18, 0.17, 0.18]),
        ("r1", "a2", "infeasibility_rate", [0.14, 0.16, 0.14, 0.16]),
        ("r1", "a3", "filtering_degree", [0.68, 0.72, 0.63, 0.73]),
        ("r1", "a3", "infeasibility_rate", [0.59, 0.64, 0.54, 0.62]),
        ("r2", "a2", "filtering_degree", [0.32, 0.31, 0.24, 0.31]),
        ("r2", "a2", "infeasibility_rate", [0.21, 0.22, 0.17, 0.22]),
        ("r2", "a3", "filtering_degree", [0.71, 0.83, 0.78, 0.87]),
        ("r2", "a3", "infeasibility_rate", [0.66, 0.74, 0.64, 0.75]),
        ("r3", "a2", "filtering_degree", [0.34, 0.30, 0.31, 0.41]),
        ("r3", "a2", "infeasibility_rate", [0.29, 0.25, 0.23, 0.33]),
        ("r3", "a3", "filtering_degree", [0.84, 0.87, 0.86, 0.88]),
        ("r3", "a3", "infeasibility_rate", [0.78, 0.80, 0.77, 0.78]),
        ("r1", "a3b", "infeasibility_rate", [0.48, 0.57, 0.52, 0.63]),
        ("r2", "a3b", "infeasibility_rate", [0.54, 0.63, 0.59, 0.65]),
        ("r3", "a3b", "infeasibility_rate", [0.68, 0.71, 0.76, 0.75]),
    ];
    for (workload, algorithm, metric, values) in per_bm {
        let section = if algorithm == "a3b" { "§6.7 Table 15" } else { "§6.6 Table 11" };
        for (bm, value) in values.into_iter().enumerate() {
            v.push(ThesisValue { section, algorithm, workload, metric, value, cluster: Some(bm as u32), ..base });
        }
    }
    // §6.7: Alg. 3b's failure rate = Alg. 3's minus ΔRate (Table 14; percentage points, A18).
    for (workload, value) in [("r1", 0.51 - 0.13), ("r2", 0.60 - 0.12), ("r3", 0.75 - 0.15)] {
        v.push(ThesisValue {
            section: "§6.7 Table 14",
            algorithm: "a3b",
            workload,
            value,
            note: "derived: Alg. 3's rate minus ΔRate",
            ..base
        });
    }
    // §6.8, Table 17: sorted A2, sorted A3, A4 on the 6-hour series.
    let series = [
        ("r1-6h-2part", 4, [(0.11, 0.23), (0.53, 0.52), (0.52, 0.30)]),
        ("r1-6h-2part", 7, [(0.01, 0.04), (0.47, 0.47), (0.33, 0.25)]),
        ("r1-6h-3part", 7, [(0.03, 0.08), (0.60, 0.53), (0.53, 0.29)]),
    ];
    for (workload, clusters, values) in series {
        for (algorithm, (fail, rel)) in ["a2-sorted", "a3-sorted", "a4"].into_iter().zip(values) {
            let t = ThesisValue { section: "§6.8 Table 17", algorithm, workload, clusters, ..base };
            v.push(ThesisValue { value: fail, ..t });
            v.push(ThesisValue {
                metric: "rel_start_grid_mean",
                value: rel,
                note: "relative to f_start and the last grid start",
                ..t
            });
        }
    }
    // §6.9.1, Table 19: Alg. 5 on R1 with 7 clusters, per start weight s.
    let weights = [0.0, 0.1, 0.2, 0.3, 0.4, 1.0];
    let cost = [8698.0, 8846.0, 8872.0, 9428.0, 10440.0, 15935.0];
    let rel_start = [0.58, 0.27, 0.27, 0.26, 0.22, 0.0];
    let rel_cost = [0.0, 0.0, 0.0, 0.01, 0.03, 0.39];
    let day = [0.21, 0.37, 0.36, 0.38, 0.33, 0.28];
    let night = [0.53, 0.50, 0.45, 0.44, 0.44, 0.41];
    let weekend_start = [0.59, 0.27, 0.32, 0.27, 0.25, 0.0];
    let weekend_cost = [0.0, 0.0, 0.0, 0.02, 0.05, 0.19];
    for k in 0..weights.len() {
        let t = ThesisValue {
            section: "§6.9 Table 19",
            algorithm: "a5",
            workload: "r1",
            clusters: 7,
            start_weight: Some(weights[k]),
            ..base
        };
        v.push(ThesisValue { metric: "cost_mean", value: cost[k], ..t });
        v.push(ThesisValue { metric: "rel_start_mean", value: rel_start[k], ..t });
        v.push(ThesisValue { metric: "rel_cost_mean", value: rel_cost[k], ..t });
        v.push(ThesisValue { metric: "day_share", value: day[k], note: "wholly in 08-18 h", ..t });
        v.push(ThesisValue { metric: "night_share", value: night[k], note: "wholly in 18-08 h", ..t });
        v.push(ThesisValue { metric: "first_weekend_rel_start_mean", value: weekend_start[k], ..t });
        v.push(ThesisValue { metric: "first_weekend_rel_cost_mean", value: weekend_cost[k], ..t });
    }
    // §6.9.2, Table 20 (C4, R1): cost-minimising A5 (s = 0) against A3b with homogeneous costs.
    let table_20: [(&str, Option<f64>, &str, [f64; 4]); 10] = [
        ("a5", Some(0.0), "job_utilisation", [0.64, 0.63, 0.71, 0.71]),
        ("a5", Some(0.0), "reservation_utilisation", [0.10, 0.14, 0.09, 0.19]),
        ("a5", Some(0.0), "expansion_factor", [3.96, 2.56, 3.65, 5.87]),
        ("a5", Some(0.0), "subreservations", [85.0, 74.0, 74.0, 45.0]),
        ("a5", Some(0.0), "backlog_time", [34_462.0, 70_178.0, 50_297.0, 114_654.0]),
        ("a3b", None, "backlog_time", [44_945.0, 68_355.0, 52_518.0, 88_980.0]),
        ("a3b", None, "job_utilisation", [0.65, 0.63, 0.70, 0.76]),
        ("a3b", None, "reservation_utilisation", [0.13, 0.14, 0.11, 0.12]),
        ("a3b", None, "expansion_factor", [5.07, 3.18, 3.38, 3.72]),
        ("a3b", None, "subreservations", [74.0, 51.0, 76.0, 49.0]),
    ];
    for (algorithm, start_weight, metric, values) in table_20 {
        for (bm, value) in values.into_iter().enumerate() {
            v.push(ThesisValue {
                section: "§6.9 Table 20",
                algorithm,
                workload: "r1",
                start_weight,
                cluster: Some(bm as u32),
                metric,
                value,
                ..base
            });
        }
    }
    v
}
