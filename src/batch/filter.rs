//! `--glob`: which files a folder or archive yields.

use globset::GlobSet;
use std::path::Path;

/// Which files a folder or archive yields: `--glob` patterns (a file must
/// match one of the positive ones, if any, and none of the `!` ones),
/// matched against the path relative to the folder or archive.
#[derive(Clone, Debug, Default)]
pub struct Filter {
    include: Option<GlobSet>,
    exclude: Option<GlobSet>,
}

impl Filter {
    /// Builds the filter from `--glob` patterns; a bad pattern is a usage
    /// error.
    pub fn new(patterns: &[String]) -> Result<Filter, String> {
        let (mut include, mut exclude) = (
            globset::GlobSetBuilder::new(),
            globset::GlobSetBuilder::new(),
        );
        let (mut any_include, mut any_exclude) = (false, false);
        for pattern in patterns {
            let (negated, text) = match pattern.strip_prefix('!') {
                Some(rest) => (true, rest),
                None => (false, pattern.as_str()),
            };
            // Like ripgrep: a pattern without a `/` matches a name at any
            // depth.
            let text = if text.contains('/') {
                text.trim_start_matches('/').to_string()
            } else {
                format!("**/{text}")
            };
            let glob = globset::GlobBuilder::new(&text)
                .literal_separator(true)
                .build()
                .map_err(|e| format!("--glob {pattern}: {e}"))?;
            if negated {
                exclude.add(glob);
                any_exclude = true;
            } else {
                include.add(glob);
                any_include = true;
            }
        }
        let build = |b: globset::GlobSetBuilder, any: bool| -> Result<Option<GlobSet>, String> {
            if any {
                b.build().map(Some).map_err(|e| format!("--glob: {e}"))
            } else {
                Ok(None)
            }
        };
        Ok(Filter {
            include: build(include, any_include)?,
            exclude: build(exclude, any_exclude)?,
        })
    }

    /// Whether a file at `relative` (to its folder or archive) is taken.
    pub fn takes(&self, relative: &Path) -> bool {
        self.include.as_ref().is_none_or(|g| g.is_match(relative))
            && !self.exclude.as_ref().is_some_and(|g| g.is_match(relative))
    }
}

impl Filter {
    /// Whether a `!` pattern leaves `relative` out. For a folder, this
    /// prunes it: nothing under it is walked (as ripgrep does).
    pub fn excludes(&self, relative: &Path) -> bool {
        self.exclude.as_ref().is_some_and(|g| g.is_match(relative))
    }

    /// Whether an archive's entry at `relative` lies in a folder a `!`
    /// pattern prunes (an archive lists its entries' whole paths, not its
    /// folders).
    pub fn in_pruned_folder(&self, relative: &Path) -> bool {
        let Some(exclude) = &self.exclude else {
            return false;
        };
        relative
            .ancestors()
            .skip(1)
            .take_while(|folder| !folder.as_os_str().is_empty())
            .any(|folder| exclude.is_match(folder))
    }
}
