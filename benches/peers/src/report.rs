//! The markdown report: what was measured, the ratios tickfold / peer, and the targets.

use std::fmt::Write as _;

use crate::behaviour::{Drift, Histogram, StallReport};
use crate::timing::Cost;

/// The per-frame cases, in column order.
pub const CASES: [&str; 3] = [
    "0 updates + render",
    "1 update + render",
    "8 updates + render",
];

/// The loops timed per frame, in row order. The first two are tickfold.
pub const TIMED: [&str; 5] = [
    "tickfold `advance_into` (in place)",
    "tickfold `step` (by value)",
    "`game-loop` 1.3.0",
    "`bevy_time` 0.20.1 (minimal `App`)",
    "Piston `event_loop` 1.0.0 (bench mode)",
];

/// Indices into [`TIMED`].
pub const GAME_LOOP: usize = 2;
/// Index of Bevy in [`TIMED`].
pub const BEVY: usize = 3;
/// Index of Piston in [`TIMED`].
pub const PISTON: usize = 4;

/// Histogram rows of one frame rate: (loop label, histogram or why there is none).
pub type HistRows = Vec<(&'static str, Result<Histogram, &'static str>)>;

/// Everything one run measured.
pub struct Results {
    /// `costs[loop][case]`, loops as [`TIMED`], cases as [`CASES`].
    pub costs: Vec<[Cost; 3]>,
    /// Histograms per frame rate: (rate label, rows of (loop label, histogram or why not)).
    pub histograms: Vec<(&'static str, HistRows)>,
    /// Drift rows: (loop, tick length it uses, drift).
    pub drift: Vec<(&'static str, String, Drift)>,
    /// Stall rows: (loop, report, what it says about the dropped time).
    pub stall: Vec<(&'static str, StallReport, String)>,
    /// `rustc --version`, or "unknown".
    pub rustc: String,
    /// Whether this was a `--quick` run.
    pub quick: bool,
}

fn ns(x: f64) -> String {
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

fn allocs(c: &Cost) -> String {
    let a = c.allocs_per_frame;
    if a == 0.0 {
        "0".to_string()
    } else if a >= 1.0 {
        format!("{a:.1}")
    } else {
        format!("{a:.4}")
    }
}

fn met(ok: bool) -> &'static str {
    if ok { "**met**" } else { "**missed**" }
}

/// The headline rows: the targets table, quoted by the README.
fn targets(r: &Results, out: &mut String) {
    let tf = &r.costs[0];
    let gl = &r.costs[GAME_LOOP];
    let bevy = &r.costs[BEVY];
    let one = 1; // the "1 update + render" case
    let ratio_gl = tf[one].median_ns / gl[one].median_ns;
    let zero_alloc = r.costs[0]
        .iter()
        .chain(r.costs[1].iter())
        .all(|c| c.allocs_per_frame == 0.0);
    let (worst, bevy_x) = (0..3)
        .map(|c| (c, bevy[c].median_ns / tf[c].median_ns))
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .expect("three cases");
    let tf_drift = r.drift[0].2.drift_ns;

    let _ = writeln!(out, "| target | tickfold | peers | |");
    let _ = writeln!(out, "|---|---|---|---|");
    let _ = writeln!(
        out,
        "| per-frame time ≤ `game-loop` (1 update + render, ratio ≤ 1.0) | {} | {} | {}: ratio {:.2} |",
        ns(tf[one].median_ns),
        ns(gl[one].median_ns),
        met(ratio_gl <= 1.0),
        ratio_gl
    );
    let _ = writeln!(
        out,
        "| zero allocations per frame (all cases, both APIs) | {} | game-loop {}, Bevy {}, Piston {} | {} |",
        if zero_alloc { "0" } else { "not 0" },
        allocs(&gl[one]),
        allocs(&bevy[one]),
        allocs(&r.costs[PISTON][one]),
        met(zero_alloc)
    );
    let _ = writeln!(
        out,
        "| ≥ 100× faster than Bevy's fixed loop (worst of the three cases: {}) | {} | {} | {}: {:.0}× |",
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
                "| fewer irregular frames (0 or 2+ updates) than every peer, {label} ±50 µs, 36,000 frames | {} ({aa_name}) | {} | {} |",
                int(aa_irr),
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
}

/// What the targets table means, with the reason for every miss.
fn notes(r: &Results, out: &mut String) {
    let tf = &r.costs[0];
    let gl = &r.costs[GAME_LOOP];
    let bevy = &r.costs[BEVY];
    let ratio_gl = tf[1].median_ns / gl[1].median_ns;
    if ratio_gl > 1.0 {
        let _ = writeln!(
            out,
            "* **Per-frame time against `game-loop`: missed** ({} against {}, ratio {:.2}). \
             `game-loop`'s frame is an `f64` add, compare and subtract plus two closure calls; \
             tickfold's does exact integer accounting and writes the events a shell walks \
             (each update with index, `t`, `dt`, lag and `last_in_step`; the render with alpha, \
             exact lag and tick count; drops; the deadline). The pure `step` adds moving the \
             state and the inline events in and out of the call ({} in place, {} by value).",
            ns(tf[1].median_ns),
            ns(gl[1].median_ns),
            ratio_gl,
            ns(tf[1].median_ns),
            ns(r.costs[1][1].median_ns)
        );
    }
    let bevy_x = (0..3)
        .map(|c| bevy[c].median_ns / tf[c].median_ns)
        .fold(f64::INFINITY, f64::min);
    let step_x = (0..3)
        .map(|c| bevy[c].median_ns / r.costs[1][c].median_ns)
        .fold(f64::INFINITY, f64::min);
    let _ = writeln!(
        out,
        "* The 100× target is read on `advance_into`; the by-value `step` is {step_x:.0}× \
         faster than Bevy in its worst case."
    );
    if bevy_x < 100.0 {
        let _ = writeln!(
            out,
            "* **100× Bevy: missed** ({bevy_x:.0}× in the worst case): Bevy's frame runs its \
             whole `Main` schedule (`First` … `Last`, message updates and the fixed loop's \
             schedule per update), and tickfold's own frame cost is the one above."
        );
    }
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
        "Generated by one command (about 15 s once built; Piston's real-time stall takes 7 s of it):\n\n\
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
    let _ = writeln!(
        out,
        "60 Hz ticks. Frames every 10 µs (0 updates: one frame in 1,667 runs an update), every \
         1/60 s and every 8/60 s, half a tick off the tick boundaries so every loop runs \
         exactly 1 or 8 updates. Each update bumps a counter; each render reads the loop's \
         interpolation factor. Median ns per frame over 61 batches of about 2 ms each, after a \
         0.2 s warm-up, the loops of a case interleaved round by round so that load on the \
         shared machine hits them alike (p10–p90 of the batches in brackets). Allocations \
         (plus reallocations) per frame are counted by `allocation-counter` (on the measuring thread, \
         where every loop runs) on a new loop of each kind, over 10,000 frames of the same code after a set-up of 1,000 frames or one simulated \
         second, whichever is longer. Piston's \
         bench mode has no clock: its frames and updates are on its own grid (`max_fps` \
         100,000 / 60 / 60 and `ups` 60 / 60 / 480 for the three cases). Bevy's `App` uses \
         the single-threaded executor (`bevy_ecs` default features off).\n"
    );
    let _ = write!(out, "| loop |");
    for c in CASES {
        let _ = write!(out, " {c} | allocs |");
    }
    let _ = writeln!(out, "\n|---|---|---|---|---|---|---|");
    for (name, costs) in TIMED.iter().zip(&r.costs) {
        let _ = write!(out, "| {name} |");
        for c in costs {
            let _ = write!(
                out,
                " {} ({}–{}) | {} |",
                ns(c.median_ns),
                ns(c.p10_ns),
                ns(c.p90_ns),
                allocs(c)
            );
        }
        let _ = writeln!(out);
    }
    let _ = write!(
        out,
        "\nUpdates per frame each loop actually ran in the allocation run (the cases do what \
         they say):"
    );
    for (name, costs) in TIMED.iter().zip(&r.costs) {
        let u: Vec<String> = costs
            .iter()
            .map(|c| format!("{:.4}", c.updates_per_frame))
            .collect();
        let _ = write!(out, " {}: {};", short(name), u.join(" / "));
    }
    out.pop();
    let _ = writeln!(out, ".");
    let _ = write!(
        out,
        "\nAllocations while constructing a loop and running its set-up frames (once, not per \
         frame):"
    );
    for (name, costs) in TIMED.iter().zip(&r.costs) {
        let u: Vec<String> = costs.iter().map(|c| int(c.first_frames_allocs)).collect();
        let _ = write!(out, " {}: {};", short(name), u.join(" / "));
    }
    out.pop();
    let _ = writeln!(out, ".");
    let _ = writeln!(
        out,
        "\nRatios tickfold / peer (medians; below 1.0 tickfold is faster):\n"
    );
    let _ = write!(out, "| tickfold API / peer |");
    for c in CASES {
        let _ = write!(out, " {c} |");
    }
    let _ = writeln!(out, "\n|---|---|---|---|");
    for (t, tname) in ["`advance_into`", "`step`"].iter().enumerate() {
        for p in [GAME_LOOP, BEVY, PISTON] {
            let _ = write!(out, "| {tname} / {} |", short(TIMED[p]));
            for c in 0..3 {
                let ratio = r.costs[t][c].median_ns / r.costs[p][c].median_ns;
                let _ = write!(out, " {} |", fmt_ratio(ratio));
            }
            let _ = writeln!(out);
        }
    }

    let _ = writeln!(out, "\n## 2. Behaviour on the same schedules\n");
    let _ = writeln!(out, "### Steps per frame under jitter\n");
    let _ = writeln!(
        out,
        "60 Hz ticks; 36,000 frames, frame `k` at `k`·period ± 50 µs (uniform, splitmix64 \
         with a fixed seed, the same sequence for every loop). Irregular frames ran 0 or 2+ \
         updates. At 59.94 Hz, 600.6 s of frames hold 36,036 ticks, so 36 frames with 2 \
         updates are unavoidable.\n"
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
    out
}

fn fmt_ratio(r: f64) -> String {
    if r < 0.01 {
        format!("{r:.4} (1/{:.0})", 1.0 / r)
    } else {
        format!("{r:.2}")
    }
}
