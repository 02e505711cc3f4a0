//! The keyword arguments of the Python functions, read into linkbase's
//! [`Options`], and the library's errors as Python exceptions.

use linkbase::{report::Setting, Format, Options, Profile, Source};
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

/// What the library is given with an input: what is known of it (its
/// name, URL, format, charset) and the run's settings.
#[derive(Clone)]
pub struct Given {
    pub source: Source,
    pub options: Options,
}

impl Args<'_> {
    /// The library's source (named `name`) and options for these arguments.
    pub fn given(&self, name: Option<&str>) -> PyResult<Given> {
        let options = Options::new()
            .with_profile(profile(self.profile)?)
            .with_absolutize_fragments(self.absolutize_fragments)
            .with_extra_attributes(self.attributes.clone())
            .with_force(self.force);
        let mut source = Source::new().with_format(format(self.format)?);
        if let Some(name) = name {
            source = source.with_name(name);
        }
        // The library's one rule for a retrieval URL, as the command line's
        // `--url` applies it: refused before any work, saying why.
        if let Some(url) = self.url.as_deref() {
            linkbase::check_base(url, options.profile())
                .map_err(|problem| BaseError::new_err(problem.render(python_term)))?;
            source = source.with_url(url.trim());
        }
        if let Some(label) = self.charset {
            source = source.with_charset(charset(label)?);
        }
        Ok(Given { source, options })
    }
}

/// The Python name of a setting a library message names (`Source::url`
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
