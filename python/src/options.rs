//! The keyword arguments of the Python functions, read into linkbase's
//! [`Options`] (made in one place, [`Settings::options`]), and the
//! library's errors as Python exceptions.

use crate::arg;
use linkbase::offline::Document;
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

/// Everything a call sets of linkbase's [`Options`], read from its
/// arguments and checked. [`Settings::options`] is the one place the
/// package makes an `Options`.
#[derive(Clone, Default)]
pub struct Settings {
    /// `url=`: the retrieval URL, checked by the library's rule.
    pub url: Option<String>,
    pub format: Format,
    pub profile: Profile,
    pub charset: Option<&'static encoding_rs::Encoding>,
    pub absolutize_fragments: bool,
    /// `attributes=`: more attributes to rewrite.
    pub attributes: Vec<String>,
    pub force: bool,
    /// A record per link kept during the rewrite.
    pub keep_link_records: bool,
    /// The document of an offline copy being rewritten.
    pub offline: Option<Document>,
}

impl Settings {
    /// The library's options for these settings (what holds for the whole
    /// call): with [`Settings::source`], the one place the package makes
    /// an [`Options`].
    pub fn options(&self) -> Options {
        Options::new()
            .with_profile(self.profile)
            .with_absolutize_fragments(self.absolutize_fragments)
            .with_extra_attributes(self.attributes.clone())
            .with_force(self.force)
            .with_keep_link_records(self.keep_link_records)
    }

    /// What is known about the input these settings are given with (named
    /// `name`): its URL, format, charset and offline copy.
    pub fn source(&self, name: Option<&str>) -> Source {
        let mut source = Source::new().with_format(self.format);
        if let Some(name) = name {
            source = source.with_name(name);
        }
        if let Some(url) = &self.url {
            source = source.with_url(url.as_str());
        }
        if let Some(charset) = self.charset {
            source = source.with_charset(charset);
        }
        if let Some(offline) = &self.offline {
            source = source.with_offline(offline.clone());
        }
        source
    }

    /// `url=` for these settings' profile: the library's one rule for a
    /// retrieval URL, as the command line's `--url` applies it, refused
    /// before any work, saying why (set `profile` first).
    pub fn set_url(&mut self, url: Option<String>) -> PyResult<()> {
        if let Some(url) = url.as_deref() {
            linkbase::check_base(url, self.profile)
                .map_err(|problem| BaseError::new_err(problem.render(python_term)))?;
        }
        self.url = url.map(|url| url.trim().to_string());
        Ok(())
    }
}

/// The keyword arguments of `rewrite`, `links`, `explain` and
/// `OfflineCopy.rewrite`, as given (`None`: left out).
pub struct Given<'a, 'py> {
    pub url: Option<&'a Bound<'py, PyAny>>,
    pub format: Option<&'a Bound<'py, PyAny>>,
    pub profile: Option<&'a Bound<'py, PyAny>>,
    pub charset: Option<&'a Bound<'py, PyAny>>,
    pub absolutize_fragments: Option<&'a Bound<'py, PyAny>>,
    pub attributes: Option<&'a Bound<'py, PyAny>>,
    pub force: Option<&'a Bound<'py, PyAny>>,
}

impl Given<'_, '_> {
    /// The settings these arguments make, each read and checked.
    pub fn settings(&self) -> PyResult<Settings> {
        let mut settings = Settings {
            profile: profile(&arg::text_or("profile", self.profile, "rfc3986")?)?,
            format: format(&arg::text_or("format", self.format, "auto")?)?,
            charset: arg::opt_text("charset", self.charset)?
                .as_deref()
                .map(charset)
                .transpose()?,
            absolutize_fragments: arg::flag(
                "absolutize_fragments",
                self.absolutize_fragments,
                false,
            )?,
            attributes: arg::texts("attributes", self.attributes)?,
            force: arg::flag("force", self.force, false)?,
            ..Settings::default()
        };
        settings.set_url(arg::opt_text("url", self.url)?)?;
        Ok(settings)
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
