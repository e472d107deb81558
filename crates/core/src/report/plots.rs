//! Report plots (plotters): gain vs PoF_max with confidence bands, successful
//! and failed jobs vs PoF_max, gain vs penalty ratio, calibration.
//!
//! Contract: a [`Figure`] is one or more stacked [`Panel`]s of series; it is
//! drawn twice, to an SVG string (embedded in the HTML page) and to a PNG
//! file. Every series is named in a legend beside its chart with the
//! colour, marker and line it is drawn with, and no two series of a panel
//! look alike ([`Panel::styles`]); a [`Palette`] gives a name the same
//! colour in every figure. Axis ticks are round numbers printed with the
//! decimals that tell them apart; an x axis may be categorical. PNG text
//! uses the DejaVu Sans font compiled into the binary (set by
//! `report::png`), so no system font is needed; drawing errors are
//! returned, never panics.

use std::path::Path;
use std::sync::Once;

use plotters::coord::Shift;
use plotters::coord::ranged1d::{DefaultFormatting, KeyPointHint, Ranged};
use plotters::prelude::*;
use plotters::style::FontStyle;

use crate::report::png::Png;

/// The shape drawn at each point of a series.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Marker {
    #[default]
    Circle,
    Square,
    Triangle,
    Diamond,
    InvertedTriangle,
    Cross,
    Plus,
}

/// Every marker, in the order a panel hands them out.
pub const MARKERS: [Marker; 7] = [
    Marker::Circle,
    Marker::Square,
    Marker::Triangle,
    Marker::Diamond,
    Marker::InvertedTriangle,
    Marker::Cross,
    Marker::Plus,
];

/// One series of a panel.
///
/// A series is drawn in its colour with its marker at its points (at most
/// [`MARKED`] of them), and named in the legend beside the chart with the
/// same colour, marker and line. Two series of a panel never look alike:
/// one whose colour, marker, fill and line equal an earlier one's gets the
/// next free marker (see [`Panel::styles`]).
#[derive(Debug, Clone, Default)]
pub struct Series {
    /// Legend label.
    pub name: String,
    /// (x, y, low, high); low/high draw a band or error bars. A box series
    /// ([`Series::whiskers`]): (x, median, first quartile, third quartile).
    pub points: Vec<(f64, f64, f64, f64)>,
    /// Shade the band between low and high.
    pub band: bool,
    /// Draw error bars from low to high.
    pub error_bars: bool,
    /// Connect the points.
    pub line: bool,
    /// Colour index into the palette ([`Palette`] assigns them by name).
    pub colour: usize,
    /// The marker; None: circles (a clash with an earlier series moves it on).
    pub marker: Option<Marker>,
    /// Markers as outlines (a size larger), so the points under them stay visible.
    pub hollow: bool,
    /// A line alone: no markers (they need `line`; a clash gives it dashes,
    /// then markers).
    pub line_only: bool,
    /// Draw the line dashed.
    pub dashed: bool,
    /// A text beside each point, in the order of `points` (empty: none).
    pub labels: Vec<String>,
    /// A box plot: per point, the whiskers' (low, high); empty otherwise.
    pub whiskers: Vec<(f64, f64)>,
}

impl Series {
    /// Points (x, y, low, high) drawn with error bars from low to high.
    pub fn with_error_bars(name: String, points: Vec<(f64, f64, f64, f64)>, line: bool, colour: usize) -> Series {
        Series { name, points, error_bars: true, line, colour, ..Series::default() }
    }
}

/// Colours by name: a fixed list of names sorted once, so a name keeps its
/// colour in every figure built from the same palette, whichever subset of
/// the names a figure shows.
#[derive(Debug, Clone, Default)]
pub struct Palette {
    names: Vec<String>,
}

impl Palette {
    /// The palette of `names` (sorted, duplicates dropped).
    pub fn new<S: AsRef<str>>(names: impl IntoIterator<Item = S>) -> Palette {
        let mut names: Vec<String> = names.into_iter().map(|n| n.as_ref().to_string()).collect();
        names.sort();
        names.dedup();
        Palette { names }
    }

    /// The colour index of `name`; a name outside the palette gets one past
    /// its names (still distinct from theirs while they fit the palette).
    pub fn colour(&self, name: &str) -> usize {
        self.names.iter().position(|n| n == name).unwrap_or(self.names.len())
    }
}

/// The unit of a time axis, chosen from the data's scale as every printed
/// duration is.
pub use slasim_sim::units::TimeUnit;

/// One chart.
#[derive(Debug, Clone, Default)]
pub struct Panel {
    /// Title.
    pub title: String,
    /// X axis label.
    pub x_label: String,
    /// Y axis label.
    pub y_label: String,
    /// The series.
    pub series: Vec<Series>,
    /// Draw the y = x reference line (calibration).
    pub diagonal: bool,
    /// A categorical x axis: x = i is drawn at, and labelled, the i-th name.
    pub x_categories: Vec<String>,
    /// A logarithmic y axis; values below the floor are drawn at it.
    pub y_log: Option<f64>,
}

/// How one series of a panel is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Style {
    /// Colour index.
    pub colour: usize,
    /// Marker; None: a line alone.
    pub marker: Option<Marker>,
    /// Markers as outlines.
    pub hollow: bool,
    /// Dashed line.
    pub dashed: bool,
    /// Connected points.
    pub line: bool,
}

impl Panel {
    /// Each series' style, in order: no two alike. A series that would look
    /// like an earlier one takes the next marker not yet worn in its colour,
    /// then the other fill, then the next colour, so its legend entry tells
    /// it apart (a line alone first tries the other dashing).
    pub fn styles(&self) -> Vec<Style> {
        let mut out: Vec<Style> = Vec::with_capacity(self.series.len());
        for s in &self.series {
            let plain = s.line && s.line_only && s.whiskers.is_empty();
            let mut style = Style {
                colour: s.colour % COLOURS.len(),
                marker: (!plain).then(|| s.marker.unwrap_or_default()),
                hollow: s.hollow,
                dashed: s.dashed,
                line: s.line,
            };
            if plain && out.contains(&style) {
                style.dashed = !style.dashed;
            }
            if !out.contains(&style) {
                out.push(style);
                continue;
            }
            let start = MARKERS.iter().position(|m| Some(*m) == style.marker).unwrap_or(0);
            // Markers, then the other fill, then (past 14 alike) the next colours.
            let per_colour = 2 * MARKERS.len();
            let candidates = (0..per_colour * COLOURS.len()).map(|k| {
                let (shade, k) = (k / per_colour, k % per_colour);
                let hollow = if k < MARKERS.len() { style.hollow } else { !style.hollow };
                ((style.colour + shade) % COLOURS.len(), MARKERS[(start + k) % MARKERS.len()], hollow)
            });
            for (colour, marker, hollow) in candidates {
                let tried = Style { colour, marker: Some(marker), hollow, ..style };
                if !out.contains(&tried) {
                    style = tried;
                    break;
                }
            }
            out.push(style);
        }
        out
    }
}

/// The most markers a line draws; a longer one has every k-th point marked.
pub const MARKED: usize = 30;

/// A figure: panels stacked vertically.
#[derive(Debug, Clone)]
pub struct Figure {
    /// File stem and HTML anchor.
    pub id: String,
    /// Caption.
    pub caption: String,
    /// The panels.
    pub panels: Vec<Panel>,
}

const COLOURS: [RGBColor; 8] = [
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(44, 160, 44),
    RGBColor(214, 39, 40),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(127, 127, 127),
];

fn colour(i: usize) -> RGBColor {
    COLOURS[i % COLOURS.len()]
}

/// Registers the embedded font once.
pub(crate) fn fonts() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        // The font ships inside the binary; a failure only loses PNG text.
        let _ = plotters::style::register_font("sans-serif", FontStyle::Normal, dejavu::sans::regular());
        let _ = plotters::style::register_font("sans-serif", FontStyle::Bold, dejavu::sans::bold());
    });
}

fn ranges(panel: &Panel) -> ((f64, f64), (f64, f64)) {
    let xs = panel.series.iter().flat_map(|s| s.points.iter().map(|p| p.0));
    let ys = panel
        .series
        .iter()
        .flat_map(|s| s.points.iter().flat_map(|p| [p.1, p.2, p.3]).chain(s.whiskers.iter().flat_map(|w| [w.0, w.1])));
    let (mut x0, mut x1) = xs.fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), x| (a.min(x), b.max(x)));
    let (mut y0, mut y1) = ys.fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), y| (a.min(y), b.max(y)));
    if !x0.is_finite() {
        (x0, x1) = (0.0, 1.0);
    }
    if !y0.is_finite() {
        (y0, y1) = (0.0, 1.0);
    }
    if panel.diagonal {
        x0 = x0.min(0.0);
        y0 = y0.min(0.0);
        let top = x1.max(y1);
        (x1, y1) = (top, top);
    }
    let pad = |a: f64, b: f64| {
        let span = if (b - a).abs() < 1e-12 { a.abs().max(1.0) * 0.1 } else { (b - a) * 0.05 };
        (a - span, b + span)
    };
    let x = if panel.x_categories.is_empty() { pad(x0, x1) } else { (-0.5, panel.x_categories.len() as f64 - 0.5) };
    (x, pad(y0, y1))
}

type DrawResult<T> = Result<T, String>;

/// Round ticks over `lo..hi` (a step of 1, 2 or 5 × 10^k, about `target`
/// of them), and the decimals that print each one differently.
pub fn ticks(lo: f64, hi: f64, target: usize) -> (Vec<f64>, usize) {
    let span = hi - lo;
    if !(span.is_finite() && span > 0.0) {
        return (vec![lo], 2);
    }
    let raw = span / target.max(1) as f64;
    let magnitude = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0].iter().map(|m| m * magnitude).find(|s| *s >= raw).unwrap_or(10.0 * magnitude);
    let decimals = (-(step.log10() + 1e-9).floor()).max(0.0) as usize;
    let first = (lo / step).ceil() as i64;
    let last = (hi / step).floor() as i64;
    // -0 prints as "-0": snap to the step's grid.
    let out = (first..=last).map(|k| if k == 0 { 0.0 } else { k as f64 * step }).collect();
    (out, decimals)
}

/// A linear axis whose grid lines and labels are the given ticks (plotters'
/// own picks print repeated labels on narrow ranges).
struct Ticked {
    lo: f64,
    hi: f64,
    ticks: Vec<f64>,
}

impl Ranged for Ticked {
    type FormatOption = DefaultFormatting;
    type ValueType = f64;

    fn map(&self, value: &f64, limit: (i32, i32)) -> i32 {
        let share = (value - self.lo) / (self.hi - self.lo);
        limit.0 + (share * f64::from(limit.1 - limit.0)).round() as i32
    }

    fn key_points<H: KeyPointHint>(&self, hint: H) -> Vec<f64> {
        // No light grid: one line per labelled tick.
        if hint.weight().allow_light_points() { Vec::new() } else { self.ticks.clone() }
    }

    fn range(&self) -> std::ops::Range<f64> {
        self.lo..self.hi
    }
}

/// A category name cut to `room` characters.
fn short(name: &str, room: usize) -> String {
    if name.chars().count() <= room {
        return name.to_string();
    }
    let kept: String = name.chars().take(room.saturating_sub(1).max(1)).collect();
    format!("{kept}…")
}

/// Draws a marker centred at pixel `at` of `area`: `r` px, filled or an outline.
fn draw_marker<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    m: Marker,
    (x, y): (i32, i32),
    r: i32,
    c: RGBColor,
    hollow: bool,
) -> DrawResult<()> {
    let err = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
    let stroke = c.stroke_width(2);
    let at = |points: &[(i32, i32)]| points.iter().map(|p| (x + p.0, y + p.1)).collect::<Vec<_>>();
    let shape = |points: &[(i32, i32)]| {
        if hollow {
            let mut closed = at(points);
            closed.push(closed[0]);
            area.draw(&PathElement::new(closed, stroke))
        } else {
            area.draw(&Polygon::new(at(points), c.filled()))
        }
    };
    match m {
        // A ring as a polygon: plotters' bitmap circle breaks at stroke width 2.
        Marker::Circle if hollow => {
            let ring: Vec<(i32, i32)> = (0..=16)
                .map(|k| {
                    let a = std::f64::consts::TAU * f64::from(k) / 16.0;
                    (x + (f64::from(r) * a.cos()).round() as i32, y + (f64::from(r) * a.sin()).round() as i32)
                })
                .collect();
            area.draw(&PathElement::new(ring, stroke))
        }
        Marker::Circle => area.draw(&Circle::new((x, y), r, c.filled())),
        Marker::Square => shape(&[(-r + 1, -r + 1), (r - 1, -r + 1), (r - 1, r - 1), (-r + 1, r - 1)]),
        Marker::Triangle => shape(&[(0, -r - 1), (r, r - 1), (-r, r - 1)]),
        Marker::Diamond => shape(&[(0, -r - 1), (r + 1, 0), (0, r + 1), (-r - 1, 0)]),
        Marker::InvertedTriangle => shape(&[(0, r + 1), (r, -r + 1), (-r, -r + 1)]),
        Marker::Cross => area
            .draw(&PathElement::new(at(&[(-r, -r), (r, r)]), stroke))
            .and_then(|()| area.draw(&PathElement::new(at(&[(-r, r), (r, -r)]), stroke))),
        Marker::Plus => area
            .draw(&PathElement::new(at(&[(-r - 1, 0), (r + 1, 0)]), stroke))
            .and_then(|()| area.draw(&PathElement::new(at(&[(0, -r - 1), (0, r + 1)]), stroke))),
    }
    .map_err(err)
}

/// Half the width of a box, in x units (a category is 1 wide).
const BOX: f64 = 0.3;

/// Line segments of a dashed polyline in pixels: 6 on, 4 off.
fn dashes(points: &[(i32, i32)]) -> Vec<[(i32, i32); 2]> {
    let (on, off) = (6.0, 4.0);
    let mut out = Vec::new();
    let mut phase = 0.0f64;
    for w in points.windows(2) {
        let (a, b) = (w[0], w[1]);
        let (dx, dy) = (f64::from(b.0 - a.0), f64::from(b.1 - a.1));
        let len = dx.hypot(dy);
        let mut t = 0.0;
        while t < len {
            let cycle = phase % (on + off);
            let run = if cycle < on { on - cycle } else { on + off - cycle };
            let end = (t + run).min(len);
            if cycle < on {
                let at = |u: f64| (a.0 + (dx * u / len).round() as i32, a.1 + (dy * u / len).round() as i32);
                out.push([at(t), at(end)]);
            }
            phase += end - t;
            t = end;
        }
    }
    out
}

/// The panel with every y value as its log10 (at least the floor's).
fn log_panel(panel: &Panel, floor: f64) -> Panel {
    let floor = floor.max(f64::MIN_POSITIVE);
    let log = |v: f64| v.max(floor).log10();
    let mut out = panel.clone();
    for s in &mut out.series {
        for p in &mut s.points {
            *p = (p.0, log(p.1), log(p.2), log(p.3));
        }
        for w in &mut s.whiskers {
            *w = (log(w.0), log(w.1));
        }
    }
    out
}

fn draw_panel<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    legend: &DrawingArea<DB, Shift>,
    panel: &Panel,
) -> DrawResult<()> {
    let err = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
    let logged;
    let panel = match panel.y_log {
        Some(floor) => {
            logged = log_panel(panel, floor);
            &logged
        }
        None => panel,
    };
    let ((x0, x1), (y0, y1)) = ranges(panel);
    let categorical = !panel.x_categories.is_empty();
    let (x_ticks, x_decimals) =
        if categorical { ((0..panel.x_categories.len()).map(|i| i as f64).collect(), 0) } else { ticks(x0, x1, 10) };
    let (y_ticks, y_decimals) = match panel.y_log {
        // Powers of ten, printed as the values they stand for.
        Some(_) => ((y0.ceil() as i32..=y1.floor() as i32).map(f64::from).collect(), 0),
        None => ticks(y0, y1, 8),
    };
    let y_label = |v: &f64| match panel.y_log {
        Some(_) => format!("{}", 10f64.powi(v.round() as i32)),
        None => format!("{v:.y_decimals$}"),
    };
    let room = (760 / panel.x_categories.len().max(1) / 7).max(4);
    let mut chart = ChartBuilder::on(area)
        .caption(&panel.title, ("sans-serif", 18))
        .margin(12)
        .x_label_area_size(36)
        .y_label_area_size(70)
        .build_cartesian_2d(Ticked { lo: x0, hi: x1, ticks: x_ticks }, Ticked { lo: y0, hi: y1, ticks: y_ticks })
        .map_err(err)?;
    let x_label = |v: &f64| {
        if categorical {
            let i = v.round();
            if (v - i).abs() > 1e-9 || i < 0.0 {
                return String::new();
            }
            panel.x_categories.get(i as usize).map(|n| short(n, room)).unwrap_or_default()
        } else {
            format!("{v:.x_decimals$}")
        }
    };
    let mut mesh = chart.configure_mesh();
    if categorical {
        // Categories need no vertical grid through their boxes and points.
        mesh.disable_x_mesh();
    }
    mesh.x_desc(panel.x_label.as_str())
        .y_desc(panel.y_label.as_str())
        .label_style(("sans-serif", 13))
        .x_label_formatter(&x_label)
        .y_label_formatter(&y_label)
        .axis_desc_style(("sans-serif", 14))
        .draw()
        .map_err(err)?;
    if panel.diagonal {
        chart
            .draw_series(LineSeries::new([(x0.max(0.0), x0.max(0.0)), (x1, x1)], BLACK.mix(0.4).stroke_width(1)))
            .map_err(err)?;
    }
    let styles = panel.styles();
    for (s, style) in panel.series.iter().zip(&styles) {
        let c = colour(style.colour);
        if s.band && s.points.len() > 1 {
            let mut outline: Vec<(f64, f64)> = s.points.iter().map(|p| (p.0, p.3)).collect();
            outline.extend(s.points.iter().rev().map(|p| (p.0, p.2)));
            chart.draw_series(std::iter::once(Polygon::new(outline, c.mix(0.18).filled()))).map_err(err)?;
        }
        if s.error_bars {
            chart
                .draw_series(s.points.iter().map(|p| ErrorBar::new_vertical(p.0, p.2, p.1, p.3, c.stroke_width(1), 6)))
                .map_err(err)?;
        }
        if !s.whiskers.is_empty() {
            for (p, w) in s.points.iter().zip(&s.whiskers) {
                let (x, lo, hi) = (p.0, p.0 - BOX, p.0 + BOX);
                let fill = if style.hollow { WHITE.filled() } else { c.mix(0.25).filled() };
                chart.draw_series([Rectangle::new([(lo, p.2), (hi, p.3)], fill)]).map_err(err)?;
                chart.draw_series([Rectangle::new([(lo, p.2), (hi, p.3)], c.stroke_width(2))]).map_err(err)?;
                chart.draw_series([PathElement::new(vec![(lo, p.1), (hi, p.1)], c.stroke_width(3))]).map_err(err)?;
                for (from, to) in [(p.2, w.0), (p.3, w.1)] {
                    chart.draw_series([PathElement::new(vec![(x, from), (x, to)], c.stroke_width(1))]).map_err(err)?;
                    let cap = vec![(x - BOX / 2.0, to), (x + BOX / 2.0, to)];
                    chart.draw_series([PathElement::new(cap, c.stroke_width(1))]).map_err(err)?;
                }
            }
            continue;
        }
        if s.line {
            let xy: Vec<(f64, f64)> = s.points.iter().map(|p| (p.0, p.1)).collect();
            if style.dashed {
                let pixels: Vec<(i32, i32)> = xy.iter().map(|p| chart.backend_coord(p)).collect();
                let plot = chart.plotting_area().strip_coord_spec();
                let (dx, dy) = plot.get_base_pixel();
                let local = |p: (i32, i32)| (p.0 - dx, p.1 - dy);
                for [a, b] in dashes(&pixels) {
                    plot.draw(&PathElement::new(vec![local(a), local(b)], c.stroke_width(2))).map_err(err)?;
                }
            } else {
                chart.draw_series(LineSeries::new(xy, c.stroke_width(2))).map_err(err)?;
            }
        }
        if let Some(shape) = style.marker {
            // A scatter shows every point; a long line every k-th.
            let every = if s.line { s.points.len().div_ceil(MARKED).max(1) } else { 1 };
            let radius = if s.line { 4 } else { 5 } + i32::from(style.hollow);
            let plot = chart.plotting_area().strip_coord_spec();
            let (bx, by) = plot.get_base_pixel();
            for p in s.points.iter().step_by(every) {
                let (x, y) = chart.backend_coord(&(p.0, p.1));
                draw_marker(&plot, shape, (x - bx, y - by), radius, c, style.hollow)?;
            }
        }
        if !s.labels.is_empty() {
            let font = ("sans-serif", 11).into_font().color(&c.mix(0.9));
            chart
                .draw_series(
                    s.points
                        .iter()
                        .zip(&s.labels)
                        .map(|(p, l)| EmptyElement::at((p.0, p.1)) + Text::new(l.clone(), (7, -14), font.clone())),
                )
                .map_err(err)?;
        }
    }
    draw_legend(legend, panel, &styles)
}

/// The legend of a panel beside its chart: every series' swatch (line,
/// dashes, marker or box as drawn) and name.
fn draw_legend<DB: DrawingBackend>(area: &DrawingArea<DB, Shift>, panel: &Panel, styles: &[Style]) -> DrawResult<()> {
    let err = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
    let font = ("sans-serif", 13).into_font();
    let mut y = 44;
    for (s, style) in panel.series.iter().zip(styles) {
        let c = colour(style.colour);
        let (x, mid) = (8, y + 7);
        if !s.whiskers.is_empty() {
            let fill = if style.hollow { WHITE.filled() } else { c.mix(0.25).filled() };
            area.draw(&Rectangle::new([(x + 4, mid - 5), (x + 20, mid + 5)], fill)).map_err(err)?;
            area.draw(&Rectangle::new([(x + 4, mid - 5), (x + 20, mid + 5)], c.stroke_width(2))).map_err(err)?;
        } else {
            if style.line {
                let path = [(x, mid), (x + 24, mid)];
                if style.dashed {
                    for [a, b] in dashes(&path) {
                        area.draw(&PathElement::new(vec![a, b], c.stroke_width(2))).map_err(err)?;
                    }
                } else {
                    area.draw(&PathElement::new(path.to_vec(), c.stroke_width(2))).map_err(err)?;
                }
            }
            if let Some(shape) = style.marker {
                draw_marker(area, shape, (x + 12, mid), 5 + i32::from(style.hollow), c, style.hollow)?;
            }
        }
        area.draw(&Text::new(s.name.clone(), (x + 32, y), font.clone())).map_err(err)?;
        y += LEGEND_ROW;
    }
    Ok(())
}

/// The height of one legend entry, px.
const LEGEND_ROW: i32 = 18;

fn draw_figure<DB: DrawingBackend>(root: DrawingArea<DB, Shift>, figure: &Figure) -> DrawResult<()> {
    root.fill(&WHITE).map_err(|e| e.to_string())?;
    let areas = root.split_evenly((figure.panels.len().max(1), 1));
    for (area, panel) in areas.iter().zip(&figure.panels) {
        let (chart, legend) = area.split_horizontally(CHART_WIDTH);
        draw_panel(&chart, &legend, panel)?;
    }
    root.present().map_err(|e| e.to_string())
}

/// The width of the charts, px; the legend is beside them.
const CHART_WIDTH: u32 = 900;

fn size(figure: &Figure) -> (u32, u32) {
    // The legend is as wide as its longest name (about 7.5 px a character
    // at 13 px) and each panel as tall as its legend.
    let longest = figure.panels.iter().flat_map(|p| &p.series).map(|s| s.name.chars().count()).max().unwrap_or(0);
    let legend = (48 + longest as u32 * 15 / 2).clamp(120, 420);
    let entries = figure.panels.iter().map(|p| p.series.len()).max().unwrap_or(0) as u32;
    let panel = (60 + entries * LEGEND_ROW as u32).max(420);
    (CHART_WIDTH + legend, panel * figure.panels.len().max(1) as u32)
}

impl Figure {
    /// The figure as an SVG document.
    pub fn svg(&self) -> DrawResult<String> {
        fonts();
        let mut out = String::new();
        {
            let root = SVGBackend::with_string(&mut out, size(self)).into_drawing_area();
            draw_figure(root, self)?;
        }
        Ok(out)
    }

    /// Writes the figure as a PNG file.
    pub fn png(&self, path: &Path) -> DrawResult<()> {
        fonts();
        let root = Png::new(path, size(self)).into_drawing_area();
        draw_figure(root, self)
    }
}
