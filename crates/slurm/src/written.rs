//! What slasim read of a `slurm.conf` and of `sacctmgr` dumps, written back
//! in their own syntax, as `slasim slurm conf` prints it.
//!
//! Contract:
//! - [`conf_lines`] writes every setting the twin reads, as `Key=Value`
//!   lines a `slurm.conf` takes (times in Slurm's `D-HH:MM:SS`, minutes
//!   where the man page counts minutes), nodes of one shape and consecutive
//!   names folded into one host list (`c[001-100]`). Read back by
//!   [`crate::conf::parse`], they give the same settings (a test holds it).
//! - [`qos_lines`] and [`assoc_lines`] write each row's limits as `Name=Value`
//!   pairs, in `sacctmgr`'s column names; an unset limit is left out.
//!
//! Sources: `slurm.conf(5)` and `sacctmgr(1)` of Slurm 22.05.

use std::fmt::Write as _;

use crate::conf::{Consumable, EnforcePartLimits, NodeDef, PreemptType, SlurmConf};
use crate::preemption::mode::{PreemptAction, PreemptMode};
use crate::sacctmgr::{Assoc, Qos, Share, Tres};
use slasim_sim::units::Time;

/// A time limit as `slurm.conf` and `sacctmgr` write it: `D-HH:MM:SS`, or
/// `HH:MM:SS` under a day.
pub fn slurm_time(seconds: Time) -> String {
    let (days, rest) = (seconds / 86_400, seconds % 86_400);
    let hms = format!("{:02}:{:02}:{:02}", rest / 3600, rest % 3600 / 60, rest % 60);
    if days > 0 { format!("{days}-{hms}") } else { hms }
}

/// Consecutive host numbers: first, last and the digits' width.
type Run = (u64, u64, usize);

/// A host list of `names` (in order): a run of names of one prefix and
/// consecutive numbers of one width becomes `prefix[a-b]`; runs of one
/// prefix are joined in one bracket (`c[001-004,009]`).
pub fn hostlist(names: &[&str]) -> String {
    // (prefix, digits as written)
    let split = |name: &str| {
        let at = name.trim_end_matches(|c: char| c.is_ascii_digit()).len();
        (name[..at].to_string(), name[at..].to_string())
    };
    let mut groups: Vec<(String, Vec<Run>)> = Vec::new();
    let mut plain: Vec<String> = Vec::new();
    let mut order: Vec<(bool, usize)> = Vec::new();
    for name in names {
        let (prefix, digits) = split(name);
        let Ok(n) = digits.parse::<u64>() else {
            plain.push((*name).to_string());
            order.push((false, plain.len() - 1));
            continue;
        };
        let width = digits.len();
        match groups.last_mut() {
            Some((p, runs)) if *p == prefix => match runs.last_mut() {
                Some((_, hi, w)) if *hi + 1 == n && *w == width => *hi = n,
                _ => runs.push((n, n, width)),
            },
            _ => {
                groups.push((prefix, vec![(n, n, width)]));
                order.push((true, groups.len() - 1));
            }
        }
    }
    let parts: Vec<String> = order
        .iter()
        .map(|&(grouped, i)| {
            if !grouped {
                return plain[i].clone();
            }
            let (prefix, runs) = &groups[i];
            if let [(lo, hi, w)] = runs.as_slice()
                && lo == hi
            {
                return format!("{prefix}{lo:0w$}");
            }
            let ranges: Vec<String> = runs
                .iter()
                .map(|&(lo, hi, w)| if lo == hi { format!("{lo:0w$}") } else { format!("{lo:0w$}-{hi:0w$}") })
                .collect();
            format!("{prefix}[{}]", ranges.join(","))
        })
        .collect();
    parts.join(",")
}

fn number(x: f64) -> String {
    format!("{x}")
}

fn tres_weights(weights: &[(String, f64)]) -> String {
    let w: Vec<String> = weights.iter().map(|(n, x)| format!("{}={}", tres_name(n), number(*x))).collect();
    w.join(",")
}

/// A TRES name as Slurm writes it in weights (`CPU`, `Mem`, `GRES/gpu`).
fn tres_name(name: &str) -> String {
    match name {
        "cpu" => "CPU".into(),
        "mem" => "Mem".into(),
        "node" => "Node".into(),
        other => match other.split_once('/') {
            Some((kind, rest)) => format!("{}/{rest}", kind.to_uppercase()),
            None => other.to_string(),
        },
    }
}

/// `PreemptMode` as written.
pub fn preempt_mode(mode: &PreemptMode) -> String {
    let mut words = vec![
        match mode.action {
            PreemptAction::Off => "OFF",
            PreemptAction::Cancel => "CANCEL",
            PreemptAction::Requeue => "REQUEUE",
            PreemptAction::Suspend => "SUSPEND",
        }
        .to_string(),
    ];
    if mode.gang {
        words.push("GANG".into());
    }
    if mode.within {
        words.push("WITHIN".into());
    }
    words.join(",")
}

fn node_shape(n: &NodeDef) -> String {
    let mut s = format!("CPUs={} RealMemory={}", n.cpus, n.real_memory_mib);
    match (&n.gpu_model, n.gpus) {
        (_, 0) => {}
        (Some(model), gpus) => {
            let _ = write!(s, " Gres=gpu:{model}:{gpus}");
        }
        (None, gpus) => {
            let _ = write!(s, " Gres=gpu:{gpus}");
        }
    }
    if n.weight != 1 {
        let _ = write!(s, " Weight={}", n.weight);
    }
    if !n.features.is_empty() {
        let _ = write!(s, " Features={}", n.features.join(","));
    }
    s
}

/// Every setting the twin reads of `conf`, as `slurm.conf` lines (module contract).
pub fn conf_lines(conf: &SlurmConf) -> Vec<String> {
    let mut lines = Vec::new();
    // Nodes: consecutive nodes of one shape in one line.
    let mut at = 0;
    while at < conf.nodes.len() {
        let shape = node_shape(&conf.nodes[at]);
        let mut end = at + 1;
        while end < conf.nodes.len() && node_shape(&conf.nodes[end]) == shape {
            end += 1;
        }
        let names: Vec<&str> = conf.nodes[at..end].iter().map(|n| n.name.as_str()).collect();
        lines.push(format!("NodeName={} {shape}", hostlist(&names)));
        at = end;
    }
    for p in &conf.partitions {
        let names: Vec<&str> = p.nodes.iter().map(|&i| conf.nodes[i].name.as_str()).collect();
        let mut line = format!("PartitionName={} Nodes={}", p.name, hostlist(&names));
        if p.default {
            line.push_str(" Default=YES");
        }
        let _ = write!(line, " MaxTime={}", p.max_time.map_or("UNLIMITED".to_string(), slurm_time));
        if let Some(t) = p.default_time {
            let _ = write!(line, " DefaultTime={}", slurm_time(t));
        }
        if let Some(n) = p.max_nodes {
            let _ = write!(line, " MaxNodes={n}");
        }
        let _ = write!(line, " PriorityTier={} PriorityJobFactor={}", p.priority_tier, p.priority_job_factor);
        if let Some(m) = &p.preempt_mode {
            let _ = write!(line, " PreemptMode={}", preempt_mode(m));
        }
        if let Some(w) = &p.billing_weights {
            let _ = write!(line, " TRESBillingWeights={}", tres_weights(w));
        }
        if let Some(m) = p.def_mem_per_cpu {
            let _ = write!(line, " DefMemPerCPU={m}");
        }
        if let Some(m) = p.max_mem_per_cpu {
            let _ = write!(line, " MaxMemPerCPU={m}");
        }
        if let Some(q) = &p.qos {
            let _ = write!(line, " QOS={q}");
        }
        let _ = write!(line, " State={}", if p.up { "UP" } else { "DOWN" });
        lines.push(line);
    }
    lines.push("SelectType=select/cons_tres".into());
    lines.push(format!(
        "SelectTypeParameters={}",
        match conf.consumable {
            Consumable::Core => "CR_Core",
            Consumable::CoreMemory => "CR_Core_Memory",
        }
    ));
    let pr = &conf.priority;
    lines.push(format!("PriorityType=priority/{}", if pr.multifactor { "multifactor" } else { "basic" }));
    for (key, w) in [
        ("PriorityWeightAge", pr.weight_age),
        ("PriorityWeightAssoc", pr.weight_assoc),
        ("PriorityWeightFairshare", pr.weight_fairshare),
        ("PriorityWeightJobSize", pr.weight_job_size),
        ("PriorityWeightPartition", pr.weight_partition),
        ("PriorityWeightQOS", pr.weight_qos),
    ] {
        // Zero is the default, and a weight slasim reads but does not model
        // (assoc, QOS without a dump) would be listed as such again.
        if w != 0.0 {
            lines.push(format!("{key}={}", number(w)));
        }
    }
    if !pr.weight_tres.is_empty() {
        lines.push(format!("PriorityWeightTRES={}", tres_weights(&pr.weight_tres)));
    }
    lines.push(format!("PriorityDecayHalfLife={}", slurm_time(pr.decay_half_life)));
    lines.push(format!("PriorityMaxAge={}", slurm_time(pr.max_age)));
    lines.push(format!("PriorityCalcPeriod={}", pr.calc_period / 60));
    lines.push(format!("PriorityFavorSmall={}", if pr.favor_small { "YES" } else { "NO" }));
    if !pr.flags.is_empty() {
        lines.push(format!("PriorityFlags={}", pr.flags.join(",")));
    }
    let s = &conf.scheduler;
    lines.push(format!("SchedulerType=sched/{}", if s.backfill { "backfill" } else { "builtin" }));
    let mut params = vec![
        format!("bf_window={}", s.bf_window / 60),
        format!("bf_resolution={}", s.bf_resolution),
        format!("bf_interval={}", s.bf_interval),
        format!("bf_max_job_test={}", s.bf_max_job_test),
        format!("default_queue_depth={}", s.default_queue_depth),
        format!("sched_interval={}", s.sched_interval),
    ];
    for (on, word) in [
        (s.bf_continue, "bf_continue"),
        (s.kill_invalid_depend, "kill_invalid_depend"),
        (s.bf_one_resv_per_job, "bf_one_resv_per_job"),
    ] {
        if on {
            params.push(word.into());
        }
    }
    if s.bf_max_job_user > 0 {
        params.push(format!("bf_max_job_user={}", s.bf_max_job_user));
    }
    if s.bf_max_job_part > 0 {
        params.push(format!("bf_max_job_part={}", s.bf_max_job_part));
    }
    lines.push(format!("SchedulerParameters={}", params.join(",")));
    let site = &conf.site;
    lines.push(format!(
        "PreemptType=preempt/{}",
        match site.preempt.preempt_type {
            PreemptType::None => "none",
            PreemptType::PartitionPrio => "partition_prio",
            PreemptType::Qos => "qos",
        }
    ));
    lines.push(format!("PreemptMode={}", preempt_mode(&site.preempt.mode)));
    if let Some(t) = site.preempt.exempt_time {
        lines.push(format!("PreemptExemptTime={}", slurm_time(t)));
    }
    if !site.requeue.allowed {
        lines.push("JobRequeue=0".into());
    }
    if !site.billing_weights.is_empty() {
        lines.push(format!("TRESBillingWeights={}", tres_weights(&site.billing_weights)));
    }
    if let Some(m) = site.def_mem_per_cpu {
        lines.push(format!("DefMemPerCPU={m}"));
    }
    if let Some(m) = site.max_mem_per_cpu {
        lines.push(format!("MaxMemPerCPU={m}"));
    }
    lines.push(format!(
        "EnforcePartLimits={}",
        match site.enforce_part_limits {
            EnforcePartLimits::No => "NO",
            EnforcePartLimits::Any => "ANY",
            EnforcePartLimits::All => "ALL",
        }
    ));
    let e = &site.accounting_enforce;
    let enforced: Vec<&str> = [
        (e.associations, "associations"),
        (e.limits, "limits"),
        (e.nojobs, "nojobs"),
        (e.nosteps, "nosteps"),
        (e.qos, "qos"),
        (e.safe, "safe"),
        (e.wckeys, "wckeys"),
    ]
    .into_iter()
    .filter_map(|(on, word)| on.then_some(word))
    .collect();
    if !enforced.is_empty() {
        lines.push(format!("AccountingStorageEnforce={}", enforced.join(",")));
    }
    let over_run = site.resv_over_run;
    lines.push(format!(
        "ResvOverRun={}",
        if over_run >= crate::conf::YEAR_SECONDS { "UNLIMITED".to_string() } else { (over_run / 60).to_string() }
    ));
    lines
}

fn tres_list(list: &[Tres]) -> String {
    let t: Vec<String> =
        list.iter().map(|t| format!("{}={}", t.name, t.amount.map_or("NONE".to_string(), |a| a.to_string()))).collect();
    t.join(",")
}

/// Pushes `Key=Value` for a set limit.
struct Pairs(Vec<String>);

impl Pairs {
    fn count(&mut self, key: &str, value: Option<u32>) {
        if let Some(v) = value {
            self.0.push(format!("{key}={v}"));
        }
    }
    fn time(&mut self, key: &str, value: Option<Time>) {
        if let Some(v) = value {
            self.0.push(format!("{key}={}", slurm_time(v)));
        }
    }
    fn tres(&mut self, key: &str, list: &[Tres]) {
        if !list.is_empty() {
            self.0.push(format!("{key}={}", tres_list(list)));
        }
    }
    fn text(&mut self, key: &str, value: Option<&str>) {
        if let Some(v) = value {
            self.0.push(format!("{key}={v}"));
        }
    }
    fn names(&mut self, key: &str, names: &[String]) {
        if !names.is_empty() {
            self.0.push(format!("{key}={}", names.join(",")));
        }
    }
}

/// Each QOS's limits as read, one line each (module contract).
pub fn qos_lines(qos: &[Qos]) -> Vec<String> {
    qos.iter()
        .map(|q| {
            let mut p = Pairs(vec![format!("Name={}", q.name), format!("Priority={}", q.priority)]);
            p.time("GraceTime", q.grace_time);
            p.names("Preempt", &q.preempt);
            p.time("PreemptExemptTime", q.preempt_exempt_time);
            if let Some(m) = &q.preempt_mode {
                p.0.push(format!("PreemptMode={}", preempt_mode(m)));
            }
            p.names("Flags", &q.flags);
            if let Some(t) = q.usage_threshold {
                p.0.push(format!("UsageThreshold={t}"));
            }
            if q.usage_factor != 1.0 {
                p.0.push(format!("UsageFactor={}", q.usage_factor));
            }
            p.tres("GrpTRES", &q.grp_tres);
            p.tres("GrpTRESMins", &q.grp_tres_mins);
            p.tres("GrpTRESRunMins", &q.grp_tres_run_mins);
            p.count("GrpJobs", q.grp_jobs);
            p.count("GrpSubmit", q.grp_submit);
            p.time("GrpWall", q.grp_wall);
            p.tres("MaxTRES", &q.max_tres);
            p.tres("MaxTRESPerNode", &q.max_tres_per_node);
            p.tres("MaxTRESMins", &q.max_tres_mins);
            p.time("MaxWall", q.max_wall);
            p.tres("MaxTRESPU", &q.max_tres_pu);
            p.count("MaxJobsPU", q.max_jobs_pu);
            p.count("MaxSubmitPU", q.max_submit_pu);
            p.tres("MaxTRESPA", &q.max_tres_pa);
            p.count("MaxJobsPA", q.max_jobs_pa);
            p.count("MaxSubmitPA", q.max_submit_pa);
            p.tres("MinTRES", &q.min_tres);
            p.0.join(" ")
        })
        .collect()
}

/// Each association's share and limits as read, one line each (module contract).
pub fn assoc_lines(assocs: &[Assoc]) -> Vec<String> {
    assocs
        .iter()
        .map(|a| {
            let mut p = Pairs(vec![format!("Account={}", a.account)]);
            p.text("User", a.user.as_deref());
            p.text("Partition", a.partition.as_deref());
            p.text("ParentName", a.parent.as_deref());
            match a.share {
                Some(Share::Raw(n)) => p.0.push(format!("Share={n}")),
                Some(Share::Parent) => p.0.push("Share=parent".into()),
                None => {}
            }
            p.count("Priority", a.priority);
            p.count("GrpJobs", a.grp_jobs);
            p.count("GrpSubmit", a.grp_submit);
            p.tres("GrpTRES", &a.grp_tres);
            p.tres("GrpTRESMins", &a.grp_tres_mins);
            p.tres("GrpTRESRunMins", &a.grp_tres_run_mins);
            p.time("GrpWall", a.grp_wall);
            p.count("MaxJobs", a.max_jobs);
            p.count("MaxSubmit", a.max_submit);
            p.tres("MaxTRES", &a.max_tres);
            p.tres("MaxTRESPerNode", &a.max_tres_per_node);
            p.tres("MaxTRESMins", &a.max_tres_mins);
            p.time("MaxWall", a.max_wall);
            p.names("QOS", &a.qos);
            p.text("DefaultQOS", a.def_qos.as_deref());
            p.0.join(" ")
        })
        .collect()
}
