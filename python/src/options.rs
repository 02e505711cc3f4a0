//! The keyword arguments of the Python functions, read into linkbase's
//! [`Options`], and the library's errors as Python exceptions.

use linkbase::{report::Setting, Format, Options, Profile};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

// The exception classes are defined in Python (`linkbase/_errors.py`), so
// that `BaseError` can be both a `linkbase.Error` and a `ValueError`.
pyo3::import_exception!(linkbase._errors, Error);
pyo3::import_exception!(linkbase._errors, BaseError);
pyo3::import_exception!(linkbase._errors, ResolveError);
pyo3::import_exception!(linkbase._errors, DecodeError);
pyo3::import_exception!(linkbase._errors, WarcError);

/// A resolution profile by its name (`rfc3986`, `whatwg`, …).
pub fn profile(name: &str) -> PyResult<Profile> {
    name.parse::<Profile>().map_err(PyValueError::new_err)
}

/// A format by its name (`auto`, `html`, `xhtml`, `mime`, `css`, `warc`, `feed`).
pub fn format(name: &str) -> PyResult<Format> {
    Ok(match name.to_ascii_lowercase().as_str() {
        "auto" => Format::Auto,
        "html" => Format::Html,
        "xhtml" => Format::Xhtml,
        "mime" => Format::Mime,
        "css" => Format::Css,
        "warc" => Format::Warc,
        "feed" => Format::Feed,
        _ => {
            return Err(PyValueError::new_err(format!(
            "unknown format `{name}` (expected one of: auto, html, xhtml, mime, css, warc, feed)"
        )))
        }
    })
}

/// An encoding by its WHATWG label (`utf-8`, `latin1`, `shift_jis`…).
pub fn charset(label: &str) -> PyResult<&'static encoding_rs::Encoding> {
    encoding_rs::Encoding::for_label(label.trim().as_bytes()).ok_or_else(|| {
        PyValueError::new_err(format!(
            "unknown charset `{label}` (expected a WHATWG encoding label)"
        ))
    })
}

/// The keyword arguments every entry point shares.
pub struct Args<'a> {
    pub url: Option<String>,
    pub format: &'a str,
    pub profile: &'a str,
    pub charset: Option<&'a str>,
    pub absolutize_fragments: bool,
    pub attributes: Vec<String>,
    pub force: bool,
}

impl Args<'_> {
    /// The library's options for these arguments.
    pub fn options(&self) -> PyResult<Options> {
        let mut options = Options::new();
        options.profile = profile(self.profile)?;
        // The library's one rule for a retrieval URL, as the command line's
        // `--url` applies it: refused before any work, saying why.
        if let Some(url) = self.url.as_deref() {
            linkbase::check_base(url, options.profile)
                .map_err(|problem| BaseError::new_err(problem.render(python_term)))?;
            options.url = Some(url.trim().to_string());
        }
        options.format = format(self.format)?;
        options.charset = self.charset.map(charset).transpose()?;
        options.absolutize_fragments = self.absolutize_fragments;
        options.extra_attributes = self.attributes.clone();
        options.force = self.force;
        Ok(options)
    }
}

/// The Python name of a setting a library message names (`Options::url`
/// becomes `url=`), so that messages speak of the arguments the caller gave.
pub fn python_term(setting: Setting) -> &'static str {
    match setting {
        Setting::Url => "the retrieval URL (url=)",
        Setting::Charset => "charset=",
        Setting::Force => "force=",
        Setting::MaxRecord => "max_record=",
        Setting::Format => "format=",
        // A setting added to the library later: its Rust name until this
        // table names its argument.
        other => other.term(),
    }
}

/// A library message, with its setting named as the Python argument.
pub fn message(problem: &linkbase::report::Problem) -> String {
    problem.message_naming(python_term)
}
