//! The shape of the crate's source, checked: no file over 900 lines of
//! code, the layer order of [`LAYERS`] kept by every import, and no cycle
//! of imports, neither between files nor between top-level folders.
//!
//! Imports are read from the text: every `crate::…` path outside comments
//! and outside test code, brace groups expanded, and `super::…` paths. Test
//! code is a `#[cfg(test)]` module, inline or in a file of its own. A path
//! counts for the longest module it starts with; a name the crate root
//! re-exports (`crate::Position`) counts for the module it comes from; a
//! module's use of its own ancestors (their re-exports) does not count.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

const MAX_CODE_LINES: usize = 900;

/// The layer order, lowest first: a module may use modules of its own
/// layer or of a lower one, never of a higher one. Each entry names the
/// top-level modules of `src/`, a folder or a file (`""` is `lib.rs`).
///
/// `error` is a leaf every layer reports through: it sits with `types` at
/// the bottom. The crate root (`lib.rs`) only declares the modules and
/// re-exports their names; it sits at the top with the command (`cli`,
/// the server `serve`, and the binary `main.rs`). `test_util` is compiled for tests only; it
/// sits at the top too, since tests of any layer may use it.
const LAYERS: &[&[&str]] = &[
    &["types", "error"],
    &["position"],
    &["resolve"],
    &["record"],
    &["decode", "format"],
    &["read", "write"],
    &["training", "book", "tsume", "usi"],
    &["batch"],
    &["cli", "serve", "main", "test_util", ""],
];

/// Every `.rs` file under `dir`, in name order.
fn rust_files(dir: &Path, into: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            rust_files(&path, into);
        } else if path.extension().is_some_and(|e| e == "rs") {
            into.push(path);
        }
    }
}

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// Every file under `src/`, the command's included, each with its module
/// path (`format::csa::read`; `` for lib.rs, `main` for the binary).
fn source_files() -> BTreeMap<String, PathBuf> {
    let src = src();
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut modules = BTreeMap::new();
    for file in files {
        let relative = file.strip_prefix(&src).unwrap().with_extension("");
        let mut parts: Vec<String> = relative
            .iter()
            .map(|p| p.to_string_lossy().into_owned())
            .collect();
        if parts.last().is_some_and(|p| p == "mod" || p == "lib") {
            parts.pop();
        }
        modules.insert(parts.join("::"), file);
    }
    modules
}

/// The text of every file under `src/`, by module path.
fn sources() -> BTreeMap<String, String> {
    source_files()
        .into_iter()
        .map(|(module, file)| (module, std::fs::read_to_string(file).unwrap()))
        .collect()
}

/// Lines of code: not blank, not only a comment.
fn code_lines(text: &str) -> usize {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with("//"))
        .count()
}

#[test]
fn no_source_file_is_over_900_lines_of_code() {
    let files = source_files();
    assert!(files.len() > 50, "{} files under src", files.len());
    let over: Vec<String> = files
        .values()
        .map(|f| (f, code_lines(&std::fs::read_to_string(f).unwrap())))
        .filter(|(_, n)| *n > MAX_CODE_LINES)
        .map(|(f, n)| format!("{}: {n} lines of code", f.display()))
        .collect();
    assert!(
        over.is_empty(),
        "over {MAX_CODE_LINES}:\n{}",
        over.join("\n")
    );
}

/// A file's code: the text without comment lines and without its test
/// modules (`#[cfg(test)] mod …{…}`, braces matched), and the names of the
/// test modules it declares in files of their own (`#[cfg(test)] mod x;`).
fn code_of(text: &str) -> (String, Vec<String>) {
    let code: Vec<&str> = text
        .lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .collect();
    let mut code = code.join("\n");
    let mut test_files = Vec::new();
    let mut from = 0;
    while let Some(at) = code[from..].find("#[cfg(test)]\n").map(|i| from + i) {
        let item = at + "#[cfg(test)]\n".len();
        let rest = code[item..].trim_start();
        let rest = ["pub(crate) ", "pub(super) ", "pub "]
            .iter()
            .find_map(|v| rest.strip_prefix(v))
            .unwrap_or(rest);
        let Some(declared) = rest.strip_prefix("mod ") else {
            from = item;
            continue;
        };
        let name_len = declared
            .find(|c: char| !(c.is_alphanumeric() || c == '_'))
            .unwrap_or(declared.len());
        let after_name = declared[name_len..].trim_start();
        if after_name.starts_with(';') {
            // A test module in a file of its own: the line goes.
            test_files.push(declared[..name_len].to_string());
            let end = code.len() - after_name.len() + 1;
            code.replace_range(at..end, "");
            from = at;
            continue;
        }
        let Some(open) = code[at..].find('{').map(|i| at + i) else {
            break;
        };
        let mut depth = 0;
        let mut end = code.len();
        for (i, c) in code[open..].char_indices() {
            match c {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        end = open + i + 1;
                        break;
                    }
                }
                _ => {}
            }
        }
        code.replace_range(at..end, "");
        from = at;
    }
    (code, test_files)
}

/// The paths a `crate::` or `super::` use names, brace groups expanded:
/// `a::{b, c::d}` gives `a::b` and `a::c::d`, and `{a, b}` gives `a`, `b`.
fn expand(path: &str) -> Vec<String> {
    let (base, inner) = match (path.strip_prefix('{'), path.find("::{")) {
        (Some(inner), _) => ("", inner),
        (None, Some(at)) => (&path[..at], &path[at + 3..]),
        (None, None) => return vec![path.trim_end_matches("::").to_string()],
    };
    inner
        .trim_end_matches('}')
        .split(',')
        .map(|item| item.split(" as ").next().unwrap().trim())
        .filter(|item| !item.is_empty())
        .map(|item| match (item, base) {
            ("self", _) => base.to_string(),
            (_, "") => item.to_string(),
            _ => format!("{base}::{item}"),
        })
        .collect()
}

/// Each path starting at `prefix` in `code`: the run of `word::` segments
/// after it, with one brace group (no nested braces), its spaces and line
/// breaks made single spaces.
fn paths_after<'a>(code: &'a str, prefix: &'a str) -> impl Iterator<Item = String> + 'a {
    code.match_indices(prefix).filter_map(move |(at, _)| {
        let before = code[..at].chars().next_back();
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':') {
            return None;
        }
        let rest = &code[at + prefix.len()..];
        let mut end = rest
            .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
            .unwrap_or(rest.len());
        if (end == 0 || rest[..end].ends_with("::")) && rest[end..].starts_with('{') {
            end += rest[end..].find('}').map_or(0, |i| i + 1);
        }
        Some(rest[..end].split_whitespace().collect::<Vec<_>>().join(" "))
    })
}

/// The names the crate root re-exports, each with the path it stands for:
/// `pub use read::{read_any as read_bytes}` gives `read_bytes` →
/// `read::read_any`.
fn root_reexports(lib: &str) -> BTreeMap<String, String> {
    let (code, _) = code_of(lib);
    let mut names = BTreeMap::new();
    for (at, _) in code.match_indices("pub use ") {
        let rest = &code[at + "pub use ".len()..];
        let tree: String = rest[..rest.find(';').unwrap_or(rest.len())]
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        let tree = tree
            .replace(":: {", "::{")
            .replace("{ ", "{")
            .replace(" }", "}");
        let (base, items) = match tree.find("::{") {
            Some(at) => (
                tree[..at].to_string(),
                tree[at + 3..].trim_end_matches('}').to_string(),
            ),
            None => match tree.rsplit_once("::") {
                Some((base, item)) => (base.to_string(), item.to_string()),
                None => continue,
            },
        };
        for item in items.split(',').map(str::trim).filter(|i| !i.is_empty()) {
            let (name, alias) = match item.split_once(" as ") {
                Some((name, alias)) => (name.trim(), alias.trim()),
                None => (item, item),
            };
            names.insert(alias.to_string(), format!("{base}::{name}"));
        }
    }
    names
}

/// Which modules each module uses, read from `sources` (module path →
/// text; `""` is lib.rs, whose re-exports are followed). The test modules
/// files declare in files of their own have no imports.
fn imports(sources: &BTreeMap<String, String>) -> BTreeMap<String, BTreeSet<String>> {
    let reexports = sources
        .get("")
        .map(|lib| root_reexports(lib))
        .unwrap_or_default();
    let longest_module = |path: &str| -> Option<String> {
        let mut segments: Vec<String> = path.split("::").map(String::from).collect();
        if !sources.contains_key(&segments[0]) {
            if let Some(to) = reexports.get(&segments[0]) {
                let mut real: Vec<String> = to.split("::").map(String::from).collect();
                real.extend(segments.drain(1..));
                segments = real;
            }
        }
        (1..=segments.len())
            .rev()
            .map(|n| segments[..n].join("::"))
            .find(|m| sources.contains_key(m))
    };
    let code: BTreeMap<&String, (String, Vec<String>)> =
        sources.iter().map(|(m, text)| (m, code_of(text))).collect();
    let mut test_only = BTreeSet::new();
    for (module, (_, test_files)) in &code {
        for name in test_files {
            let child = if module.is_empty() {
                name.clone()
            } else {
                format!("{module}::{name}")
            };
            test_only.insert(child);
        }
    }
    let mut graph = BTreeMap::new();
    for (module, (code, _)) in &code {
        let module = module.as_str();
        let mut uses = BTreeSet::new();
        if !test_only
            .iter()
            .any(|t| module == t || module.starts_with(&format!("{t}::")))
        {
            let mut parent: Vec<&str> = module.split("::").collect();
            parent.pop();
            let parent = parent.join("::");
            // The binary is a crate of its own over the library.
            let own = if module == "main" {
                "kifconv::"
            } else {
                "crate::"
            };
            for path in paths_after(code, own) {
                uses.extend(expand(&path).iter().filter_map(|p| longest_module(p)));
            }
            for path in paths_after(code, "super::") {
                for p in expand(&path) {
                    let full = if parent.is_empty() {
                        p
                    } else {
                        format!("{parent}::{p}")
                    };
                    uses.extend(longest_module(&full));
                }
            }
        }
        // A module's own ancestors (their re-exports) are not imports.
        uses.retain(|u| u != module && !u.is_empty() && !module.starts_with(&format!("{u}::")));
        graph.insert(module.to_string(), uses);
    }
    graph
}

/// The top-level module a module is in (`format` for `format::csa::read`).
fn top(module: &str) -> &str {
    module.split("::").next().unwrap()
}

/// The layer of a top-level module, by [`LAYERS`].
fn layer_of(top: &str) -> Option<usize> {
    LAYERS.iter().position(|layer| layer.contains(&top))
}

/// The imports of the graph between top-level modules (folders and the
/// files of `src/` itself).
fn folder_graph(graph: &BTreeMap<String, BTreeSet<String>>) -> BTreeMap<String, BTreeSet<String>> {
    let mut folders: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (module, uses) in graph {
        let from = top(module);
        let entry = folders.entry(from.to_string()).or_default();
        entry.extend(
            uses.iter()
                .map(|u| top(u))
                .filter(|to| *to != from)
                .map(String::from),
        );
    }
    folders
}

/// What in `graph` goes against [`LAYERS`]: each import of a higher layer,
/// and each top-level module the order does not place.
fn against_the_order(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<String> {
    let mut found = Vec::new();
    let unplaced: BTreeSet<&str> = graph
        .keys()
        .map(|m| top(m))
        .filter(|t| layer_of(t).is_none())
        .collect();
    for module in unplaced {
        found.push(format!(
            "`{module}` has no place in the layer order (add it to LAYERS)"
        ));
    }
    for (module, uses) in graph {
        let Some(from) = layer_of(top(module)) else {
            continue;
        };
        for used in uses {
            let Some(to) = layer_of(top(used)) else {
                continue;
            };
            if to > from {
                found.push(format!(
                    "{module} (layer {from}: {}) uses {used} (layer {to}: {})",
                    LAYERS[from].join(", "),
                    LAYERS[to].join(", ")
                ));
            }
        }
    }
    found
}

/// A cycle in `graph`, as the modules around it, if there is one.
fn find_cycle(graph: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    #[derive(Clone, Copy, PartialEq)]
    enum Mark {
        New,
        Open,
        Done,
    }
    fn visit(
        at: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
        marks: &mut BTreeMap<String, Mark>,
        stack: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        marks.insert(at.to_string(), Mark::Open);
        stack.push(at.to_string());
        for next in graph.get(at).into_iter().flatten() {
            match marks.get(next).copied().unwrap_or(Mark::New) {
                Mark::Open => {
                    let from = stack.iter().position(|m| m == next).unwrap();
                    let mut cycle = stack[from..].to_vec();
                    cycle.push(next.clone());
                    return Some(cycle);
                }
                Mark::New => {
                    if let Some(cycle) = visit(next, graph, marks, stack) {
                        return Some(cycle);
                    }
                }
                Mark::Done => {}
            }
        }
        stack.pop();
        marks.insert(at.to_string(), Mark::Done);
        None
    }
    let mut marks = BTreeMap::new();
    for start in graph.keys() {
        if marks.get(start).copied().unwrap_or(Mark::New) == Mark::New {
            if let Some(cycle) = visit(start, graph, &mut marks, &mut Vec::new()) {
                return Some(cycle);
            }
        }
    }
    None
}

/// The import graph of the crate, its reading checked on imports known to
/// be there.
fn crate_graph() -> BTreeMap<String, BTreeSet<String>> {
    let graph = imports(&sources());
    assert!(graph["format::kif::read"].contains("format::kakinoki"));
    assert!(graph["record::builder"].contains("resolve"));
    assert!(graph["format::jkf::read"].contains("format::jkf::json"));
    // `crate::Position`, a re-export of the crate root, is position's.
    assert!(graph["record::builder"].contains("position"));
    assert!(graph["main"].contains("cli"));
    assert!(graph.keys().any(|m| m.starts_with("cli::")));
    graph
}

#[test]
fn every_import_keeps_the_layer_order() {
    let found = against_the_order(&crate_graph());
    assert!(
        found.is_empty(),
        "imports against the layer order:\n{}",
        found.join("\n")
    );
}

#[test]
fn no_import_cycle_between_folders() {
    let folders = folder_graph(&crate_graph());
    assert!(folders["record"].contains("resolve"));
    if let Some(cycle) = find_cycle(&folders) {
        panic!("an import cycle between folders: {}", cycle.join(" -> "));
    }
}

#[test]
fn no_import_cycle_between_files() {
    if let Some(cycle) = find_cycle(&crate_graph()) {
        panic!("an import cycle: {}", cycle.join(" -> "));
    }
}

/// A made-up crate: module path → text.
fn made_up(files: &[(&str, &str)]) -> BTreeMap<String, String> {
    files
        .iter()
        .map(|(m, text)| (m.to_string(), text.to_string()))
        .collect()
}

#[test]
fn an_import_against_the_order_is_reported() {
    let lib = "pub mod format;\npub mod record;\npub use record::Record;\npub use format::{Format, csa::read as read_csa};\n";
    let ordered = made_up(&[
        ("", lib),
        ("record", "use crate::types::Color;\npub struct Record;\n"),
        ("types", ""),
        ("format", "pub enum Format {}\n"),
        (
            "format::csa::read",
            "use crate::{Record, record};\nuse super::super::Format;\n",
        ),
    ]);
    assert_eq!(against_the_order(&imports(&ordered)), Vec::<String>::new());
    // record/ naming a format, by its path, inside a brace group, or
    // through a name the crate root re-exports.
    for text in [
        "use crate::format::csa::read;\n",
        "use crate::{types::Color, format::csa::read::parse};\n",
        "fn f() { crate::read_csa(); }\n",
        "use crate::Format;\n",
    ] {
        let mut against = ordered.clone();
        against.insert("record::fake".into(), text.into());
        let found = against_the_order(&imports(&against));
        assert_eq!(found.len(), 1, "{text}: {found:?}");
        assert!(
            found[0].starts_with("record::fake (layer 3: record) uses format"),
            "{text}: {found:?}"
        );
    }
    // The same import in test code is not one.
    let mut in_test = ordered.clone();
    in_test.insert(
        "record::fake".into(),
        "fn f() {}\n#[cfg(test)]\nmod tests {\n    use crate::format::csa::read;\n}\n".into(),
    );
    assert_eq!(against_the_order(&imports(&in_test)), Vec::<String>::new());
    // A folder the order does not place.
    let mut unplaced = ordered.clone();
    unplaced.insert("gadgets".into(), String::new());
    assert_eq!(
        against_the_order(&imports(&unplaced)),
        ["`gadgets` has no place in the layer order (add it to LAYERS)"]
    );
}

#[test]
fn a_cycle_is_found_when_there_is_one() {
    let graph: BTreeMap<String, BTreeSet<String>> = [
        ("a", vec!["b"]),
        ("b", vec!["c"]),
        ("c", vec!["a", "d"]),
        ("d", vec![]),
    ]
    .into_iter()
    .map(|(m, uses)| (m.to_string(), uses.into_iter().map(String::from).collect()))
    .collect();
    assert_eq!(find_cycle(&graph).unwrap(), ["a", "b", "c", "a"]);
    let mut acyclic = graph.clone();
    acyclic.get_mut("c").unwrap().remove("a");
    assert_eq!(find_cycle(&acyclic), None);
    // Read from text: two files of one layer that use each other, and two
    // folders of one layer whose files use each other without a file cycle.
    let crate_text = made_up(&[
        ("format", ""),
        ("format::a", "use super::b::f;\n"),
        ("format::b", "use crate::format::a::g;\n"),
        ("decode", "use crate::format::c;\n"),
        ("format::c", ""),
        ("format::d", "use crate::decode;\n"),
    ]);
    let graph = imports(&crate_text);
    assert_eq!(
        find_cycle(&graph).unwrap(),
        ["format::a", "format::b", "format::a"]
    );
    assert_eq!(against_the_order(&graph), Vec::<String>::new());
    let mut no_file_cycle = crate_text.clone();
    no_file_cycle.insert("format::b".into(), String::new());
    let graph = imports(&no_file_cycle);
    assert_eq!(find_cycle(&graph), None);
    assert_eq!(
        find_cycle(&folder_graph(&graph)).unwrap(),
        ["decode", "format", "decode"]
    );
    let (code, test_files) = code_of("use crate::a;\n#[cfg(test)]\nmod checks {\n    fn f() { crate::b::g(); }\n}\nuse crate::c;\n// crate::d\n#[cfg(test)]\npub(crate) mod table;\nuse crate::e;\n");
    assert!(
        code.contains("crate::a") && code.contains("crate::c") && code.contains("crate::e"),
        "{code}"
    );
    assert!(
        !code.contains("crate::b") && !code.contains("crate::d"),
        "{code}"
    );
    assert_eq!(test_files, ["table"]);
    assert_eq!(
        expand("format::{csa::read as csa, lines, self}"),
        ["format::csa::read", "format::lines", "format"]
    );
    assert_eq!(
        root_reexports("pub use read::{read_any as read_bytes,\n    read_path as read};\npub use record::Record;\n"),
        [
            ("Record", "record::Record"),
            ("read", "read::read_path"),
            ("read_bytes", "read::read_any")
        ]
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .into_iter()
        .collect()
    );
}
