//! The SWF writer: a header and records as text, plain or gzip-compressed.
//!
//! Contract: what it writes, [`crate::trace::swf::SwfReader`] reads back
//! equal (`f64` fields use Rust's shortest round-trip format).

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::Path;

use flate2::Compression;
use flate2::write::GzEncoder;

use crate::trace::swf::{READ_BUFFER, SwfHeader, SwfRecord};

/// A file being written, plain or gzip-compressed.
pub enum FileSink {
    /// Plain text.
    Plain(BufWriter<File>),
    /// Gzip-compressed text (boxed: the encoder's state is large).
    Gzip(Box<GzEncoder<BufWriter<File>>>),
}

impl Write for FileSink {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self {
            FileSink::Plain(w) => w.write(buf),
            FileSink::Gzip(w) => w.write(buf),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match self {
            FileSink::Plain(w) => w.flush(),
            FileSink::Gzip(w) => w.flush(),
        }
    }
}

/// Writes SWF text: header lines, then one record per line.
pub struct SwfWriter<W: Write> {
    out: W,
}

impl SwfWriter<FileSink> {
    /// Creates `path`; gzip-compressed if its name ends in `.gz`.
    pub fn create(path: &Path) -> io::Result<SwfWriter<FileSink>> {
        let file = BufWriter::with_capacity(READ_BUFFER, File::create(path)?);
        let out = if path.extension().is_some_and(|e| e == "gz") {
            FileSink::Gzip(Box::new(GzEncoder::new(file, Compression::default())))
        } else {
            FileSink::Plain(file)
        };
        Ok(SwfWriter { out })
    }

    /// Completes the file: writes the gzip trailer and flushes.
    pub fn finish(self) -> io::Result<()> {
        match self.out {
            FileSink::Plain(mut w) => w.flush(),
            FileSink::Gzip(w) => w.finish()?.flush(),
        }
    }
}

impl<W: Write> SwfWriter<W> {
    /// Wraps any writer.
    pub fn new(out: W) -> SwfWriter<W> {
        SwfWriter { out }
    }

    /// Writes the header comment lines.
    pub fn write_header(&mut self, header: &SwfHeader) -> io::Result<()> {
        for line in &header.lines {
            writeln!(self.out, ";{line}")?;
        }
        Ok(())
    }

    /// Writes one record line.
    pub fn write_record(&mut self, record: &SwfRecord) -> io::Result<()> {
        writeln!(self.out, "{record}")
    }

    /// The inner writer (flushed).
    pub fn into_inner(mut self) -> io::Result<W> {
        self.out.flush()?;
        Ok(self.out)
    }
}
