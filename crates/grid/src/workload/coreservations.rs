//! Co-reservation request workloads, derived from cluster 0's jobs.
//!
//! Reference: `coreservation-thesis-spec.md` §6.3 (reservation workloads 1–3),
//! §6.8 (the 6-hour-span series with 2 and 3 parts), ambiguities A11 (one
//! random number per request), A32 (submit clamped at 0).
//!
//! Contract:
//! - Every job of cluster 0's window submitted before `t_stop` is a template
//!   with probability `template_probability`; a template draws one uniform u
//!   (two with `independent_random`: one for the size, one for the start).
//!   The picks and draws come from one seeded stream and do not depend on the
//!   workload kind, so R1, R2, R3 and the §6.8 series of one seed are built
//!   from the same templates and numbers.
//! - From a template with wall-clock limit wc and c CPUs:
//!   duration = wc; parts = [c, min(cap, round(0.7·c + 0.6·u·c))] (at least 1);
//!   earliest start f = round(u · t_stop);
//!   - R1: deadline f + wc + min(86,400, 6·wc), submit max(0, f − 3·wc);
//!   - R2: as R1 but submit max(0, f − wc/2);
//!   - R3: as R2 but deadline f + wc + min(86,400, 3·wc);
//!   - §6.8: span 6 h (deadline f + wc + 21,600), submit max(0, f − 30); the
//!     3-part series duplicates the second part and drops every third request;
//!   - none: no request (the job-only reference of Table 6).
//! - Requests are returned in submit order (ties in template order), ids 0.. .

use rand::RngExt;
use serde::{Deserialize, Serialize};

use crate::streams::CO_RESERVATION_REQUESTS;
use crate::workload::corequest::CoRequest;
use slasim_core::rng::stream;
use slasim_core::units::{DAY, Time};
use slasim_single::workload::job::Job;

/// Which request workload.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RequestWorkload {
    /// Long advance booking (up to 3 · wc), span min(1 day, 6 · wc).
    #[default]
    R1,
    /// Short advance booking (wc / 2), span min(1 day, 6 · wc).
    R2,
    /// Short advance booking and short span, min(1 day, 3 · wc).
    R3,
    /// §6.8: two parts, 6-hour span, submitted 30 s before the earliest start.
    #[serde(rename = "r1-6h-2part")]
    Span6h2Part,
    /// §6.8: three parts (the third a copy of the second), every third request dropped.
    #[serde(rename = "r1-6h-3part")]
    Span6h3Part,
    /// No requests: the job-only reference simulation (§6.2, Table 6).
    None,
}

impl RequestWorkload {
    /// Every workload with its name.
    pub const ALL: [(&'static str, RequestWorkload); 6] = [
        ("r1", RequestWorkload::R1),
        ("r2", RequestWorkload::R2),
        ("r3", RequestWorkload::R3),
        ("r1-6h-2part", RequestWorkload::Span6h2Part),
        ("r1-6h-3part", RequestWorkload::Span6h3Part),
        ("none", RequestWorkload::None),
    ];

    /// Its name.
    pub fn name(self) -> &'static str {
        RequestWorkload::ALL.iter().find(|(_, w)| *w == self).map_or("?", |(n, _)| n)
    }
}

/// How requests are drawn.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct RequestSettings {
    /// Which workload.
    pub workload: RequestWorkload,
    /// Probability that a job of cluster 0 becomes a template (thesis: 0.1).
    pub template_probability: f64,
    /// Draw separate random numbers for the size and the start (A11).
    pub independent_random: bool,
    /// s of Alg. 5 for every request (k = 1 − s).
    pub start_weight: f64,
}

impl Default for RequestSettings {
    fn default() -> Self {
        RequestSettings {
            workload: RequestWorkload::R1,
            template_probability: 0.1,
            independent_random: false,
            start_weight: 0.0,
        }
    }
}

/// The requests of `settings.workload` from cluster 0's `jobs`, submitted
/// before `t_stop`, parts capped at `cap` CPUs.
pub fn requests(jobs: &[Job], settings: &RequestSettings, t_stop: Time, cap: u32, seed: u64) -> Vec<CoRequest> {
    let mut rng = stream(seed, CO_RESERVATION_REQUESTS, 0);
    let mut out: Vec<CoRequest> = Vec::new();
    let mut templates = 0usize;
    for job in jobs.iter().filter(|j| j.occurrence < t_stop) {
        let pick: f64 = rng.random();
        if pick >= settings.template_probability {
            continue;
        }
        let u: f64 = rng.random();
        let v: f64 = if settings.independent_random { rng.random() } else { u };
        let index = templates;
        templates += 1;
        let wc = job.estimate.max(1);
        let cpus = job.nodes;
        let second = ((0.7 * f64::from(cpus) + 0.6 * u * f64::from(cpus)).round() as u32).clamp(1, cap.max(1));
        let earliest = (v * t_stop as f64).round() as Time;
        let (span, submit) = match settings.workload {
            RequestWorkload::R1 => ((6 * wc).min(DAY), earliest - 3 * wc),
            RequestWorkload::R2 => ((6 * wc).min(DAY), earliest - wc / 2),
            RequestWorkload::R3 => ((3 * wc).min(DAY), earliest - wc / 2),
            RequestWorkload::Span6h2Part | RequestWorkload::Span6h3Part => (6 * 3600, earliest - 30),
            RequestWorkload::None => continue,
        };
        let mut parts = vec![cpus, second];
        if settings.workload == RequestWorkload::Span6h3Part {
            if index % 3 == 2 {
                continue;
            }
            parts.push(second);
        }
        out.push(CoRequest {
            id: 0,
            submit: submit.max(0),
            earliest_start: earliest,
            deadline: earliest + wc + span,
            duration: wc,
            parts,
            start_weight: settings.start_weight,
            template: job.swf_id,
        });
    }
    out.sort_by_key(|r| r.submit);
    for (id, r) in out.iter_mut().enumerate() {
        r.id = id as u32;
    }
    out
}
