//! The one layout step of a Gantt chart: a [`Source`] (bands of nodes, the
//! executions on them, node outages, reserved parts) and a window become a
//! [`Chart`] of rectangles and lines in chart coordinates.
//!
//! Contract:
//! - x is simulated time in seconds, clipped to the window; y counts rows
//!   of unit height from the top: each band has its reservation lanes first
//!   (each a 40th of its node count high, at least one unit), then one unit
//!   per node, then a gap as high as a lane before the next band.
//! - An execution is drawn as one [`Bar`] per maximal run of consecutive
//!   nodes in its node list, so its node set is covered exactly once. Rows
//!   are node ranges: a band's nodes are cut wherever a drawn bar or outage
//!   begins or ends, so nodes no execution in the window splits share a row.
//! - Outages are a node down (failure to repair) or, for a run with node
//!   power states, a node switching off, asleep or switching on
//!   ([`OutageKind`]); a node runs nothing then, so no bar overlaps an
//!   outage of its node. A band's [`PowerCurve`] (the watts its nodes draw)
//!   becomes the chart's [`PowerStrip`], clipped to the window.
//! - Each bar keeps the execution's real start and end and the job's fields
//!   (the renderers show them on hover); its x extent is clipped.
//! - The default window is the busiest week: the 7 days, starting on a day
//!   boundary of simulated time, with the most busy node-seconds (the whole
//!   run when it is shorter), trimmed to the first start and last end in it. A window with nothing to draw is an error.
//! - Output is a pure function of the input: the same source gives the same
//!   chart.

use crate::units::{DAY, Time, seconds};

/// How an execution ended, which sets its colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Mark {
    /// The job's last execution, successful.
    Success,
    /// Its last execution, lost to a node failure.
    Failed,
    /// Its last execution, killed (at its deadline, estimate or booked end).
    Killed,
    /// An execution a node failure interrupted; the job ran again.
    Interrupted,
    /// A reserved part (a Grid sub-reservation).
    Reserved,
    /// A slot a provisioned workflow reserved (drawn as an outline).
    Slot,
    /// A provisioned workflow's task, in its reserved slot.
    Task,
}

impl Mark {
    /// Every mark, in legend order.
    pub const ALL: [Mark; 7] =
        [Mark::Success, Mark::Failed, Mark::Killed, Mark::Interrupted, Mark::Reserved, Mark::Slot, Mark::Task];

    /// Its name (CSS class, legend, hover).
    pub fn name(self) -> &'static str {
        match self {
            Mark::Success => "success",
            Mark::Failed => "failed",
            Mark::Killed => "killed",
            Mark::Interrupted => "interrupted",
            Mark::Reserved => "reserved",
            Mark::Slot => "slot",
            Mark::Task => "task",
        }
    }

    /// Its legend text.
    pub fn legend(self) -> &'static str {
        match self {
            Mark::Success => "success",
            Mark::Failed => "failed (node failure)",
            Mark::Killed => "killed (deadline, estimate or booked end)",
            Mark::Interrupted => "interrupted, ran again",
            Mark::Reserved => "reserved",
            Mark::Slot => "reserved slot",
            Mark::Task => "workflow task",
        }
    }

    /// Its fill colour.
    pub fn colour(self) -> (u8, u8, u8) {
        match self {
            Mark::Success => (76, 154, 92),
            Mark::Failed => (214, 39, 40),
            Mark::Killed => (245, 140, 30),
            Mark::Interrupted => (240, 160, 160),
            Mark::Reserved => (80, 120, 200),
            Mark::Slot => (31, 63, 159),
            Mark::Task => (76, 154, 92),
        }
    }

    /// Drawn as an outline, not filled.
    pub fn outlined(self) -> bool {
        self == Mark::Slot
    }
}

/// One execution (or reserved part) to draw.
#[derive(Debug, Clone, PartialEq)]
pub struct Item {
    /// The job (or request, or submission) number in the run.
    pub job: u32,
    /// The job's number in its trace (or the part's number).
    pub swf_id: i64,
    /// Start.
    pub start: Time,
    /// End.
    pub end: Time,
    /// The nodes it ran on, ascending (rows of its band); ignored for lanes.
    pub nodes: Vec<u32>,
    /// How it ended.
    pub mark: Mark,
    /// Overbooked: booked shorter than its estimate.
    pub overbooked: bool,
    /// Planned (booked) start, if it was planned.
    pub planned_start: Option<Time>,
    /// Planned (booked) end.
    pub planned_end: Option<Time>,
    /// Items with the same link (the parts of one co-reservation) are joined.
    pub link: Option<u32>,
    /// Processors held (lane items, provisioning), shown on hover.
    pub cpus: u32,
    /// Provisioning: the submission and the trade-off factor α.
    pub provision: Option<(u32, f64)>,
}

/// Why a node runs nothing: failed, or in a power state other than on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum OutageKind {
    /// Failed, until its repair.
    #[default]
    Down,
    /// Switching off into its sleep state.
    SwitchingOff,
    /// Asleep.
    Asleep,
    /// Switching on.
    SwitchingOn,
}

impl OutageKind {
    /// Every kind, in legend order.
    pub const ALL: [OutageKind; 4] =
        [OutageKind::Down, OutageKind::SwitchingOff, OutageKind::Asleep, OutageKind::SwitchingOn];

    /// Its name (CSS class, hover).
    pub fn name(self) -> &'static str {
        match self {
            OutageKind::Down => "down",
            OutageKind::SwitchingOff => "switching-off",
            OutageKind::Asleep => "asleep",
            OutageKind::SwitchingOn => "switching-on",
        }
    }

    /// A power state rather than a failure.
    pub fn is_power(self) -> bool {
        self != OutageKind::Down
    }

    /// Its legend text.
    pub fn legend(self) -> &'static str {
        match self {
            OutageKind::Down => "node down (triangle: failure)",
            OutageKind::SwitchingOff => "switching off",
            OutageKind::Asleep => "asleep",
            OutageKind::SwitchingOn => "switching on",
        }
    }

    /// Its fill colour (power states; a down node is hatched).
    pub fn colour(self) -> (u8, u8, u8) {
        match self {
            OutageKind::Down => (68, 68, 68),
            OutageKind::SwitchingOff => (214, 160, 60),
            OutageKind::Asleep => (150, 165, 200),
            OutageKind::SwitchingOn => (240, 205, 80),
        }
    }
}

/// A node out of service: down, or switching or asleep.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Outage {
    /// The node.
    pub node: u32,
    /// Failure (or the power state's start).
    pub from: Time,
    /// Repair (or the power state's end, or the run's end).
    pub to: Time,
    /// Down, or which power state.
    pub kind: OutageKind,
}

/// The watts a cluster draws over time: a step function.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PowerCurve {
    /// (from, watts): the watts drawn from each time on, times ascending.
    pub steps: Vec<(Time, f64)>,
    /// The cluster's power cap, if any.
    pub cap: Option<f64>,
}

impl PowerCurve {
    /// The watts drawn at `t` (the first step's before it starts).
    pub fn at(&self, t: Time) -> f64 {
        match self.steps.partition_point(|s| s.0 <= t) {
            0 => self.steps.first().map_or(0.0, |s| s.1),
            k => self.steps[k - 1].1,
        }
    }

    /// The steps in window `w`: the first at `w.from`, every later change
    /// before `w.to`.
    pub fn clipped(&self, w: Window) -> Vec<(Time, f64)> {
        let mut out = vec![(w.from, self.at(w.from))];
        out.extend(self.steps.iter().copied().filter(|s| s.0 > w.from && s.0 < w.to));
        out
    }
}

/// One band: a cluster (or site) and what ran on it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct BandSource {
    /// Its label.
    pub label: String,
    /// Nodes (rows).
    pub nodes: u32,
    /// Names of its node rows, if they are not nodes (provisioning).
    pub row_names: Vec<String>,
    /// Executions on its nodes.
    pub items: Vec<Item>,
    /// Node outages.
    pub outages: Vec<Outage>,
    /// Reserved parts drawn in lanes above its nodes (Grid sub-reservations).
    pub lanes: Vec<Item>,
    /// The watts its nodes draw over time, for a run with a power model.
    pub power: Option<PowerCurve>,
}

/// What a chart is drawn from.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Source {
    /// Title: the run.
    pub title: String,
    /// The bands, top to bottom.
    pub bands: Vec<BandSource>,
}

/// A time window [from, to).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Window {
    /// First instant.
    pub from: Time,
    /// End (exclusive).
    pub to: Time,
}

/// A rectangle standing for (part of) one execution.
#[derive(Debug, Clone, PartialEq)]
pub struct Bar {
    /// Clipped start.
    pub x0: Time,
    /// Clipped end.
    pub x1: Time,
    /// First row unit.
    pub y0: u32,
    /// End row unit (exclusive).
    pub y1: u32,
    /// Band index.
    pub band: usize,
    /// First node of this bar (in its band), or the lane.
    pub first: u32,
    /// Last node (inclusive).
    pub last: u32,
    /// In a reservation lane rather than on nodes.
    pub lane: bool,
    /// The item's fields (real start and end).
    pub item: Item,
}

/// A shaded node outage.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shade {
    /// Clipped failure time.
    pub x0: Time,
    /// Clipped repair time.
    pub x1: Time,
    /// Row unit.
    pub y: u32,
    /// Band.
    pub band: usize,
    /// The outage.
    pub outage: Outage,
}

/// What a line stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LineKind {
    /// From a job's planned start to its actual start.
    Planned,
    /// A tick at an overbooked job's booked end.
    BookedEnd,
    /// Joins the parts of one co-reservation.
    Link,
}

impl LineKind {
    /// Its CSS class.
    pub fn name(self) -> &'static str {
        match self {
            LineKind::Planned => "planned",
            LineKind::BookedEnd => "booked-end",
            LineKind::Link => "link",
        }
    }
}

/// A line in chart coordinates (y in row units, fractional: row middles).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Line {
    /// Start time.
    pub x0: Time,
    /// Start row position.
    pub y0: f64,
    /// End time.
    pub x1: Time,
    /// End row position.
    pub y1: f64,
    /// Kind.
    pub kind: LineKind,
    /// The job or request it belongs to.
    pub job: u32,
}

/// A labelled band in the chart.
#[derive(Debug, Clone, PartialEq)]
pub struct BandBox {
    /// Label.
    pub label: String,
    /// First row unit.
    pub y0: u32,
    /// End row unit (exclusive).
    pub y1: u32,
    /// First node row.
    pub nodes_y0: u32,
}

/// A row: one node or a range of nodes, or a reservation lane.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    /// First row unit.
    pub y0: u32,
    /// End row unit (exclusive).
    pub y1: u32,
    /// Its label ("12", "0–31", "lane 1").
    pub label: String,
}

/// A laid-out chart.
#[derive(Debug, Clone, PartialEq)]
pub struct Chart {
    /// Title.
    pub title: String,
    /// The window drawn.
    pub window: Window,
    /// How the window was chosen ("busiest week", "whole run", "--since/--until").
    pub window_reason: String,
    /// Row units in all.
    pub height: u32,
    /// Bands.
    pub bands: Vec<BandBox>,
    /// Rows.
    pub rows: Vec<Row>,
    /// Bars.
    pub bars: Vec<Bar>,
    /// Outages: node failures, and nodes switching or asleep.
    pub shades: Vec<Shade>,
    /// Lines.
    pub lines: Vec<Line>,
    /// The power drawn in the window (the first band with a power model).
    pub power: Option<PowerStrip>,
}

/// The power a chart draws under its rows.
#[derive(Debug, Clone, PartialEq)]
pub struct PowerStrip {
    /// (from, watts) in the window, the first at its start.
    pub steps: Vec<(Time, f64)>,
    /// The cap, if any.
    pub cap: Option<f64>,
    /// The band it belongs to.
    pub band: usize,
    /// The mean watts over the window.
    pub mean: f64,
}

/// Why a chart cannot be laid out.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LayoutError {
    /// The window is empty or holds nothing to draw.
    #[error(
        "the window [{from}, {to}) holds no execution of this run (it ran from {first} to {} of simulated time)",
        seconds(last)
    )]
    EmptyWindow {
        /// Window start.
        from: Time,
        /// Window end.
        to: Time,
        /// The run's first start.
        first: Time,
        /// The run's last end.
        last: Time,
    },
    /// Nothing ran at all.
    #[error("the run has no execution to draw")]
    NothingRan,
}

/// A reservation lane is 1/this of its band's node rows high.
const LANES_PER_BAND: u32 = 40;

fn in_window(start: Time, end: Time, w: Window) -> bool {
    if start == end { start >= w.from && start < w.to } else { start < w.to && end > w.from }
}

/// Maximal runs of consecutive values of an ascending list: (first, last).
pub fn runs(nodes: &[u32]) -> impl Iterator<Item = (u32, u32)> + '_ {
    let mut i = 0;
    std::iter::from_fn(move || {
        let first = *nodes.get(i)?;
        let mut last = first;
        i += 1;
        while let Some(&n) = nodes.get(i) {
            if n != last + 1 {
                break;
            }
            last = n;
            i += 1;
        }
        Some((first, last))
    })
}

/// The items of every band, lanes included.
fn all_items(source: &Source) -> impl Iterator<Item = &Item> {
    source.bands.iter().flat_map(|b| b.items.iter().chain(&b.lanes))
}

/// The run's extent: first start, last end.
pub fn extent(source: &Source) -> Option<(Time, Time)> {
    all_items(source).fold(None, |acc, i| match acc {
        None => Some((i.start, i.end)),
        Some((a, b)) => Some((a.min(i.start), b.max(i.end))),
    })
}

/// The busiest week of a source: the 7-day window, starting on a day
/// boundary, with the most busy node-seconds; the whole run if it is
/// shorter. `None` when nothing ran.
pub fn busiest_week(source: &Source) -> Option<(Window, bool)> {
    const WEEK_DAYS: usize = 7;
    let (first, last) = extent(source)?;
    if last - first <= WEEK_DAYS as Time * DAY {
        return Some((Window { from: first, to: last.max(first + 1) }, false));
    }
    let day0 = first.div_euclid(DAY);
    let days = (last.div_euclid(DAY) - day0 + 1) as usize;
    let mut busy = vec![0f64; days];
    for b in &source.bands {
        for item in b.items.iter().filter(|i| i.end > i.start) {
            let width = item.nodes.len().max(1) as f64;
            let mut t = item.start;
            while t < item.end {
                let day = t.div_euclid(DAY);
                let next = ((day + 1) * DAY).min(item.end);
                busy[(day - day0) as usize] += width * (next - t) as f64;
                t = next;
            }
        }
    }
    let mut sum: f64 = busy.iter().take(WEEK_DAYS).sum();
    let (mut best, mut best_sum) = (0, sum);
    for start in 1..=days.saturating_sub(WEEK_DAYS) {
        sum += busy[start + WEEK_DAYS - 1] - busy[start - 1];
        if sum > best_sum {
            (best, best_sum) = (start, sum);
        }
    }
    let from = (day0 + best as Time) * DAY;
    let week = Window { from, to: from + WEEK_DAYS as Time * DAY };
    // Trimmed to what happens in it: a workflow of a day in a quiet week fills the chart.
    let (mut lo, mut hi) = (week.to, week.from);
    for item in source.bands.iter().flat_map(|b| &b.items).filter(|i| in_window(i.start, i.end, week)) {
        lo = lo.min(item.start.max(week.from));
        hi = hi.max(item.end.min(week.to));
    }
    Some((if lo < hi { Window { from: lo, to: hi } } else { week }, true))
}

/// Greedy lanes for items that hold no nodes: each item goes to the first
/// lane free at its start. Returns each item's lane and the lane count.
fn assign_lanes(items: &[&Item]) -> (Vec<u32>, u32) {
    let mut ends: Vec<Time> = Vec::new();
    let mut lanes = Vec::with_capacity(items.len());
    for item in items {
        let lane = match ends.iter().position(|&e| e <= item.start) {
            Some(l) => l,
            None => {
                ends.push(Time::MIN);
                ends.len() - 1
            }
        };
        ends[lane] = item.end.max(item.start + 1);
        lanes.push(lane as u32);
    }
    (lanes, ends.len() as u32)
}

fn row_label(first: u32, last: u32) -> String {
    if first == last { first.to_string() } else { format!("{first}–{last}") }
}

/// Lays a source out in `window` (default: the busiest week).
pub fn layout(source: &Source, window: Option<Window>) -> Result<Chart, LayoutError> {
    let (first, last) = extent(source).ok_or(LayoutError::NothingRan)?;
    let (window, reason) = match window {
        Some(w) => (w, "the window asked for".to_string()),
        None => match busiest_week(source) {
            Some((w, true)) => (w, "the busiest week, from its first start to its last end".to_string()),
            Some((w, false)) => (w, "the whole run".to_string()),
            None => return Err(LayoutError::NothingRan),
        },
    };
    let empty = LayoutError::EmptyWindow { from: window.from, to: window.to, first, last };
    if window.to <= window.from {
        return Err(empty);
    }
    let clip = |t: Time| t.clamp(window.from, window.to);
    let mut chart = Chart {
        title: source.title.clone(),
        window,
        window_reason: reason,
        height: 0,
        bands: Vec::with_capacity(source.bands.len()),
        rows: Vec::new(),
        bars: Vec::new(),
        shades: Vec::new(),
        lines: Vec::new(),
        power: None,
    };
    // Lane rows of each linked item, for the links: (link, band, y middle, start).
    let mut linked: Vec<(u32, f64, Time)> = Vec::new();
    let mut y = 0u32;
    let mut gap = 0;
    let mut cuts: Vec<u32> = Vec::new();
    for (band, b) in source.bands.iter().enumerate() {
        let y_band = y;
        let lane_items: Vec<&Item> = b.lanes.iter().filter(|i| in_window(i.start, i.end, window)).collect();
        let (lanes, lane_count) = assign_lanes(&lane_items);
        // A lane is as high as a 40th of the band's nodes, so it stays visible.
        let lane_height = (b.nodes / LANES_PER_BAND).max(1);
        for l in 0..lane_count {
            let y0 = y + l * lane_height;
            chart.rows.push(Row { y0, y1: y0 + lane_height, label: format!("reserved {}", l + 1) });
        }
        for (item, &lane) in lane_items.iter().zip(&lanes) {
            let row = y + lane * lane_height;
            if let Some(link) = item.link {
                linked.push((link, f64::from(row) + f64::from(lane_height) / 2.0, item.start));
            }
            chart.bars.push(Bar {
                x0: clip(item.start),
                x1: clip(item.end),
                y0: row,
                y1: row + lane_height,
                band,
                first: lane,
                last: lane,
                lane: true,
                item: (*item).clone(),
            });
        }
        y += lane_count * lane_height;
        let nodes_y0 = y;
        cuts.clear();
        cuts.extend([0, b.nodes]);
        for item in b.items.iter().filter(|i| in_window(i.start, i.end, window)) {
            let mut top: Option<(u32, u32)> = None;
            for (a, z) in runs(&item.nodes) {
                cuts.extend([a, z + 1]);
                top.get_or_insert((a, z));
                chart.bars.push(Bar {
                    x0: clip(item.start),
                    x1: clip(item.end),
                    y0: nodes_y0 + a,
                    y1: nodes_y0 + z + 1,
                    band,
                    first: a,
                    last: z,
                    lane: false,
                    item: item.clone(),
                });
            }
            let Some((a, z)) = top else { continue };
            let middle = f64::from(nodes_y0 + a) + f64::from(z + 1 - a) / 2.0;
            if let (Some(planned), false) = (item.planned_start, item.nodes.is_empty()) {
                if planned != item.start && in_window(planned.min(item.start), planned.max(item.start), window) {
                    chart.lines.push(Line {
                        x0: clip(planned),
                        y0: middle,
                        x1: clip(item.start),
                        y1: middle,
                        kind: LineKind::Planned,
                        job: item.job,
                    });
                }
            }
            if let (true, Some(end)) = (item.overbooked, item.planned_end) {
                if end >= window.from && end <= window.to {
                    let bottom = f64::from(nodes_y0 + z + 1);
                    chart.lines.push(Line {
                        x0: end,
                        y0: f64::from(nodes_y0 + a),
                        x1: end,
                        y1: bottom,
                        kind: LineKind::BookedEnd,
                        job: item.job,
                    });
                }
            }
        }
        for o in b.outages.iter().filter(|o| o.node < b.nodes && in_window(o.from, o.to, window)) {
            cuts.extend([o.node, o.node + 1]);
            chart.shades.push(Shade { x0: clip(o.from), x1: clip(o.to), y: nodes_y0 + o.node, band, outage: *o });
        }
        if let (None, Some(curve)) = (&chart.power, &b.power) {
            let steps = curve.clipped(window);
            let span = (window.to - window.from) as f64;
            let mean = steps
                .iter()
                .enumerate()
                .map(|(k, s)| s.1 * (steps.get(k + 1).map_or(window.to, |n| n.0) - s.0) as f64)
                .sum::<f64>()
                / span;
            chart.power = Some(PowerStrip { steps, cap: curve.cap, band, mean });
        }
        cuts.retain(|&c| c <= b.nodes);
        cuts.sort_unstable();
        cuts.dedup();
        for pair in cuts.windows(2) {
            let (a, z) = (pair[0], pair[1]);
            let label = match b.row_names.get(a as usize) {
                Some(name) if z == a + 1 => name.clone(),
                _ => row_label(a, z - 1),
            };
            chart.rows.push(Row { y0: nodes_y0 + a, y1: nodes_y0 + z, label });
        }
        y = nodes_y0 + b.nodes;
        chart.bands.push(BandBox { label: b.label.clone(), y0: y_band, y1: y, nodes_y0 });
        gap = lane_height;
        y += gap;
    }
    chart.height = y.saturating_sub(gap).max(1);
    // Parts of one request: a line through them at the first part's start.
    linked.sort_by(|a, b| a.0.cmp(&b.0).then(a.1.total_cmp(&b.1)));
    for group in linked.chunk_by(|a, b| a.0 == b.0) {
        if let (Some(top), Some(bottom)) = (group.first(), group.last()) {
            if group.len() > 1 {
                chart.lines.push(Line {
                    x0: clip(top.2),
                    y0: top.1,
                    x1: clip(top.2),
                    y1: bottom.1,
                    kind: LineKind::Link,
                    job: top.0,
                });
            }
        }
    }
    if chart.bars.is_empty() {
        return Err(empty);
    }
    Ok(chart)
}
