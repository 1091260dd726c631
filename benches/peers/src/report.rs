//! The markdown report: what was measured, the ratios tickfold / peer, and the targets.

use std::fmt::Write as _;

use crate::behaviour::{Drift, Histogram, StallReport};
use crate::report_controls::{self, Controls};
use crate::report_cost;
use crate::timing::Cost;

use crate::report_cost::BEVY;
pub use crate::report_cost::{
    BEHIND_CALL, CASES, Clocks, INLINABLE, Instructions, instructions_text,
};

/// Histogram rows of one frame rate: (loop label, histogram or why there is none).
pub type HistRows = Vec<(&'static str, Result<Histogram, &'static str>)>;

/// Everything one run measured.
pub struct Results {
    /// `inlinable[loop][case]`, loops as [`INLINABLE`], cases as [`CASES`].
    pub inlinable: Vec<[Cost; 3]>,
    /// The same, each frame behind a call, loops as [`BEHIND_CALL`].
    pub behind_call: Vec<[Cost; 3]>,
    /// 1,000 updates per frame: `advance_into`, `step`, the floor.
    pub many: [Cost; 3],
    /// 1, 4 and 16 clocks.
    pub clocks: Clocks,
    /// `size_of` of tickfold's public value types.
    pub sizes: Vec<(&'static str, usize)>,
    /// Instructions per frame, or why they were not counted.
    pub instructions: Result<Instructions, String>,
    /// Histograms per frame rate: (rate label, rows of (loop label, histogram or why not)).
    pub histograms: Vec<(&'static str, HistRows)>,
    /// The defaults-against-defaults section (`defaults::section`).
    pub defaults: String,
    /// Drift rows: (loop, tick length it uses, drift).
    pub drift: Vec<(&'static str, String, Drift)>,
    /// Stall rows: (loop, report, what it says about the dropped time).
    pub stall: Vec<(&'static str, StallReport, String)>,
    /// Run-time controls against Bevy's `set_timestep` and `spin_sleep`'s `Delay`.
    pub controls: Controls,
    /// `rustc --version`, or "unknown".
    pub rustc: String,
    /// Whether this was a `--quick` run.
    pub quick: bool,
}

/// `x` ns, or µs from 1,000 ns.
pub fn ns(x: f64) -> String {
    if x >= 1000.0 {
        format!("{:.2} µs", x / 1000.0)
    } else {
        format!("{x:.1} ns")
    }
}

/// `n` with thousands separators.
pub fn int(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

fn signed_ns(x: f64) -> String {
    let r = x.round();
    if r == 0.0 {
        // Show sub-nanosecond residue of a float grid honestly.
        if x == 0.0 {
            "0 ns".to_string()
        } else {
            format!("{x:+.3} ns")
        }
    } else {
        let sign = if r > 0.0 { "+" } else { "−" };
        format!("{sign}{} ns", int(r.abs() as u64))
    }
}

/// Bold met or missed.
pub fn met(ok: bool) -> &'static str {
    if ok { "**met**" } else { "**missed**" }
}

/// The headline rows: the targets table, quoted by the README.
fn targets(r: &Results, out: &mut String) {
    let tf = &r.inlinable[0];
    let bevy = &r.inlinable[BEVY];
    let (worst, bevy_x) = (0..3)
        .map(|c| (c, bevy[c].median_ns / tf[c].median_ns))
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .expect("three cases");
    let tf_drift = r.drift[0].2.drift_ns;

    let _ = writeln!(out, "| target | tickfold | others | |");
    let _ = writeln!(out, "|---|---|---|---|");
    report_cost::targets(r, out);
    let _ = writeln!(
        out,
        "| ≥ 100× faster than Bevy's fixed loop (`advance_into`, worst of the three cases: {}) | {} | {} | {}: {:.0}× |",
        CASES[worst],
        ns(tf[worst].median_ns),
        ns(bevy[worst].median_ns),
        met(bevy_x >= 100.0),
        bevy_x
    );
    let peers_drift: Vec<String> = r.drift[1..]
        .iter()
        .map(|(n, _, d)| format!("{} {}", short(n), signed_ns(d.drift_ns)))
        .collect();
    let _ = writeln!(
        out,
        "| zero drift of the tick grid after 1 h at 60 Hz | {} | {} | {} |",
        signed_ns(tf_drift),
        peers_drift.join(", "),
        met(tf_drift == 0.0)
    );
    for (label, rows) in &r.histograms {
        let aa = rows
            .iter()
            .filter(|(n, _)| n.starts_with("tickfold") && *n != "tickfold plain")
            .filter_map(|(n, h)| h.as_ref().ok().map(|h| (n, h.irregular())))
            .min_by_key(|(_, i)| *i);
        let peers: Vec<(&str, u64)> = rows
            .iter()
            .filter(|(n, _)| !n.starts_with("tickfold"))
            .filter_map(|(n, h)| h.as_ref().ok().map(|h| (*n, h.irregular())))
            .collect();
        if let Some((aa_name, aa_irr)) = aa {
            let ok = peers.iter().all(|(_, p)| aa_irr < *p);
            let list: Vec<String> = peers
                .iter()
                .map(|(n, p)| format!("{} {}", short(n), int(*p)))
                .collect();
            let _ = writeln!(
                out,
                "| fewer irregular frames (0 or 2+ updates) than every peer, {label}, 36,000 frames | {} ({aa_name}) | {} | {} |",
                int(aa_irr),
                list.join(", "),
                met(ok)
            );
        }
        let smooth = rows
            .iter()
            .find(|(n, _)| n.contains("DeltaSmoother"))
            .and_then(|(_, h)| h.as_ref().ok());
        if let (true, Some(h)) = (label.contains("web"), smooth) {
            let ok = peers.iter().all(|(_, p)| h.irregular() < *p);
            let list: Vec<String> = peers
                .iter()
                .map(|(n, p)| format!("{} {}", short(n), int(*p)))
                .collect();
            let _ = writeln!(
                out,
                "| smoothed frame deltas (`DeltaSmoother`, plain fold): fewer irregular frames than every peer, {label}, 36,000 frames | {} | {} | {} |",
                int(h.irregular()),
                list.join(", "),
                met(ok)
            );
        }
    }
    let tf_stall = &r.stall[0].1;
    let peer_reports: Vec<String> = r.stall[1..]
        .iter()
        .map(|(n, s, _)| format!("{} {} of {}", short(n), int(s.reported), int(s.lost)))
        .collect();
    let _ = writeln!(
        out,
        "| every tick dropped by a 5 s stall is reported | {} of {} | {} | {} |",
        int(tf_stall.reported),
        int(tf_stall.lost),
        peer_reports.join(", "),
        met(tf_stall.reported == tf_stall.lost)
    );
    report_controls::targets(&r.controls, out);
}

/// What the targets table means, with the reason for every miss.
fn notes(r: &Results, out: &mut String) {
    report_cost::notes(r, out);
    if let Some((_, _, d)) = r.drift.iter().find(|(n, _, _)| n.contains("game-loop"))
        && d.drift_ns.abs() < 1.0
    {
        let _ = writeln!(
            out,
            "* `game-loop` also shows no measurable drift here: its `f64` accumulator takes \
             away one tick at a time and stays below one tick, so at matched 60/60 rates its \
             rounding stays under a nanosecond. Only Bevy (16,666,667 ns ticks) and Piston \
             (16,666,666 ns ticks, reported as 1/60 s) drift; tickfold's zero is exact by \
             construction, not by luck of rounding."
        );
    }
    let _ = writeln!(
        out,
        "* Anti-aliasing: `.phase(0.5)` removes all aliasing at exactly matched rates, where \
         the phase of frames against ticks never moves; at 59.94 Hz the phase sweeps through \
         every value once per 1001 frames, so only `.hysteresis(0.5)` helps there (36 frames \
         with 2 updates are unavoidable in 36,000 frames)."
    );
    let _ = writeln!(
        out,
        "* Piston has no jitter rows: bench mode runs its own perfect frame grid and its \
         normal mode reads `Instant::now()` itself, so neither can replay a schedule. Its \
         stall row is measured on the real clock, so its counts carry ±1 tick of timing."
    );
}

fn short(name: &str) -> &str {
    if name.contains("advance_into") {
        "tickfold `advance_into`"
    } else if name.contains("`step`") {
        "tickfold `step`"
    } else if name.contains("game-loop") {
        "game-loop"
    } else if name.contains("bevy") {
        "Bevy"
    } else if name.contains("Piston") {
        "Piston"
    } else {
        name
    }
}

/// The whole report as markdown.
pub fn render(r: &Results) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "# tickfold against its peers\n");
    let _ = writeln!(
        out,
        "Generated by one command (about a minute once built: the timing runs, Piston's \
         real-time stall, 7 s of it, and the callgrind counts):\n\n\
         ```sh\ncargo run --release --manifest-path benches/peers/Cargo.toml\n```\n"
    );
    let _ = writeln!(
        out,
        "One run on this project's shared 2-core machine ({}){}. The figures are noisy: \
         compare ratios within this file, not across machines. Peers are pinned exactly in \
         `benches/peers/Cargo.toml`; the crate is not a workspace member, so `cargo test` never \
         builds Bevy.\n",
        r.rustc,
        if r.quick {
            ", **`--quick` budget: fewer, shorter batches**"
        } else {
            ""
        }
    );

    let _ = writeln!(out, "## Targets\n");
    targets(r, &mut out);

    let _ = writeln!(out);
    notes(r, &mut out);
    let _ = writeln!(out, "\n## 1. Per-frame cost\n");
    report_cost::section(r, &mut out);
    let _ = writeln!(out, "\n## 2. Behaviour on the same schedules\n");
    let _ = writeln!(out, "### Steps per frame under jitter\n");
    let _ = writeln!(
        out,
        "60 Hz ticks; 36,000 frames, frame `k` at `k`·period ± 50 µs (uniform, splitmix64 \
         with a fixed seed, the same sequence for every loop). Irregular frames ran 0 or 2+ \
         updates. At 59.94 Hz, 600.6 s of frames hold 36,036 ticks, so 36 frames with 2 \
         updates are unavoidable. Web stamps: frame `k` at `k`·period ± 1 ms (uniform, as \
         `requestAnimationFrame` jitters around the refresh), coarsened to 100 µs (as \
         `performance.now()` is without cross-origin isolation). The `DeltaSmoother` rows \
         feed the same stamps through `tickfold::DeltaSmoother` (default 4 ms bound) before a \
         plain fold, as a smoothing shell does.\n"
    );
    for (label, rows) in &r.histograms {
        let _ = writeln!(out, "**{label} frames**\n");
        let _ = writeln!(
            out,
            "| loop | 0 updates | 1 | 2 | 3+ | irregular | updates run |\n|---|---|---|---|---|---|---|"
        );
        for (name, h) in rows {
            match h {
                Ok(h) => {
                    let _ = writeln!(
                        out,
                        "| {name} | {} | {} | {} | {} | **{}** | {} |",
                        int(h.frames[0]),
                        int(h.frames[1]),
                        int(h.frames[2]),
                        int(h.frames[3]),
                        int(h.irregular()),
                        int(h.updates)
                    );
                }
                Err(why) => {
                    let _ = writeln!(out, "| {name} | n/a: {why} | | | | | |");
                }
            }
        }
        let _ = writeln!(out);
    }
    out.push_str(&r.defaults);
    let _ = writeln!(out);

    let _ = writeln!(out, "### Drift of the tick grid after one hour at 60 Hz\n");
    let _ = writeln!(
        out,
        "216,000 frames, frame `k` at ⌊`k`·10⁹/60⌋ ns, the last at exactly 3600 s. Drift: when \
         the loop's own accounting has tick 216,000 end (the time of the last frame, less the \
         lag it reports, plus its own tick length per tick still missing), less 3600 s. \
         Positive: the grid runs late. Piston runs in bench mode at 1 frame per second (its \
         only exact frame grid: `1e9 / max_fps` is truncated too).\n"
    );
    let _ = writeln!(
        out,
        "| loop | tick length | ticks run by 3600 s (exact: 216,000) | grid drift after 1 h |\n|---|---|---|---|"
    );
    for (name, len, d) in &r.drift {
        let _ = writeln!(
            out,
            "| {name} | {len} | {} | {} |",
            int(d.ticks_run),
            signed_ns(d.drift_ns)
        );
    }

    let _ = writeln!(out, "\n### A 5 s stall (the spiral of death)\n");
    let _ = writeln!(
        out,
        "1 s of 60 Hz frames at mid-tick, then nothing for 5 s, then 2 s of frames. Every loop \
         has a 250 ms max frame delta (Bevy's default) and tickfold its default cap of 8 \
         updates per step. Ticks lost: due on an exact 60 Hz grid by the last frame, less \
         ticks run (every loop has caught up by then). Piston's bench mode has no clock to \
         stall, so its row is its normal mode on the real clock (a 5 s `thread::sleep` inside \
         an update; `ups_reset` at its default of 2), about 7 s of real time.\n"
    );
    let _ = writeln!(
        out,
        "| loop | updates in the 4 frames after | updates after the stall | ticks lost | ticks reported dropped | what it says |\n|---|---|---|---|---|---|"
    );
    for (name, s, says) in &r.stall {
        let after: Vec<String> = s.after.iter().map(|u| u.to_string()).collect();
        let _ = writeln!(
            out,
            "| {name} | {} | {} | {} | {} | {says} |",
            after.join(", "),
            int(s.work),
            int(s.lost),
            int(s.reported)
        );
    }
    report_controls::section(&r.controls, &mut out);
    // Measured by its own script (two builds of this bench), kept in the file it writes.
    let _ = writeln!(out, "\n## 4. The `tracing` feature's cost\n");
    out.push_str(include_str!("../tracing_cost.md"));
    out
}
