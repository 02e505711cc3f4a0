//! `linkbase.warc.convert`: a WARC from a path or a binary file object to a
//! path or a binary file object, record by record, the GIL released while
//! linkbase works (and taken back only to call the file objects' `read`
//! and `write`).

use crate::arg;
use crate::options::{Given, WarcError};
use crate::report::Report;
use crate::summary::{Summary, Tally};
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use std::fs::File;
use std::io::{self, BufReader, BufWriter, Read, Write};
use std::path::PathBuf;

/// How much is read from, or gathered for, a Python file object at a time.
const CHUNK: usize = 1 << 16;

/// A Python binary file object read through its `read` method.
struct PyReader {
    file: Py<PyAny>,
}

impl Read for PyReader {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        Python::attach(|py| {
            let chunk = self
                .file
                .bind(py)
                .call_method1("read", (buf.len(),))
                .map_err(io::Error::other)?;
            if chunk.is_none() {
                // A non-blocking stream with nothing ready: not supported.
                return Err(io::Error::other(WarcError::new_err(
                    "the input file object's read() returned None (a non-blocking stream with \
                     nothing ready?): give a blocking binary file, as open(path, 'rb') makes",
                )));
            }
            let bytes = chunk.cast::<PyBytes>().map_err(|_| {
                let kind = chunk
                    .get_type()
                    .name()
                    .map_or_else(|_| "not bytes".to_string(), |n| n.to_string());
                io::Error::other(pyo3::exceptions::PyTypeError::new_err(format!(
                    "the input file object's read() returned {kind}, not bytes: open the file \
                     in binary mode (open(path, 'rb')), or pass its path"
                )))
            })?;
            let bytes = bytes.as_bytes();
            let n = bytes.len().min(buf.len());
            buf[..n].copy_from_slice(&bytes[..n]);
            Ok(n)
        })
    }
}

/// A Python binary file object written through its `write` method.
struct PyWriter {
    file: Py<PyAny>,
}

impl Write for PyWriter {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        Python::attach(|py| {
            let written = self
                .file
                .bind(py)
                .call_method1("write", (PyBytes::new(py, buf),))
                .map_err(io::Error::other)?;
            // Raw files may write less than given; buffered ones return all.
            match written.extract::<Option<usize>>() {
                Ok(Some(n)) => Ok(n.min(buf.len())),
                _ => Ok(buf.len()),
            }
        })
    }

    fn flush(&mut self) -> io::Result<()> {
        Python::attach(|py| {
            let file = self.file.bind(py);
            if file.hasattr("flush").unwrap_or(false) {
                file.call_method0("flush").map_err(io::Error::other)?;
            }
            Ok(())
        })
    }
}

/// A path (`str` or `os.PathLike`), or else a file object.
enum Place {
    Path(PathBuf),
    File(Py<PyAny>),
}

impl Place {
    /// The argument `name`: a path, or an object with the file method
    /// `method` (`read` for the input, `write` for the output).
    fn of(name: &str, obj: &Bound<'_, PyAny>, method: &str) -> PyResult<Place> {
        if let Ok(path) = arg::path(name, obj) {
            return Ok(Place::Path(path));
        }
        if obj.hasattr(method)? {
            return Ok(Place::File(obj.clone().unbind()));
        }
        Err(arg::wrong(
            name,
            &format!("a path (str or os.PathLike) or a binary file object (with {method}())"),
            obj,
        ))
    }
}

/// An I/O error as the Python exception: the file object's own when it
/// raised one, else an `OSError` naming `what`.
fn py_error(e: io::Error, what: &str) -> PyErr {
    match e.get_ref().and_then(|inner| inner.downcast_ref::<PyErr>()) {
        Some(_) => {
            let inner = e.into_inner().expect("checked above");
            *inner.downcast::<PyErr>().expect("checked above")
        }
        None => {
            let message = format!("{what}: {e}");
            match e.kind() {
                io::ErrorKind::InvalidData | io::ErrorKind::UnexpectedEof => {
                    WarcError::new_err(message)
                }
                _ => pyo3::exceptions::PyOSError::new_err(message),
            }
        }
    }
}

/// One input record, as it went (given to `on_record`).
#[pyclass(frozen, get_all, module = "linkbase.warc")]
pub struct Record {
    /// Its offset in the input (a gzip member's offset for a `.warc.gz`).
    offset: u64,
    /// Its `WARC-Record-ID` (empty for a broken record).
    id: String,
    /// Its `WARC-Target-URI`.
    target_uri: Option<String>,
    /// `converted`, `unchanged`, `passed:<why>` (`passed:request`…) or `broken`.
    outcome: String,
    /// Its links and problems.
    report: Py<Report>,
}

#[pymethods]
impl Record {
    fn __repr__(&self) -> String {
        format!(
            "Record(offset={}, target_uri={}, outcome={})",
            self.offset,
            crate::r(&self.target_uri),
            crate::r(&self.outcome)
        )
    }
}

fn outcome_name(outcome: &linkbase::warc::RecordOutcome) -> String {
    match outcome {
        linkbase::warc::RecordOutcome::Converted => "converted".into(),
        linkbase::warc::RecordOutcome::Unchanged => "unchanged".into(),
        linkbase::warc::RecordOutcome::Passed(pass) => format!("passed:{}", pass.key()),
        linkbase::warc::RecordOutcome::Broken => "broken".into(),
        // An outcome newer than this binding.
        other => format!("{other:?}").to_lowercase(),
    }
}

/// Convert the WARC `src` (plain or gzip) into a WARC of `conversion`
/// records in `dst`: one per response or resource whose payload changed,
/// each payload rewritten against its `WARC-Target-URI`. `src` and `dst`
/// are paths or binary file objects; memory is bounded by the largest
/// record (`max_record`, 256 MiB by default), never the archive. Returns
/// the `Summary` (`records`, `documents`, `conversions`, `unchanged`,
/// `passed`, `broken`, the `counts` of the links, `problems`).
#[pyfunction]
#[pyo3(signature = (src, dst, *, profile=None, absolutize_fragments=None,
    attributes=None, force=None, gzip=None, date=None, max_record=None, name=None,
    file_name=None, on_record=None),
    text_signature = "(src, dst, *, profile='rfc3986', absolutize_fragments=False, \
    attributes=(), force=False, gzip=None, date=None, max_record=None, name=None, \
    file_name=None, on_record=None)")]
#[allow(clippy::too_many_arguments)]
pub fn convert(
    py: Python<'_>,
    src: &Bound<'_, PyAny>,
    dst: &Bound<'_, PyAny>,
    profile: Option<&Bound<'_, PyAny>>,
    absolutize_fragments: Option<&Bound<'_, PyAny>>,
    attributes: Option<&Bound<'_, PyAny>>,
    force: Option<&Bound<'_, PyAny>>,
    gzip: Option<&Bound<'_, PyAny>>,
    date: Option<&Bound<'_, PyAny>>,
    max_record: Option<&Bound<'_, PyAny>>,
    name: Option<&Bound<'_, PyAny>>,
    file_name: Option<&Bound<'_, PyAny>>,
    on_record: Option<&Bound<'_, PyAny>>,
) -> PyResult<Summary> {
    let (src, dst) = (
        Place::of("src", src, "read")?,
        Place::of("dst", dst, "write")?,
    );
    let mut settings = Given {
        url: None,
        format: None,
        profile,
        charset: None,
        absolutize_fragments,
        attributes,
        force,
    }
    .settings()?;
    settings.format = linkbase::Format::Warc;
    let gzip = arg::opt_flag("gzip", gzip)?;
    let date = arg::opt_text("date", date)?;
    let max_record = arg::opt_size("max_record", max_record)?;
    let name = arg::opt_text("name", name)?;
    let file_name = arg::opt_text("file_name", file_name)?;
    let on_record = match on_record.filter(|f| !f.is_none()) {
        None => None,
        Some(f) if f.is_callable() => Some(f.clone().unbind()),
        Some(f) => return Err(arg::wrong("on_record", "a callable or None", f)),
    };
    // Each record's links go to `on_record`; without it only counts are kept.
    settings.keep_link_records = on_record.is_some();
    let options = settings.options();
    let mut warc = linkbase::warc::WarcOptions::new();
    if let Some(date) = date {
        warc = warc.with_date(date);
    }
    if let Some(max) = max_record {
        warc = warc.with_max_record(max);
    }
    warc = warc.with_file_name(file_name.or_else(|| match &dst {
        Place::Path(path) => path.file_name().map(|n| n.to_string_lossy().into_owned()),
        Place::File(_) => None,
    }));
    let name = name.or_else(|| match &src {
        Place::Path(path) => Some(path.to_string_lossy().into_owned()),
        Place::File(_) => None,
    });
    let source = settings.source(name.as_deref());
    let input: Box<dyn Read + Send> = match &src {
        Place::Path(path) => {
            Box::new(File::open(path).map_err(|e| py_error(e, &path.to_string_lossy()))?)
        }
        Place::File(file) => Box::new(PyReader {
            file: file.clone_ref(py),
        }),
    };
    let mut input = BufReader::with_capacity(CHUNK, input);
    // gzip unless told: by the output file's name, else like the input.
    let gzip_in = input.fill_buf_head().map_err(|e| py_error(e, "input"))?;
    warc = warc.with_gzip(gzip.unwrap_or(match &dst {
        Place::Path(path) => path.to_string_lossy().to_ascii_lowercase().ends_with(".gz"),
        Place::File(_) => gzip_in,
    }));
    let output: Box<dyn Write + Send> = match &dst {
        Place::Path(path) => {
            Box::new(File::create(path).map_err(|e| py_error(e, &path.to_string_lossy()))?)
        }
        Place::File(file) => Box::new(PyWriter {
            file: file.clone_ref(py),
        }),
    };
    let output = BufWriter::with_capacity(CHUNK, output);
    let mut callback_error: Option<PyErr> = None;
    let mut tally = Tally::default();
    let result = py.detach(|| {
        linkbase::warc::convert(input, output, &source, &options, &warc, |record| {
            // Problems name the record as their part.
            tally.report(&record.report, None);
            let Some(callback) = &on_record else { return };
            if callback_error.is_some() {
                return;
            }
            let outcome = outcome_name(&record.outcome);
            let record_report = record.report;
            let called = Python::attach(|py| -> PyResult<()> {
                let report = Py::new(
                    py,
                    Report::new(
                        py,
                        record_report,
                        crate::report::Records::Kept(Vec::new(), None),
                    )?,
                )?;
                let record = Record {
                    offset: record.offset,
                    id: record.id,
                    target_uri: record.target_uri,
                    outcome,
                    report,
                };
                callback.call1(py, (record,))?;
                Ok(())
            });
            if let Err(e) = called {
                callback_error = Some(e);
            }
        })
        .and_then(|(summary, mut output)| {
            output.flush()?;
            Ok(summary)
        })
    });
    if let Some(e) = callback_error {
        return Err(e);
    }
    let summary = result.map_err(|e| py_error(e, "WARC"))?;
    tally.documents = summary.conversions + summary.unchanged;
    Ok(tally
        .summary(py, "warc.convert", summary.records)?
        .conversion(&summary))
}

/// Does the buffered input start with a gzip member?
trait GzipHead {
    fn fill_buf_head(&mut self) -> io::Result<bool>;
}

impl<R: Read> GzipHead for BufReader<R> {
    fn fill_buf_head(&mut self) -> io::Result<bool> {
        use std::io::BufRead;
        Ok(self.fill_buf()?.starts_with(&[0x1f, 0x8b]))
    }
}
