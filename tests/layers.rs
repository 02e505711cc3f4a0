//! The crate's layering, enforced: each top-level module of the library may
//! use only the modules below it in [`LAYERS`] (the order the crate overview
//! in `src/lib.rs` and the README's Design section describe). Every
//! `crate::…` and `super::…` path in `src/**/*.rs` (comments and string
//! literals aside) is mapped to the top-level module it names — a root
//! re-export (`crate::Profile`) to the module `src/lib.rs` re-exports it
//! from — and one that names a module at or above its own fails the test,
//! with the file, the line and the path. `src/cli/` and `src/main.rs` are the
//! binary: they may use everything public.
//!
//! `LINKBASE_LAYERS_SRC=dir` checks another tree (an older commit, say).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The library's top-level modules, lowest first: each knows only those
/// before it.
const LAYERS: [&str; 16] = [
    "splice",
    "resolve",
    "base",
    "report",
    "options",
    "policy",
    "css",
    "html",
    "xhtml",
    "mime",
    "planned",
    "warc",
    "document",
    "explain",
    "fuzzing",
    "doc_example_tests",
];

/// The binary's modules, which are not layered.
const BINARY: [&str; 2] = ["cli", "main"];

#[test]
fn no_module_uses_one_above_it() {
    let src = match std::env::var_os("LINKBASE_LAYERS_SRC") {
        Some(dir) => PathBuf::from(dir),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("src"),
    };
    let mut problems = Vec::new();
    let modules = top_level_modules(&src);
    for m in &modules {
        if !LAYERS.contains(&m.as_str()) && !BINARY.contains(&m.as_str()) {
            problems.push(format!(
                "src/{m}: a top-level module missing from LAYERS in tests/layers.rs (place it in the order)"
            ));
        }
    }
    for layer in LAYERS {
        if !modules.iter().any(|m| m == layer) {
            problems.push(format!(
                "LAYERS names `{layer}`, which is no module of src/"
            ));
        }
    }
    let lib = std::fs::read_to_string(src.join("lib.rs")).expect("src/lib.rs");
    let reexports = root_reexports(&lib);
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    files.sort();
    for file in files {
        let relative = file.strip_prefix(&src).unwrap().to_path_buf();
        let module = module_path(&relative);
        if module.is_empty() || BINARY.contains(&module[0].as_str()) {
            continue;
        }
        let text = std::fs::read_to_string(&file).unwrap();
        let display = format!("src/{}", relative.display());
        problems.extend(violations(&display, &module, &text, &reexports));
    }
    assert!(
        problems.is_empty(),
        "the layering does not hold (order: {}):\n{}",
        LAYERS.join(" → "),
        problems.join("\n")
    );
}

/// The checker itself: it must catch an upward import however it is
/// written, and nothing else.
#[test]
fn an_upward_import_is_caught_however_written() {
    let reexports = root_reexports(
        "pub use resolve::{Base, Profile};\npub use document::rewrite;\n\
         pub(crate) use crate::options::Options;",
    );
    let module = |m: &[&str]| m.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let check = |file: &str, m: &[&str], text: &str| {
        violations(file, &module(m), text, &reexports)
            .into_iter()
            .map(|v| v.split(": ").nth(1).unwrap_or_default().to_string())
            .collect::<Vec<_>>()
    };
    let caught = [
        ("use", &["mime"][..], "use crate::document::rewrite;"),
        (
            "inline path",
            &["mime"],
            "fn f() { crate::document::rewrite(); }",
        ),
        (
            "grouped",
            &["css", "charset"],
            "use crate::{base::X, html::charset::Charset};",
        ),
        (
            "nested group",
            &["css"],
            "use crate::{\n    base::{A, B},\n    warc::Y,\n};",
        ),
        (
            "root re-export",
            &["options"],
            "fn f() -> crate::rewrite {}",
        ),
        (
            "super chain",
            &["html", "rewrite"],
            "use super::super::mime::walk;",
        ),
        (
            "from a test module",
            &["base"],
            "mod tests { use crate::policy::X; }",
        ),
        (
            "its own layer's sibling is no lower",
            &["html"],
            "use crate::xhtml::x;",
        ),
    ];
    for (case, m, text) in caught {
        assert_eq!(check("src/x.rs", m, text).len(), 1, "case {case}: {text}");
    }
    let allowed = [
        (
            "downward",
            &["mime"][..],
            "use crate::{html, base::EstablishedBase};",
        ),
        (
            "own module",
            &["html", "rewrite"],
            "use super::dom; use crate::html::splice;",
        ),
        (
            "comment",
            &["base"],
            "// crate::warc::x\n/* crate::document */ /// [`crate::warc`]",
        ),
        (
            "string",
            &["base"],
            "let s = \"crate::warc::x // \"; let c = '\"';",
        ),
        ("raw string", &["base"], "let s = r#\"crate::warc \"# ;"),
        (
            "lifetime",
            &["base"],
            "fn f<'a>(x: &'a str) {} // crate::warc",
        ),
        (
            "inline module's super",
            &["base"],
            "mod tests { use super::establish; }",
        ),
        ("root re-export below", &["policy"], "use crate::Profile;"),
        (
            "crate-visible re-export",
            &["policy"],
            "use crate::Options;",
        ),
    ];
    for (case, m, text) in allowed {
        assert_eq!(
            check("src/x.rs", m, text),
            Vec::<String>::new(),
            "case {case}: {text}"
        );
    }
    let unknown = check("src/x.rs", &["base"], "use crate::Nowhere;");
    assert_eq!(unknown.len(), 1, "an unknown root name is reported");
}

/// The top-level modules of `src`: its directories and its `.rs` files.
fn top_level_modules(src: &Path) -> Vec<String> {
    let mut modules: Vec<String> = std::fs::read_dir(src)
        .expect("src/")
        .filter_map(|e| {
            let e = e.ok()?;
            let name = e.file_name().into_string().ok()?;
            if e.path().is_dir() {
                Some(name)
            } else {
                let stem = name.strip_suffix(".rs")?;
                (stem != "lib").then(|| stem.to_string())
            }
        })
        .collect();
    modules.sort();
    modules
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The module path of a file relative to `src/` (`html/rewrite.rs` →
/// `[html, rewrite]`; `html/mod.rs` → `[html]`; `lib.rs` → `[]`).
fn module_path(relative: &Path) -> Vec<String> {
    let mut parts: Vec<String> = relative
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    let last = parts.pop().unwrap();
    let stem = last.strip_suffix(".rs").unwrap_or(&last);
    if stem != "mod" && stem != "lib" {
        parts.push(stem.to_string());
    }
    parts
}

/// The names `src/lib.rs` re-exports (`pub use module::…`), and from which
/// top-level module.
fn root_reexports(lib: &str) -> BTreeMap<String, String> {
    let mut names = BTreeMap::new();
    let tokens = tokens(&code_only(lib));
    let text = |i: usize| tokens.get(i).map_or("", |t: &Token| t.text.as_str());
    for (i, t) in tokens.iter().enumerate() {
        // `pub use`, `pub(crate) use`; the path may start with `crate::`.
        if t.text != "use" || !(text(i.wrapping_sub(1)) == "pub" || text(i.wrapping_sub(1)) == ")")
        {
            continue;
        }
        let mut at = i + 1;
        if matches!(text(at), "crate" | "self") && text(at + 1) == "::" {
            at += 2;
        }
        let module = text(at).to_string();
        let end = (at..tokens.len())
            .find(|&j| text(j) == ";")
            .unwrap_or(tokens.len());
        for t in &tokens[at + 1..end] {
            if is_ident(&t.text) && t.text != "self" {
                names.insert(t.text.clone(), module.clone());
            }
        }
    }
    names
}

/// The upward imports in `text`, the file `file` of the module `module`.
fn violations(
    file: &str,
    module: &[String],
    text: &str,
    reexports: &BTreeMap<String, String>,
) -> Vec<String> {
    let own = module[0].as_str();
    let rank = |m: &str| LAYERS.iter().position(|l| *l == m);
    let tokens = tokens(&code_only(text));
    let mut found = Vec::new();
    // Inline modules open around the current token: (brace depth inside, name).
    let mut inline: Vec<(usize, String)> = Vec::new();
    let mut depth = 0usize;
    let mut i = 0;
    while i < tokens.len() {
        let t = &tokens[i];
        match t.text.as_str() {
            "{" => {
                depth += 1;
                if i >= 2 && tokens[i - 2].text == "mod" && is_ident(&tokens[i - 1].text) {
                    inline.push((depth, tokens[i - 1].text.clone()));
                }
            }
            "}" => {
                if inline.last().is_some_and(|(d, _)| *d == depth) {
                    inline.pop();
                }
                depth = depth.saturating_sub(1);
            }
            _ => {}
        }
        let starts_path = (t.text == "crate" || t.text == "super")
            && tokens.get(i + 1).is_some_and(|n| n.text == "::")
            && (i == 0 || tokens[i - 1].text != "::");
        if !starts_path {
            i += 1;
            continue;
        }
        // Where the path starts: the crate root, or this module less one
        // level per `super`.
        let mut here: Vec<String> = module.to_vec();
        here.extend(inline.iter().map(|(_, name)| name.clone()));
        let mut j = i;
        let base: Vec<String> = if t.text == "crate" {
            j += 2;
            Vec::new()
        } else {
            while tokens.get(j).is_some_and(|t| t.text == "super")
                && tokens.get(j + 1).is_some_and(|t| t.text == "::")
            {
                here.pop();
                j += 2;
            }
            here
        };
        let firsts: Vec<&Token> = match tokens.get(j) {
            Some(open) if open.text == "{" => group_heads(&tokens, j),
            Some(name) => vec![name],
            None => Vec::new(),
        };
        for head in firsts {
            let target = match base.first() {
                Some(top) => Some(top.clone()),
                None if !is_ident(&head.text) || head.text == "self" => None,
                None if top_level(&head.text) => Some(head.text.clone()),
                None => match reexports.get(&head.text) {
                    Some(m) => Some(m.clone()),
                    None => {
                        found.push(format!(
                            "{file}:{}: `{}::{}` names no module and no root re-export",
                            head.line, t.text, head.text
                        ));
                        None
                    }
                },
            };
            let Some(target) = target else { continue };
            if target == own || BINARY.contains(&target.as_str()) {
                continue;
            }
            let upward = match (rank(own), rank(&target)) {
                (Some(o), Some(t)) => t >= o,
                _ => false, // reported as missing from LAYERS
            };
            if upward {
                found.push(format!(
                    "{file}:{}: {own} uses {target} (`{}::{}`), which is not below it",
                    head.line, t.text, head.text
                ));
            }
        }
        i = j.max(i + 1);
    }
    found
}

fn top_level(name: &str) -> bool {
    LAYERS.contains(&name) || BINARY.contains(&name)
}

/// The first name of each item of the `{…}` group opening at `open`.
fn group_heads(tokens: &[Token], open: usize) -> Vec<&Token> {
    let mut heads = Vec::new();
    let mut depth = 0;
    let mut expect_head = true;
    for t in &tokens[open..] {
        match t.text.as_str() {
            "{" => {
                depth += 1;
                continue;
            }
            "}" => {
                depth -= 1;
                if depth == 0 {
                    break;
                }
                continue;
            }
            "," if depth == 1 => {
                expect_head = true;
                continue;
            }
            _ => {}
        }
        if depth == 1 && expect_head {
            heads.push(t);
            expect_head = false;
        }
    }
    heads
}

fn is_ident(s: &str) -> bool {
    s.chars()
        .next()
        .is_some_and(|c| c.is_alphabetic() || c == '_')
        && s.chars().all(|c| c.is_alphanumeric() || c == '_')
}

struct Token {
    text: String,
    line: usize,
}

/// Identifiers, `::` and single punctuation characters, with their lines.
fn tokens(code: &str) -> Vec<Token> {
    let chars: Vec<char> = code.chars().collect();
    let mut out = Vec::new();
    let mut line = 1;
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c == '\n' {
            line += 1;
            i += 1;
        } else if c.is_whitespace() {
            i += 1;
        } else if c.is_alphanumeric() || c == '_' {
            let start = i;
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            out.push(Token {
                text: chars[start..i].iter().collect(),
                line,
            });
        } else if c == ':' && chars.get(i + 1) == Some(&':') {
            out.push(Token {
                text: "::".into(),
                line,
            });
            i += 2;
        } else {
            out.push(Token {
                text: c.to_string(),
                line,
            });
            i += 1;
        }
    }
    out
}

/// `text` with its comments and the contents of its string and character
/// literals blanked (line breaks kept, so that lines still count).
fn code_only(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let blank = |out: &mut String, c: char| out.push(if c == '\n' { '\n' } else { ' ' });
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            let mut depth = 0;
            while i < chars.len() {
                if chars[i] == '/' && chars.get(i + 1) == Some(&'*') {
                    depth += 1;
                    i += 2;
                } else if chars[i] == '*' && chars.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    blank(&mut out, chars[i]);
                    i += 1;
                }
            }
        } else if c == 'r'
            && (next == Some('"') || next == Some('#'))
            && (i == 0
                || chars[i - 1] == 'b'
                || !(chars[i - 1].is_alphanumeric() || chars[i - 1] == '_'))
            && raw_string_start(&chars, i + 1).is_some()
        {
            let (hashes, body) = raw_string_start(&chars, i + 1).unwrap();
            let close: String = std::iter::once('"')
                .chain(std::iter::repeat_n('#', hashes))
                .collect();
            let close: Vec<char> = close.chars().collect();
            out.push_str("r\"");
            i = body;
            while i < chars.len() && !chars[i..].starts_with(&close) {
                blank(&mut out, chars[i]);
                i += 1;
            }
            out.push('"');
            i += close.len();
        } else if c == '"' {
            out.push('"');
            i += 1;
            while i < chars.len() && chars[i] != '"' {
                if chars[i] == '\\' {
                    blank(&mut out, chars[i]);
                    i += 1;
                }
                if i < chars.len() {
                    blank(&mut out, chars[i]);
                    i += 1;
                }
            }
            out.push('"');
            i += 1;
        } else if c == '\'' {
            // A character literal (`'x'`, `'\n'`, `'"'`), else a lifetime.
            if next == Some('\\') {
                let end = chars
                    .get(i + 3..)
                    .and_then(|r| r.iter().position(|&c| c == '\''));
                out.push_str("' '");
                i = end.map_or(chars.len(), |e| i + 3 + e + 1);
            } else if chars.get(i + 2) == Some(&'\'') {
                out.push_str("' '");
                i += 3;
            } else {
                out.push(c);
                i += 1;
            }
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

/// After an `r` at `chars[at - 1]`: the number of `#` and where the body
/// starts, when a raw string starts there.
fn raw_string_start(chars: &[char], at: usize) -> Option<(usize, usize)> {
    let hashes = chars[at..].iter().take_while(|&&c| c == '#').count();
    (chars.get(at + hashes) == Some(&'"')).then_some((hashes, at + hashes + 1))
}
