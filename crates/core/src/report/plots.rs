//! Report plots (plotters): gain vs PoF_max with confidence bands, successful
//! and failed jobs vs PoF_max, gain vs penalty ratio, calibration.
//!
//! Contract: a [`Figure`] is one or more stacked [`Panel`]s of series; it is
//! drawn twice, to an SVG string (embedded in the HTML page) and to a PNG
//! file. PNG text uses the DejaVu Sans font compiled into the binary, so no
//! system font is needed; drawing errors are returned, never panics.

use std::path::Path;
use std::sync::Once;

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::FontStyle;

/// One series of a panel.
#[derive(Debug, Clone)]
pub struct Series {
    /// Legend label.
    pub name: String,
    /// (x, y, low, high); low/high draw a band or error bars.
    pub points: Vec<(f64, f64, f64, f64)>,
    /// Shade the band between low and high.
    pub band: bool,
    /// Draw error bars from low to high.
    pub error_bars: bool,
    /// Connect the points.
    pub line: bool,
    /// Colour index.
    pub colour: usize,
}

impl Series {
    /// Points (x, y, low, high) drawn with error bars from low to high.
    pub fn with_error_bars(name: String, points: Vec<(f64, f64, f64, f64)>, line: bool, colour: usize) -> Series {
        Series { name, points, band: false, error_bars: true, line, colour }
    }
}

/// One chart.
#[derive(Debug, Clone)]
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
}

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
    let ys = panel.series.iter().flat_map(|s| s.points.iter().flat_map(|p| [p.1, p.2, p.3]));
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
    (pad(x0, x1), pad(y0, y1))
}

type DrawResult<T> = Result<T, String>;

/// An axis tick: no decimals on wide ranges, two on narrow ones.
fn tick(v: f64, span: f64) -> String {
    if span >= 50.0 {
        format!("{v:.0}")
    } else if span >= 2.0 {
        format!("{v:.1}")
    } else {
        format!("{v:.2}")
    }
}

/// The legend goes into the corner with the fewest data points.
fn emptiest_corner(panel: &Panel, (x0, x1): (f64, f64), (y0, y1): (f64, f64)) -> SeriesLabelPosition {
    let (xm, ym) = ((x0 + x1) / 2.0, (y0 + y1) / 2.0);
    let mut counts = [0usize; 4];
    for p in panel.series.iter().flat_map(|s| &s.points) {
        let right = p.0 >= xm;
        for y in [p.1, p.2, p.3] {
            counts[usize::from(right) + 2 * usize::from(y < ym)] += 1;
        }
    }
    let corners = [
        SeriesLabelPosition::UpperLeft,
        SeriesLabelPosition::UpperRight,
        SeriesLabelPosition::LowerLeft,
        SeriesLabelPosition::LowerRight,
    ];
    // Ties keep the upper right, where readers look first.
    let order = [1usize, 0, 3, 2];
    let best = order.iter().copied().min_by_key(|&i| counts[i]).unwrap_or(1);
    corners[best].clone()
}

fn draw_panel<DB: DrawingBackend>(area: &DrawingArea<DB, Shift>, panel: &Panel) -> DrawResult<()> {
    let err = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
    let ((x0, x1), (y0, y1)) = ranges(panel);
    let mut chart = ChartBuilder::on(area)
        .caption(&panel.title, ("sans-serif", 18))
        .margin(12)
        .x_label_area_size(36)
        .y_label_area_size(70)
        .build_cartesian_2d(x0..x1, y0..y1)
        .map_err(err)?;
    chart
        .configure_mesh()
        .x_desc(panel.x_label.as_str())
        .y_desc(panel.y_label.as_str())
        .label_style(("sans-serif", 13))
        .x_label_formatter(&|v| tick(*v, x1 - x0))
        .y_label_formatter(&|v| tick(*v, y1 - y0))
        .axis_desc_style(("sans-serif", 14))
        .draw()
        .map_err(err)?;
    if panel.diagonal {
        chart
            .draw_series(LineSeries::new([(x0.max(0.0), x0.max(0.0)), (x1, x1)], BLACK.mix(0.4).stroke_width(1)))
            .map_err(err)?;
    }
    for s in &panel.series {
        let c = colour(s.colour);
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
        let style = c.stroke_width(2);
        let legend = if s.line {
            chart.draw_series(LineSeries::new(s.points.iter().map(|p| (p.0, p.1)), style)).map_err(err)?
        } else {
            chart.draw_series(s.points.iter().map(|p| Circle::new((p.0, p.1), 4, c.filled()))).map_err(err)?
        };
        legend.label(s.name.clone()).legend(move |(x, y)| PathElement::new([(x, y), (x + 18, y)], c.stroke_width(2)));
        if s.line && s.points.len() <= 30 {
            chart.draw_series(s.points.iter().map(|p| Circle::new((p.0, p.1), 3, c.filled()))).map_err(err)?;
        }
    }
    chart
        .configure_series_labels()
        .position(emptiest_corner(panel, (x0, x1), (y0, y1)))
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK.mix(0.3))
        .label_font(("sans-serif", 12))
        .draw()
        .map_err(err)?;
    Ok(())
}

fn draw_figure<DB: DrawingBackend>(root: DrawingArea<DB, Shift>, figure: &Figure) -> DrawResult<()> {
    root.fill(&WHITE).map_err(|e| e.to_string())?;
    let areas = root.split_evenly((figure.panels.len().max(1), 1));
    for (area, panel) in areas.iter().zip(&figure.panels) {
        draw_panel(area, panel)?;
    }
    root.present().map_err(|e| e.to_string())
}

fn size(figure: &Figure) -> (u32, u32) {
    (900, 420 * figure.panels.len().max(1) as u32)
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
        let root = BitMapBackend::new(path, size(self)).into_drawing_area();
        draw_figure(root, self)
    }
}
