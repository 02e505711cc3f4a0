//! `-g/--glob`: which files a walk (`-r`) takes, with ripgrep's meaning.
//!
//! Each pattern is a glob (`globset`, ripgrep's matcher) over a file's path
//! under the folder walked; a pattern without `/` matches the file name at
//! any depth (`*.html`), one with `/` the whole path (`docs/**/*.html`). A
//! leading `!` excludes. When several patterns match, the last one given
//! wins; a file no pattern matches is taken unless some pattern includes
//! (then only included files are taken). An excluding pattern that matches
//! a folder on the way excludes everything under it (`!drafts`). Files named
//! on the command line are always taken, as in ripgrep.

use super::args::UsageError;
use globset::{GlobBuilder, GlobMatcher};
use std::path::Path;

/// The patterns, in the order given.
#[derive(Debug, Default)]
pub struct Globs {
    rules: Vec<Rule>,
}

#[derive(Debug)]
struct Rule {
    matcher: GlobMatcher,
    /// `false` for a `!` pattern.
    include: bool,
    /// No `/` in the pattern: matched against each name, not the path.
    by_name: bool,
}

impl Globs {
    /// Parse `patterns`; a malformed one is a usage error naming it.
    pub fn new(patterns: &[String]) -> Result<Globs, UsageError> {
        let rules = patterns
            .iter()
            .map(|pattern| {
                let (include, glob) = match pattern.strip_prefix('!') {
                    Some(rest) => (false, rest),
                    None => (true, pattern.as_str()),
                };
                let glob = glob.strip_prefix("./").unwrap_or(glob);
                let matcher = GlobBuilder::new(glob)
                    .literal_separator(true)
                    .build()
                    .map_err(|e| UsageError(format!("--glob {pattern}: {}", e.kind())))?
                    .compile_matcher();
                Ok(Rule {
                    matcher,
                    include,
                    by_name: !glob.contains('/'),
                })
            })
            .collect::<Result<_, UsageError>>()?;
        Ok(Globs { rules })
    }

    /// Were any patterns given?
    pub fn is_empty(&self) -> bool {
        self.rules.is_empty()
    }

    /// Does the walk take the file at `relative` (its path under the
    /// folder walked)?
    pub fn takes(&self, relative: &Path) -> bool {
        if self.rules.is_empty() {
            return true;
        }
        // A folder on the way that an excluding pattern matches (and no
        // later pattern takes back) excludes the file.
        let mut folder = relative.parent();
        while let Some(dir) = folder.filter(|d| !d.as_os_str().is_empty()) {
            if self.decision(dir) == Some(false) {
                return false;
            }
            folder = dir.parent();
        }
        match self.decision(relative) {
            Some(include) => include,
            None => !self.rules.iter().any(|r| r.include),
        }
    }

    /// The last pattern matching `path` decides: `Some(include)`.
    fn decision(&self, path: &Path) -> Option<bool> {
        let name = path.file_name().map(Path::new);
        self.rules
            .iter()
            .rev()
            .find(|rule| match (rule.by_name, name) {
                (true, Some(name)) => rule.matcher.is_match(name),
                _ => rule.matcher.is_match(path),
            })
            .map(|rule| rule.include)
    }
}

#[cfg(test)]
mod tests {
    use super::Globs;
    use std::path::Path;

    fn takes(patterns: &[&str], path: &str) -> bool {
        let patterns: Vec<String> = patterns.iter().map(|p| p.to_string()).collect();
        Globs::new(&patterns).unwrap().takes(Path::new(path))
    }

    #[test]
    fn patterns_include_exclude_and_the_last_one_wins() {
        let cases: [(&[&str], &str, bool); 12] = [
            (&[], "a/b.html", true),
            (&["*.html"], "a/b.html", true),
            (&["*.html"], "a/b.css", false),
            (&["!*.css"], "a/b.css", false),
            (&["!*.css"], "a/b.html", true),
            (&["*.html", "!draft*.html"], "a/draft1.html", false),
            (&["!draft*.html", "*.html"], "a/draft1.html", true),
            (&["docs/*.html"], "docs/a.html", true),
            (&["docs/*.html"], "docs/sub/a.html", false),
            (&["docs/**/*.html"], "docs/sub/a.html", true),
            (&["!drafts"], "drafts/x/a.html", false),
            (&["!drafts", "*.html"], "site/a.html", true),
        ];
        for (patterns, path, want) in cases {
            assert_eq!(takes(patterns, path), want, "{patterns:?} {path}");
        }
    }

    #[test]
    fn a_malformed_pattern_is_a_usage_error() {
        let e = Globs::new(&["a[".to_string()]).unwrap_err();
        assert_eq!(e.0, "--glob a[: unclosed character class; missing ']'");
    }
}
