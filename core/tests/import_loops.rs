//! The map of core is true: no import loop between its files (a leaf type lives beside the code
//! that uses it); its layers, the rows of ARCHITECTURE.md's layer table, call only the rows
//! above them in the table (the layers below); each layer's module doc says exactly which
//! layers it calls ("May call:") and which call it ("Called by:"); the layer table lists every
//! file; and every file the map names exists, with the items the rule table says live there.
//!
//! A file "calls" every module a path in its code names: `use crate::…` lines (groups too),
//! inline `crate::x::y` paths, `super::…` and `self::…` paths, and the crate root's re-exports
//! (`crate::StateError` is `save::check`), outside comments and test modules.
//!
//! Not built for WASI: the tests read core/src from disk, which the WASI test runner does not
//! open.
#![cfg(not(target_os = "wasi"))]

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// One module of core/src.
struct Module {
    /// Its path in the crate, `time::render_cap` (`lib` for the root).
    name: String,
    /// Its file, relative to core/src: `time/render_cap.rs`.
    file: String,
    /// Its code: no comments, no test module.
    code: String,
    /// Its module doc (the `//!` lines), joined.
    doc: String,
}

/// The crate's directory (asked at run time: a test binary built for another checkout of the
/// crate, in a shared target directory, still reads this one).
fn crate_dir() -> PathBuf {
    PathBuf::from(
        std::env::var("CARGO_MANIFEST_DIR")
            .unwrap_or_else(|_| env!("CARGO_MANIFEST_DIR").to_owned()),
    )
}

fn read(path: &Path) -> String {
    fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Every module of core/src but the test-only ones (`#[cfg(test)] mod x;`).
fn core_modules() -> Vec<Module> {
    fn walk(dir: &Path, rel: &str, out: &mut Vec<(String, String)>) {
        let mut entries: Vec<PathBuf> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        entries.sort();
        for path in entries {
            let stem = path.file_name().unwrap().to_string_lossy().into_owned();
            if path.is_dir() {
                walk(&path, &format!("{rel}{stem}/"), out);
            } else if stem.ends_with(".rs") {
                out.push((format!("{rel}{stem}"), read(&path)));
            }
        }
    }
    let src = crate_dir().join("src");
    let mut files = Vec::new();
    walk(&src, "", &mut files);
    let mut test_only = BTreeSet::new();
    let mut mods = Vec::new();
    for (file, text) in &files {
        let name = module_name(file);
        let (code, tests) = strip(text);
        for t in tests {
            test_only.insert(join(&parent_of(&name, file), &t));
        }
        let doc = text
            .lines()
            .filter_map(|l| l.trim_start().strip_prefix("//!"))
            .collect::<Vec<_>>()
            .join("\n");
        mods.push(Module {
            name,
            file: file.clone(),
            code,
            doc,
        });
    }
    mods.retain(|m| !test_only.contains(&m.name));
    assert!(mods.len() > 30, "core/src was not found: {src:?}");
    mods
}

/// `time/render_cap.rs` → `time::render_cap`, `time/mod.rs` → `time`, `lib.rs` → `lib`.
fn module_name(file: &str) -> String {
    let path = file.trim_end_matches(".rs");
    let path = path.strip_suffix("/mod").unwrap_or(path);
    path.replace('/', "::")
}

/// The module under which the file `file` of module `name` declares its submodules
/// (`time/mod.rs`: `time`; `state/clock_view.rs`: `state::clock_view`; `lib.rs`: the root, "").
fn parent_of(name: &str, file: &str) -> String {
    if file == "lib.rs" {
        String::new()
    } else {
        name.to_owned()
    }
}

fn join(a: &str, b: &str) -> String {
    if a.is_empty() {
        b.to_owned()
    } else {
        format!("{a}::{b}")
    }
}

/// The code of a file without comments, string literals' contents and test modules, and the
/// names of the test-only submodules it declares (`#[cfg(test)] mod x;`).
fn strip(text: &str) -> (String, Vec<String>) {
    let mut code = String::with_capacity(text.len());
    for line in text.lines() {
        // Comments (doc comments too): a `//` outside a string literal.
        let mut in_str = false;
        let mut prev = ' ';
        let mut kept = String::new();
        for c in line.chars() {
            if c == '"' && prev != '\\' {
                in_str = !in_str;
            }
            if !in_str && c == '/' && prev == '/' {
                kept.pop();
                break;
            }
            kept.push(c);
            prev = c;
        }
        code.push_str(&kept);
        code.push('\n');
    }
    let mut tests = Vec::new();
    let mut out = String::new();
    let mut rest = code.as_str();
    while let Some(at) = rest.find("#[cfg(test)]") {
        out.push_str(&rest[..at]);
        let after = rest[at + "#[cfg(test)]".len()..].trim_start();
        let after = ["pub(crate) ", "pub "]
            .iter()
            .find_map(|v| after.strip_prefix(v))
            .unwrap_or(after);
        let Some(decl) = after.strip_prefix("mod ") else {
            rest = &rest[at + "#[cfg(test)]".len()..];
            continue;
        };
        let ident: String = decl
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        let decl = decl[ident.len()..].trim_start();
        if let Some(body) = decl.strip_prefix(';') {
            tests.push(ident);
            rest = body;
        } else {
            // `mod tests { … }`: up to its closing brace.
            let mut depth = 0usize;
            let mut end = decl.len();
            for (i, c) in decl.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' => {
                        depth -= 1;
                        if depth == 0 {
                            end = i + 1;
                            break;
                        }
                    }
                    _ => {}
                }
            }
            rest = &decl[end..];
        }
    }
    out.push_str(rest);
    (out, tests)
}

/// The paths that start at `at` in `code` (`a::b::{c, d::e}` gives `a::b::c` and `a::b::d::e`),
/// and the length read.
fn paths_at(code: &str) -> (Vec<Vec<String>>, usize) {
    let bytes = code.as_bytes();
    let mut i = 0;
    let mut prefix: Vec<String> = Vec::new();
    loop {
        while i < bytes.len() && bytes[i].is_ascii_whitespace() {
            i += 1;
        }
        if i < bytes.len() && bytes[i] == b'{' {
            // A group: each of its members, by their own paths.
            let mut out = Vec::new();
            i += 1;
            loop {
                while i < bytes.len() && (bytes[i].is_ascii_whitespace() || bytes[i] == b',') {
                    i += 1;
                }
                if i >= bytes.len() || bytes[i] == b'}' {
                    break;
                }
                let (inner, used) = paths_at(&code[i..]);
                for p in inner {
                    let mut full = prefix.clone();
                    full.extend(p);
                    out.push(full);
                }
                i += used.max(1);
            }
            return (out, i + 1);
        }
        let start = i;
        while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
            i += 1;
        }
        if start == i {
            return (vec![prefix], i);
        }
        prefix.push(code[start..i].to_owned());
        if code[i..].starts_with("::") {
            i += 2;
        } else {
            return (vec![prefix], i);
        }
    }
}

/// The crate root's re-exports: a name to the path it stands for (`StateError` →
/// `save::check::StateError`).
fn reexports(root: &Module) -> BTreeMap<String, Vec<String>> {
    let mut out = BTreeMap::new();
    let mut rest = root.code.as_str();
    while let Some(at) = rest.find("pub use ") {
        let (paths, used) = paths_at(&rest[at + "pub use ".len()..]);
        for p in paths {
            if let Some(last) = p.last() {
                out.insert(last.clone(), p.clone());
            }
        }
        rest = &rest[at + "pub use ".len() + used..];
    }
    out
}

/// The modules module `m` calls: every path its code names (see the file's doc), resolved to
/// the longest module it names.
fn calls(
    m: &Module,
    names: &BTreeSet<String>,
    reexports: &BTreeMap<String, Vec<String>>,
) -> BTreeSet<String> {
    let own = parent_of(&m.name, &m.file);
    let up = match own.rsplit_once("::") {
        Some((p, _)) => p.to_owned(),
        None => String::new(),
    };
    let mut out = BTreeSet::new();
    let code = &m.code;
    for (kw, base) in [("crate::", ""), ("super::", up.as_str()), ("self::", &own)] {
        let mut from = 0;
        while let Some(at) = code[from..].find(kw) {
            let at = from + at;
            from = at + kw.len();
            let before = code[..at].chars().next_back().unwrap_or(' ');
            if before.is_alphanumeric() || before == '_' || before == '$' {
                continue;
            }
            let (paths, _) = paths_at(&code[at + kw.len()..]);
            for p in paths {
                let mut full: Vec<String> = base
                    .split("::")
                    .filter(|s| !s.is_empty())
                    .map(str::to_owned)
                    .collect();
                full.extend(p);
                if let Some(target) = resolve(&full, names, reexports) {
                    if target != m.name {
                        out.insert(target);
                    }
                }
            }
        }
    }
    out
}

/// The longest module `path` names, through the root's re-exports.
fn resolve(
    path: &[String],
    names: &BTreeSet<String>,
    reexports: &BTreeMap<String, Vec<String>>,
) -> Option<String> {
    for k in (1..=path.len()).rev() {
        let m = path[..k].join("::");
        if names.contains(&m) {
            return Some(m);
        }
    }
    let first = path.first()?;
    let target = reexports.get(first)?;
    if target.first() == Some(first) {
        return None;
    }
    resolve(target, names, reexports)
}

/// Module → the modules it calls.
fn graph(mods: &[Module]) -> BTreeMap<String, BTreeSet<String>> {
    let names: BTreeSet<String> = mods.iter().map(|m| m.name.clone()).collect();
    let root = mods.iter().find(|m| m.name == "lib").expect("lib.rs");
    let re = reexports(root);
    assert!(
        re.contains_key("LoopState") && re.contains_key("StateError"),
        "the root's re-exports were not read: {re:?}"
    );
    mods.iter()
        .map(|m| (m.name.clone(), calls(m, &names, &re)))
        .collect()
}

fn layer(m: &str) -> String {
    m.split("::").next().unwrap_or(m).to_owned()
}

/// Layer → the other layers it calls (the root is none of them).
fn layer_calls(mods: &[Module]) -> BTreeMap<String, BTreeSet<String>> {
    let mut out: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (m, to) in graph(mods) {
        if m == "lib" {
            continue;
        }
        let entry = out.entry(layer(&m)).or_default();
        for t in to {
            if layer(&t) != layer(&m) && t != "lib" {
                entry.insert(layer(&t));
            }
        }
    }
    out
}

/// ARCHITECTURE.md without its fenced blocks (the drawing).
fn architecture() -> String {
    let md = read(&crate_dir().join("../ARCHITECTURE.md"));
    md.split("```").step_by(2).collect::<Vec<_>>().join("\n")
}

/// The rows of the markdown table under the heading that starts with `heading`, as cells.
fn table(md: &str, heading: &str) -> Vec<Vec<String>> {
    let at = md
        .find(&format!("\n## {heading}"))
        .unwrap_or_else(|| panic!("ARCHITECTURE.md has no section \"{heading}\""));
    let section = &md[at + 4..];
    let section = &section[..section.find("\n## ").unwrap_or(section.len())];
    section
        .lines()
        .filter(|l| l.starts_with('|'))
        .skip(2)
        .map(|l| {
            l.trim_matches('|')
                .split('|')
                .map(|c| c.trim().to_owned())
                .collect()
        })
        .collect()
}

/// The words between backticks in `text`.
fn ticked(text: &str) -> Vec<String> {
    text.split('`')
        .skip(1)
        .step_by(2)
        .map(str::to_owned)
        .collect()
}

/// ARCHITECTURE.md's layers, bottom up: per row, its layers (`values`, `error`) and their
/// files as listed (relative to core/src).
fn layer_rows() -> Vec<(Vec<String>, Vec<String>)> {
    table(&architecture(), "Layers of `tickfold-core`")
        .iter()
        .map(|row| {
            let names = ticked(&row[0]);
            let layers: Vec<String> = names
                .iter()
                .map(|n| n.trim_end_matches('/').trim_end_matches(".rs").to_owned())
                .collect();
            let mut files = Vec::new();
            for n in &names {
                if n.ends_with(".rs") {
                    files.push(n.clone());
                }
            }
            let single = layers.len() == 1 && names[0].ends_with('/');
            for f in ticked(&row[1]) {
                files.push(if single {
                    format!("{}{f}", names[0])
                } else {
                    f
                });
            }
            (layers, files)
        })
        .collect()
}

#[test]
fn core_has_no_import_loop() {
    let mods = core_modules();
    let graph = graph(&mods);
    let graph: BTreeMap<&String, BTreeSet<String>> = graph
        .iter()
        .filter(|(m, _)| *m != "lib")
        .map(|(m, to)| (m, to.clone()))
        .collect();
    if let Some(cycle) = find_cycle(&graph) {
        panic!("import loop in core/src: {}", cycle.join(" -> "));
    }
}

#[test]
fn core_layers_call_only_down() {
    let mods = core_modules();
    let rows = layer_rows();
    let rank: BTreeMap<String, usize> = rows
        .iter()
        .enumerate()
        .flat_map(|(i, (layers, _))| layers.iter().map(move |l| (l.clone(), i)))
        .collect();
    let found: BTreeSet<String> = mods
        .iter()
        .filter(|m| m.name != "lib")
        .map(|m| layer(&m.name))
        .collect();
    let mapped: BTreeSet<String> = rank.keys().cloned().collect();
    assert_eq!(
        found, mapped,
        "the layers of core/src and the rows of ARCHITECTURE.md's layer table differ"
    );
    let mut upward = Vec::new();
    for (from, to) in layer_calls(&mods) {
        for t in to {
            if rank[&t] >= rank[&from] {
                upward.push(format!("{from} -> {t}"));
            }
        }
    }
    assert!(
        upward.is_empty(),
        "layers of core/src that call a layer not below them in ARCHITECTURE.md's table: {}",
        upward.join(", ")
    );
}

/// The layers a module doc lists after `label` ("May call:", "Called by:"), up to the
/// sentence's end: the backticked names outside parentheses. `None` when it has no such line.
fn listed(doc: &str, label: &str) -> Option<BTreeSet<String>> {
    let at = doc.find(label)?;
    let text = &doc[at + label.len()..];
    let mut depth = 0;
    let mut outside = String::new();
    for (i, c) in text.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            '.' if depth == 0 && text[i + 1..].chars().next().is_none_or(char::is_whitespace) => {
                break;
            }
            _ if depth == 0 => outside.push(c),
            _ => {}
        }
    }
    Some(ticked(&outside).into_iter().collect())
}

#[test]
fn each_layer_doc_lists_what_it_calls_and_what_calls_it() {
    let mods = core_modules();
    let calls = layer_calls(&mods);
    let mut called_by: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (from, to) in &calls {
        for t in to {
            called_by.entry(t.clone()).or_default().insert(from.clone());
        }
    }
    let mut wrong = Vec::new();
    for m in mods
        .iter()
        .filter(|m| !m.name.contains("::") && m.name != "lib")
    {
        let l = &m.name;
        let may = listed(&m.doc, "May call:").unwrap_or_else(|| {
            panic!(
                "{}: the module doc has no \"May call:\" line (`nothing` if none)",
                m.file
            )
        });
        let real = calls.get(l).cloned().unwrap_or_default();
        let may: BTreeSet<String> = may.into_iter().filter(|n| n != "nothing").collect();
        if may != real {
            wrong.push(format!(
                "{}: \"May call:\" lists {may:?}, the layer calls {real:?}",
                m.file
            ));
        }
        let by = listed(&m.doc, "Called by:").unwrap_or_else(|| {
            panic!(
                "{}: the module doc has no \"Called by:\" line (`nothing` if none)",
                m.file
            )
        });
        let by: BTreeSet<String> = by.into_iter().filter(|n| n != "nothing").collect();
        let real = called_by.get(l).cloned().unwrap_or_default();
        if by != real {
            wrong.push(format!(
                "{}: \"Called by:\" lists {by:?}, the layer is called by {real:?}",
                m.file
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn the_layer_table_lists_every_file() {
    let mods = core_modules();
    let listed: BTreeSet<String> = layer_rows().into_iter().flat_map(|(_, f)| f).collect();
    let real: BTreeSet<String> = mods
        .iter()
        .filter(|m| m.name != "lib")
        .map(|m| m.file.clone())
        .collect();
    let missing: Vec<&String> = real.difference(&listed).collect();
    let dead: Vec<&String> = listed.difference(&real).collect();
    assert!(
        missing.is_empty() && dead.is_empty(),
        "ARCHITECTURE.md's layer table: files not listed {missing:?}; listed but not in core/src {dead:?}"
    );
    // Each folder's module doc names each of its files.
    let mut unnamed = Vec::new();
    for m in &mods {
        let Some((folder, rest)) = m.file.split_once('/') else {
            continue;
        };
        if rest == "mod.rs" {
            continue;
        }
        let doc = &mods
            .iter()
            .find(|d| d.file == format!("{folder}/mod.rs"))
            .expect("a folder's mod.rs")
            .doc;
        if !ticked(doc)
            .iter()
            .any(|n| n == rest || n.ends_with(&format!("/{rest}")) || *n == m.file)
        {
            unnamed.push(m.file.clone());
        }
    }
    assert!(
        unnamed.is_empty(),
        "files their folder's module doc does not name: {unnamed:?}"
    );
}

/// Whether `code` defines `item` (a function, type, trait, constant, static or module).
fn defines(code: &str, item: &str) -> bool {
    [
        "fn", "struct", "enum", "const", "type", "trait", "static", "mod",
    ]
    .iter()
    .any(|kw| {
        let pat = format!("{kw} {item}");
        code.match_indices(&pat).any(|(i, _)| {
            let after = code[i + pat.len()..].chars().next().unwrap_or(' ');
            let before = code[..i].chars().next_back().unwrap_or(' ');
            let ident = |c: char| c.is_alphanumeric() || c == '_';
            !ident(after) && !ident(before)
        })
    })
}

#[test]
fn each_rule_lives_where_the_map_says() {
    let mods = core_modules();
    let rows = table(&architecture(), "Where each rule lives");
    assert!(rows.len() >= 8, "the rule table was not read: {rows:?}");
    let mut wrong = Vec::new();
    for row in &rows {
        let mut file: Option<&Module> = None;
        let mut items = 0;
        let check_file = |file: Option<&Module>, items: usize, wrong: &mut Vec<String>| {
            if let (Some(f), 0) = (file, items) {
                wrong.push(format!("{}: no item named for \"{}\"", f.file, row[0]));
            }
        };
        for token in ticked(&row[1]) {
            if token.ends_with(".rs") {
                check_file(file, items, &mut wrong);
                items = 0;
                file = mods.iter().find(|m| m.file == token);
                if file.is_none() {
                    wrong.push(format!("{token}: no such file (\"{}\")", row[0]));
                }
            } else if let Some(f) = file {
                items += 1;
                let item = token.rsplit("::").next().unwrap_or(&token);
                if !defines(&f.code, item) {
                    wrong.push(format!("{}: no `{token}` there (\"{}\")", f.file, row[0]));
                }
            } else {
                wrong.push(format!("`{token}` before any file (\"{}\")", row[0]));
            }
        }
        check_file(file, items, &mut wrong);
    }
    assert!(
        wrong.is_empty(),
        "ARCHITECTURE.md's rule table:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn every_file_the_map_names_exists() {
    let root = crate_dir().join("..");
    let mut dead = Vec::new();
    let mut check = |name: &str, folder: &str, whose: &str| {
        let candidates = [
            root.join(name),
            crate_dir().join("src").join(name),
            crate_dir().join("src").join(folder).join(name),
        ];
        if !candidates.iter().any(|p| p.is_file()) {
            dead.push(format!("{whose}: `{name}`"));
        }
    };
    // The layer table's files, relative to their folder, are checked by
    // `the_layer_table_lists_every_file`.
    let md = architecture();
    let layers = md.find("\n## Layers").expect("the layer table");
    let after = layers + md[layers + 1..].find("\n## ").expect("a section after it") + 1;
    let outside = format!("{}{}", &md[..layers], &md[after..]);
    for name in ticked(&outside) {
        if name.ends_with(".rs") && !name.contains(' ') {
            check(&name, "", "ARCHITECTURE.md");
        }
    }
    for m in core_modules() {
        let folder = m.file.rsplit_once('/').map_or("", |(f, _)| f);
        for name in ticked(&m.doc) {
            if name.ends_with(".rs") && !name.contains(' ') {
                check(&name, folder, &m.file);
            }
        }
    }
    assert!(
        dead.is_empty(),
        "files named but not found: {}",
        dead.join(", ")
    );
}

/// A cycle of `graph`, if it has one.
fn find_cycle(graph: &BTreeMap<&String, BTreeSet<String>>) -> Option<Vec<String>> {
    // Depth-first search for a back edge (white/grey/black).
    fn visit<'a>(
        m: &'a str,
        graph: &'a BTreeMap<&String, BTreeSet<String>>,
        state: &mut BTreeMap<&'a str, bool>,
        stack: &mut Vec<&'a str>,
    ) -> Option<Vec<String>> {
        match state.get(m) {
            Some(true) => {
                let at = stack.iter().position(|s| *s == m).unwrap_or(0);
                let mut cycle: Vec<String> = stack[at..].iter().map(|s| (*s).to_owned()).collect();
                cycle.push(m.to_owned());
                return Some(cycle);
            }
            Some(false) => return None,
            None => {}
        }
        state.insert(m, true);
        stack.push(m);
        for next in graph.get(&m.to_owned()).into_iter().flatten() {
            if let Some(c) = visit(next, graph, state, stack) {
                return Some(c);
            }
        }
        stack.pop();
        state.insert(m, false);
        None
    }
    let mut state = BTreeMap::new();
    for m in graph.keys() {
        let mut stack = Vec::new();
        if let Some(cycle) = visit(m, graph, &mut state, &mut stack) {
            return Some(cycle);
        }
    }
    None
}
