//! The values of `slurm.conf` keys: GRES, TRES weights, memory per CPU,
//! enforcement flags, names, whole numbers and Slurm's time syntax
//! (`time_str2mins`, src/common/parse_time.c).

use slasim_sim::units::Time;

use super::AccountingEnforce;
use super::lex::split_outside;

/// A node's `Gres`, as the twin reads it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Gres {
    /// GPUs, over every `gpu` entry.
    pub gpus: u32,
    /// Their type, when the entries name one (`gpu:a100:4`); `None` when
    /// they name none, or two ([`Gres::types`]).
    pub model: Option<String>,
    /// Every GPU type the entries name, in order.
    pub types: Vec<String>,
    /// The other GRES names, in order.
    pub others: Vec<String>,
}

/// `Gres=gpu[:type][:no_consume]:N[(S:…)],…`, as slurmctld builds a node's
/// GRES from `slurm.conf` (`gres_init_node_config`, src/common/gres.c): the
/// GPU count over every `gpu` entry, their type, and the other GRES names.
/// The machine model gives a node one GPU model: with entries of two types
/// the node's GPUs have none (the reader says so among the ignored).
pub fn parse_gres(value: &str) -> Result<Gres, String> {
    let mut gres = Gres::default();
    for entry in split_outside(value, ',', '(', ')') {
        let entry = entry.trim();
        if entry.is_empty() {
            continue;
        }
        // `(S:0-1)` binds the GRES to sockets; the count comes before it.
        let spec = entry.split_once('(').map_or(entry, |(head, _)| head);
        let parts: Vec<&str> = spec.split(':').collect();
        let name = parts.first().copied().unwrap_or("");
        if !name.eq_ignore_ascii_case("gpu") {
            gres.others.push(name.to_string());
            continue;
        }
        let (count, between) = match parts.as_slice() {
            [_] => return Err(format!("`{entry}` has no count (`gpu:N` or `gpu:type:N`)")),
            [_, between @ .., last] => (*last, between),
            [] => ("", &[][..]),
        };
        let n = uint::<u32>(count).map_err(|_| format!("`{entry}`: the count is not a whole number: `{count}`"))?;
        gres.gpus = gres.gpus.checked_add(n).ok_or_else(|| format!("`{value}`: the GPU count overflows"))?;
        // The type is what stands between `gpu` and the count, but `no_consume`.
        let model = between.iter().find(|p| !p.is_empty() && !p.eq_ignore_ascii_case("no_consume"));
        if let Some(&model) = model
            && !gres.types.iter().any(|t| t == model)
        {
            gres.types.push(model.to_string());
        }
    }
    if let [one] = gres.types.as_slice() {
        gres.model = Some(one.clone());
    }
    Ok(gres)
}

/// `CPU=1000,Mem=2000,GRES/gpu=3000` → lower-cased names and weights.
pub(super) fn parse_tres_weights(value: &str) -> Result<Vec<(String, f64)>, String> {
    let mut out = Vec::new();
    for entry in value.split(',').map(str::trim).filter(|e| !e.is_empty()) {
        let Some((name, weight)) = entry.split_once('=') else {
            return Err(format!("`{entry}` is not TRES=weight"));
        };
        let w = weight.trim().parse::<f64>().ok().filter(|w| w.is_finite() && *w >= 0.0);
        let Some(w) = w else {
            return Err(format!("the weight of `{}` is not a non-negative number: `{weight}`", name.trim()));
        };
        out.push((name.trim().to_ascii_lowercase(), w));
    }
    Ok(out)
}

/// `TRESBillingWeights=CPU=1.0,Mem=0.25G,GRES/gpu=2.0`: lower-cased names
/// and weights; a unit (K, M, G, T) on a weight makes it per that unit, and
/// it is stored per MiB (`Mem=0.25G` → 0.25/1024).
pub(super) fn parse_billing_weights(value: &str) -> Result<Vec<(String, f64)>, String> {
    let mut out: Vec<(String, f64)> = Vec::new();
    for entry in value.split(',').map(str::trim).filter(|e| !e.is_empty()) {
        let Some((name, weight)) = entry.split_once('=') else {
            return Err(format!("`{entry}` is not TRES=weight"));
        };
        let (name, weight) = (name.trim().to_ascii_lowercase(), weight.trim());
        if name.is_empty() {
            return Err(format!("`{entry}`: no TRES name"));
        }
        let (number, per) = match weight.chars().last().map(|c| c.to_ascii_uppercase()) {
            Some('K') => (&weight[..weight.len() - 1], 1.0 / 1024.0),
            Some('M') => (&weight[..weight.len() - 1], 1.0),
            Some('G') => (&weight[..weight.len() - 1], 1024.0),
            Some('T') => (&weight[..weight.len() - 1], 1024.0 * 1024.0),
            _ => (weight, 1.0),
        };
        let w = number.parse::<f64>().ok().filter(|w| w.is_finite() && *w >= 0.0);
        let Some(w) = w else {
            return Err(format!("the weight of `{name}` is not a non-negative number: `{weight}`"));
        };
        if out.iter().any(|(n, _)| *n == name) {
            return Err(format!("`{name}` weighted twice"));
        }
        out.push((name, w / per));
    }
    Ok(out)
}

/// `DefMemPerCPU`/`MaxMemPerCPU`: MiB; 0 and `UNLIMITED` are `None`.
pub(super) fn mem_per_cpu(value: &str) -> Result<Option<u64>, String> {
    if is_unlimited(value) {
        return Ok(None);
    }
    Ok(Some(uint::<u64>(value)?).filter(|&m| m > 0))
}

/// `AccountingStorageEnforce=associations,limits,…` with slurm.conf(5)'s implications.
pub(super) fn accounting_enforce(value: &str) -> Result<AccountingEnforce, String> {
    let mut e = AccountingEnforce::default();
    for word in value.split(',').map(str::trim).filter(|w| !w.is_empty()) {
        match word.to_ascii_lowercase().as_str() {
            "associations" => e.associations = true,
            "limits" => (e.associations, e.limits) = (true, true),
            "nojobs" => (e.nojobs, e.nosteps) = (true, true),
            "nosteps" => e.nosteps = true,
            "qos" => (e.associations, e.qos) = (true, true),
            "safe" => (e.associations, e.limits, e.safe) = (true, true, true),
            "wckeys" => (e.associations, e.wckeys) = (true, true),
            "all" => {
                (e.associations, e.limits, e.qos, e.safe, e.wckeys) = (true, true, true, true, true);
            }
            _ => {
                return Err(format!("`{word}` is not associations, limits, nojobs, nosteps, qos, safe, wckeys or all"));
            }
        }
    }
    Ok(e)
}

/// A comma list of names (features), blanks trimmed.
pub(super) fn names_list(value: &str) -> Vec<String> {
    value.split(',').map(str::trim).filter(|n| !n.is_empty()).map(str::to_string).collect()
}

/// A whole number of type `T`, digits only.
pub(crate) fn uint<T: std::str::FromStr>(value: &str) -> Result<T, String> {
    let v = value.trim();
    if v.is_empty() || !v.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!("not a whole number: `{value}`"));
    }
    v.parse::<T>().map_err(|_| format!("out of range: `{value}`"))
}

/// A count of at least 1.
pub(super) fn positive_u32(value: &str) -> Result<u32, String> {
    match uint::<u32>(value)? {
        0 => Err(format!("must be at least 1: `{value}`")),
        n => Ok(n),
    }
}

pub(crate) fn is_unlimited(value: &str) -> bool {
    let v = value.trim();
    v.eq_ignore_ascii_case("unlimited") || v.eq_ignore_ascii_case("infinite") || v == "-1"
}

pub(super) fn yes_no(value: &str) -> Result<bool, String> {
    match value.trim().to_ascii_uppercase().as_str() {
        "YES" | "TRUE" => Ok(true),
        "NO" | "FALSE" => Ok(false),
        _ => Err(format!("not YES or NO: `{value}`")),
    }
}

/// Slurm's time syntax in seconds: `M`, `M:S`, `H:M:S`, `D-H`, `D-H:M`,
/// `D-H:M:S`; `None` for `UNLIMITED`, `INFINITE` or `-1`.
pub fn parse_time(value: &str) -> Result<Option<Time>, String> {
    if is_unlimited(value) {
        return Ok(None);
    }
    let bad = || format!("not a duration (M, M:S, H:M:S, D-H, D-H:M, D-H:M:S or UNLIMITED): `{value}`");
    let v = value.trim();
    let (days, clock) = match v.split_once('-') {
        Some((d, c)) => (Some(uint::<u64>(d).map_err(|_| bad())?), c),
        None => (None, v),
    };
    let fields: Vec<u64> = clock.split(':').map(uint::<u64>).collect::<Result<_, _>>().map_err(|_| bad())?;
    let (d, h, m, s) = match (days, fields.as_slice()) {
        (None, [m]) => (0, 0, *m, 0),
        (None, [m, s]) => (0, 0, *m, *s),
        (None, [h, m, s]) => (0, *h, *m, *s),
        (Some(d), [h]) => (d, *h, 0, 0),
        (Some(d), [h, m]) => (d, *h, *m, 0),
        (Some(d), [h, m, s]) => (d, *h, *m, *s),
        _ => return Err(bad()),
    };
    let total = d
        .checked_mul(86_400)
        .and_then(|t| t.checked_add(h.checked_mul(3_600)?))
        .and_then(|t| t.checked_add(m.checked_mul(60)?))
        .and_then(|t| t.checked_add(s))
        .and_then(|t| Time::try_from(t).ok())
        .ok_or_else(|| format!("duration out of range: `{value}`"))?;
    Ok(Some(total))
}

/// The time syntax where `UNLIMITED` makes no sense.
pub(super) fn bounded_time(value: &str) -> Result<Time, String> {
    parse_time(value)?.ok_or_else(|| format!("must be a finite duration: `{value}`"))
}

/// How a file's times are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Clock {
    /// `YYYY-MM-DDTHH:MM:SS`, read as if UTC.
    WallClock,
    /// Epoch seconds (`SLURM_TIME_FORMAT=%s`).
    Epoch,
}

/// A time stamp on `clock` (set by the first one); `None` for Unknown, None, (null).
pub fn stamp(value: &str, clock: &mut Option<Clock>) -> Result<Option<i64>, String> {
    let v = value.trim();
    if v.is_empty() || v == "(null)" {
        return Ok(None);
    }
    if v.eq_ignore_ascii_case("Unknown") || v.eq_ignore_ascii_case("None") {
        return Ok(None);
    }
    let (seconds, kind) = if v.len() <= 12 && v.bytes().all(|b| b.is_ascii_digit()) {
        (v.parse::<i64>().map_err(|e| format!("`{v}`: {e}"))?, Clock::Epoch)
    } else {
        let t = chrono::NaiveDateTime::parse_from_str(v, "%Y-%m-%dT%H:%M:%S").map_err(|_| {
            format!("`{v}` is not a time (YYYY-MM-DDTHH:MM:SS, or epoch seconds with SLURM_TIME_FORMAT=%s)")
        })?;
        (t.and_utc().timestamp(), Clock::WallClock)
    };
    match clock {
        Some(c) if *c != kind => Err(format!("`{v}`: the file mixes wall-clock times and epoch seconds")),
        _ => {
            *clock = Some(kind);
            Ok(Some(seconds))
        }
    }
}
