//! Every argument a caller gives, read here: a value of the wrong type is a
//! `TypeError` that names the argument, says what it takes and what it got
//! (`url: expected str or None, got int`), the same words for every entry
//! point. (PyO3's own extraction says only `'int' object is not an
//! instance of 'str'`, the argument's name in a note of the traceback.)
//!
//! The entry points take their arguments as `Bound<PyAny>` (or
//! `Option<…>`, `None` standing for the default) and read them with these.

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::pybacked::{PyBackedBytes, PyBackedStr};
use pyo3::types::{PyBool, PyByteArray, PyBytes, PyInt, PyString};
use std::path::PathBuf;

/// The name of `value`'s type, as `type(value).__name__` gives it.
pub fn type_name(value: &Bound<'_, PyAny>) -> String {
    value
        .get_type()
        .name()
        .map_or_else(|_| "?".to_string(), |name| name.to_string())
}

/// The `TypeError` for argument `name`, which takes `expected` and was
/// given `value`.
pub fn wrong(name: &str, expected: &str, value: &Bound<'_, PyAny>) -> PyErr {
    PyTypeError::new_err(format!(
        "{name}: expected {expected}, got {}",
        type_name(value)
    ))
}

/// A `str` argument.
pub fn text(name: &str, value: &Bound<'_, PyAny>) -> PyResult<String> {
    match value.cast::<PyString>() {
        Ok(text) => Ok(text.to_cow()?.into_owned()),
        Err(_) => Err(wrong(name, "str", value)),
    }
}

/// A `str` argument, borrowed from Python (not copied where the
/// interpreter lends its UTF-8): for the calls made once per URL.
pub fn borrowed(name: &str, value: &Bound<'_, PyAny>) -> PyResult<PyBackedStr> {
    match value.cast::<PyString>() {
        Ok(text) => PyBackedStr::try_from(text.clone()),
        Err(_) => Err(wrong(name, "str", value)),
    }
}

/// A `str` argument with a default (`None` or left out: the default).
pub fn text_or(name: &str, value: Option<&Bound<'_, PyAny>>, default: &str) -> PyResult<String> {
    match value.filter(|v| !v.is_none()) {
        None => Ok(default.to_string()),
        Some(value) => text(name, value),
    }
}

/// A `str` or `None` argument.
pub fn opt_text(name: &str, value: Option<&Bound<'_, PyAny>>) -> PyResult<Option<String>> {
    match value.filter(|v| !v.is_none()) {
        None => Ok(None),
        Some(value) => match value.cast::<PyString>() {
            Ok(text) => Ok(Some(text.to_cow()?.into_owned())),
            Err(_) => Err(wrong(name, "str or None", value)),
        },
    }
}

/// A `bool` argument (`True` or `False`, not any truthy value).
pub fn flag(name: &str, value: Option<&Bound<'_, PyAny>>, default: bool) -> PyResult<bool> {
    match value.filter(|v| !v.is_none()) {
        None => Ok(default),
        Some(value) => match value.cast::<PyBool>() {
            Ok(b) => Ok(b.is_true()),
            Err(_) => Err(wrong(name, "bool", value)),
        },
    }
}

/// A `bool` or `None` argument.
pub fn opt_flag(name: &str, value: Option<&Bound<'_, PyAny>>) -> PyResult<Option<bool>> {
    match value.filter(|v| !v.is_none()) {
        None => Ok(None),
        Some(value) => match value.cast::<PyBool>() {
            Ok(b) => Ok(Some(b.is_true())),
            Err(_) => Err(wrong(name, "bool or None", value)),
        },
    }
}

/// A whole number `>= 0` (not a `bool`), or `None`.
pub fn opt_size(name: &str, value: Option<&Bound<'_, PyAny>>) -> PyResult<Option<u64>> {
    let Some(value) = value.filter(|v| !v.is_none()) else {
        return Ok(None);
    };
    if value.is_instance_of::<PyBool>() || !value.is_instance_of::<PyInt>() {
        return Err(wrong(name, "int or None", value));
    }
    value.extract::<u64>().map(Some).map_err(|_| {
        PyValueError::new_err(format!(
            "{name}: expected a whole number of bytes, 0 or more, got {}",
            value
                .repr()
                .map_or_else(|_| "?".to_string(), |r| r.to_string())
        ))
    })
}

/// A list (any iterable) of `str`, not a `str` itself (whose letters would
/// be taken one by one).
pub fn texts(name: &str, value: Option<&Bound<'_, PyAny>>) -> PyResult<Vec<String>> {
    const WHAT: &str = "a list of str";
    let Some(value) = value.filter(|v| !v.is_none()) else {
        return Ok(Vec::new());
    };
    if value.is_instance_of::<PyString>()
        || value.is_instance_of::<PyBytes>()
        || value.is_instance_of::<PyByteArray>()
    {
        return Err(wrong(name, WHAT, value));
    }
    let items = value.try_iter().map_err(|_| wrong(name, WHAT, value))?;
    let mut out = Vec::new();
    for item in items {
        let item = item?;
        match item.cast::<PyString>() {
            Ok(text) => out.push(text.to_cow()?.into_owned()),
            Err(_) => {
                return Err(PyTypeError::new_err(format!(
                    "{name}: expected {WHAT}, got a {} holding {}",
                    type_name(value),
                    type_name(&item)
                )))
            }
        }
    }
    Ok(out)
}

/// A path: `str` or `os.PathLike`.
pub fn path(name: &str, value: &Bound<'_, PyAny>) -> PyResult<PathBuf> {
    path_of(value).ok_or_else(|| wrong(name, "a path (str or os.PathLike)", value))
}

fn path_of(value: &Bound<'_, PyAny>) -> Option<PathBuf> {
    // A `str` or what `os.fspath` makes a `str` of; not `bytes` (which
    // would be taken for the path's bytes where a list is natural).
    if value.is_instance_of::<PyBytes>() || value.is_instance_of::<PyByteArray>() {
        return None;
    }
    value.extract::<PathBuf>().ok()
}

/// One path (`str` or `os.PathLike`), or a list (any iterable) of them.
pub fn paths(name: &str, value: &Bound<'_, PyAny>) -> PyResult<Vec<PathBuf>> {
    const WHAT: &str = "a path (str or os.PathLike) or a list of paths";
    if let Some(one) = path_of(value) {
        return Ok(vec![one]);
    }
    if value.is_instance_of::<PyBytes>() || value.is_instance_of::<PyByteArray>() {
        return Err(wrong(name, WHAT, value));
    }
    let items = value.try_iter().map_err(|_| wrong(name, WHAT, value))?;
    let mut out = Vec::new();
    for item in items {
        let item = item?;
        match path_of(&item) {
            Some(path) => out.push(path),
            None => {
                return Err(PyTypeError::new_err(format!(
                    "{name}: expected {WHAT}, got a {} holding {}",
                    type_name(value),
                    type_name(&item)
                )))
            }
        }
    }
    Ok(out)
}

/// What a bytes-like argument takes, in its messages.
pub const BYTES_LIKE: &str = "a bytes-like object (bytes, bytearray, memoryview, mmap…)";

/// The bytes of a bytes-like object: `bytes` borrowed; a `bytearray` or
/// any other object of the buffer protocol (`memoryview`, `mmap`,
/// `array.array`…) copied once (the stable ABI of CPython 3.9, which the
/// wheel is built for, has no borrowed buffer before 3.11). `None` when
/// `value` is not one.
pub fn bytes_like(value: &Bound<'_, PyAny>) -> PyResult<Option<PyBackedBytes>> {
    if let Ok(bytes) = value.cast::<PyBytes>() {
        return Ok(Some(PyBackedBytes::from(bytes.clone())));
    }
    if value.is_instance_of::<PyByteArray>() {
        return Ok(Some(value.extract::<PyBackedBytes>()?));
    }
    if value.is_instance_of::<PyString>() {
        return Ok(None);
    }
    // `memoryview(value)` succeeds for exactly the objects of the buffer
    // protocol; `tobytes()` copies them in C order (any shape, any item).
    let py = value.py();
    let memoryview = py.import("builtins")?.getattr("memoryview")?;
    let Ok(view) = memoryview.call1((value,)) else {
        return Ok(None);
    };
    let copy = view.call_method0("tobytes")?;
    view.call_method0("release")?;
    let copy = copy.cast_into::<PyBytes>().map_err(PyErr::from)?;
    Ok(Some(PyBackedBytes::from(copy)))
}

/// A bytes-like argument, or `None`.
pub fn opt_bytes(name: &str, value: Option<&Bound<'_, PyAny>>) -> PyResult<Option<PyBackedBytes>> {
    match value.filter(|v| !v.is_none()) {
        None => Ok(None),
        Some(value) => match bytes_like(value)? {
            Some(bytes) => Ok(Some(bytes)),
            None => Err(wrong(name, &format!("{BYTES_LIKE} or None"), value)),
        },
    }
}
