//! The shape of the library's source, checked: no file over 900 lines of
//! code, and no cycle of imports between its files (a file's module uses
//! another's, which uses it back, directly or around a longer loop).
//!
//! Imports are read from the text: every `crate::…` path outside comments
//! and outside a file's `#[cfg(test)]` module, brace groups expanded, and
//! `super::…` paths. A path counts for the longest module it starts with; a
//! module's use of its own ancestors (their re-exports) does not count.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

const MAX_CODE_LINES: usize = 900;

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

/// The library's files but the command's (`cli/`, behind the `cli`
/// feature, which nothing else imports, and the binary's `main.rs`), each
/// with its module path (`format::csa::read`; `` for lib.rs).
fn library_modules() -> BTreeMap<String, PathBuf> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut modules = BTreeMap::new();
    for file in files {
        let relative = file.strip_prefix(&src).unwrap().with_extension("");
        let mut parts: Vec<String> = relative
            .iter()
            .map(|p| p.to_string_lossy().into_owned())
            .collect();
        if parts[0] == "cli" || parts == ["main"] {
            continue;
        }
        if parts.last().is_some_and(|p| p == "mod" || p == "lib") {
            parts.pop();
        }
        modules.insert(parts.join("::"), file);
    }
    modules
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
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    assert!(
        files.len() > 50,
        "{} files under {}",
        files.len(),
        src.display()
    );
    let over: Vec<String> = files
        .iter()
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

/// The text of a file without comment lines and without its test modules
/// (`#[cfg(test)] mod …{…}`, braces matched).
fn code_of(text: &str) -> String {
    let code: Vec<&str> = text
        .lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .collect();
    let mut code = code.join("\n");
    while let Some(at) = code.find("#[cfg(test)]\nmod ") {
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
    }
    code
}

/// The paths a `crate::` or `super::` use names, brace groups expanded:
/// `a::{b, c::d}` gives `a::b` and `a::c::d`.
fn expand(path: &str) -> Vec<String> {
    match path.find("::{") {
        None => vec![path.trim_end_matches("::").to_string()],
        Some(at) => {
            let base = &path[..at];
            let inner = path[at + 3..].trim_end_matches('}');
            inner
                .split(',')
                .map(|item| item.split(" as ").next().unwrap().trim())
                .filter(|item| !item.is_empty())
                .map(|item| match item {
                    "self" => base.to_string(),
                    _ => format!("{base}::{item}"),
                })
                .collect()
        }
    }
}

/// Each path starting at `prefix` in `code`: the run of `word::` segments
/// after it, with one brace group (no nested braces).
fn paths_after<'a>(code: &'a str, prefix: &'a str) -> impl Iterator<Item = String> + 'a {
    code.match_indices(prefix).filter_map(move |(at, _)| {
        let before = code[..at].chars().next_back();
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':') {
            return None;
        }
        let rest = &code[at + prefix.len()..];
        let mut end = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == ':'))
            .unwrap_or(rest.len());
        if rest[..end].ends_with("::") && rest[end..].starts_with('{') {
            end += rest[end..].find('}').map_or(0, |i| i + 1);
        }
        Some(rest[..end].to_string())
    })
}

/// Which library modules each module uses.
fn imports(modules: &BTreeMap<String, PathBuf>) -> BTreeMap<String, BTreeSet<String>> {
    let longest_module = |path: &str| -> Option<String> {
        let segments: Vec<&str> = path.split("::").collect();
        (1..=segments.len())
            .rev()
            .map(|n| segments[..n].join("::"))
            .find(|m| modules.contains_key(m))
    };
    let mut graph = BTreeMap::new();
    for (module, file) in modules {
        let code = code_of(&std::fs::read_to_string(file).unwrap());
        let mut parent: Vec<&str> = module.split("::").collect();
        parent.pop();
        let parent = parent.join("::");
        let mut uses = BTreeSet::new();
        for path in paths_after(&code, "crate::") {
            uses.extend(expand(&path).iter().filter_map(|p| longest_module(p)));
        }
        for path in paths_after(&code, "super::") {
            for p in expand(&path) {
                let full = if parent.is_empty() {
                    p
                } else {
                    format!("{parent}::{p}")
                };
                uses.extend(longest_module(&full));
            }
        }
        // A module's own ancestors (their re-exports) are not imports.
        uses.retain(|u| u != module && !u.is_empty() && !module.starts_with(&format!("{u}::")));
        graph.insert(module.clone(), uses);
    }
    graph
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

#[test]
fn no_import_cycle_between_library_files() {
    let modules = library_modules();
    let graph = imports(&modules);
    // The reading is real: known imports are found.
    assert!(graph["format::kif::read"].contains("format::kakinoki"));
    assert!(graph["record::builder"].contains("resolve"));
    assert!(graph["format::jkf::read"].contains("format::jkf::json"));
    if let Some(cycle) = find_cycle(&graph) {
        panic!("an import cycle: {}", cycle.join(" -> "));
    }
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
    let code = code_of("use crate::a;\n#[cfg(test)]\nmod checks {\n    fn f() { crate::b::g(); }\n}\nuse crate::c;\n// crate::d\n");
    assert!(
        code.contains("crate::a") && code.contains("crate::c"),
        "{code}"
    );
    assert!(
        !code.contains("crate::b") && !code.contains("crate::d"),
        "{code}"
    );
    assert_eq!(
        expand("format::{csa::read as csa, lines, self}"),
        ["format::csa::read", "format::lines", "format"]
    );
}
