//! The PNG backend of the report's plots and Gantt charts: plotters' bitmap
//! backend with its own text setting.
//!
//! plotters' `ab_glyph` text drops each glyph's left side bearing and
//! rounds the pen to whole pixels, so PNG text came out mis-kerned ("l" and
//! "i" pressed against their left neighbour). Here every glyph sits at its
//! fractional pen position with its bearing, at the em size and baseline
//! the SVG backend gives the same text (`font-size` = size / 1.24, baseline
//! 0.76 em below a top anchor), so PNG and SVG agree.

use std::path::Path;
use std::sync::OnceLock;

use ab_glyph::{Font, FontRef, GlyphId, PxScale, ScaleFont, point};
use plotters::prelude::*;
use plotters_backend::text_anchor::{HPos, VPos};
use plotters_backend::{
    BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingErrorKind, FontStyle as BackendFontStyle,
};

/// The embedded DejaVu Sans faces (regular, bold).
fn faces() -> &'static Option<(FontRef<'static>, FontRef<'static>)> {
    static FACES: OnceLock<Option<(FontRef<'static>, FontRef<'static>)>> = OnceLock::new();
    FACES.get_or_init(|| {
        let regular = FontRef::try_from_slice(dejavu::sans::regular()).ok()?;
        let bold = FontRef::try_from_slice(dejavu::sans::bold()).ok()?;
        Some((regular, bold))
    })
}

/// The face of a text style; None when the embedded font could not be read.
fn face(style: BackendFontStyle) -> Option<&'static FontRef<'static>> {
    let (regular, bold) = faces().as_ref()?;
    Some(if matches!(style, BackendFontStyle::Bold) { bold } else { regular })
}

/// A font size as plotters gives it → the em in pixels (as in the SVG).
fn em(size: f64) -> f32 {
    (size / 1.24) as f32
}

/// The glyphs of `text` and their pen positions (px from the start), and
/// the advance of the whole text.
fn layout(font: &FontRef<'static>, size: f64, text: &str) -> (Vec<(GlyphId, f32)>, f32, PxScale) {
    let units = font.units_per_em().unwrap_or(1.0);
    // ab_glyph scales by ascent − descent; this scale makes the em `em(size)`.
    let scale = PxScale::from(em(size) * font.height_unscaled() / units);
    let scaled = font.as_scaled(scale);
    let mut pen = 0.0f32;
    let mut prev: Option<GlyphId> = None;
    let mut glyphs = Vec::with_capacity(text.len());
    for c in text.chars() {
        let id = scaled.glyph_id(c);
        if let Some(p) = prev {
            pen += scaled.kern(p, id);
        }
        glyphs.push((id, pen));
        pen += scaled.h_advance(id);
        prev = Some(id);
    }
    (glyphs, pen, scale)
}

/// plotters' bitmap backend, text set by [`layout`].
pub(crate) struct Png<'a>(BitMapBackend<'a>);

impl<'a> Png<'a> {
    pub(crate) fn new(path: &'a Path, size: (u32, u32)) -> Self {
        Png(BitMapBackend::new(path, size))
    }
}

type Error<'a> = DrawingErrorKind<<BitMapBackend<'a> as DrawingBackend>::ErrorType>;

impl<'a> DrawingBackend for Png<'a> {
    type ErrorType = <BitMapBackend<'a> as DrawingBackend>::ErrorType;

    fn get_size(&self) -> (u32, u32) {
        self.0.get_size()
    }

    fn ensure_prepared(&mut self) -> Result<(), Error<'a>> {
        self.0.ensure_prepared()
    }

    fn present(&mut self) -> Result<(), Error<'a>> {
        self.0.present()
    }

    fn draw_pixel(&mut self, point: BackendCoord, color: BackendColor) -> Result<(), Error<'a>> {
        self.0.draw_pixel(point, color)
    }

    fn draw_line<S: BackendStyle>(&mut self, from: BackendCoord, to: BackendCoord, style: &S) -> Result<(), Error<'a>> {
        self.0.draw_line(from, to, style)
    }

    fn draw_rect<S: BackendStyle>(
        &mut self,
        upper_left: BackendCoord,
        bottom_right: BackendCoord,
        style: &S,
        fill: bool,
    ) -> Result<(), Error<'a>> {
        self.0.draw_rect(upper_left, bottom_right, style, fill)
    }

    fn draw_path<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        path: I,
        style: &S,
    ) -> Result<(), Error<'a>> {
        self.0.draw_path(path, style)
    }

    fn draw_circle<S: BackendStyle>(
        &mut self,
        center: BackendCoord,
        radius: u32,
        style: &S,
        fill: bool,
    ) -> Result<(), Error<'a>> {
        self.0.draw_circle(center, radius, style, fill)
    }

    fn fill_polygon<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        vert: I,
        style: &S,
    ) -> Result<(), Error<'a>> {
        self.0.fill_polygon(vert, style)
    }

    fn blit_bitmap(&mut self, pos: BackendCoord, size: (u32, u32), src: &[u8]) -> Result<(), Error<'a>> {
        self.0.blit_bitmap(pos, size, src)
    }

    fn estimate_text_size<T: BackendTextStyle>(&self, text: &str, style: &T) -> Result<(u32, u32), Error<'a>> {
        let Some(font) = face(style.style()) else { return Ok((0, 0)) };
        let (_, width, _) = layout(font, style.size(), text);
        Ok((width.ceil() as u32, em(style.size()).ceil() as u32))
    }

    fn draw_text<T: BackendTextStyle>(&mut self, text: &str, style: &T, pos: BackendCoord) -> Result<(), Error<'a>> {
        let colour = style.color();
        let Some(font) = face(style.style()) else { return Ok(()) };
        if colour.alpha == 0.0 {
            return Ok(());
        }
        let (glyphs, width, scale) = layout(font, style.size(), text);
        let em = em(style.size());
        let anchor = style.anchor();
        let dx = match anchor.h_pos {
            HPos::Left => 0.0,
            HPos::Center => -width / 2.0,
            HPos::Right => -width,
        };
        // The SVG's dy: 0.76 em (top), ±0.5 ex (DejaVu's ex ≈ 0.55 em).
        let baseline = match anchor.v_pos {
            VPos::Top => 0.76 * em,
            VPos::Center => 0.27 * em,
            VPos::Bottom => -0.27 * em,
        };
        let transform = style.transform();
        let (w, h) = self.get_size();
        let mut pixels = Vec::new();
        for (id, pen) in glyphs {
            let glyph = id.with_scale_and_position(scale, point(dx + pen, baseline));
            let Some(outline) = font.outline_glyph(glyph) else { continue };
            let bounds = outline.px_bounds();
            outline.draw(|x, y, coverage| {
                if coverage > 0.0 {
                    pixels.push((x as i32 + bounds.min.x as i32, y as i32 + bounds.min.y as i32, coverage));
                }
            });
        }
        for (x, y, coverage) in pixels {
            let (x, y) = transform.transform(x, y);
            let (x, y) = (pos.0 + x, pos.1 + y);
            if x >= 0 && y >= 0 && (x as u32) < w && (y as u32) < h {
                let alpha = colour.alpha * f64::from(coverage.min(1.0));
                self.0.draw_pixel((x, y), BackendColor { alpha, rgb: colour.rgb })?;
            }
        }
        Ok(())
    }
}
