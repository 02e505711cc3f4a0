//! Reference resolution alone: `resolve` and a parsed `Base`.

use crate::arg;
use crate::options::{profile, BaseError, ResolveError};
use pyo3::prelude::*;

fn resolve_error(e: linkbase::resolve::ResolveError) -> PyErr {
    match e {
        linkbase::resolve::ResolveError::Base(e) => BaseError::new_err(e.to_string()),
        e => ResolveError::new_err(e.to_string()),
    }
}

/// Resolve `reference` against the absolute URL `base` under `profile`
/// (`rfc3986`, the default; `whatwg`; `rfc1808`; `url-syntax-01`;
/// `relative-url-01`). Raises `BaseError` (a `ValueError`) when `base` is
/// not absolute, `ResolveError` when the reference cannot be resolved.
#[pyfunction]
#[pyo3(signature = (base, reference, profile=None),
    text_signature = "(base, reference, profile='rfc3986')")]
pub fn resolve(
    base: &Bound<'_, PyAny>,
    reference: &Bound<'_, PyAny>,
    profile: Option<&Bound<'_, PyAny>>,
) -> PyResult<String> {
    let base = arg::borrowed("base", base)?;
    let reference = arg::borrowed("reference", reference)?;
    let profile = profile_arg(profile)?;
    linkbase::resolve(&base, &reference, profile).map_err(resolve_error)
}

/// The `profile=` argument.
fn profile_arg(value: Option<&Bound<'_, PyAny>>) -> PyResult<linkbase::Profile> {
    // Left out (or `None`): the default, without reading a name.
    match value.filter(|v| !v.is_none()) {
        None => Ok(linkbase::Profile::default()),
        Some(name) => self::profile(&arg::text("profile", name)?),
    }
}

/// A base URL parsed once, for resolving many references against it.
#[pyclass(frozen, module = "linkbase")]
pub struct Base {
    base: linkbase::Base,
}

#[pymethods]
impl Base {
    /// Parse `url` as a base under `profile`; raises `BaseError` (a
    /// `ValueError`) when it cannot be one.
    #[new]
    #[pyo3(signature = (url, profile=None), text_signature = "(url, profile='rfc3986')")]
    fn new(url: &Bound<'_, PyAny>, profile: Option<&Bound<'_, PyAny>>) -> PyResult<Base> {
        let url = arg::text("url", url)?;
        let profile = profile_arg(profile)?;
        let base =
            linkbase::Base::parse(&url, profile).map_err(|e| BaseError::new_err(e.to_string()))?;
        Ok(Base { base })
    }

    /// The base URL as given.
    #[getter]
    fn url(&self) -> &str {
        self.base.as_str()
    }

    /// The resolution profile's name.
    #[getter]
    fn profile(&self) -> &'static str {
        self.base.profile().name()
    }

    /// Is it hierarchical (can relative references resolve against it)?
    #[getter]
    fn is_hierarchical(&self) -> bool {
        self.base.is_hierarchical()
    }

    /// `reference` resolved against this base; raises `ResolveError`.
    fn resolve(&self, reference: &Bound<'_, PyAny>) -> PyResult<String> {
        let reference = arg::borrowed("reference", reference)?;
        self.base
            .resolve(&reference)
            .map(|r| r.url.into_owned())
            .map_err(resolve_error)
    }

    /// Does `reference` denote the current document (`#s`, the empty
    /// reference)? Raises `ResolveError` as `resolve` does.
    fn is_same_document(&self, reference: &Bound<'_, PyAny>) -> PyResult<bool> {
        let reference = arg::borrowed("reference", reference)?;
        self.base
            .resolve(&reference)
            .map(|r| r.same_document)
            .map_err(resolve_error)
    }

    /// Every reference of `references` resolved, in order, the GIL
    /// released; raises `ResolveError` for the first that cannot be.
    fn resolve_all(&self, py: Python<'_>, references: &Bound<'_, PyAny>) -> PyResult<Vec<String>> {
        if references.is_none() {
            return Err(arg::wrong("references", "a list of str", references));
        }
        let references = arg::texts("references", Some(references))?;
        let base = &self.base;
        py.detach(|| {
            references
                .iter()
                .map(|r| base.resolve(r).map(|r| r.url.into_owned()))
                .collect::<Result<Vec<_>, _>>()
        })
        .map_err(resolve_error)
    }

    fn __repr__(&self) -> String {
        format!(
            "Base({}, profile={})",
            crate::r(self.base.as_str()),
            crate::r(self.base.profile().name())
        )
    }

    fn __str__(&self) -> &str {
        self.base.as_str()
    }
}
