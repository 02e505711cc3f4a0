//! The crate's layering, enforced: each top-level module of the library may
//! use only the modules below it in the crate overview's order ([`layers`]:
//! the bullets of "Inside" in `crates/linkbase/src/lib.rs`, the one list).
//! Every `crate::…` and `super::…` path in `crates/linkbase/src/**/*.rs`
//! (comments and string literals aside) is mapped to the top-level module it
//! names — a root re-export (`crate::Profile`) to the module `lib.rs`
//! re-exports it from — and one that names a module at or above its own
//! fails the test, with the file, the line and the path. The command
//! (`src/main.rs`, `src/cli/`) is a crate of its own, which reaches the
//! library only through `linkbase::` (the crate boundary sees to it); its
//! modules are checked for import circles too.
//!
//! `LINKBASE_LAYERS_SRC=dir` checks another library tree (an older commit,
//! say: there `src/`, whose `cli` and `main` are skipped as the binary).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The library's top-level modules, lowest first: each knows only those
/// before it. The one list is the crate overview's ("Inside" in
/// `crates/linkbase/src/lib.rs`, of the tree checked): the modules named in backquotes at the
/// start of each of its bullets, before the first colon, in order.
fn layers() -> &'static [String] {
    static LAYERS: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    LAYERS.get_or_init(|| {
        let lib = std::fs::read_to_string(src_dir().join("lib.rs")).expect("crates/linkbase/src/lib.rs");
        let order = layer_order(&lib);
        assert!(
            !order.is_empty(),
            "crates/linkbase/src/lib.rs: no layer order found (a `## Inside` section of `//! - `module`: …` bullets)"
        );
        order
    })
}

/// The layer order in a crate root's text: see [`layers`].
fn layer_order(lib: &str) -> Vec<String> {
    let mut order = Vec::new();
    let mut inside = false;
    for line in lib.lines() {
        let Some(body) = line.strip_prefix("//!") else {
            continue;
        };
        let body = body.trim();
        if let Some(heading) = body.strip_prefix("## ") {
            inside = heading == "Inside";
        } else if let Some(bullet) = body.strip_prefix("- ").filter(|_| inside) {
            let head = bullet.split(':').next().unwrap_or_default();
            for (i, piece) in head.split('`').enumerate() {
                if i % 2 == 1 && is_ident(piece) {
                    order.push(piece.to_string());
                }
            }
        }
    }
    order
}

/// The tree checked: `src/`, or `LINKBASE_LAYERS_SRC`.
fn src_dir() -> PathBuf {
    match std::env::var_os("LINKBASE_LAYERS_SRC") {
        Some(dir) => PathBuf::from(dir),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("crates/linkbase/src"),
    }
}

/// The command's source (`src/`: `main.rs` and `cli/`), checked for import
/// circles only.
fn binary_src_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

#[test]
fn the_layer_order_is_the_crate_overviews() {
    let lib = "//! # x\n//! - `nowhere`: not in Inside\n//! ## Inside\n//!\n\
               //! - `quote`: how a message quotes\n//! - [`offline`]: copies (`not`: this)\n\
               //! - `css`, `html`, `xhtml`, in that order: the syntax\n//!   `wrapped`: no bullet\n\
               //! ## After\n//! - `after`: not in Inside\n";
    assert_eq!(
        layer_order(lib),
        ["quote", "offline", "css", "html", "xhtml"]
    );
    assert!(layers().iter().any(|l| l == "quote"));
}

/// The binary's modules, which are not layered.
const BINARY: [&str; 2] = ["cli", "main"];

#[test]
fn no_module_uses_one_above_it() {
    let src = src_dir();
    let mut problems = Vec::new();
    let modules = top_level_modules(&src);
    for m in &modules {
        if !layers().contains(m) && !BINARY.contains(&m.as_str()) {
            problems.push(format!(
                "crates/linkbase/src/{m}: a top-level module missing from the layer order (a bullet of \"Inside\" in crates/linkbase/src/lib.rs: place it in the order)"
            ));
        }
    }
    for layer in layers() {
        if !modules.iter().any(|m| m == layer) {
            problems.push(format!(
                "the layer order (crates/linkbase/src/lib.rs, \"Inside\") names `{layer}`, which is no module of crates/linkbase/src/"
            ));
        }
    }
    let lib = std::fs::read_to_string(src.join("lib.rs")).expect("crates/linkbase/src/lib.rs");
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
        let display = format!("crates/linkbase/src/{}", relative.display());
        problems.extend(violations(&display, &module, &text, &reexports));
    }
    assert!(
        problems.is_empty(),
        "the layering does not hold (order: {}):\n{}",
        layers().join(" → "),
        problems.join("\n")
    );
}

/// The checker itself: it must catch an upward import however it is
/// written, and nothing else.
#[test]
fn an_upward_import_is_caught_however_written() {
    let reexports = root_reexports(
        "pub use resolve::{Base, Profile};\npub use input::rewrite;\n\
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
        ("use", &["mime"][..], "use crate::input::rewrite;"),
        (
            "inline path",
            &["mime"],
            "fn f() { crate::input::rewrite(); }",
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
            "use super::dom; use crate::html::byte_edits;",
        ),
        (
            "comment",
            &["base"],
            "// crate::warc::x\n/* crate::input */ /// [`crate::warc`]",
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

/// No import circle anywhere: among the top-level modules of the library
/// (`crates/linkbase/src/`) and of the command (`src/`), and among the
/// modules of every folder (`html/`, `cli/`, …), no module uses, through any chain of its
/// siblings, one that uses it back. A module's parent (`mod.rs`) is not its
/// sibling: a parent declaring and calling its children, and children using
/// what the parent defines, is no circle; a name the parent only re-exports
/// (`pub(crate) use rewrite::Start`) counts as the child that defines it.
#[test]
fn no_import_circle() {
    let mut circles = Vec::new();
    for (src, shown_as) in [
        (src_dir(), "crates/linkbase/src"),
        (binary_src_dir(), "src"),
    ] {
        let mut paths = Vec::new();
        rust_files(&src, &mut paths);
        paths.sort();
        assert!(!paths.is_empty(), "no Rust file under {}", src.display());
        let files: Vec<SourceFile> = paths
            .iter()
            .map(|file| {
                let relative = file.strip_prefix(&src).unwrap();
                SourceFile {
                    display: format!("{shown_as}/{}", relative.display()),
                    module: module_path(relative),
                    text: std::fs::read_to_string(file).unwrap(),
                }
            })
            .collect();
        circles.extend(self::circles(&files));
    }
    assert!(
        circles.is_empty(),
        "import circles (each: the modules, and one import per step):\n{}",
        circles.join("\n")
    );
}

/// The checker itself: a circle is found however long, through a
/// re-export, from a test module; a parent and its child are no circle.
#[test]
fn an_import_circle_is_caught() {
    let file = |path: &str, text: &str| {
        let relative = Path::new(path);
        SourceFile {
            display: format!("src/{path}"),
            module: module_path(relative),
            text: text.to_string(),
        }
    };
    let three = [
        file(
            "html/mod.rs",
            "mod a; mod b; mod c;\npub(crate) use a::Start;\nfn f() { a::g(); }",
        ),
        file("html/a.rs", "use super::b::X;\npub struct Start;"),
        file("html/b.rs", "use crate::html::{c::{self, Y}};"),
        file("html/c.rs", "fn f(s: super::Start) {}"),
    ];
    let found = circles(&three);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].starts_with("html: a → b → c → a"), "{found:?}");
    let tested = [
        file(
            "cli/x.rs",
            "#[cfg(test)]\nmod tests { use super::super::y::f; }",
        ),
        file("cli/y.rs", "use super::x::g;"),
    ];
    assert_eq!(circles(&tested).len(), 1);
    let fine = [
        file(
            "html/mod.rs",
            "mod a; mod b;\npub struct Ctx;\nfn f() { a::g(); b::h(); }",
        ),
        file(
            "html/a.rs",
            "use super::Ctx; use super::b::h; // crate::html::a",
        ),
        file(
            "html/b.rs",
            "use super::Ctx; use crate::base::x; fn h() { let s = \"super::a\"; }",
        ),
        file("base.rs", "use crate::resolve::Base;"),
        file("resolve/mod.rs", "pub struct Base;"),
    ];
    assert_eq!(circles(&fine), Vec::<String>::new());
}

/// One file of the tree: where it is shown, its module path, its text.
struct SourceFile {
    display: String,
    module: Vec<String>,
    text: String,
}

/// Every import circle among sibling modules of `files`, one line each.
fn circles(files: &[SourceFile]) -> Vec<String> {
    use std::collections::BTreeSet;
    let modules: BTreeSet<Vec<String>> = files.iter().map(|f| f.module.clone()).collect();
    // The names each module re-exports, by the child that defines them.
    let mut reexported: BTreeMap<Vec<String>, BTreeMap<String, String>> = BTreeMap::new();
    for f in files {
        let children: BTreeSet<String> = modules
            .iter()
            .filter(|m| m.len() == f.module.len() + 1 && m.starts_with(&f.module))
            .map(|m| m.last().unwrap().clone())
            .collect();
        reexported.insert(f.module.clone(), child_reexports(&f.text, &children));
    }
    // Edges between siblings: (parent, from, to) → the first import seen.
    let mut edges: BTreeMap<(Vec<String>, String, String), String> = BTreeMap::new();
    for f in files {
        for (target, line) in imports(&f.module, &f.text) {
            let target = resolve_reexport(target, &modules, &reexported);
            // The deepest common parent of the two modules.
            let common = f
                .module
                .iter()
                .zip(&target)
                .take_while(|(a, b)| a == b)
                .count();
            if common >= f.module.len() || common >= target.len() {
                continue; // itself, its parent, or one of its own children
            }
            let parent = f.module[..common].to_vec();
            let (from, to) = (f.module[common].clone(), target[common].clone());
            let mut sibling = parent.clone();
            sibling.push(to.clone());
            if !modules.contains(&sibling) && !modules.iter().any(|m| m.starts_with(&sibling)) {
                continue; // an item of the parent, not a sibling module
            }
            edges
                .entry((parent, from, to))
                .or_insert_with(|| format!("{}:{line}", f.display));
        }
    }
    let parents: BTreeSet<Vec<String>> = edges.keys().map(|(p, _, _)| p.clone()).collect();
    let mut found = Vec::new();
    for parent in parents {
        let graph: BTreeMap<&str, Vec<&str>> = edges.keys().filter(|(p, _, _)| *p == parent).fold(
            BTreeMap::new(),
            |mut g, (_, a, b)| {
                g.entry(a.as_str()).or_default().push(b.as_str());
                g
            },
        );
        for component in strongly_connected(&graph) {
            if component.len() < 2 {
                continue;
            }
            let cycle = cycle_through(&graph, &component);
            let steps: Vec<String> = cycle
                .windows(2)
                .map(|w| {
                    let key = (parent.clone(), w[0].to_string(), w[1].to_string());
                    format!("{} → {} ({})", w[0], w[1], edges[&key])
                })
                .collect();
            let name = if parent.is_empty() {
                "src".to_string()
            } else {
                parent.join("/")
            };
            found.push(format!(
                "{name}: {} (modules in the circle: {}); {}",
                cycle.join(" → "),
                component.join(", "),
                steps.join("; ")
            ));
        }
    }
    found
}

/// The names `text` (a module whose child modules are `children`) re-exports
/// from a child: `pub use child::…`, `pub(crate) use self::child::{…}`.
fn child_reexports(
    text: &str,
    children: &std::collections::BTreeSet<String>,
) -> BTreeMap<String, String> {
    let tokens = tokens(&code_only(text));
    let mut names = BTreeMap::new();
    for (i, t) in tokens.iter().enumerate() {
        let before = tokens
            .get(i.wrapping_sub(1))
            .map_or("", |t| t.text.as_str());
        if t.text != "use" || !(before == "pub" || before == ")") {
            continue;
        }
        let mut at = i + 1;
        if tokens.get(at).is_some_and(|t| t.text == "self")
            && tokens.get(at + 1).is_some_and(|t| t.text == "::")
        {
            at += 2;
        }
        let Some(child) = tokens.get(at).filter(|t| children.contains(&t.text)) else {
            continue;
        };
        for (path, _) in path_at(&tokens, at, Vec::new()) {
            if let Some(last) = path.last().filter(|l| *l != &child.text) {
                names.insert(last.clone(), child.text.clone());
            }
        }
    }
    names
}

/// `target` with a name its module re-exports from a child replaced by
/// that child's path.
fn resolve_reexport(
    target: Vec<String>,
    modules: &std::collections::BTreeSet<Vec<String>>,
    reexported: &BTreeMap<Vec<String>, BTreeMap<String, String>>,
) -> Vec<String> {
    let known = (0..=target.len())
        .rev()
        .find(|&k| modules.contains(&target[..k]))
        .unwrap_or(0);
    match (target.get(known), reexported.get(&target[..known])) {
        (Some(name), Some(names)) if names.contains_key(name) => {
            let mut resolved = target[..known].to_vec();
            resolved.push(names[name].clone());
            resolved.extend_from_slice(&target[known..]);
            resolved
        }
        _ => target,
    }
}

/// Where a `crate::…`, `super::…` or `self::…` path starts in `tokens`
/// (of the module `module`, inline modules counted).
struct PathStart {
    /// The index of its first token (`crate`, `super` or `self`).
    at: usize,
    /// The index of the first token after its `crate::`, `self::` or
    /// `super::`s.
    rest: usize,
    /// The module it starts from: the crate root, this module (with the
    /// inline modules open around the path), less one level per `super`.
    base: Vec<String>,
}

/// Every path start in `tokens`, the file of the module `module`: the one
/// walk that both the layer check and the circle check read paths with.
fn path_starts(module: &[String], tokens: &[Token]) -> Vec<PathStart> {
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
        let starts_path = matches!(t.text.as_str(), "crate" | "super" | "self")
            && tokens.get(i + 1).is_some_and(|n| n.text == "::")
            && (i == 0 || tokens[i - 1].text != "::");
        if !starts_path {
            i += 1;
            continue;
        }
        let mut here: Vec<String> = module.to_vec();
        here.extend(inline.iter().map(|(_, name)| name.clone()));
        let mut j = i;
        let base = match t.text.as_str() {
            "crate" => {
                j += 2;
                Vec::new()
            }
            "self" => {
                j += 2;
                here
            }
            _ => {
                while tokens.get(j).is_some_and(|t| t.text == "super")
                    && tokens.get(j + 1).is_some_and(|t| t.text == "::")
                {
                    here.pop();
                    j += 2;
                }
                here
            }
        };
        found.push(PathStart {
            at: i,
            rest: j,
            base,
        });
        i = j.max(i + 1);
    }
    found
}

/// Every `crate::…`, `super::…` and `self::…` path in `text` (of the module
/// `module`), as an absolute path, with its line.
fn imports(module: &[String], text: &str) -> Vec<(Vec<String>, usize)> {
    let tokens = tokens(&code_only(text));
    let mut found = Vec::new();
    for start in path_starts(module, &tokens) {
        found.extend(path_at(&tokens, start.rest, start.base));
    }
    // Inline modules are part of their file: a path into one is the file.
    found
        .into_iter()
        .map(|(mut path, line)| {
            if path.starts_with(module) && path.len() > module.len() {
                let inner = inline_names(text);
                if inner.contains(&path[module.len()]) {
                    path.truncate(module.len());
                }
            }
            (path, line)
        })
        .collect()
}

/// The names of the inline modules (`mod tests { … }`) of `text`.
fn inline_names(text: &str) -> Vec<String> {
    let tokens = tokens(&code_only(text));
    tokens
        .windows(3)
        .filter(|w| w[0].text == "mod" && is_ident(&w[1].text) && w[2].text == "{")
        .map(|w| w[1].text.clone())
        .collect()
}

/// The paths starting at `tokens[at]` under `prefix`: one, or one per item
/// of a `{…}` group (nested groups too), each with its line.
fn path_at(tokens: &[Token], at: usize, prefix: Vec<String>) -> Vec<(Vec<String>, usize)> {
    let mut path = prefix;
    let mut j = at;
    loop {
        let Some(t) = tokens.get(j) else {
            return Vec::new();
        };
        if t.text == "{" {
            let mut out = Vec::new();
            let mut depth = 0;
            let mut item_start = true;
            for k in j..tokens.len() {
                match tokens[k].text.as_str() {
                    "{" => {
                        depth += 1;
                        if depth == 1 {
                            continue;
                        }
                    }
                    "}" => {
                        depth -= 1;
                        if depth == 0 {
                            break;
                        }
                    }
                    "," if depth == 1 => {
                        item_start = true;
                        continue;
                    }
                    _ => {}
                }
                if depth == 1 && item_start {
                    item_start = false;
                    if tokens[k].text == "self" {
                        out.push((path.clone(), tokens[k].line));
                    } else {
                        out.extend(path_at(tokens, k, path.clone()));
                    }
                }
            }
            return out;
        }
        if !is_ident(&t.text) || t.text == "self" {
            return vec![(path, t.line)];
        }
        path.push(t.text.clone());
        if tokens.get(j + 1).is_some_and(|n| n.text == "::") {
            j += 2;
        } else {
            return vec![(path, t.line)];
        }
    }
}

/// The strongly connected components of `graph` (Tarjan), each sorted.
fn strongly_connected<'a>(graph: &BTreeMap<&'a str, Vec<&'a str>>) -> Vec<Vec<&'a str>> {
    struct State<'a> {
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        on_stack: std::collections::BTreeSet<&'a str>,
        out: Vec<Vec<&'a str>>,
    }
    fn visit<'a>(v: &'a str, graph: &BTreeMap<&'a str, Vec<&'a str>>, s: &mut State<'a>) {
        let n = s.index.len();
        s.index.insert(v, n);
        s.low.insert(v, n);
        s.stack.push(v);
        s.on_stack.insert(v);
        for &w in graph.get(v).into_iter().flatten() {
            if !s.index.contains_key(w) {
                visit(w, graph, s);
                let low = s.low[v].min(s.low[w]);
                s.low.insert(v, low);
            } else if s.on_stack.contains(w) {
                let low = s.low[v].min(s.index[w]);
                s.low.insert(v, low);
            }
        }
        if s.low[v] == s.index[v] {
            let mut component = Vec::new();
            while let Some(w) = s.stack.pop() {
                s.on_stack.remove(w);
                component.push(w);
                if w == v {
                    break;
                }
            }
            component.sort();
            s.out.push(component);
        }
    }
    let mut s = State {
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: Default::default(),
        out: Vec::new(),
    };
    for &v in graph.keys() {
        if !s.index.contains_key(v) {
            visit(v, graph, &mut s);
        }
    }
    s.out
}

/// One circle through the first module of `component` (a shortest one,
/// breadth first within the component), ending where it starts.
fn cycle_through<'a>(
    graph: &BTreeMap<&'a str, Vec<&'a str>>,
    component: &[&'a str],
) -> Vec<&'a str> {
    let start = component[0];
    let mut came_from: BTreeMap<&str, &str> = BTreeMap::new();
    let mut queue = std::collections::VecDeque::from([start]);
    while let Some(v) = queue.pop_front() {
        for &w in graph.get(v).into_iter().flatten() {
            if !component.contains(&w) {
                continue;
            }
            if w == start {
                let mut path = vec![v];
                while let Some(&before) = came_from.get(path.last().unwrap()) {
                    path.push(before);
                }
                if path.last() != Some(&start) {
                    path.push(start);
                }
                path.reverse();
                path.push(start);
                return path;
            }
            if let std::collections::btree_map::Entry::Vacant(e) = came_from.entry(w) {
                e.insert(v);
                queue.push_back(w);
            }
        }
    }
    component.to_vec()
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

/// The names `crates/linkbase/src/lib.rs` re-exports (`pub use module::…`), and from which
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
    let rank = |m: &str| layers().iter().position(|l| l == m);
    let tokens = tokens(&code_only(text));
    let mut found = Vec::new();
    // `self::…` stays inside this module: no layer is crossed.
    for start in path_starts(module, &tokens) {
        let t = &tokens[start.at];
        if t.text == "self" {
            continue;
        }
        let (j, base) = (start.rest, start.base);
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
                _ => false, // reported as missing from the layer order
            };
            if upward {
                found.push(format!(
                    "{file}:{}: {own} uses {target} (`{}::{}`), which is not below it",
                    head.line, t.text, head.text
                ));
            }
        }
    }
    found
}

fn top_level(name: &str) -> bool {
    layers().iter().any(|l| l == name) || BINARY.contains(&name)
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
