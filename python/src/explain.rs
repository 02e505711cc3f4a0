//! `explain`: which base each document or MIME entity gets, and the rule
//! that set it, as data.

use crate::arg;
use crate::options::Given;
use crate::report::{rule_name, Problem};
use crate::Input;
use pyo3::prelude::*;

/// One document or MIME entity: the base in force inside it and the rule
/// that set it.
#[pyclass(frozen, get_all, module = "linkbase")]
pub struct ExplainedPart {
    /// Nesting depth (0: the document, or the message's top level).
    depth: usize,
    /// MIME part path (`1`, `1.2`), `message` for a message's top level;
    /// the input's `name` (or `<stdin>`) for a document.
    path: String,
    /// Media type.
    media_type: String,
    /// Content-Transfer-Encoding (`7bit` when absent; empty for a document).
    transfer_encoding: String,
    /// The base URL in force inside it (`None`: no base, rule 5.4).
    base: Option<String>,
    /// The rule that set it (`embedded`, `content-location`, `retrieval`…).
    rule: Option<&'static str>,
    /// Anything else worth saying (left alone because signed…).
    note: Option<String>,
}

#[pymethods]
impl ExplainedPart {
    fn __repr__(&self) -> String {
        format!(
            "ExplainedPart(path={}, media_type={}, base={}, rule={})",
            crate::r(&self.path),
            crate::r(&self.media_type),
            crate::r(&self.base),
            crate::r(&self.rule)
        )
    }
}

/// What `explain` found: `parts` (one `ExplainedPart` per document or
/// entity, in input order; empty for a WARC), `text` (the table `linkbase
/// explain` prints) and `problems`.
#[pyclass(frozen, get_all, module = "linkbase")]
pub struct Explanation {
    /// One entry per document or MIME entity, in input order.
    parts: Vec<Py<ExplainedPart>>,
    /// The same as text, one line per document, entity or WARC record.
    text: String,
    /// Problems met on the way.
    problems: Vec<Py<Problem>>,
}

#[pymethods]
impl Explanation {
    fn __repr__(&self) -> String {
        format!(
            "Explanation(parts=<{} parts>, problems=<{} problems>)",
            self.parts.len(),
            self.problems.len()
        )
    }
}

/// Which base each document, MIME entity or WARC record of `data` gets and
/// the rule (5.1–5.4) that set it, rewriting nothing. Takes the arguments
/// of `rewrite`; returns an `Explanation`.
#[pyfunction]
#[pyo3(signature = (data, url=None, *, format=None, profile=None, charset=None, name=None),
    text_signature = "(data, url=None, *, format='auto', profile='rfc3986', charset=None, \
    name=None)")]
pub fn explain(
    py: Python<'_>,
    data: &Bound<'_, PyAny>,
    url: Option<&Bound<'_, PyAny>>,
    format: Option<&Bound<'_, PyAny>>,
    profile: Option<&Bound<'_, PyAny>>,
    charset: Option<&Bound<'_, PyAny>>,
    name: Option<&Bound<'_, PyAny>>,
) -> PyResult<Explanation> {
    let input = Input::from(data)?;
    let settings = Given {
        url,
        format,
        profile,
        charset,
        absolutize_fragments: None,
        attributes: None,
        force: None,
    }
    .settings()?;
    let name = arg::opt_text("name", name)?;
    let name = name.as_deref();
    let settings = crate::settings_for(&input, settings, name);
    let (source, options) = (settings.source(name), settings.options());
    let bytes = input.bytes();
    let found = py.detach(|| linkbase::explain(bytes, &source, &options));
    let parts = found
        .parts
        .into_iter()
        .map(|p| {
            Py::new(
                py,
                ExplainedPart {
                    depth: p.depth,
                    path: p.path,
                    media_type: p.media_type,
                    transfer_encoding: p.encoding,
                    base: p.base,
                    rule: p.rule.map(rule_name),
                    note: p.note,
                },
            )
        })
        .collect::<PyResult<_>>()?;
    let problems = found
        .report
        .problems
        .iter()
        .map(|p| Py::new(py, Problem::new(p)))
        .collect::<PyResult<_>>()?;
    Ok(Explanation {
        parts,
        text: found.text,
        problems,
    })
}
