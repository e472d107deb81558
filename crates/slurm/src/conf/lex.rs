//! The `slurm.conf` text as Slurm's parser reads it (`s_p_parse_file`,
//! src/common/parse_config.c): logical lines (comments removed, `\`
//! continuations joined) and their `Key=Value` pairs.

/// A `Key=Value` pair: the key as written, the value unquoted.
pub(super) type Pair = (String, String);

/// Logical lines with the number of their first physical line, comments removed
/// and `\` continuations joined.
pub(super) fn logical_lines(text: &str) -> Vec<(u64, String)> {
    let mut out = Vec::new();
    let mut current: Option<(u64, String)> = None;
    for (number, raw) in (1u64..).zip(text.lines()) {
        let body = strip_comment(raw).trim_end();
        let (body, continues) = match body.strip_suffix('\\') {
            Some(head) => (head, true),
            None => (body, false),
        };
        let entry = current.get_or_insert_with(|| (number, String::new()));
        entry.1.push_str(body);
        entry.1.push(' ');
        if !continues {
            out.extend(current.take());
        }
    }
    out.extend(current);
    out
}

/// `raw` up to a `#` outside double quotes.
pub(super) fn strip_comment(raw: &str) -> &str {
    let mut quoted = false;
    for (i, c) in raw.char_indices() {
        match c {
            '"' => quoted = !quoted,
            '#' if !quoted => return raw.get(..i).unwrap_or(raw),
            _ => {}
        }
    }
    raw
}

/// Splits a logical line into `Key=Value` pairs; quotes group blanks into a value.
pub(super) fn tokenize(body: &str) -> Result<Vec<Pair>, String> {
    let mut pairs = Vec::new();
    let mut chars = body.chars().peekable();
    loop {
        while chars.next_if(|c| c.is_whitespace()).is_some() {}
        if chars.peek().is_none() {
            return Ok(pairs);
        }
        let mut key = String::new();
        while let Some(c) = chars.next_if(|&c| c != '=' && !c.is_whitespace()) {
            key.push(c);
        }
        if chars.next_if_eq(&'=').is_none() {
            return Err(format!("`{key}` is not a Key=Value pair"));
        }
        if key.is_empty() {
            return Err("`=` without a key".to_string());
        }
        let mut value = String::new();
        let mut quoted = false;
        while let Some(c) = chars.next_if(|&c| quoted || !c.is_whitespace()) {
            if c == '"' {
                quoted = !quoted;
            } else {
                value.push(c);
            }
        }
        if quoted {
            return Err(format!("unterminated quote in the value of `{key}`"));
        }
        pairs.push((key, value));
    }
}

/// `s` split at `sep` outside `open`…`close` groups.
pub(super) fn split_outside(s: &str, sep: char, open: char, close: char) -> Vec<&str> {
    let mut parts = Vec::new();
    let mut depth = 0usize;
    let mut start = 0;
    for (i, c) in s.char_indices() {
        if c == open {
            depth += 1;
        } else if c == close {
            depth = depth.saturating_sub(1);
        } else if c == sep && depth == 0 {
            parts.push(s.get(start..i).unwrap_or(""));
            start = i + c.len_utf8();
        }
    }
    parts.push(s.get(start..).unwrap_or(""));
    parts
}
