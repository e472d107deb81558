//! Hostlists: `n1,x[1-2,5]`, `gpu[01-02]`, as `hostlist_create`
//! (src/common/hostlist.c) expands them.

use super::lex::split_outside;

/// Caps hostlist expansion so that `n[0-99999999999]` is an error, not an out-of-memory.
pub(super) const MAX_HOSTS: usize = 1 << 20;

/// Expands a hostlist: `n1,x[1-2,5]`, `gpu[01-02]` (zero padding kept),
/// several bracket groups in one name (their product).
pub fn expand_hostlist(expr: &str) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    for item in split_outside(expr, ',', '[', ']') {
        let item = item.trim();
        if item.is_empty() {
            continue;
        }
        let mut names = vec![String::new()];
        let mut rest = item;
        while !rest.is_empty() {
            let Some((prefix, after)) = rest.split_once('[') else {
                if rest.contains(']') {
                    return Err(format!("`]` without `[` in `{item}`"));
                }
                names.iter_mut().for_each(|n| n.push_str(rest));
                break;
            };
            if prefix.contains(']') {
                return Err(format!("`]` without `[` in `{item}`"));
            }
            let Some((inner, tail)) = after.split_once(']') else {
                return Err(format!("unclosed `[` in `{item}`"));
            };
            if inner.contains('[') {
                return Err(format!("nested `[` in `{item}`"));
            }
            let numbers = expand_ranges(inner).map_err(|d| format!("{d} in `{item}`"))?;
            if names.len().saturating_mul(numbers.len()) > MAX_HOSTS {
                return Err(format!("`{item}` names more than {MAX_HOSTS} hosts"));
            }
            names =
                names.iter().flat_map(|n| numbers.iter().map(move |number| format!("{n}{prefix}{number}"))).collect();
            rest = tail;
        }
        if out.len() + names.len() > MAX_HOSTS {
            return Err(format!("the hostlist names more than {MAX_HOSTS} hosts"));
        }
        out.extend(names);
    }
    Ok(out)
}

/// `1,3-5,07` → `1 3 4 5 07`; a range keeps the width of its lower bound.
pub(super) fn expand_ranges(inner: &str) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    for part in inner.split(',').map(str::trim) {
        let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
        match part.split_once('-') {
            Some((lo, hi)) if digits(lo) && digits(hi) => {
                let bad = || format!("range `{part}` out of range");
                let (a, b) = (lo.parse::<u64>().map_err(|_| bad())?, hi.parse::<u64>().map_err(|_| bad())?);
                if b < a {
                    return Err(format!("range `{part}` runs backwards"));
                }
                if b - a >= MAX_HOSTS as u64 || out.len() as u64 + (b - a) >= MAX_HOSTS as u64 {
                    return Err(format!("range `{part}` names more than {MAX_HOSTS} hosts"));
                }
                let width = lo.len();
                out.extend((a..=b).map(|n| format!("{n:0width$}")));
            }
            None if digits(part) => out.push(part.to_string()),
            _ => return Err(format!("`[{inner}]`: `{part}` is not a number or a range")),
        }
    }
    Ok(out)
}
