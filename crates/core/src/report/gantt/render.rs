//! Thin renderers of a laid-out [`Chart`]: SVG text, an HTML page (the SVG
//! inline with a hover box) and PNG (plotters' bitmap backend, its text set
//! as the SVG sets it: `report::png`).
//!
//! Contract: every renderer maps the chart's coordinates with the same
//! [`Frame`], so the three pictures agree. The SVG is written by hand: each
//! bar is a `<rect class="bar …">` carrying the execution's fields as
//! `data-job`, `data-swf`, `data-start`, `data-end` (real, unclipped),
//! `data-nodes` (`first-last` within its band), `data-band`, `data-outcome`
//! and, where known, `data-planned-start`, `data-planned-end`,
//! `data-overbooked`, `data-request`, `data-cpus`, plus a `<title>`; node
//! outages are `<rect class="outage">` with `data-node`, `data-from`,
//! `data-to`; nodes switching or asleep are `<rect class="power STATE">`
//! (`switching-off`, `asleep`, `switching-on`) with the same fields and
//! `data-state`, drawn under the bars; the power drawn is a
//! `<g class="power-curve">` strip between the rows and the time axis (a
//! chart without one is drawn as before). Numbers are written with fixed precision: the same chart gives
//! the same bytes. Drawing errors are returned, never panics.

use crate::units::{Unit, amount, seconds};
use std::fmt::Write as _;
use std::path::Path;

use anyhow::Context;
use plotters::prelude::*;

use crate::report::gantt::layout::{Chart, LineKind, Mark, OutageKind, PowerStrip};
use crate::report::png::Png;
use crate::units::{DAY, HOUR, Time};

/// Pixel geometry of a chart.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Frame {
    left: f64,
    top: f64,
    width: f64,
    unit: f64,
    from: Time,
    span: f64,
    height: f64,
    /// Pixels of the power strip under the rows (0 without one).
    strip: f64,
}

const LEFT: f64 = 150.0;
const TOP: f64 = 46.0;
const PLOT_WIDTH: f64 = 1000.0;
const RIGHT: f64 = 50.0; // room for the last time label, centred on the right edge
const BOTTOM: f64 = 80.0;
/// The plot area's height is about this, whatever the row count.
const PLOT_HEIGHT: f64 = 620.0;
/// The power strip: a gap, then its plot.
const STRIP_GAP: f64 = 12.0;
const STRIP_PLOT: f64 = 80.0;

impl Frame {
    /// The frame of a chart.
    pub fn of(chart: &Chart) -> Frame {
        let unit = (PLOT_HEIGHT / f64::from(chart.height.max(1))).clamp(0.1, 18.0);
        Frame {
            left: LEFT,
            top: TOP,
            width: PLOT_WIDTH,
            unit,
            from: chart.window.from,
            span: (chart.window.to - chart.window.from).max(1) as f64,
            height: unit * f64::from(chart.height.max(1)),
            strip: if chart.power.is_some() { STRIP_GAP + STRIP_PLOT } else { 0.0 },
        }
    }

    /// Pixel y of the time axis: under the rows and the power strip.
    pub fn axis_y(&self) -> f64 {
        self.top + self.height + self.strip
    }

    /// The power strip's plot: top and bottom pixel y.
    fn strip_span(&self) -> (f64, f64) {
        let top = self.top + self.height + STRIP_GAP;
        (top, top + STRIP_PLOT)
    }

    /// Pixel x of a time.
    pub fn x(&self, t: Time) -> f64 {
        self.left + (t - self.from) as f64 / self.span * self.width
    }

    /// Pixel y of a row position.
    pub fn y(&self, y: f64) -> f64 {
        self.top + y * self.unit
    }

    /// The picture's size in pixels.
    pub fn size(&self) -> (u32, u32) {
        ((self.left + self.width + RIGHT).ceil() as u32, (self.axis_y() + BOTTOM).ceil() as u32)
    }
}

/// `t` as simulated day and time: `d3 07:30`.
pub fn clock(t: Time) -> String {
    let day = t.div_euclid(DAY);
    let s = t.rem_euclid(DAY);
    format!("d{day} {:02}:{:02}", s / HOUR, (s % HOUR) / 60)
}

/// Time-axis ticks: a round step giving at most about ten ticks.
pub fn ticks(from: Time, to: Time) -> Vec<Time> {
    const STEPS: [Time; 12] =
        [60, 300, 900, 1800, HOUR, 3 * HOUR, 6 * HOUR, 12 * HOUR, DAY, 2 * DAY, 7 * DAY, 28 * DAY];
    let span = (to - from).max(1);
    let step = STEPS.iter().copied().find(|s| span / s <= 10).unwrap_or(span / 10 + 1);
    let first = from.div_euclid(step) * step + if from.rem_euclid(step) == 0 { 0 } else { step };
    (0..).map(|k| first + k * step).take_while(|&t| t <= to).collect()
}

/// Node-label step: a round number of nodes at least 12 px apart.
fn node_step(unit: f64) -> u32 {
    [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000]
        .into_iter()
        .find(|&s| f64::from(s) * unit >= 12.0)
        .unwrap_or(10_000)
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

fn rgb((r, g, b): (u8, u8, u8)) -> String {
    format!("#{r:02x}{g:02x}{b:02x}")
}

/// The subtitle: the window and why.
pub fn window_text(chart: &Chart) -> String {
    format!(
        "window {} – {} ({} – {}), {}",
        clock(chart.window.from),
        clock(chart.window.to),
        seconds(chart.window.from),
        seconds(chart.window.to),
        chart.window_reason
    )
}

/// The hover text of a bar.
fn bar_title(bar: &crate::report::gantt::layout::Bar) -> String {
    let i = &bar.item;
    let mut s = if let (Some((submission, alpha)), Mark::Task) = (i.provision, i.mark) {
        format!("task {} of submission {submission}, α = {alpha} ({} CPUs)", i.job, i.cpus)
    } else if let Some((submission, alpha)) = i.provision {
        format!("reserved slot of submission {submission}, α = {alpha} ({} CPUs)", i.cpus)
    } else if bar.lane {
        format!("request {} part {} ({} CPUs), {}", i.job, i.swf_id, i.cpus, i.mark.name())
    } else {
        format!("job {} (trace job {}), {}", i.job, i.swf_id, i.mark.name())
    };
    let _ = write!(s, "\n{} – {} ({} – {})", clock(i.start), clock(i.end), seconds(i.start), seconds(i.end));
    if !bar.lane && !i.nodes.is_empty() {
        let _ = write!(s, "\nnodes {}–{} of {}", bar.first, bar.last, i.nodes.len());
    }
    if let (Some(a), Some(b)) = (i.planned_start, i.planned_end) {
        let _ = write!(s, "\nplanned {} – {}", seconds(a), seconds(b));
    }
    if i.overbooked {
        s.push_str("\noverbooked");
    }
    s
}

/// The power strip's scale: the highest watts drawn or the cap, at least 1.
fn strip_top(p: &PowerStrip) -> f64 {
    p.steps.iter().map(|s| s.1).chain(p.cap).fold(1.0, f64::max)
}

/// The strip's step line: (x, y) pixel corners from the window's start to its end.
fn strip_path(p: &PowerStrip, f: &Frame, to: Time) -> Vec<(f64, f64)> {
    let (top, bottom) = f.strip_span();
    let scale = strip_top(p);
    let y = |w: f64| bottom - w / scale * (bottom - top);
    let mut points = Vec::with_capacity(2 * p.steps.len() + 1);
    for (k, &(t, w)) in p.steps.iter().enumerate() {
        let next = p.steps.get(k + 1).map_or(to, |n| n.0);
        points.push((f.x(t), y(w)));
        points.push((f.x(next), y(w)));
    }
    points
}

/// The hover text of a power state's span.
fn power_title(o: &crate::report::gantt::layout::Shade) -> String {
    format!(
        "node {} {} {} – {} ({} – {})",
        o.outage.node,
        o.outage.kind.legend(),
        clock(o.outage.from),
        clock(o.outage.to),
        seconds(o.outage.from),
        seconds(o.outage.to)
    )
}

/// The chart's power-state kinds present, in legend order.
fn power_kinds(chart: &Chart) -> Vec<OutageKind> {
    OutageKind::ALL.into_iter().filter(|k| k.is_power() && chart.shades.iter().any(|s| s.outage.kind == *k)).collect()
}

/// The chart as SVG text.
pub fn svg(chart: &Chart) -> String {
    let f = Frame::of(chart);
    let (w, h) = f.size();
    let mut s = String::with_capacity(4096 + 420 * chart.bars.len());
    let _ = write!(
        s,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"gantt\" width=\"{w}\" height=\"{h}\" \
         viewBox=\"0 0 {w} {h}\" font-family=\"sans-serif\" font-size=\"11\" data-from=\"{}\" data-to=\"{}\">\n\
         <defs><pattern id=\"gantt-hatch\" width=\"5\" height=\"5\" patternUnits=\"userSpaceOnUse\" \
         patternTransform=\"rotate(45)\"><rect width=\"5\" height=\"5\" fill=\"#444\" fill-opacity=\"0.18\"/>\
         <line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"5\" stroke=\"#222\" stroke-width=\"2\"/></pattern></defs>\n\
         <rect width=\"{w}\" height=\"{h}\" fill=\"white\"/>\n",
        chart.window.from, chart.window.to
    );
    let _ = writeln!(
        s,
        "<text x=\"{:.1}\" y=\"18\" font-size=\"14\" font-weight=\"bold\">{}</text>\n\
         <text x=\"{:.1}\" y=\"34\" fill=\"#444\">{}</text>",
        f.left,
        escape(&chart.title),
        f.left,
        escape(&window_text(chart))
    );
    // Bands, rows and node labels.
    let step = node_step(f.unit);
    for band in &chart.bands {
        let (y0, y1) = (f.y(f64::from(band.y0)), f.y(f64::from(band.y1)));
        let _ = writeln!(
            s,
            "<rect class=\"band\" x=\"{:.2}\" y=\"{y0:.2}\" width=\"{:.2}\" height=\"{:.2}\" fill=\"#fafafa\" \
             stroke=\"#999\" stroke-width=\"0.5\"/>\n<text x=\"4\" y=\"{:.2}\" font-weight=\"bold\">{}</text>",
            f.left,
            f.width,
            y1 - y0,
            y0 + 11.0,
            escape(&band.label)
        );
    }
    let labels_fit = f.unit >= 11.0;
    for row in &chart.rows {
        let y0 = f.y(f64::from(row.y0));
        let _ = writeln!(
            s,
            "<line class=\"row\" x1=\"{:.2}\" y1=\"{y0:.2}\" x2=\"{:.2}\" y2=\"{y0:.2}\" stroke=\"#e4e4e4\" \
             stroke-width=\"0.5\"/>",
            f.left,
            f.left + f.width
        );
        if labels_fit {
            let _ = writeln!(
                s,
                "<text x=\"{:.2}\" y=\"{:.2}\" text-anchor=\"end\" font-size=\"9\">{}</text>",
                f.left - 4.0,
                f.y(f64::from(row.y0 + row.y1) / 2.0) + 3.0,
                escape(&row.label)
            );
        }
    }
    if !labels_fit {
        for band in &chart.bands {
            let nodes = band.y1 - band.nodes_y0;
            for n in (0..nodes).step_by(step as usize) {
                let _ = writeln!(
                    s,
                    "<text x=\"{:.2}\" y=\"{:.2}\" text-anchor=\"end\" font-size=\"9\">{n}</text>",
                    f.left - 4.0,
                    f.y(f64::from(band.nodes_y0 + n)) + 8.0
                );
            }
        }
    }
    // Power states under the bars (they never share a node's time), then
    // bars, then outages and lines on top.
    for o in chart.shades.iter().filter(|o| o.outage.kind.is_power()) {
        let _ = writeln!(
            s,
            "<rect class=\"power {}\" x=\"{:.2}\" y=\"{:.2}\" width=\"{:.2}\" height=\"{:.2}\" fill=\"{}\" \
             data-band=\"{}\" data-node=\"{}\" data-from=\"{}\" data-to=\"{}\" data-state=\"{}\">\
             <title>{}</title></rect>",
            o.outage.kind.name(),
            f.x(o.x0),
            f.y(f64::from(o.y)),
            (f.x(o.x1) - f.x(o.x0)).max(0.5),
            f.unit,
            rgb(o.outage.kind.colour()),
            o.band,
            o.outage.node,
            o.outage.from,
            o.outage.to,
            o.outage.kind.name(),
            escape(&power_title(o))
        );
    }
    for bar in &chart.bars {
        let i = &bar.item;
        let stroke = if i.mark.outlined() {
            " stroke-width=\"1.5\""
        } else if i.overbooked {
            " stroke=\"#000\" stroke-width=\"1\" stroke-dasharray=\"3,2\""
        } else {
            " stroke=\"#fff\" stroke-width=\"0.3\""
        };
        let fill =
            if i.mark.outlined() { format!("none\" stroke=\"{}", rgb(i.mark.colour())) } else { rgb(i.mark.colour()) };
        let _ = write!(
            s,
            "<rect class=\"bar {}{}\" x=\"{:.2}\" y=\"{:.2}\" width=\"{:.2}\" height=\"{:.2}\" fill=\"{}\"{stroke} \
             data-job=\"{}\" data-swf=\"{}\" data-start=\"{}\" data-end=\"{}\" data-nodes=\"{}-{}\" \
             data-band=\"{}\" data-outcome=\"{}\"",
            i.mark.name(),
            if i.overbooked { " overbooked" } else { "" },
            f.x(bar.x0),
            f.y(f64::from(bar.y0)),
            (f.x(bar.x1) - f.x(bar.x0)).max(0.5),
            f64::from(bar.y1 - bar.y0) * f.unit,
            fill,
            i.job,
            i.swf_id,
            i.start,
            i.end,
            bar.first,
            bar.last,
            bar.band,
            i.mark.name()
        );
        if bar.lane {
            let _ = write!(s, " data-lane=\"1\" data-cpus=\"{}\"", i.cpus);
        }
        if let Some(link) = i.link {
            let _ = write!(s, " data-request=\"{link}\"");
        }
        if let Some((submission, alpha)) = i.provision {
            let _ = write!(s, " data-submission=\"{submission}\" data-alpha=\"{alpha}\" data-cpus=\"{}\"", i.cpus);
        }
        if let Some(t) = i.planned_start {
            let _ = write!(s, " data-planned-start=\"{t}\"");
        }
        if let Some(t) = i.planned_end {
            let _ = write!(s, " data-planned-end=\"{t}\"");
        }
        if i.overbooked {
            s.push_str(" data-overbooked=\"1\"");
        }
        let _ = writeln!(s, "><title>{}</title></rect>", escape(&bar_title(bar)));
    }
    for o in chart.shades.iter().filter(|o| !o.outage.kind.is_power()) {
        let _ = writeln!(
            s,
            "<rect class=\"outage\" x=\"{:.2}\" y=\"{:.2}\" width=\"{:.2}\" height=\"{:.2}\" fill=\"url(#gantt-hatch)\" \
             stroke=\"#b00000\" stroke-width=\"0.8\" data-band=\"{}\" data-node=\"{}\" data-from=\"{}\" data-to=\"{}\">\
             <title>node {} down {} – {}</title></rect>",
            f.x(o.x0),
            f.y(f64::from(o.y) + 0.5) - f.unit.max(4.0) / 2.0,
            (f.x(o.x1) - f.x(o.x0)).max(1.0),
            f.unit.max(4.0),
            o.band,
            o.outage.node,
            o.outage.from,
            o.outage.to,
            o.outage.node,
            clock(o.outage.from),
            clock(o.outage.to)
        );
        if o.outage.from >= chart.window.from {
            let (x, y) = (f.x(o.x0), f.y(f64::from(o.y) + 0.5) - f.unit.max(4.0) / 2.0);
            let _ = writeln!(
                s,
                "<path class=\"failure\" d=\"M{x:.2},{y:.2} l-4,-7 h8 z\" fill=\"#b00000\" data-node=\"{}\"/>",
                o.outage.node
            );
        }
    }
    for l in &chart.lines {
        let (colour, width, dash) = match l.kind {
            LineKind::Planned => ("#333", 1.0, ""),
            LineKind::BookedEnd => ("#000", 2.0, ""),
            LineKind::Link => ("#1f3f9f", 1.2, " stroke-dasharray=\"4,2\""),
        };
        let _ = writeln!(
            s,
            "<line class=\"{}\" x1=\"{:.2}\" y1=\"{:.2}\" x2=\"{:.2}\" y2=\"{:.2}\" stroke=\"{colour}\" \
             stroke-width=\"{width}\"{dash} data-job=\"{}\"/>",
            l.kind.name(),
            f.x(l.x0),
            f.y(l.y0),
            f.x(l.x1),
            f.y(l.y1),
            l.job
        );
    }
    if let Some(p) = &chart.power {
        svg_strip(&mut s, p, &f, chart.window.to);
    }
    // Time axis.
    let axis_y = f.axis_y();
    let _ = writeln!(
        s,
        "<line x1=\"{:.2}\" y1=\"{axis_y:.2}\" x2=\"{:.2}\" y2=\"{axis_y:.2}\" stroke=\"#000\"/>",
        f.left,
        f.left + f.width
    );
    for t in ticks(chart.window.from, chart.window.to) {
        let x = f.x(t);
        let _ = writeln!(
            s,
            "<line x1=\"{x:.2}\" y1=\"{axis_y:.2}\" x2=\"{x:.2}\" y2=\"{:.2}\" stroke=\"#000\"/>\
             <text x=\"{x:.2}\" y=\"{:.2}\" text-anchor=\"middle\">{}</text>",
            axis_y + 4.0,
            axis_y + 16.0,
            clock(t)
        );
    }
    // Legend.
    let mut x = f.left;
    let ly = axis_y + 34.0;
    for mark in Mark::ALL {
        if !chart.bars.iter().any(|b| b.item.mark == mark) {
            continue;
        }
        let swatch = if mark.outlined() {
            format!("none\" stroke=\"{}\" stroke-width=\"1.5", rgb(mark.colour()))
        } else {
            rgb(mark.colour())
        };
        let _ = writeln!(
            s,
            "<rect x=\"{x:.2}\" y=\"{:.2}\" width=\"12\" height=\"10\" fill=\"{}\"/><text x=\"{:.2}\" y=\"{ly:.2}\">{}</text>",
            ly - 9.0,
            swatch,
            x + 16.0,
            escape(mark.legend())
        );
        x += 30.0 + 6.0 * mark.legend().len() as f64;
    }
    let extras = [
        (
            "<rect x=\"{x}\" y=\"{y}\" width=\"12\" height=\"10\" fill=\"url(#gantt-hatch)\" stroke=\"#b00000\"/>",
            "node down (triangle: failure)",
        ),
        (
            "<rect x=\"{x}\" y=\"{y}\" width=\"12\" height=\"10\" fill=\"none\" stroke=\"#000\" stroke-dasharray=\"3,2\"/>",
            "overbooked (tick: booked end)",
        ),
        ("<line x1=\"{x}\" y1=\"{m}\" x2=\"{x12}\" y2=\"{m}\" stroke=\"#333\"/>", "planned → actual start"),
    ];
    let (mut x, ly) = (f.left, ly + 18.0);
    for (shape, text) in extras {
        let shape = shape
            .replace("{x}", &format!("{x:.2}"))
            .replace("{x12}", &format!("{:.2}", x + 12.0))
            .replace("{y}", &format!("{:.2}", ly - 9.0))
            .replace("{m}", &format!("{:.2}", ly - 4.0));
        let _ = writeln!(s, "{shape}<text x=\"{:.2}\" y=\"{ly:.2}\">{}</text>", x + 16.0, escape(text));
        x += 30.0 + 6.0 * text.len() as f64;
    }
    if chart.lines.iter().any(|l| l.kind == LineKind::Link) {
        let _ = writeln!(
            s,
            "<line x1=\"{x:.2}\" y1=\"{:.2}\" x2=\"{x:.2}\" y2=\"{:.2}\" stroke=\"#1f3f9f\" stroke-dasharray=\"4,2\"/>\
             <text x=\"{:.2}\" y=\"{ly:.2}\">parts of one co-reservation</text>",
            ly - 11.0,
            ly + 1.0,
            x + 6.0
        );
    }
    let kinds = power_kinds(chart);
    if !kinds.is_empty() || chart.power.is_some() {
        let (mut x, ly) = (f.left, ly + 18.0);
        for kind in kinds {
            let _ = writeln!(
                s,
                "<rect x=\"{x:.2}\" y=\"{:.2}\" width=\"12\" height=\"10\" fill=\"{}\"/><text x=\"{:.2}\" y=\"{ly:.2}\">{}</text>",
                ly - 9.0,
                rgb(kind.colour()),
                x + 16.0,
                kind.legend()
            );
            x += 30.0 + 6.0 * kind.legend().len() as f64;
        }
        if chart.power.is_some() {
            let text = "power drawn (dashed: cap)";
            let _ = writeln!(
                s,
                "<line x1=\"{x:.2}\" y1=\"{m:.2}\" x2=\"{:.2}\" y2=\"{m:.2}\" stroke=\"{POWER_COLOUR}\" stroke-width=\"1.5\"/>\
                 <text x=\"{:.2}\" y=\"{ly:.2}\">{text}</text>",
                x + 12.0,
                x + 16.0,
                m = ly - 4.0
            );
        }
    }
    s.push_str("</svg>\n");
    s
}

const POWER_COLOUR: &str = "#8c2d04";

/// The power strip in SVG: a framed plot under the rows, the watts drawn as
/// a step line, the cap dashed, and the scale and mean as text.
fn svg_strip(s: &mut String, p: &PowerStrip, f: &Frame, to: Time) {
    let (top, bottom) = f.strip_span();
    let scale = strip_top(p);
    let _ = writeln!(
        s,
        "<g class=\"power-curve\" data-band=\"{}\" data-mean-watts=\"{:.1}\" data-max-watts=\"{:.1}\"{}>\n\
         <rect x=\"{:.2}\" y=\"{top:.2}\" width=\"{:.2}\" height=\"{:.2}\" fill=\"#fcfcfc\" stroke=\"#999\" \
         stroke-width=\"0.5\"/>\n<text x=\"4\" y=\"{:.2}\" font-weight=\"bold\">power (W)</text>\n\
         <text x=\"4\" y=\"{:.2}\" fill=\"#444\">mean {}</text>\n\
         <text x=\"{:.2}\" y=\"{:.2}\" text-anchor=\"end\" font-size=\"9\">{:.0}</text>\n\
         <text x=\"{:.2}\" y=\"{:.2}\" text-anchor=\"end\" font-size=\"9\">0</text>",
        p.band,
        p.mean,
        scale,
        p.cap.map_or_else(String::new, |c| format!(" data-cap-watts=\"{c:.1}\"")),
        f.left,
        f.width,
        bottom - top,
        top + 12.0,
        top + 26.0,
        p.mean,
        f.left - 4.0,
        top + 8.0,
        scale,
        f.left - 4.0,
        bottom,
    );
    let path: Vec<String> = strip_path(p, f, to).iter().map(|(x, y)| format!("{x:.2},{y:.2}")).collect();
    let _ = writeln!(
        s,
        "<polyline class=\"power\" points=\"{}\" fill=\"none\" stroke=\"{POWER_COLOUR}\" stroke-width=\"1.5\"/>",
        path.join(" ")
    );
    if let Some(cap) = p.cap {
        let y = bottom - cap / scale * (bottom - top);
        let _ = writeln!(
            s,
            "<line class=\"cap\" x1=\"{:.2}\" y1=\"{y:.2}\" x2=\"{:.2}\" y2=\"{y:.2}\" stroke=\"#b00000\" \
             stroke-dasharray=\"5,3\"/>",
            f.left,
            f.left + f.width
        );
    }
    s.push_str("</g>\n");
}

/// CSS and script of the hover box, for a page holding Gantt SVGs.
pub const HOVER: &str = "<style>#gantt-tip{position:absolute;display:none;background:#fffff0;border:1px solid #888;\
padding:4px 6px;font:12px monospace;white-space:pre;pointer-events:none;z-index:10}\
svg.gantt rect.bar:hover{stroke:#000;stroke-width:1.5}</style>\n<div id=\"gantt-tip\"></div>\n<script>\
document.addEventListener('mousemove',function(e){var t=e.target,tip=document.getElementById('gantt-tip');\
if(!tip)return;if(t&&t.dataset&&(t.dataset.job!==undefined||t.dataset.node!==undefined)&&t.tagName==='rect'){\
var s='';for(var k in t.dataset){s+=k.replace(/[A-Z]/g,function(c){return '-'+c.toLowerCase();})+': '+t.dataset[k]+'\\n';}\
tip.textContent=s;tip.style.display='block';tip.style.left=(e.pageX+14)+'px';tip.style.top=(e.pageY+14)+'px';}\
else{tip.style.display='none';}});</script>\n";

/// The chart as a self-contained HTML page: the SVG and a hover box with
/// the fields of the bar under the pointer.
pub fn html(chart: &Chart) -> String {
    html_with(chart, &svg(chart))
}

/// The HTML page of a chart whose SVG is already drawn.
pub fn html_with(chart: &Chart, svg: &str) -> String {
    format!(
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>{}</title>\n\
         <style>body{{font-family:sans-serif;margin:1em}}</style></head><body>\n{HOVER}{}</body></html>\n",
        escape(&chart.title),
        svg
    )
}

fn colour((r, g, b): (u8, u8, u8)) -> RGBColor {
    RGBColor(r, g, b)
}

/// Draws the chart as PNG into `path`.
pub fn png(chart: &Chart, path: &Path) -> anyhow::Result<()> {
    crate::report::plots::fonts();
    let f = Frame::of(chart);
    let root = Png::new(path, f.size()).into_drawing_area();
    draw(&root, chart, &f)
        .map_err(|e| anyhow::anyhow!("{e}"))
        .with_context(|| format!("drawing {}", path.display()))?;
    root.present().map_err(|e| anyhow::anyhow!("{e}")).with_context(|| format!("writing {}", path.display()))
}

type Area<'a> = DrawingArea<Png<'a>, plotters::coord::Shift>;
type DrawResult = Result<(), DrawingAreaErrorKind<<Png<'static> as DrawingBackend>::ErrorType>>;

fn draw(root: &Area<'_>, chart: &Chart, f: &Frame) -> DrawResult {
    let px = |x: f64, y: f64| (x.round() as i32, y.round() as i32);
    root.fill(&WHITE)?;
    // Sizes as laid out for an em of size / 1.164 (DejaVu's ascent − descent);
    // `report::png` sets an em of size / 1.24, as the SVG does.
    let font = |size: f64| ("sans-serif", size * 1.24 / 1.164).into_font();
    root.draw(&Text::new(chart.title.clone(), px(f.left, 6.0), font(15.0).style(FontStyle::Bold)))?;
    root.draw(&Text::new(window_text(chart), px(f.left, 24.0), font(12.0).color(&RGBColor(68, 68, 68))))?;
    for band in &chart.bands {
        let (y0, y1) = (f.y(f64::from(band.y0)), f.y(f64::from(band.y1)));
        root.draw(&Rectangle::new([px(f.left, y0), px(f.left + f.width, y1)], RGBColor(250, 250, 250).filled()))?;
        root.draw(&Rectangle::new([px(f.left, y0), px(f.left + f.width, y1)], RGBColor(153, 153, 153)))?;
        root.draw(&Text::new(band.label.clone(), px(4.0, y0 + 1.0), font(12.0).style(FontStyle::Bold)))?;
        if f.unit < 11.0 {
            let step = node_step(f.unit);
            for n in (0..band.y1 - band.nodes_y0).step_by(step as usize) {
                let y = f.y(f64::from(band.nodes_y0 + n));
                root.draw(&Text::new(n.to_string(), px(f.left - 30.0, y), font(10.0)))?;
            }
        }
    }
    if f.unit >= 11.0 {
        for row in &chart.rows {
            root.draw(&Text::new(row.label.clone(), px(f.left - 70.0, f.y(f64::from(row.y0)) + 1.0), font(10.0)))?;
        }
    }
    for o in chart.shades.iter().filter(|o| o.outage.kind.is_power()) {
        let (x0, x1) = (f.x(o.x0), f.x(o.x1).max(f.x(o.x0) + 1.0));
        let (y0, y1) = (f.y(f64::from(o.y)), f.y(f64::from(o.y) + 1.0));
        let (a, b) = (px(x0, y0), px(x1, y1));
        let b = (b.0.max(a.0 + 1), b.1.max(a.1 + 1));
        root.draw(&Rectangle::new([a, b], colour(o.outage.kind.colour()).filled()))?;
    }
    for bar in &chart.bars {
        let (x0, x1) = (f.x(bar.x0), f.x(bar.x1).max(f.x(bar.x0) + 1.0));
        let (y0, y1) = (f.y(f64::from(bar.y0)), f.y(f64::from(bar.y1)));
        let (a, b) = (px(x0, y0), px(x1, y1));
        let b = (b.0.max(a.0 + 1), b.1.max(a.1 + 1));
        let (r, g, bl) = bar.item.mark.colour();
        if bar.item.mark.outlined() {
            root.draw(&Rectangle::new([a, b], RGBColor(r, g, bl).stroke_width(2)))?;
            continue;
        }
        root.draw(&Rectangle::new([a, b], RGBColor(r, g, bl).filled()))?;
        if b.1 - a.1 >= 3 && b.0 - a.0 >= 3 {
            let dark = |c: u8| (f64::from(c) * 0.6) as u8;
            root.draw(&Rectangle::new([a, b], RGBColor(dark(r), dark(g), dark(bl))))?;
        }
        if bar.item.overbooked {
            root.draw(&Rectangle::new([a, b], BLACK.stroke_width(1)))?;
        }
    }
    for o in chart.shades.iter().filter(|o| !o.outage.kind.is_power()) {
        let (x0, x1) = (f.x(o.x0), f.x(o.x1).max(f.x(o.x0) + 1.0));
        let h = f.unit.max(4.0);
        let y = f.y(f64::from(o.y) + 0.5) - h / 2.0;
        root.draw(&Rectangle::new([px(x0, y), px(x1, y + h)], RGBAColor(40, 40, 40, 0.55).filled()))?;
        root.draw(&Rectangle::new([px(x0, y), px(x1, y + h)], RGBColor(176, 0, 0)))?;
        if o.outage.from >= chart.window.from {
            let tip = px(x0, y);
            root.draw(&Polygon::new(
                vec![tip, (tip.0 - 4, tip.1 - 7), (tip.0 + 4, tip.1 - 7)],
                RGBColor(176, 0, 0).filled(),
            ))?;
        }
    }
    for l in &chart.lines {
        let style = match l.kind {
            LineKind::Planned => RGBColor(51, 51, 51).stroke_width(1),
            LineKind::BookedEnd => BLACK.stroke_width(2),
            LineKind::Link => RGBColor(31, 63, 159).stroke_width(1),
        };
        root.draw(&PathElement::new(vec![px(f.x(l.x0), f.y(l.y0)), px(f.x(l.x1), f.y(l.y1))], style))?;
    }
    if let Some(p) = &chart.power {
        let (top, bottom) = f.strip_span();
        let frame = [px(f.left, top), px(f.left + f.width, bottom)];
        root.draw(&Rectangle::new(frame, RGBColor(252, 252, 252).filled()))?;
        root.draw(&Rectangle::new(frame, RGBColor(153, 153, 153)))?;
        root.draw(&Text::new("power (W)", px(4.0, top + 1.0), font(12.0).style(FontStyle::Bold)))?;
        root.draw(&Text::new(
            format!("mean {}", amount(format_args!("{:.0}", p.mean), Unit::Watts)),
            px(4.0, top + 16.0),
            font(11.0),
        ))?;
        root.draw(&Text::new(format!("{:.0}", strip_top(p)), px(f.left - 40.0, top), font(10.0)))?;
        let path: Vec<(i32, i32)> = strip_path(p, f, chart.window.to).into_iter().map(|(x, y)| px(x, y)).collect();
        root.draw(&PathElement::new(path, RGBColor(140, 45, 4).stroke_width(2)))?;
        if let Some(cap) = p.cap {
            let y = bottom - cap / strip_top(p) * (bottom - top);
            root.draw(&PathElement::new(vec![px(f.left, y), px(f.left + f.width, y)], RGBColor(176, 0, 0)))?;
        }
    }
    let axis_y = f.axis_y();
    root.draw(&PathElement::new(vec![px(f.left, axis_y), px(f.left + f.width, axis_y)], BLACK))?;
    for t in ticks(chart.window.from, chart.window.to) {
        let x = f.x(t);
        root.draw(&PathElement::new(vec![px(x, axis_y), px(x, axis_y + 4.0)], BLACK))?;
        root.draw(&Text::new(clock(t), px(x - 25.0, axis_y + 6.0), font(11.0)))?;
    }
    let mut x = f.left;
    let ly = axis_y + 28.0;
    for mark in Mark::ALL {
        if !chart.bars.iter().any(|b| b.item.mark == mark) {
            continue;
        }
        let style =
            if mark.outlined() { colour(mark.colour()).stroke_width(2) } else { colour(mark.colour()).filled() };
        root.draw(&Rectangle::new([px(x, ly), px(x + 12.0, ly + 10.0)], style))?;
        root.draw(&Text::new(mark.legend(), px(x + 16.0, ly), font(11.0)))?;
        x += 30.0 + 6.0 * mark.legend().len() as f64;
    }
    let ly = ly + 18.0;
    root.draw(&Rectangle::new([px(f.left, ly), px(f.left + 12.0, ly + 10.0)], RGBAColor(40, 40, 40, 0.55).filled()))?;
    root.draw(&Text::new("node down", px(f.left + 16.0, ly), font(11.0)))?;
    root.draw(&Rectangle::new([px(f.left + 90.0, ly), px(f.left + 102.0, ly + 10.0)], BLACK.stroke_width(1)))?;
    root.draw(&Text::new("overbooked (tick: booked end)", px(f.left + 106.0, ly), font(11.0)))?;
    let (mut x, ly) = (f.left, ly + 18.0);
    for kind in power_kinds(chart) {
        root.draw(&Rectangle::new([px(x, ly), px(x + 12.0, ly + 10.0)], colour(kind.colour()).filled()))?;
        root.draw(&Text::new(kind.legend(), px(x + 16.0, ly), font(11.0)))?;
        x += 30.0 + 6.0 * kind.legend().len() as f64;
    }
    if chart.power.is_some() {
        root.draw(&PathElement::new(
            vec![px(x, ly + 5.0), px(x + 12.0, ly + 5.0)],
            RGBColor(140, 45, 4).stroke_width(2),
        ))?;
        root.draw(&Text::new("power drawn (cap: red)", px(x + 16.0, ly), font(11.0)))?;
    }
    Ok(())
}
