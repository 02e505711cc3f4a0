//! Which base applies, and why: the precedence of sections 5.1–5.4.

use crate::resolve::Base;
use std::fmt;

/// The rule that established a base URL.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum BaseRule {
    /// 5.1: an HTML `<base href>` element in the document.
    Embedded,
    /// The entity's own `Content-Base` header.
    ContentBase,
    /// The entity's own `Content-Location` header.
    ContentLocation,
    /// The entity's own legacy `Base:` (RFC 1808) or `Base-URL:` (1994 draft) header.
    LegacyBaseHeader,
    /// 5.2: inherited from the encapsulating entity.
    Enclosing,
    /// 5.3: the retrieval URL given by the caller ([`crate::Options::url`];
    /// `--url` or `--url-prefix` on the command line).
    Retrieval,
    /// 5.3: the archive's `Snapshot-Content-Location` (auto-detected).
    SnapshotContentLocation,
    /// 5.3: the `<!-- saved from url=(NNNN)… -->` comment of a saved page (auto-detected).
    SavedFromComment,
}

impl BaseRule {
    /// Short human label, used by `linkbase explain` and in messages.
    pub fn label(self) -> &'static str {
        match self {
            BaseRule::Embedded => "5.1 embedded <base href>",
            BaseRule::ContentBase => "header Content-Base",
            BaseRule::ContentLocation => "header Content-Location",
            BaseRule::LegacyBaseHeader => "header Base/Base-URL",
            BaseRule::Enclosing => "5.2 enclosing entity",
            BaseRule::Retrieval => "5.3 retrieval URL (--url)",
            BaseRule::SnapshotContentLocation => "5.3 retrieval URL (Snapshot-Content-Location)",
            BaseRule::SavedFromComment => "5.3 retrieval URL (saved-from comment)",
        }
    }
}

impl fmt::Display for BaseRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.label())
    }
}

/// A base URL together with the rule that established it.
///
/// Where there is no base at all (rule 5.4) callers hold `None`.
#[derive(Clone, Debug)]
pub struct EstablishedBase {
    /// The parsed base.
    pub base: Base,
    /// The rule that set it.
    pub rule: BaseRule,
}

impl EstablishedBase {
    /// Pair a parsed base with its rule.
    pub fn new(base: Base, rule: BaseRule) -> Self {
        EstablishedBase { base, rule }
    }

    /// The base URL text.
    pub fn url(&self) -> &str {
        self.base.as_str()
    }

    /// The same base, now inherited by an enclosed entity (rule 5.2).
    pub(crate) fn inherited(&self) -> Self {
        EstablishedBase {
            base: self.base.clone(),
            rule: BaseRule::Enclosing,
        }
    }
}
