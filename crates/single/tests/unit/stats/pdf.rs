use slasim_core::units::DAY;
use slasim_core::units::Time;
use slasim_single::stats::aged::BINS;
use slasim_single::stats::aged::PdfUpdate;
use slasim_single::stats::pdf::*;
use slasim_single::workload::job::Job;

fn job(estimate: Time, runtime: Time, nodes: u32, user: i64) -> Job {
    Job {
        id: 0,
        swf_id: 1,
        occurrence: 0,
        release: 0,
        deadline: 2 * estimate,
        estimate,
        runtime,
        nodes,
        user,
        application: -1,
        queue: 1,
        fee: 0.0,
        penalty: 0.0,
        reservation: false,
    }
}

#[test]
fn percent_pdf_bins_ratios_and_caps_overruns() {
    // Ratios 10 %, 10.4 % (→ 10), 50 %, 100 %, 150 % (→ 100).
    let history = [
        job(1000, 100, 1, 1),
        job(1000, 104, 1, 1),
        job(1000, 500, 1, 1),
        job(1000, 1000, 1, 1),
        job(1000, 1500, 1, 1),
    ];
    let cfg = PdfConfig { source: PdfSource::default(), min_class_size: 1, ..PdfConfig::default() };
    let m = RuntimeModel::learn(&history, &cfg).unwrap();
    let pdf = m.all_jobs();
    assert_eq!(pdf.samples(), 5);
    assert!((pdf.pdf(10) - 0.4).abs() < 1e-15);
    assert!((pdf.pdf(50) - 0.2).abs() < 1e-15);
    assert!((pdf.pdf(100) - 0.4).abs() < 1e-15);
    assert!((pdf.cdf(9) - 0.0).abs() < 1e-15);
    assert!((pdf.cdf(49) - 0.4).abs() < 1e-15);
    assert!((pdf.cdf(50) - 0.6).abs() < 1e-15);
    assert_eq!(pdf.cdf(100), 1.0);
    assert!((pdf.mean_ratio() - (0.4 * 0.1 + 0.2 * 0.5 + 0.4)).abs() < 1e-12);
}

#[test]
fn classes_by_runtime_and_resources_with_fallback() {
    // 3 short serial jobs (ratio 20 %) and 3 long 64-node jobs (ratio 90 %).
    let mut history = vec![job(300, 60, 1, 1); 3];
    history.extend(vec![job(50_000, 45_000, 64, 2); 3]);
    let cfg = PdfConfig { min_class_size: 3, ..PdfConfig::default() };
    let m = RuntimeModel::learn(&history, &cfg).unwrap();
    assert_eq!(m.class_count(), 2);
    assert_eq!(m.pdf(&job(400, 1, 8, 9)).pdf(20), 1.0, "< 10 min frame");
    assert_eq!(m.pdf(&job(44_000, 1, 8, 9)).pdf(90), 1.0, "> 12 h frame");
    // A 2-hour job has no class of its own: all jobs.
    assert!((m.pdf(&job(7200, 1, 8, 9)).pdf(20) - 0.5).abs() < 1e-15);
    // Resource classes: 64 nodes is the 33–64 frame.
    let cfg = PdfConfig { source: "resources".parse().unwrap(), min_class_size: 3, ..PdfConfig::default() };
    let m = RuntimeModel::learn(&history, &cfg).unwrap();
    assert_eq!(m.pdf(&job(10, 1, 40, 9)).pdf(90), 1.0);
    assert!((m.pdf(&job(10, 1, 65, 9)).pdf(90) - 0.5).abs() < 1e-15, "> 64 falls back");
    // Too-small classes fall back; the error fallback refuses them.
    let cfg = PdfConfig { min_class_size: 4, fallback: Fallback::Error, ..PdfConfig::default() };
    let m = RuntimeModel::learn(&history, &cfg).unwrap();
    assert_eq!(m.class_count(), 0);
    let err = m.check_jobs(&[job(300, 60, 1, 1)]).unwrap_err();
    assert_eq!(err.setting, "pdf_fallback");
}

#[test]
fn no_history_is_an_error_naming_the_setting() {
    let err = RuntimeModel::learn(&[], &PdfConfig::default()).unwrap_err();
    assert_eq!(err.setting, "pdf_source");
    let err =
        RuntimeModel::learn(&[job(10, 1, 1, 1)], &PdfConfig { step_seconds: 0, ..PdfConfig::default() }).unwrap_err();
    assert_eq!(err.setting, "step_seconds");
}

#[test]
fn sources_parse_and_print() {
    let s: PdfSource = "runtime+user".parse().unwrap();
    assert!(s.runtime && s.user && !s.resources);
    assert_eq!(s.to_string(), "runtime+user");
    assert_eq!("all".parse::<PdfSource>().unwrap().to_string(), "all");
    assert_eq!("runtimes".parse::<PdfSource>().unwrap_err().setting, "pdf_source");
}

#[test]
fn stepped_pdf_spreads_percent_bins_over_time_steps() {
    // Estimate 10 min, Δ = 60 s: 10 steps; 10 % → step 1; 55 % → step 6
    // (5.5 rounds to 6); 100 % → step 10.
    let mut counts = [0u64; BINS];
    counts[10] = 1;
    counts[55] = 1;
    counts[100] = 2;
    let pdf = PercentPdf::from_counts(&counts);
    let mut out = Vec::new();
    let k = stepped(&pdf, 600, 60, Rounding::Round, &mut out);
    assert_eq!(k, 10);
    assert_eq!(out.len(), 11);
    assert_eq!((out[1], out[6], out[10]), (0.25, 0.25, 0.5));
    assert!((out.iter().sum::<f64>() - 1.0).abs() < 1e-15);
    // A 90-s estimate has 2 steps; 100 % sits at the last one.
    let k = stepped(&pdf, 90, 60, Rounding::Round, &mut out);
    assert_eq!((k, out[2]), (2, 0.5));
}

fn online(half_life_days: Option<f64>) -> PdfConfig {
    PdfConfig { min_class_size: 1, update: PdfUpdate::Online, half_life_days, ..PdfConfig::default() }
}

/// History: two jobs of one class at 50 % (bin 50). With a one-day
/// half-life, a job at 100 % ending one day in weighs 1 against the
/// history's 2 × ½ = 1: the class PDF is ½ at 50 % and ½ at 100 %.
/// Without ageing it is ⅔ / ⅓. A static model ignores the end.
#[test]
fn online_pdfs_age_by_hand() {
    let history = [job(1000, 500, 1, 1), job(1000, 500, 1, 1)];
    let full = job(1000, 1000, 1, 1);
    let mut aged = RuntimeModel::learn(&history, &online(Some(1.0))).unwrap();
    aged.observe(&full, DAY);
    assert!((aged.pdf(&full).pdf(50) - 0.5).abs() < 1e-12 && (aged.pdf(&full).pdf(100) - 0.5).abs() < 1e-12);
    assert!((aged.all_jobs().pdf(100) - 0.5).abs() < 1e-12);
    let mut kept = RuntimeModel::learn(&history, &online(None)).unwrap();
    kept.observe(&full, DAY);
    assert!((kept.pdf(&full).pdf(100) - 1.0 / 3.0).abs() < 1e-12);
    let mut fixed = RuntimeModel::learn(&history, &PdfConfig { min_class_size: 1, ..PdfConfig::default() }).unwrap();
    fixed.observe(&full, DAY);
    assert_eq!(fixed.pdf(&full).pdf(100), 0.0);
    // An end older than the latest one is refused: it changes nothing.
    let before = aged.pdf(&full).clone();
    aged.observe(&job(1000, 100, 1, 1), DAY - 1);
    assert_eq!(aged.pdf(&full), &before);
    // Bad settings name themselves.
    for days in [0.0, -1.0, f64::NAN, f64::INFINITY] {
        let err = RuntimeModel::learn(&history, &online(Some(days))).unwrap_err();
        assert_eq!(err.setting, "pdf_half_life");
    }
}

proptest::proptest! {
    #![proptest_config(crate::testing::cases(256))]

    /// Online statistics never use an outcome from the future, and age as
    /// they should. Fed ends in any order, the model takes exactly the
    /// ends no older than one already taken (a late report of an older
    /// end is refused), and its "all jobs" PDF is the closed form: each
    /// taken end at t weighs e^(rate·t) against the history's 1 at time 0.
    #[test]
    fn online_pdfs_see_only_past_ends_and_age_in_closed_form(
        ends in proptest::collection::vec((0i64..10 * DAY, 1i64..2000), 1..40),
        half_life in proptest::option::of(0.5f64..30.0),
    ) {
        let history: Vec<Job> = (0..40).map(|i| job(1000, 10 + 25 * i, 1, 1)).collect();
        let config = online(half_life);
        let mut model = RuntimeModel::learn(&history, &config).unwrap();
        let mut taken: Vec<(Time, Job)> = Vec::new();
        for &(t, r) in &ends {
            let j = job(1000, r, 1, 1);
            model.observe(&j, t);
            if taken.last().is_none_or(|l| t >= l.0) {
                taken.push((t, j));
            }
        }
        let rate = half_life.map_or(0.0, |d| std::f64::consts::LN_2 / (d * DAY as f64));
        let mut weights = [0.0; BINS];
        for h in &history {
            weights[RuntimeModel::bin(&config, h)] += 1.0;
        }
        for (t, j) in &taken {
            weights[RuntimeModel::bin(&config, j)] += (rate * *t as f64).exp();
        }
        let total: f64 = weights.iter().sum();
        for (b, w) in weights.iter().enumerate() {
            let got = model.all_jobs().pdf(b);
            proptest::prop_assert!((got - w / total).abs() < 1e-9, "bin {}: {} vs {}", b, got, w / total);
        }
    }
}
