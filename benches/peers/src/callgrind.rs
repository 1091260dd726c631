//! Instructions per frame, counted by valgrind's callgrind: repeatable where wall-clock time on
//! a shared machine is not.
//!
//! The binary re-runs itself under `valgrind --tool=callgrind` with `--callgrind-region LOOP
//! CASE REGIME FRAMES`: it builds the loop, runs 1,000 set-up frames outside the counted
//! region, then `FRAMES` frames inside [`region`], the only function callgrind collects in
//! (`--collect-atstart=no --toggle-collect`). Instructions per frame are the region's total
//! over `FRAMES`. The breakdown splits the same count by the source file each instruction was
//! compiled from (inlined code keeps its own file in the line tables, which the bench's release
//! profile turns on for the bench and tickfold crates only).

use std::collections::HashMap;
use std::hint::black_box;
use std::path::Path;
use std::process::Command;

use crate::timing::Batch;

/// The counted region: `frames` frames of `b`.
#[inline(never)]
pub fn region(b: &mut dyn Batch, frames: u64) -> u64 {
    b.batch(frames)
}

/// Instructions counted in one run: total, and (when asked) by source file and by function
/// (self cost: the functions the compiler left out of line), largest first.
pub type Counts = (u64, Vec<(String, u64)>, Vec<(String, u64)>);

/// Instructions by name (source file or function), largest first.
type ByName = Vec<(String, u64)>;

/// Runs the region under callgrind (in a child process); returns its instruction counts.
pub fn count(args: &[String], by_file: bool) -> Result<Counts, String> {
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    let out = std::env::temp_dir().join(format!("tickfold-peers-{}.callgrind", std::process::id()));
    let mut cmd = Command::new("valgrind");
    cmd.arg("--tool=callgrind")
        .arg(format!("--callgrind-out-file={}", out.display()))
        .arg("--collect-atstart=no")
        .arg("--toggle-collect=*callgrind*region*");
    if by_file {
        cmd.arg("--dump-instr=no").arg("--dump-line=yes");
    }
    let status = cmd
        .arg(exe)
        .arg("--callgrind-region")
        .args(args)
        .output()
        .map_err(|e| format!("could not run valgrind: {e}"))?;
    if !status.status.success() {
        return Err(format!(
            "valgrind failed: {}",
            String::from_utf8_lossy(&status.stderr)
        ));
    }
    let text = std::fs::read_to_string(&out).map_err(|e| e.to_string())?;
    let _ = std::fs::remove_file(&out);
    let total = text
        .lines()
        .find_map(|l| {
            l.strip_prefix("totals:")
                .or_else(|| l.strip_prefix("summary:"))
        })
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .ok_or("no totals in callgrind's output")?;
    let (files, fns) = if by_file {
        per_file(&text)
    } else {
        (Vec::new(), Vec::new())
    };
    Ok((total, files, fns))
}

/// Whether valgrind can be run.
pub fn available() -> bool {
    Command::new("valgrind")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Self cost per source file and per function from a callgrind output file (positions are
/// lines).
fn per_file(text: &str) -> (ByName, ByName) {
    let mut names: HashMap<String, String> = HashMap::new();
    let mut fn_names: HashMap<String, String> = HashMap::new();
    let mut costs: HashMap<String, u64> = HashMap::new();
    let mut fn_costs: HashMap<String, u64> = HashMap::new();
    let mut cur_fn = String::new();
    let (mut fl, mut cur) = (String::new(), String::new());
    let mut skip_next = false;
    let resolve = |names: &mut HashMap<String, String>, v: &str| -> String {
        let v = v.trim();
        if let Some(rest) = v.strip_prefix('(') {
            let (id, name) = rest.split_once(')').unwrap_or((rest, ""));
            let name = name.trim();
            if name.is_empty() {
                return names.get(id).cloned().unwrap_or_default();
            }
            names.insert(id.to_string(), name.to_string());
            return name.to_string();
        }
        v.to_string()
    };
    for line in text.lines() {
        if let Some(v) = line.strip_prefix("fl=") {
            fl = resolve(&mut names, v);
            cur = fl.clone();
        } else if let Some(v) = line
            .strip_prefix("fi=")
            .or_else(|| line.strip_prefix("fe="))
        {
            cur = resolve(&mut names, v);
        } else if let Some(v) = line.strip_prefix("fn=") {
            cur = fl.clone();
            cur_fn = resolve(&mut fn_names, v);
        } else if line.starts_with("calls=") {
            // The next line is the call's inclusive cost, which belongs to the callee.
            skip_next = true;
        } else if line.starts_with(|c: char| c.is_ascii_digit() || "+-*".contains(c)) {
            if skip_next {
                skip_next = false;
                continue;
            }
            if let Some(ir) = line
                .split_whitespace()
                .nth(1)
                .and_then(|x| x.parse::<u64>().ok())
            {
                *costs.entry(cur.clone()).or_default() += ir;
                *fn_costs.entry(cur_fn.clone()).or_default() += ir;
            }
        } else if line.starts_with("cfn=") || line.starts_with("cfi=") || line.starts_with("cfl=") {
            // Callee names: record ids, but the current file stays the caller's.
            if let Some((_, v)) = line.split_once('=') {
                if line.starts_with("cfn=") {
                    resolve(&mut fn_names, v);
                } else {
                    resolve(&mut names, v);
                }
            }
        }
    }
    let mut by: HashMap<String, u64> = HashMap::new();
    for (file, ir) in costs {
        *by.entry(short_path(&file)).or_default() += ir;
    }
    (sorted(by), sorted(fn_costs))
}

fn sorted(m: HashMap<String, u64>) -> ByName {
    let mut v: Vec<(String, u64)> = m.into_iter().collect();
    v.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    v
}

/// A source path shortened to what says where it is: `tickfold-core state.rs`,
/// `game-loop-1.3.0/src/base.rs`, `std core/src/ptr/mod.rs`.
fn short_path(p: &str) -> String {
    if p.is_empty() || p == "???" {
        return "(no line info)".to_string();
    }
    if let Some(i) = p.find("/library/") {
        return format!("std `{}`", &p[i + "/library/".len()..]);
    }
    if let Some(i) = p.find("/benches/peers/src/") {
        return format!("bench {}", &p[i + "/benches/peers/src/".len()..]);
    }
    if let Some(i) = p.find("/core/src/") {
        return format!("tickfold-core {}", &p[i + "/core/src/".len()..]);
    }
    if let Some(i) = p.find("/registry/src/") {
        let rest = &p[i + "/registry/src/".len()..];
        let rest = rest.split_once('/').map_or(rest, |(_, r)| r);
        return rest.to_string();
    }
    Path::new(p)
        .file_name()
        .map_or(p.to_string(), |f| f.to_string_lossy().into_owned())
}

/// Keeps the region's result alive.
pub fn consume(x: u64) {
    black_box(x);
}
