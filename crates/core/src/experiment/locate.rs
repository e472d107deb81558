//! Where a config's settings are written: errors located at a file's line
//! and column, and what a point kind is given to read a config with.
//!
//! Contract:
//! - A [`ConfigError`] names the file, the 1-based line and column and what
//!   is wrong. [`Locator`] finds keys, sections and sweeps in a config's text.
//! - [`ConfigFile`] is a config as a point kind reads it for its base
//!   settings; [`SweepContext`] is one swept point as its kind resolves it,
//!   with the errors of its settings located at the axis that set them, else
//!   at their key.

use std::fmt;
use std::ops::Range;

/// A config error, located in its file (`file:line:column: message`; an
/// error of the whole file, which cannot be read, has line 0 and is
/// `file: message`).
#[derive(Debug, Clone, PartialEq)]
pub struct ConfigError {
    /// The config file.
    pub file: String,
    /// 1-based line (0: the file as a whole).
    pub line: usize,
    /// 1-based column.
    pub column: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            write!(f, "{}: {}", self.file, self.message)
        } else {
            write!(f, "{}:{}:{}: {}", self.file, self.line, self.column, self.message)
        }
    }
}

impl std::error::Error for ConfigError {}

/// Converts a byte offset into 1-based line and column.
pub fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let column = before.rfind('\n').map_or(before.chars().count(), |nl| before[nl + 1..].chars().count()) + 1;
    (line, column)
}

/// A config's text, to locate errors in.
#[derive(Debug, Clone, Copy)]
pub struct Locator<'a> {
    /// The file, for messages.
    pub file: &'a str,
    /// Its text.
    pub text: &'a str,
}

impl Locator<'_> {
    /// An error at byte `offset`.
    pub fn at(&self, offset: usize, message: impl fmt::Display) -> ConfigError {
        let (line, column) = line_col(self.text, offset);
        ConfigError { file: self.file.to_string(), line, column, message: message.to_string() }
    }

    /// A TOML error of the whole text (syntax, or settings that do not
    /// deserialise), located at its span and naming its key. A message that
    /// starts `TABLE[K]:` (an entry of an array of tables, whose span TOML
    /// gives as the array's) is located at the K-th `[[TABLE]]` (from 0),
    /// at the first key of it the message names in backquotes.
    pub fn syntax(&self, e: toml::de::Error) -> ConfigError {
        let offset = e.span().map_or(0, |s| s.start);
        let offset = self.entry_named(e.message()).unwrap_or(offset);
        match self.key_at(offset).filter(|k| !e.message().contains(k.rsplit('.').next().unwrap_or(k))) {
            Some(key) => self.at(offset, format!("`{key}`: {}", e.message().trim())),
            None => self.at(offset, e.message().trim()),
        }
    }

    /// The dotted name of the key on the line at `offset` (`prepare.batteries`).
    pub fn key_at(&self, offset: usize) -> Option<String> {
        let offset = offset.min(self.text.len());
        let line_start = self.text[..offset].rfind('\n').map_or(0, |n| n + 1);
        let line_end = self.text[offset..].find('\n').map_or(self.text.len(), |n| offset + n);
        let line = &self.text[line_start..line_end];
        let key = line.split_once('=')?.0.trim().trim_matches('"');
        let table = self.text[..line_start]
            .lines()
            .rev()
            .map(str::trim)
            .find(|l| l.starts_with('['))
            .map(|l| l.trim_matches(|c| c == '[' || c == ']').trim().to_string());
        Some(match table {
            Some(t) if !t.is_empty() => format!("{t}.{key}"),
            _ => key.to_string(),
        })
    }

    /// The offset of `key =` inside `span` of the text, else the span start.
    pub fn key_offset(&self, span: Range<usize>, key: &str) -> usize {
        let region = &self.text[span.start.min(self.text.len())..span.end.min(self.text.len())];
        let quoted = format!("\"{key}\"");
        region
            .match_indices(key)
            .chain(region.match_indices(quoted.as_str()))
            .map(|(i, _)| i)
            .find(|&i| {
                let line_start = region[..i].rfind('\n').map_or(0, |n| n + 1);
                region[line_start..i].trim().is_empty()
            })
            .map_or(span.start, |i| span.start + i)
    }

    /// Where the entry a message starting `TABLE[K]:` names is written
    /// ([`Locator::syntax`]), if the text has it.
    pub fn entry_named(&self, message: &str) -> Option<usize> {
        let (head, rest) = message.trim_start().split_once(':')?;
        let (table, k) = head.strip_suffix(']')?.split_once('[')?;
        let k: usize = k.parse().ok()?;
        let mut offset = 0;
        let mut headers = Vec::new();
        for line in self.text.split_inclusive('\n') {
            let t = line.trim();
            if t.starts_with('[') {
                let name = t.trim_start_matches('[').trim_end_matches(']').trim();
                headers.push((offset, t.starts_with("[[") && name == table));
            }
            offset += line.len();
        }
        let at = headers.iter().filter(|&&(_, entry)| entry).nth(k).map(|&(o, _)| o)?;
        let end = headers.iter().map(|&(o, _)| o).find(|&o| o > at).unwrap_or(self.text.len());
        let key = rest.split('`').nth(1).filter(|k| !k.is_empty());
        Some(key.map_or(at, |key| self.key_offset(at..end, key)))
    }

    /// The offset of `key =` anywhere in the text, else 0.
    pub fn anywhere(&self, key: &str) -> usize {
        self.key_offset(0..self.text.len(), key)
    }

    /// Where a section is: the offset of `[name]`, `[[name]]`, `[name.…]` or
    /// `name =` at the start of a line.
    pub fn section(&self, name: &str) -> usize {
        let mut offset = 0;
        for line in self.text.split_inclusive('\n') {
            let t = line.trim_start();
            let header = t.trim_start_matches('[').trim_start();
            let named = header.strip_prefix(name).is_some_and(|rest| {
                let rest = rest.trim_start();
                rest.starts_with(']') || rest.starts_with('.') || rest.starts_with('=')
            });
            if named && (t.starts_with('[') || t.starts_with(name)) {
                return offset + (line.len() - t.len());
            }
            offset += line.len();
        }
        0
    }
}

/// A config as a point kind reads it.
#[derive(Debug, Clone, Copy)]
pub struct ConfigFile<'a> {
    /// Its text.
    pub loc: Locator<'a>,
    /// Its top-level table.
    pub raw: &'a toml::Table,
    /// The top-level `seed`.
    pub seed: u64,
}

impl ConfigFile<'_> {
    /// The seed of a kind whose settings are its section's: the section's
    /// own `seed` wins over the top-level one.
    pub fn seed_of(&self, section: &str, own: u64) -> u64 {
        if self.raw.get(section).and_then(|t| t.get("seed")).is_some() { own } else { self.seed }
    }
}

/// One swept point as its kind resolves it.
#[derive(Debug, Clone)]
pub struct SweepContext<'a> {
    /// The config's text.
    pub loc: Locator<'a>,
    /// Its top-level table.
    pub raw: &'a toml::Table,
    /// The sweep's label (its name, or "sweep N").
    pub label: &'a str,
    /// The sweep's region of the text.
    pub span: Range<usize>,
    /// Every axis of the sweep: its name and the setting it sets.
    pub axes: Vec<(String, String)>,
    /// The value each axis takes at this point.
    pub values: Vec<(String, toml::Value)>,
    /// The kind's section, whose name a setting may start with.
    pub section: Option<&'static str>,
    /// How many batteries `battery = "all"` means.
    pub batteries: usize,
}

impl SweepContext<'_> {
    /// The offset of axis `name` in the sweep, else the sweep's start.
    pub fn in_sweep(&self, name: &str) -> usize {
        self.loc.key_offset(self.span.clone(), name)
    }

    /// An error at `offset`.
    pub fn at(&self, offset: usize, message: impl fmt::Display) -> ConfigError {
        self.loc.at(offset, message)
    }

    /// Does the config or an axis of the sweep set a setting under `prefix`?
    pub fn sets(&self, prefix: &str) -> bool {
        self.raw.contains_key(prefix) || self.axes.iter().any(|(_, path)| path.starts_with(prefix))
    }

    /// Where `setting` is written: its axis if one sets it, else its key.
    pub fn setting_offset(&self, setting: &str) -> usize {
        let inner = self.section.and_then(|s| setting.strip_prefix(&format!("{s}."))).unwrap_or(setting);
        match self.axes.iter().find(|(_, path)| path == setting || path == inner) {
            Some((name, _)) => self.in_sweep(name),
            None => self.loc.anywhere(setting.rsplit('.').next().unwrap_or(setting)),
        }
    }

    /// A point's settings that do not deserialise, located at the axis
    /// that set the value at fault.
    pub fn unreadable(&self, e: toml::de::Error) -> ConfigError {
        let label = self.label;
        let message = e.message();
        let name = self.axes.iter().find(|(n, p)| {
            message.contains(&format!("`{n}`")) || message.contains(&format!("`{}`", p.rsplit('.').next().unwrap_or(p)))
        });
        // An unknown variant names the value, not the axis: find the axis holding it.
        let holding = || {
            self.values
                .iter()
                .find_map(|(n, v)| v.as_str().filter(|s| message.contains(&format!("`{s}`"))).map(|_| n.as_str()))
        };
        match (name.map(|(n, _)| n.as_str()), holding()) {
            (Some(n), _) => self.at(self.in_sweep(n), format!("{label}: {}", message.trim())),
            (None, Some(n)) => self.at(self.in_sweep(n), format!("{label}: axis `{n}`: {}", message.trim())),
            (None, None) => self.at(self.span.start, format!("{label}: {}", message.trim())),
        }
    }

    /// A point's settings refused by its `resolve`, located at the setting
    /// at fault (or its strategy).
    pub fn invalid(&self, e: anyhow::Error) -> ConfigError {
        let at = match e.downcast_ref::<crate::setting::InvalidSetting>() {
            Some(s) => self.setting_offset(s.setting),
            None => match e.downcast_ref::<crate::names::UnknownName>() {
                Some(_) => self.in_sweep("strategy"),
                None => self.span.start,
            },
        };
        self.at(at, format!("{}: {e:#}", self.label))
    }
}
