//! How many inputs a walk will yield, when that is known without reading
//! them: for a progress line's total and its time left.

use super::archive::{self, Kind, ZipDirectory};
use super::entries::{choose, Choice};
use super::plan::Plan;

/// The number of inputs the walk of `plan` yields, when every input named
/// is a file or a zip archive (whose directory says what is in it) with no
/// archive inside; `None` for a folder (listed only as the walk goes), a
/// 7z or tar archive (read in order), an archive inside a zip, or a path
/// that cannot be looked at.
pub fn known_total(plan: &Plan) -> Option<usize> {
    let mut total = 0;
    for path in &plan.inputs {
        if path.as_os_str() == "-" {
            total += 1;
            continue;
        }
        if std::fs::metadata(path).ok()?.is_dir() {
            return None;
        }
        match archive::kind_of(path) {
            None => total += 1,
            Some(Kind::Zip) => {
                let mut file = std::fs::File::open(path).ok()?;
                let directory = ZipDirectory::read(&mut file).ok()?;
                for index in 0..directory.len() {
                    match choose(&directory, index, &plan.filter) {
                        Choice::Input(_) => total += 1,
                        Choice::Archive(_) => return None,
                        Choice::Leave | Choice::MacOs => {}
                    }
                }
            }
            Some(_) => return None,
        }
    }
    Some(total)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::batch::archive::testkit::{zip, ZipEntry};
    use crate::batch::Filter;

    #[test]
    fn a_zips_directory_and_files_are_counted_and_a_folder_is_not() {
        let dir = crate::test_util::scratch::scratch("total");
        let entries = [
            ZipEntry::new("a/1.kif", "x"),
            ZipEntry::new("a/2.csa", "x"),
            ZipEntry::new("b/3.ki2", "x"),
            ZipEntry::new("notes.txt", "x"),
            ZipEntry::new("__MACOSX/a/._1.kif", "x"),
        ];
        let archive = dir.join("games.zip");
        std::fs::write(&archive, zip(&entries, b"", false)).unwrap();
        let single = dir.join("one.usi");
        std::fs::write(&single, "startpos\n").unwrap();
        let mut plan = Plan::new(vec![archive.clone(), single.clone()]);
        assert_eq!(known_total(&plan), Some(4));
        plan.filter = Filter::new(&["!b".to_string()]).unwrap();
        assert_eq!(known_total(&plan), Some(3));
        // A folder is listed only as the walk goes; an archive inside a zip
        // is read only then.
        assert_eq!(known_total(&Plan::new(vec![dir.clone()])), None);
        let nested = dir.join("nested.zip");
        let inner = ZipEntry::new("inner.zip", zip(&entries, b"", false));
        std::fs::write(&nested, zip(&[inner], b"", false)).unwrap();
        assert_eq!(known_total(&Plan::new(vec![nested])), None);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
