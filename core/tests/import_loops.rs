//! No import loop in core: neither between its files (a leaf type lives beside the code that
//! uses it) nor between its layers, the top-level folders and files that ARCHITECTURE.md maps
//! (each layer calls only the layers below it). Each file's `use crate::…` lines (outside its
//! test module) name the modules it imports; the graphs they make have no cycle.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::Path;

fn modules(dir: &Path, prefix: &str, out: &mut BTreeMap<String, String>) {
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let stem = path.file_stem().unwrap().to_string_lossy().into_owned();
        if path.is_dir() {
            modules(&path, &format!("{prefix}{stem}::"), out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let name = if stem == "mod" {
                prefix.trim_end_matches("::").to_owned()
            } else {
                format!("{prefix}{stem}")
            };
            let text = fs::read_to_string(&path).unwrap();
            let code = text.split("#[cfg(test)]").next().unwrap_or("").to_owned();
            out.insert(name, code);
        }
    }
}

/// The modules `code` imports with `use crate::…` (the longest known prefix of each path).
fn imports(code: &str, me: &str, names: &BTreeSet<String>) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for line in code.lines() {
        let line = line.trim_start();
        let line = line
            .strip_prefix("pub(crate) ")
            .or_else(|| line.strip_prefix("pub "))
            .unwrap_or(line);
        let Some(rest) = line.strip_prefix("use crate::") else {
            continue;
        };
        let path: String = rest
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == ':')
            .collect();
        let parts: Vec<&str> = path.split("::").collect();
        for k in (1..=parts.len()).rev() {
            let m = parts[..k].join("::");
            if names.contains(&m) && m != me {
                out.insert(m);
                break;
            }
        }
    }
    out
}

#[test]
#[cfg_attr(
    target_os = "wasi",
    ignore = "reads core/src from disk, which the WASI test runner does not open"
)]
fn core_has_no_import_loop() {
    let mods = core_modules();
    let names: BTreeSet<String> = mods.keys().cloned().collect();
    let graph: BTreeMap<&String, BTreeSet<String>> = mods
        .iter()
        .map(|(m, code)| (m, imports(code, m, &names)))
        .collect();
    if let Some(cycle) = find_cycle(&graph) {
        panic!("import loop in core/src: {}", cycle.join(" -> "));
    }
}

/// Every module of core/src and its code before its test module.
fn core_modules() -> BTreeMap<String, String> {
    // Asked at run time: a test binary built for another checkout of the crate (a shared
    // target directory) still reads this one.
    let dir = std::env::var("CARGO_MANIFEST_DIR")
        .unwrap_or_else(|_| env!("CARGO_MANIFEST_DIR").to_owned());
    let src = Path::new(&dir).join("src");
    let mut mods = BTreeMap::new();
    modules(&src, "", &mut mods);
    mods
}

#[test]
#[cfg_attr(
    target_os = "wasi",
    ignore = "reads core/src from disk, which the WASI test runner does not open"
)]
fn core_layers_call_only_down() {
    let mods = core_modules();
    let names: BTreeSet<String> = mods.keys().cloned().collect();
    let layer = |m: &str| m.split("::").next().unwrap_or(m).to_owned();
    let layers: BTreeSet<String> = names.iter().map(|m| layer(m)).collect();
    // The crate root declares the layers and re-exports them: it is above all of them.
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (m, code) in &mods {
        if m == "lib" {
            continue;
        }
        for to in imports(code, m, &names) {
            if layer(&to) != layer(m) {
                edges.entry(layer(m)).or_default().insert(layer(&to));
            }
        }
    }
    assert!(layers.len() >= 10, "the layers were not found: {layers:?}");
    let graph: BTreeMap<&String, BTreeSet<String>> = layers
        .iter()
        .map(|l| (l, edges.get(l).cloned().unwrap_or_default()))
        .collect();
    if let Some(cycle) = find_cycle(&graph) {
        panic!(
            "layers of core/src that call each other (see ARCHITECTURE.md): {}",
            cycle.join(" -> ")
        );
    }
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
