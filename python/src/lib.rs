//! The native module of the Python package `linkbase` (`linkbase._native`):
//! linkbase's library entry points with Python arguments, results and
//! exceptions. The package's pure-Python part (`python/linkbase/`) re-exports
//! them with the exception classes and the `warc` submodule; docs/python.md
//! is the user's guide.
//!
//! Every entry point releases the GIL while linkbase works
//! ([`Python::detach`]); input `bytes` and `str` are borrowed, not copied.

use pyo3::prelude::*;
use pyo3::pybacked::{PyBackedBytes, PyBackedStr};
use pyo3::types::{PyBytes, PyString};

mod arg;
mod explain;
mod offline;
mod options;
mod report;
mod resolve;
mod summary;
mod warc;

use options::{DecodeError, Given, Settings};
use report::Report;

/// How Python writes a value in a `repr`: `None`, or a string in quotes.
fn r<T: Repr + ?Sized>(value: &T) -> String {
    value.repr()
}

/// A value as Python's `repr` writes it.
trait Repr {
    fn repr(&self) -> String;
}

impl Repr for str {
    fn repr(&self) -> String {
        let quoted = self.replace('\\', "\\\\").replace('\'', "\\'");
        format!("'{quoted}'")
    }
}

impl Repr for String {
    fn repr(&self) -> String {
        self.as_str().repr()
    }
}

impl Repr for &str {
    fn repr(&self) -> String {
        (*self).repr()
    }
}

impl<T: Repr> Repr for Option<T> {
    fn repr(&self) -> String {
        self.as_ref().map_or_else(|| "None".to_string(), Repr::repr)
    }
}

/// An input as given: `bytes` or another bytes-like object, or `str`.
pub(crate) enum Input {
    Bytes(PyBackedBytes),
    Text(PyBackedStr),
}

impl Input {
    /// The input `data`: `bytes` and `str` borrowed, any other bytes-like
    /// object copied once ([`arg::bytes_like`]).
    pub(crate) fn from(data: &Bound<'_, PyAny>) -> PyResult<Input> {
        if let Ok(text) = data.cast::<PyString>() {
            return Ok(Input::Text(PyBackedStr::try_from(text.clone())?));
        }
        match arg::bytes_like(data)? {
            Some(bytes) => Ok(Input::Bytes(bytes)),
            None => Err(arg::wrong(
                "data",
                &format!("{} or str", arg::BYTES_LIKE),
                data,
            )),
        }
    }

    pub(crate) fn bytes(&self) -> &[u8] {
        match self {
            Input::Bytes(b) => b,
            Input::Text(t) => t.as_bytes(),
        }
    }

    pub(crate) fn text(&self) -> Option<&str> {
        match self {
            Input::Bytes(_) => None,
            Input::Text(t) => Some(t),
        }
    }
}

/// The settings for `input`: a `str` is Unicode already, so an HTML or CSS
/// one is read as UTF-8 (what its `<meta charset>` says does not apply,
/// as with lxml), unless `charset` says otherwise.
fn settings_for(input: &Input, mut settings: Settings, name: Option<&str>) -> Settings {
    if input.text().is_some() && settings.charset.is_none() {
        let format = match settings.format {
            linkbase::Format::Auto => {
                linkbase::detect(input.bytes(), name, settings.url.as_deref()).format
            }
            format => format,
        };
        if matches!(format, linkbase::Format::Html | linkbase::Format::Css) {
            settings.charset = Some(encoding_rs::UTF_8);
        }
    }
    settings
}

/// The result of `rewrite`: the `output` (of the input's type) and the
/// `report`. Unpacks as `output, report = linkbase.rewrite(...)`.
#[pyclass(frozen, get_all, module = "linkbase")]
struct Rewritten {
    /// The rewritten input: `bytes` for `bytes`, `str` for `str`.
    output: Py<PyAny>,
    /// What happened to every link, and the problems.
    report: Py<Report>,
    /// Did anything change?
    changed: bool,
}

#[pymethods]
impl Rewritten {
    fn __iter__(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        let pair = (self.output.clone_ref(py), self.report.clone_ref(py));
        Ok(pair.into_pyobject(py)?.try_iter()?.into_any().unbind())
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(format!(
            "Rewritten(changed={}, report={})",
            if self.changed { "True" } else { "False" },
            self.report.bind(py).repr()?
        ))
    }
}

/// Run linkbase's `rewrite` on `input` without the GIL: the output (`None`
/// when nothing changed) and the report, its link records as the library
/// made them.
fn run_rewrite(
    py: Python<'_>,
    input: &Input,
    settings: &Settings,
    name: Option<&str>,
) -> (Option<Vec<u8>>, linkbase::Report) {
    let bytes = input.bytes();
    let (source, options) = (settings.source(name), settings.options());
    py.detach(|| {
        let out = linkbase::rewrite(bytes, &source, &options);
        let output = match out.output {
            std::borrow::Cow::Borrowed(_) => None,
            std::borrow::Cow::Owned(v) => Some(v),
        };
        (output, out.report)
    })
}

/// What `rewrite`'s `records=` asks for.
#[derive(Clone, Copy, PartialEq, Eq)]
enum RecordsArg {
    /// `"lazy"` (the default): made when `report.links` is first read.
    Lazy,
    /// `True`: kept during the rewrite.
    Kept,
    /// `False`: none.
    Off,
}

impl RecordsArg {
    fn from(value: &Bound<'_, PyAny>) -> PyResult<RecordsArg> {
        if let Ok(b) = value.cast::<pyo3::types::PyBool>() {
            return Ok(if b.is_true() {
                RecordsArg::Kept
            } else {
                RecordsArg::Off
            });
        }
        match value.cast::<PyString>() {
            Ok(text) if text.to_cow()? == "lazy" => Ok(RecordsArg::Lazy),
            Ok(_) => Err(pyo3::exceptions::PyValueError::new_err(format!(
                "records: expected True, False or \"lazy\", got {}",
                value.repr()?
            ))),
            Err(_) => Err(arg::wrong("records", "True, False or \"lazy\"", value)),
        }
    }
}

/// Rewrite every link in `data` (an HTML page, an XHTML document, a MIME
/// message, a style sheet or a WARC) to absolute form, changing nothing
/// else. `bytes` (or any bytes-like object) in, `bytes` out; `str` in,
/// `str` out.
///
/// `url` is the URL the input was retrieved from (the base when the input
/// sets none itself, rule 5.3). Returns a `Rewritten`: `output`, `report`
/// (`counts`, one `Link` per value in `links`, `problems`), `changed`.
/// Raises `BaseError` (a `ValueError`) when `url` cannot be a base,
/// `ValueError` for an unknown `format`, `profile` or `charset`, and
/// `TypeError`, naming the argument, for a value of the wrong type; a part
/// that cannot be processed is left as it was and reported in `problems`.
///
/// `records`: `"lazy"` (the default) makes `report.links` when it is first
/// read, by rewriting the input a second time with records kept (the
/// rewrite itself only counts; the report holds the input until then);
/// `True` keeps them during the rewrite (one pass, for a caller that reads
/// them every time); `False` keeps none (`report.links` is empty).
#[pyfunction]
#[pyo3(signature = (data, url=None, *, format=None, profile=None, charset=None,
    absolutize_fragments=None, attributes=None, force=None, name=None, records=None),
    text_signature = "(data, url=None, *, format='auto', profile='rfc3986', charset=None, \
    absolutize_fragments=False, attributes=(), force=False, name=None, records='lazy')")]
#[allow(clippy::too_many_arguments)]
fn rewrite(
    py: Python<'_>,
    data: &Bound<'_, PyAny>,
    url: Option<&Bound<'_, PyAny>>,
    format: Option<&Bound<'_, PyAny>>,
    profile: Option<&Bound<'_, PyAny>>,
    charset: Option<&Bound<'_, PyAny>>,
    absolutize_fragments: Option<&Bound<'_, PyAny>>,
    attributes: Option<&Bound<'_, PyAny>>,
    force: Option<&Bound<'_, PyAny>>,
    name: Option<&Bound<'_, PyAny>>,
    records: Option<&Bound<'_, PyAny>>,
) -> PyResult<Rewritten> {
    let input = Input::from(data)?;
    let settings = Given {
        url,
        format,
        profile,
        charset,
        absolutize_fragments,
        attributes,
        force,
    }
    .settings()?;
    let name = arg::opt_text("name", name)?;
    let records = records.map_or(Ok(RecordsArg::Lazy), RecordsArg::from)?;
    let settings = settings_for(&input, settings, name.as_deref());
    rewrite_with(py, data, input, settings, name, records)
}

/// `rewrite` once its settings are made: run the library on `input` (from
/// `data`) and make the Python result.
fn rewrite_with(
    py: Python<'_>,
    data: &Bound<'_, PyAny>,
    input: Input,
    mut settings: Settings,
    name: Option<String>,
    records: RecordsArg,
) -> PyResult<Rewritten> {
    settings.keep_link_records = records == RecordsArg::Kept;
    let (output, report) = run_rewrite(py, &input, &settings, name.as_deref());
    let changed = output.is_some();
    let output: Py<PyAny> = match (&input, output) {
        // Unchanged: the very `bytes` given (a new one for another
        // bytes-like object).
        (Input::Bytes(_), None) if data.is_instance_of::<PyBytes>() => data.clone().unbind(),
        (Input::Bytes(b), None) => PyBytes::new(py, b).into_any().unbind(),
        (Input::Bytes(_), Some(v)) => PyBytes::new(py, &v).into_any().unbind(),
        (Input::Text(_), None) => data.clone().unbind(),
        (Input::Text(_), Some(v)) => match String::from_utf8(v) {
            Ok(s) => PyString::new(py, &s).into_any().unbind(),
            Err(e) => {
                return Err(DecodeError::new_err(format!(
                    "the output is not UTF-8 (byte {}), so it cannot be a str: \
                     give the input as bytes",
                    e.utf8_error().valid_up_to()
                )))
            }
        },
    };
    let records = match records {
        RecordsArg::Kept => report::Records::Kept(
            Vec::new(),
            match &input {
                Input::Text(t) => Some(t.clone_ref(py)),
                Input::Bytes(_) => None,
            },
        ),
        RecordsArg::Lazy => report::Records::Later(report::Rerun {
            input,
            settings,
            name,
        }),
        RecordsArg::Off => report::Records::Off,
    };
    let report = Report::new(py, report, records)?;
    Ok(Rewritten {
        output,
        report: Py::new(py, report)?,
        changed,
    })
}

/// Every URL-bearing value of `data` with its resolved URL, its base, the
/// rule that set the base and where it is written: a list of `Link` (the
/// package's `links` iterates over it). Takes the arguments of `rewrite`.
#[pyfunction]
#[pyo3(signature = (data, url=None, *, format=None, profile=None, charset=None,
    absolutize_fragments=None, attributes=None, force=None, name=None),
    text_signature = "(data, url=None, *, format='auto', profile='rfc3986', charset=None, \
    absolutize_fragments=False, attributes=(), force=False, name=None)")]
#[allow(clippy::too_many_arguments)]
fn links<'py>(
    py: Python<'py>,
    data: &Bound<'py, PyAny>,
    url: Option<&Bound<'py, PyAny>>,
    format: Option<&Bound<'py, PyAny>>,
    profile: Option<&Bound<'py, PyAny>>,
    charset: Option<&Bound<'py, PyAny>>,
    absolutize_fragments: Option<&Bound<'py, PyAny>>,
    attributes: Option<&Bound<'py, PyAny>>,
    force: Option<&Bound<'py, PyAny>>,
    name: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let input = Input::from(data)?;
    let settings = Given {
        url,
        format,
        profile,
        charset,
        absolutize_fragments,
        attributes,
        force,
    }
    .settings()?;
    let name = arg::opt_text("name", name)?;
    let mut settings = settings_for(&input, settings, name.as_deref());
    settings.keep_link_records = true;
    let (_, mut report) = run_rewrite(py, &input, &settings, name.as_deref());
    let records = std::mem::take(&mut report.links);
    let links = py.detach(|| report::links(records, input.text()));
    Ok(pyo3::types::PyList::new(py, links)?.into_any())
}

/// The native module.
#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(rewrite, m)?)?;
    m.add_function(wrap_pyfunction!(links, m)?)?;
    m.add_function(wrap_pyfunction!(resolve::resolve, m)?)?;
    m.add_function(wrap_pyfunction!(explain::explain, m)?)?;
    m.add_function(wrap_pyfunction!(warc::convert, m)?)?;
    m.add_function(wrap_pyfunction!(offline::offline_mirror, m)?)?;
    m.add_function(wrap_pyfunction!(offline::offline_archive, m)?)?;
    m.add_class::<offline::OfflineCopy>()?;
    m.add_class::<Rewritten>()?;
    m.add_class::<Report>()?;
    m.add_class::<report::Link>()?;
    m.add_class::<report::Problem>()?;
    m.add_class::<report::Counts>()?;
    m.add_class::<resolve::Base>()?;
    m.add_class::<explain::Explanation>()?;
    m.add_class::<explain::ExplainedPart>()?;
    m.add_class::<summary::Summary>()?;
    m.add_class::<warc::Record>()?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    // The profile-guided optimization this build used (python/build-wheel.sh
    // sets it: the first 16 hex digits of the SHA-256 of the profile it made,
    // target/pgo/wheel.profdata), or "" for a build without one.
    m.add(
        "_PGO_PROFILE",
        option_env!("LINKBASE_PGO_PROFILE").unwrap_or(""),
    )?;
    Ok(())
}
