//! Rendering the report's tables: cells and numbers, Markdown, HTML, the
//! files of one table (Markdown, CSV, Parquet) and the offline HTML page.

use std::fmt::Write as _;
use std::fs::File;
use std::path::Path;

use polars::prelude::*;

use crate::report::gantt;
use crate::report::plots::Figure;
use crate::report::tables::Table;

/// Formats a cell for Markdown and HTML.
pub(crate) fn cell(v: AnyValue<'_>) -> String {
    match v {
        AnyValue::Null => String::new(),
        AnyValue::Float64(f) => number(f),
        AnyValue::Float32(f) => number(f64::from(f)),
        AnyValue::String(s) => s.to_string(),
        AnyValue::StringOwned(s) => s.to_string(),
        other => other.to_string().trim_matches('"').to_string(),
    }
}

/// A number as the report prints it: thousands grouped from 1,000, one
/// decimal from 10, three below.
pub fn number(f: f64) -> String {
    if !f.is_finite() {
        return f.to_string();
    }
    let a = f.abs();
    if a >= 1000.0 {
        let whole = format!("{:.0}", a);
        let mut grouped = String::new();
        for (i, c) in whole.chars().enumerate() {
            if i > 0 && (whole.len() - i) % 3 == 0 {
                grouped.push(',');
            }
            grouped.push(c);
        }
        if f < 0.0 { format!("-{grouped}") } else { grouped }
    } else if a >= 10.0 {
        format!("{f:.1}")
    } else {
        format!("{f:.3}")
    }
}

pub(crate) fn rows(df: &DataFrame) -> Vec<Vec<String>> {
    (0..df.height()).map(|i| df.columns().iter().map(|c| c.get(i).map(cell).unwrap_or_default()).collect()).collect()
}

pub fn markdown(table: &Table) -> String {
    format!("### {}\n\n{}\n\n{}", table.title, table.note, markdown_rows(table))
}

/// The table's header and rows in Markdown.
pub(crate) fn markdown_rows(table: &Table) -> String {
    let mut s = String::new();
    let names: Vec<String> = table.df.get_column_names().iter().map(|n| n.to_string()).collect();
    let _ = writeln!(s, "| {} |", names.join(" | "));
    let _ = writeln!(s, "|{}|", names.iter().map(|_| "---").collect::<Vec<_>>().join("|"));
    for row in rows(&table.df) {
        let _ = writeln!(s, "| {} |", row.join(" | "));
    }
    s
}

pub(crate) fn escape(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

pub(crate) fn html_table(table: &Table) -> String {
    let mut s = format!(
        "<section id=\"{id}\"><h2>{title}</h2><p>{note}</p><div class=\"scroll\"><table class=\"report-table\" data-table=\"{id}\"><thead><tr>",
        id = table.id,
        title = escape(&table.title),
        note = escape(&table.note)
    );
    for n in table.df.get_column_names() {
        let _ = write!(s, "<th>{}</th>", escape(n));
    }
    s.push_str("</tr></thead><tbody>");
    let text: Vec<bool> = table.df.columns().iter().map(|c| !c.dtype().is_primitive_numeric()).collect();
    for row in rows(&table.df) {
        s.push_str("<tr>");
        for (c, is_text) in row.iter().zip(&text) {
            let class = if *is_text { " class=\"text\"" } else { "" };
            let _ = write!(s, "<td{class}>{}</td>", escape(c));
        }
        s.push_str("</tr>");
    }
    s.push_str("</tbody></table></div></section>\n");
    s
}

pub fn write_table(out: &Path, table: &mut Table) -> anyhow::Result<()> {
    let base = out.join("tables").join(&table.id);
    std::fs::write(base.with_extension("md"), markdown(table))?;
    let file = File::create(base.with_extension("csv"))?;
    CsvWriter::new(file).finish(&mut table.df).map_err(|e| anyhow::anyhow!("writing CSV: {e}"))?;
    let file = File::create(base.with_extension("parquet"))?;
    ParquetWriter::new(file).finish(&mut table.df).map_err(|e| anyhow::anyhow!("writing Parquet: {e}"))?;
    Ok(())
}

pub fn page(title: &str, intro: &str, tables: &[Table], figures: &[(Figure, String)], gantts: &Gantts) -> String {
    let mut s = String::new();
    let _ = write!(
        s,
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>{t}</title>\n\
         <meta name=\"slasim-tables\" content=\"{tables}\">\n<meta name=\"slasim-plots\" content=\"{plots}\">\n\
         <meta name=\"slasim-gantts\" content=\"{gantt_ids}\">\n\
         <style>body{{font-family:sans-serif;margin:2em;max-width:1100px}}table{{border-collapse:collapse;font-size:13px}}\
         th,td{{border:1px solid #ccc;padding:3px 7px;text-align:right}}th{{background:#f2f2f2}}\
         td.text,th{{text-align:left}}.scroll{{overflow-x:auto;max-height:600px}}\
         figure{{margin:1.5em 0}}nav a{{margin-right:1em}}</style></head><body>\n<h1>{t}</h1>\n{intro}\n<nav>",
        t = escape(title),
        tables = tables.iter().map(|t| t.id.as_str()).collect::<Vec<_>>().join(","),
        plots = figures.iter().map(|(f, _)| f.id.as_str()).collect::<Vec<_>>().join(","),
        gantt_ids = gantts.charts.iter().map(|g| g.id.as_str()).collect::<Vec<_>>().join(","),
    );
    for t in tables {
        let _ = write!(s, "<a href=\"#{}\">{}</a>", t.id, escape(&t.title));
    }
    s.push_str("<a href=\"#plots\">Plots</a>");
    if !gantts.charts.is_empty() {
        s.push_str("<a href=\"#gantt\">Gantt charts</a>");
    }
    s.push_str("</nav>\n");
    for t in tables {
        s.push_str(&html_table(t));
    }
    s.push_str("<section id=\"plots\"><h2>Plots</h2>\n");
    for (f, svg) in figures {
        let _ = writeln!(
            s,
            "<figure class=\"report-plot\" data-plot=\"{id}\" id=\"plot-{id}\">{svg}<figcaption>{c} \
             (<a href=\"plots/{id}.png\">PNG</a>, <a href=\"plots/{id}.svg\">SVG</a>)</figcaption></figure>",
            id = f.id,
            c = escape(&f.caption)
        );
    }
    s.push_str("</section>\n");
    if !gantts.charts.is_empty() || !gantts.text.is_empty() {
        s.push_str("<section id=\"gantt\"><h2>Gantt charts</h2>\n");
        s.push_str(&gantts.text);
        s.push_str(gantt::render::HOVER);
        for g in &gantts.charts {
            let _ = writeln!(
                s,
                "<figure class=\"report-gantt\" data-gantt=\"{id}\" id=\"{id}\" style=\"overflow-x:auto\">{svg}\
                 <figcaption>{c} (<a href=\"plots/{id}.png\">PNG</a>, <a href=\"plots/{id}.svg\">SVG</a>, \
                 <a href=\"plots/{id}.html\">HTML</a>)</figcaption></figure>",
                id = g.id,
                svg = g.svg,
                c = escape(&g.caption)
            );
        }
        s.push_str("</section>\n");
    }
    s.push_str("</body></html>\n");
    s
}

/// A file-name and anchor-safe id: lower-case alphanumerics joined by `-`.
pub fn slug(s: &str) -> String {
    s.split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_ascii_lowercase)
        .collect::<Vec<_>>()
        .join("-")
}

/// A Gantt chart of the report: its id, caption and SVG.
#[derive(Debug, Clone, Default)]
pub(crate) struct GanttFigure {
    pub(crate) id: String,
    pub(crate) caption: String,
    pub(crate) svg: String,
}

/// The Gantt section of a report: its charts and a paragraph saying which
/// runs and windows they show (and any run that could not be drawn).
#[derive(Debug, Clone, Default)]
pub struct Gantts {
    pub(crate) charts: Vec<GanttFigure>,
    pub(crate) text: String,
}
