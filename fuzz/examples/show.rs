//! Triage helper: shows what kifconv reads from a file (a fuzz artifact)
//! and what each writer makes of it.
//!
//!   cargo run --example show -- FILE [kif|ki2|csa|usi|western|jkf|sniff] [--round-trip]
//!
//! With `--round-trip` the first byte of the file selects the reader, as in
//! the round_trip target.

use kifconv::read::{read_bytes, Format};
use std::path::Path;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let path = args.first().expect("a file");
    let mut bytes = std::fs::read(path).expect("readable");
    let round_trip = args.iter().any(|a| a == "--round-trip");
    let format = if round_trip {
        kifconv_fuzz::format_for(bytes.remove(0))
    } else {
        match args.get(1).map(String::as_str) {
            Some("kif") => Some(Format::Kif),
            Some("ki2") => Some(Format::Ki2),
            Some("csa") => Some(Format::Csa),
            Some("usi") => Some(Format::Usi),
            Some("western") => Some(Format::Western),
            Some("jkf") => Some(Format::Jkf),
            _ => None,
        }
    };
    println!("format: {format:?}");
    match read_bytes(&bytes, Path::new("input"), format, Default::default()) {
        Err(e) => println!("error:\n{}", e.render("input")),
        Ok(read) => {
            for e in &read.errors {
                println!("game error:\n{}", e.render("input"));
            }
            for record in &read.records {
                let (usi, _) = kifconv_fuzz::write(record, kifconv_fuzz::Writer::Usi);
                print!("--- record: {usi}");
                let end = record.tree.mainline_end();
                println!("ending: {:?}", record.tree.node(end).ending);
                for w in &record.warnings {
                    println!("warning: {w}");
                }
                for writer in kifconv_fuzz::WRITERS {
                    let (text, _) = kifconv_fuzz::write(record, writer);
                    println!("--- {writer:?}\n{text}");
                }
            }
        }
    }
}
