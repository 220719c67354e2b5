//! Records written through the library's writer, as text: what a test
//! needs of a format's writer, taken from the public `kifconv::write`.

use kifconv::record::Record;
use kifconv::write::{write_files_read, write_read, Options, OutputEncoding};
use kifconv::Target;

/// The options every helper writes with: UTF-8, whatever the target, so
/// that the text can be compared and read back as text.
fn utf8() -> Options {
    let mut options = Options::default();
    options.encoding = Some(OutputEncoding::Utf8);
    options
}

/// One record as the file `target` gives it (KIF and KI2 declaring
/// UTF-8, JKF a pretty document, USI and SFEN a line ending in `\n`).
pub fn text(record: &Record, target: Target) -> String {
    let files = write_files_read(std::slice::from_ref(record), target, &utf8())
        .unwrap_or_else(|e| panic!("{target:?}: {e}"));
    assert_eq!(files.len(), 1, "{target:?}");
    String::from_utf8(files.into_iter().next().unwrap()).unwrap()
}

/// Every record as one stream of `target` (CSA games separated by `/`,
/// JKF as NDJSON, Western games a blank line apart).
pub fn stream(records: &[Record], target: Target) -> String {
    let bytes = write_read(records, target, &utf8()).unwrap_or_else(|e| panic!("{target:?}: {e}"));
    String::from_utf8(bytes).unwrap()
}

/// A record's USI position line, without its line end.
pub fn usi_line(record: &Record) -> String {
    let mut line = text(record, Target::Usi);
    assert_eq!(line.pop(), Some('\n'));
    line
}

#[test]
fn a_record_is_written_as_its_target_says() {
    let record = &kifconv::read_bytes(b"position startpos moves 7g7f 3c3d\n").unwrap()[0];
    assert_eq!(usi_line(record), "position startpos moves 7g7f 3c3d");
    assert!(text(record, Target::Kif).starts_with("#KIF version=2.0 encoding=UTF-8\n"));
    assert!(text(record, Target::Ki2).starts_with("#KI2 version=2.0 encoding=UTF-8\n"));
    assert!(text(record, Target::Jkf).starts_with("{\n"));
    let two = [record.clone(), record.clone()];
    assert_eq!(stream(&two, Target::Jkf).lines().count(), 2);
    assert_eq!(stream(&two, Target::Csa).matches("\n/\n").count(), 1);
}
