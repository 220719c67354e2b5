//! The real records beside the checkout (`../shared/corpus`,
//! `../shared/bench`), found in one place.
//!
//! Where they are missing a test that needs them is skipped with a note;
//! with `KIFCONV_REQUIRE_SHARED=1` (CI sets it) it fails instead, so a CI
//! run without them cannot pass by skipping. `KIFCONV_SHARED` names
//! another folder in place of `../shared`.

use std::path::{Path, PathBuf};

/// The folder `sub` of the shared records (`"corpus"`, `"bench"`), or
/// `None` (after a note) when it is missing and not required. Panics when
/// it is missing and `KIFCONV_REQUIRE_SHARED=1`.
pub fn shared(sub: &str) -> Option<PathBuf> {
    let root = std::env::var_os("KIFCONV_SHARED").map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared"),
        PathBuf::from,
    );
    let required = std::env::var_os("KIFCONV_REQUIRE_SHARED").is_some_and(|v| v == "1");
    match locate(&root, sub, required) {
        Ok(Some(dir)) => Some(dir),
        Ok(None) => {
            let test = std::thread::current().name().unwrap_or("?").to_string();
            eprintln!(
                "note: {test}: {} not found; skipped (KIFCONV_REQUIRE_SHARED=1 makes this a failure)",
                root.join(sub).display()
            );
            None
        }
        Err(message) => panic!("{message}"),
    }
}

/// The decision behind [`shared`]: the folder when it exists; when it does
/// not, `None` or, if `required`, the message to fail with.
pub fn locate(root: &Path, sub: &str, required: bool) -> Result<Option<PathBuf>, String> {
    let dir = root.join(sub);
    if dir.is_dir() {
        Ok(Some(dir))
    } else if required {
        Err(format!(
            "{} is missing and KIFCONV_REQUIRE_SHARED=1: this test needs the shared records \
             (../shared beside the checkout, or KIFCONV_SHARED)",
            dir.display()
        ))
    } else {
        Ok(None)
    }
}

#[test]
fn a_present_folder_is_found_whether_required_or_not() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for required in [false, true] {
        assert_eq!(
            locate(root, "fixtures", required),
            Ok(Some(root.join("fixtures")))
        );
    }
}

#[test]
fn a_missing_folder_is_skipped_unless_required() {
    let root = Path::new("/nonexistent/kifconv-shared");
    assert_eq!(locate(root, "corpus", false), Ok(None));
    let message = locate(root, "corpus", true).unwrap_err();
    assert!(
        message.starts_with("/nonexistent/kifconv-shared/corpus is missing")
            && message.contains("KIFCONV_REQUIRE_SHARED=1"),
        "{message}"
    );
}

#[test]
fn a_file_is_not_the_folder() {
    // A file where the folder should be is as good as missing.
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    assert_eq!(locate(root, "Cargo.toml", false), Ok(None));
    assert!(locate(root, "Cargo.toml", true).is_err());
}
