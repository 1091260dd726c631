//! The per-frame part of the report: the two regimes' tables and ratios, 1,000 updates, several
//! clocks, `size_of`, instructions per frame and their breakdown, and the speed targets.

use std::fmt::Write as _;

use crate::report::{Results, int, met, ns};
use crate::timing::Cost;

/// The per-frame cases, in column order.
pub const CASES: [&str; 3] = [
    "0 updates + render",
    "1 update + render",
    "8 updates + render",
];

/// Rows of the inlinable table. The first two are tickfold, then game-loop and the floor (the
/// same four, in this order, make the behind-a-call table).
pub const INLINABLE: [&str; 6] = [
    "tickfold `advance_into` (in place)",
    "tickfold `step` (by value)",
    "`game-loop` 1.3.0",
    "floor (exact integers, in the bench)",
    "`bevy_time` 0.20.1 (minimal `App`)",
    "Piston `event_loop` 1.0.0 (bench mode)",
];

/// Rows of the behind-a-call table.
pub const BEHIND_CALL: [&str; 4] = [INLINABLE[0], INLINABLE[1], INLINABLE[2], INLINABLE[3]];

/// Index of game-loop in both tables.
pub const GAME_LOOP: usize = 2;
/// Index of the floor in both tables.
pub const FLOOR: usize = 3;
/// Index of Bevy in [`INLINABLE`].
pub const BEVY: usize = 4;
/// Index of Piston in [`INLINABLE`].
pub const PISTON: usize = 5;

/// The speed target against the inlined game-loop.
pub const GAME_LOOP_TARGET: f64 = 1.2;
/// The several-clocks target: 4 clocks at most this many times one clock.
pub const CLOCKS_TARGET: f64 = 2.0;
/// The floor targets (`advance_into`, `step`): at most this many times the floor, in
/// instructions and in ns.
pub const FLOOR_TARGETS: [f64; 2] = [1.2, 1.3];
/// N clocks at most this many times N single-clock loops (4 and 16 clocks).
pub const PER_CLOCK_TARGET: f64 = 1.25;

/// `clocks[api][i]`: `advance_into` then `step`, with 1, 4 and 16 clocks.
pub type Clocks = [[Cost; 3]; 2];

/// Instructions per frame of one loop: (loop, by source file, by function).
pub type Breakdown = (&'static str, Vec<(String, f64)>, Vec<(String, f64)>);

/// Instructions per frame counted by callgrind.
pub struct Instructions {
    /// Frames counted per figure (0/1/8-update cases and clocks).
    pub frames: u64,
    /// Frames counted in the 1,000-updates case.
    pub many_frames: u64,
    /// `[regime][loop][case]`: regimes inlinable then behind a call; loops as
    /// [`BEHIND_CALL`]; cases as [`CASES`].
    pub per_frame: [[[f64; 3]; 4]; 2],
    /// 1,000 updates: `advance_into`, `step`, floor.
    pub many: [f64; 3],
    /// `[api][i]` as [`Clocks`].
    pub clocks: [[f64; 3]; 2],
    /// Per loop (as [`BEHIND_CALL`]), 1 update + render, inlinable: instructions per frame by
    /// the source file they were compiled from, and by function (self cost), largest first.
    pub breakdown: Vec<Breakdown>,
}

fn ratio(a: &Cost, b: &Cost) -> f64 {
    a.median_ns / b.median_ns
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

fn fmt_ratio(r: f64) -> String {
    if r < 0.01 {
        format!("{r:.4} (1/{:.0})", 1.0 / r)
    } else {
        format!("{r:.2}")
    }
}

/// The per-frame targets' rows of the targets table.
pub fn targets(r: &Results, out: &mut String) {
    let gl = &r.inlinable[GAME_LOOP];
    for (api, name) in ["`advance_into`", "`step`"].iter().enumerate() {
        let ratios: Vec<f64> = (0..3)
            .map(|c| ratio(&r.inlinable[api][c], &gl[c]))
            .collect();
        let ok = ratios.iter().all(|x| *x <= GAME_LOOP_TARGET);
        let shown: Vec<String> = ratios.iter().map(|x| format!("{x:.2}")).collect();
        let tf: Vec<String> = (0..3).map(|c| ns(r.inlinable[api][c].median_ns)).collect();
        let g: Vec<String> = (0..3).map(|c| ns(gl[c].median_ns)).collect();
        let _ = writeln!(
            out,
            "| {name} ≤ {GAME_LOOP_TARGET}× inlined `game-loop` at 0 / 1 / 8 updates + render, both inlinable | {} | {} | {}: ratios {} |",
            tf.join(" / "),
            g.join(" / "),
            met(ok),
            shown.join(" / ")
        );
    }
    let x4: Vec<f64> = r.clocks.iter().map(|a| ratio(&a[1], &a[0])).collect();
    let x16: Vec<f64> = r.clocks.iter().map(|a| ratio(&a[2], &a[0])).collect();
    let _ = writeln!(
        out,
        "| 4 clocks ≤ {CLOCKS_TARGET}× one clock (`advance_into` / `step`; 16 clocks reported) | 4/1: {:.2} / {:.2}; 16/1: {:.2} / {:.2} | — | {} |",
        x4[0],
        x4[1],
        x16[0],
        x16[1],
        met(x4.iter().all(|x| *x <= CLOCKS_TARGET))
    );
    floor_targets(r, out);
    let heap: Vec<String> = r.many[..2]
        .iter()
        .map(|c| {
            format!(
                "{} per frame, {} in set-up",
                allocs(c),
                int(c.first_frames_allocs)
            )
        })
        .collect();
    let _ = writeln!(
        out,
        "| 1,000 updates in one frame (no cap) never allocate (`advance_into` / `step`) | {} | floor {} | {} |",
        heap.join(" / "),
        allocs(&r.many[2]),
        // Per frame: the set-up's allocations are the loop's own box and clock list, made
        // once by `LoopState::new`, whatever the number of updates.
        met(r.many[..2].iter().all(|c| c.allocs_per_frame == 0.0))
    );
    let mut offenders = Vec::new();
    for (api, name) in ["`advance_into`", "`step`"].iter().enumerate() {
        for c in 0..3 {
            for (regime, rows) in [
                ("inlinable", &r.inlinable),
                ("behind a call", &r.behind_call),
            ] {
                let a = rows[api][c].allocs_per_frame;
                if a != 0.0 {
                    offenders.push(format!("{name} {} {regime}: {a:.1}", CASES[c]));
                }
            }
        }
        for (i, n) in [1, 4, 16].iter().enumerate() {
            let a = r.clocks[api][i].allocs_per_frame;
            if a != 0.0 {
                offenders.push(format!("{name} {n} clocks: {a:.1}"));
            }
        }
    }
    let _ = writeln!(
        out,
        "| zero allocations per frame (0 / 1 / 8 updates, both APIs, both regimes, 1 / 4 / 16 clocks) | {} | game-loop {}, Bevy {}, Piston {} | {} |",
        if offenders.is_empty() {
            "0".to_string()
        } else {
            format!("not 0: {}", offenders.join("; "))
        },
        allocs(&gl[1]),
        allocs(&r.inlinable[BEVY][1]),
        allocs(&r.inlinable[PISTON][1]),
        met(offenders.is_empty())
    );
}

/// The rows of the floor targets (`advance_into` ≤ 1.2×, `step` ≤ 1.3× the floor at 0 / 1 / 8
/// updates, in instructions and in ns) and of N clocks against N single-clock loops.
fn floor_targets(r: &Results, out: &mut String) {
    let fl = &r.inlinable[FLOOR];
    let instr = r.instructions.as_ref().ok();
    let two = |xs: &[f64]| {
        xs.iter()
            .map(|x| format!("{x:.2}"))
            .collect::<Vec<_>>()
            .join(" / ")
    };
    for (api, name) in ["`advance_into`", "`step`"].iter().enumerate() {
        let target = FLOOR_TARGETS[api];
        let by_ns: Vec<f64> = (0..3)
            .map(|c| ratio(&r.inlinable[api][c], &fl[c]))
            .collect();
        let by_instr: Option<Vec<f64>> = instr.map(|i| {
            (0..3)
                .map(|c| i.per_frame[0][api][c] / i.per_frame[0][FLOOR][c])
                .collect()
        });
        let ok = by_ns
            .iter()
            .chain(by_instr.iter().flatten())
            .all(|x| *x <= target);
        let _ = writeln!(
            out,
            "| {name} ≤ {target}× the floor in instructions and in ns at 0 / 1 / 8 updates + render, inlinable | instructions {}; ns {} | floor | {} |",
            by_instr
                .as_deref()
                .map_or_else(|| "not counted".to_string(), two),
            two(&by_ns),
            met(ok && by_instr.is_some()),
        );
    }
    // N clocks against N single-clock loops: (N clocks) / (N · one clock).
    let per_clock = |c: &[f64; 3]| [c[1] / (4.0 * c[0]), c[2] / (16.0 * c[0])];
    let by_ns: Vec<[f64; 3]> = r
        .clocks
        .iter()
        .map(|a| [a[0].median_ns, a[1].median_ns, a[2].median_ns])
        .collect();
    let ns_ratios: Vec<[f64; 2]> = by_ns.iter().map(per_clock).collect();
    let instr_ratios: Option<Vec<[f64; 2]>> =
        instr.map(|i| i.clocks.iter().map(per_clock).collect());
    let ok = ns_ratios
        .iter()
        .chain(instr_ratios.iter().flatten())
        .flatten()
        .all(|x| *x <= PER_CLOCK_TARGET);
    let show = |rs: &[[f64; 2]]| {
        format!(
            "4: {:.2} / {:.2}, 16: {:.2} / {:.2}",
            rs[0][0], rs[1][0], rs[0][1], rs[1][1]
        )
    };
    let _ = writeln!(
        out,
        "| 4 and 16 clocks ≤ {PER_CLOCK_TARGET}× as many single-clock loops (`advance_into` / `step`), in instructions and in ns | instructions {}; ns {} | — | {} |",
        instr_ratios
            .as_deref()
            .map_or_else(|| "not counted".to_string(), show),
        show(&ns_ratios),
        met(ok && instr_ratios.is_some()),
    );
}

fn table(out: &mut String, rows: &[&str], costs: &[[Cost; 3]]) {
    let _ = write!(out, "| loop |");
    for c in CASES {
        let _ = write!(out, " {c} | allocs |");
    }
    let _ = writeln!(out, "\n|---|---|---|---|---|---|---|");
    for (name, costs) in rows.iter().zip(costs) {
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
}

fn ratio_rows(out: &mut String, costs: &[[Cost; 3]], peers: &[(usize, &str)]) {
    let _ = write!(out, "| tickfold API / other |");
    for c in CASES {
        let _ = write!(out, " {c} |");
    }
    let _ = writeln!(out, "\n|---|---|---|---|");
    for (t, tname) in ["`advance_into`", "`step`"].iter().enumerate() {
        for (p, pname) in peers {
            let _ = write!(out, "| {tname} / {pname} |");
            for (a, b) in costs[t].iter().zip(&costs[*p]) {
                let _ = write!(out, " {} |", fmt_ratio(ratio(a, b)));
            }
            let _ = writeln!(out);
        }
    }
}

/// Section 1 of the report.
pub fn section(r: &Results, out: &mut String) {
    let _ = writeln!(
        out,
        "60 Hz ticks. Frames every 10 µs (0 updates: one frame in 1,667 runs an update), every \
         1/60 s and every 8/60 s, half a tick off the tick boundaries so every loop runs \
         exactly 1 or 8 updates. The shell does the same with what each loop reports: every \
         update and the render are folded into an integer checksum (tickfold and the floor: each \
         update's index, `t`, lag and `last_in_step`, read through `Events::updates()`; the \
         render's alpha, exact lag and tick count through `Events::render()`; the deadline; \
         `game-loop`: the update's number and the blending factor, all it reports). After every \
         frame the driver goes through `std::hint::black_box`, as if opaque game code ran \
         between frames, and frame times are walked on their grid with an add and a compare \
         (no division). Median ns per frame over {} batches of about 2 ms each, after a 0.2 s \
         warm-up, all the loops of a case, in both regimes, interleaved round by round so that \
         load on the shared machine hits them alike (p10–p90 of the batches in brackets). \
         Allocations (plus reallocations) per frame are counted by the `allocation-counter` \
         crate's global allocator, on the measuring thread only (where every loop runs), on a \
         new loop of each kind, over 10,000 frames of the same code after a set-up of 1,000 \
         frames or one simulated second, whichever is longer. Piston's bench mode has no clock: \
         its frames and updates are on its own grid (`max_fps` 100,000 / 60 / 60 and `ups` \
         60 / 60 / 480). Bevy's `App` uses the single-threaded executor (`bevy_ecs` default \
         features off).\n",
        if r.quick { 11 } else { 61 }
    );
    let _ = writeln!(
        out,
        "**The floor** is a minimal loop written in the bench (`benches/peers/src/floor.rs`) \
         that reports what tickfold's events report, for one catch-up clock: exact integer \
         nanoseconds, the tick grid `k`·10⁹/60 ns walked with an add and a compare per tick; \
         per update the index, `t` (tick start, rounded down), `dt`, the lag (virtual time \
         less the tick's exact start, rounded down, signed) and `last_in_step`; the render \
         (first step, or time advanced) with alpha (exact lag / `dt` as `f64`, clamped to \
         [0, 1]), exact lag and tick count; the deadline (next tick's due time, or `now` with a \
         backlog); a backwards clock (by how much), ticks discarded by the max frame delta \
         (first and count; the tick number jumps over them) and ticks deferred by the cap of \
         8. Its updates are a compact description (first index, count, first grid point, the \
         step's virtual time) from which the shell's iteration derives each update. It leaves \
         out several clocks, the constant-rate policies, phase, hysteresis, the nearest firing \
         rule, time scale, pause, a render cap, the end of time and generic timestamps.\n"
    );
    let _ = writeln!(
        out,
        "### Inlinable: every loop's frame monomorphised and `#[inline(always)]` into its timing loop\n\n\
         As in a user's crate: `game-loop`'s `GameLoop::next_frame` and tickfold's \
         `LoopState::{{step, advance_into}}` are generic, so they are instantiated in the bench \
         crate and the compiler inlines them or not by its own rules, as it would for a user. \
         (Before, the bench called every loop through a `dyn` batch with the frame time computed \
         by a 64-bit division per frame, and `next_frame` stayed an out-of-line call.)\n"
    );
    table(out, &INLINABLE, &r.inlinable);
    let _ = writeln!(out, "\nRatios (medians; below 1.0 tickfold is faster):\n");
    ratio_rows(
        out,
        &r.inlinable,
        &[
            (GAME_LOOP, "game-loop"),
            (FLOOR, "floor"),
            (BEVY, "Bevy"),
            (PISTON, "Piston"),
        ],
    );
    let _ = writeln!(
        out,
        "\n### Behind a call: every loop's frame through an `#[inline(never)]` function\n"
    );
    table(out, &BEHIND_CALL, &r.behind_call);
    let _ = writeln!(out, "\nRatios:\n");
    ratio_rows(
        out,
        &r.behind_call,
        &[(GAME_LOOP, "game-loop"), (FLOOR, "floor")],
    );

    let _ = write!(
        out,
        "\nUpdates per frame each loop actually ran in the allocation runs (the cases do what \
         they say):"
    );
    for (name, costs) in INLINABLE.iter().zip(&r.inlinable) {
        let u: Vec<String> = costs
            .iter()
            .map(|c| format!("{:.4}", c.updates_per_frame))
            .collect();
        let _ = write!(out, " {name}: {};", u.join(" / "));
    }
    out.pop();
    let _ = writeln!(out, ".");
    let _ = write!(
        out,
        "\nAllocations while constructing a loop and running its set-up frames (once, not per \
         frame):"
    );
    for (name, costs) in INLINABLE.iter().zip(&r.inlinable) {
        let u: Vec<String> = costs.iter().map(|c| int(c.first_frames_allocs)).collect();
        let _ = write!(out, " {name}: {};", u.join(" / "));
    }
    out.pop();
    let _ = writeln!(out, ".");

    let _ = writeln!(out, "\n### 1,000 updates in one frame, no cap\n");
    let _ = writeln!(
        out,
        "60 Hz ticks with no update cap and no max frame delta, frames every 1,000/60 s half a \
         tick off the boundaries, inlinable; same shell work as above.\n\n\
         | loop | ns per frame | ns per update | allocations per frame | allocations in set-up | updates per frame |\n|---|---|---|---|---|---|"
    );
    for (name, c) in ["tickfold `advance_into`", "tickfold `step`", "floor"]
        .iter()
        .zip(&r.many)
    {
        let _ = writeln!(
            out,
            "| {name} | {} ({}–{}) | {:.2} ns | {} | {} | {:.1} |",
            ns(c.median_ns),
            ns(c.p10_ns),
            ns(c.p90_ns),
            c.median_ns / c.updates_per_frame.max(1.0),
            allocs(c),
            int(c.first_frames_allocs),
            c.updates_per_frame
        );
    }

    let _ = writeln!(out, "\n### Several clocks\n");
    let _ = writeln!(
        out,
        "Catch-up clocks at 60 + 0.013·`i` Hz (`i` = 0 … 15, all distinct, clock 0 exactly \
         60 Hz), frames every 1/60 s half a tick off clock 0's boundaries, so each clock runs \
         about one update per frame; inlinable, same shell work.\n\n\
         | API | 1 clock | 4 clocks | 16 clocks | 4 / 1 | 16 / 1 | allocations per frame |\n|---|---|---|---|---|---|---|"
    );
    for (name, c) in ["`advance_into`", "`step`"].iter().zip(&r.clocks) {
        let a: Vec<String> = c.iter().map(allocs).collect();
        let _ = writeln!(
            out,
            "| {name} | {} | {} | {} | {:.2} | {:.2} | {} |",
            ns(c[0].median_ns),
            ns(c[1].median_ns),
            ns(c[2].median_ns),
            ratio(&c[1], &c[0]),
            ratio(&c[2], &c[0]),
            a.join(" / ")
        );
    }
    let u: Vec<String> = r.clocks[0]
        .iter()
        .map(|c| format!("{:.3}", c.updates_per_frame))
        .collect();
    let _ = writeln!(out, "\nUpdates per frame (all clocks): {}.", u.join(" / "));

    let _ = writeln!(out, "\n### Sizes of the public value types\n");
    let _ = writeln!(out, "| type | `size_of` (bytes) |\n|---|---|");
    for (t, s) in &r.sizes {
        let _ = writeln!(out, "| `{t}` | {s} |");
    }

    let _ = writeln!(out, "\n### Instructions per frame (callgrind)\n");
    match &r.instructions {
        Ok(i) => out.push_str(&instructions_text(i)),
        Err(e) => {
            let _ = writeln!(out, "Not counted: {e}.");
        }
    }
}

/// The callgrind tables (also printed by `--callgrind`).
pub fn instructions_text(i: &Instructions) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "Counted by `valgrind --tool=callgrind` over {} frames ({} in the 1,000-updates case) \
         after 1,000 set-up frames, in the same timing loops as above: instruction counts are \
         repeatable where nanoseconds on a shared machine are not (they do not weigh \
         instructions by latency: a division or a cache miss counts as one). Only this:\n\n\
         ```sh\ncargo run --release --manifest-path benches/peers/Cargo.toml -- --callgrind\n```\n",
        int(i.frames),
        int(i.many_frames)
    );
    for (r, regime) in ["inlinable", "behind a call"].iter().enumerate() {
        let _ = writeln!(
            out,
            "**{regime}**\n\n| loop | 0 updates + render | 1 update + render | 8 updates + render |\n|---|---|---|---|"
        );
        for (l, name) in BEHIND_CALL.iter().enumerate() {
            let v = &i.per_frame[r][l];
            let _ = writeln!(out, "| {name} | {:.1} | {:.1} | {:.1} |", v[0], v[1], v[2]);
        }
        for (t, tname) in ["`advance_into`", "`step`"].iter().enumerate() {
            for (p, pname) in [(GAME_LOOP, "game-loop"), (FLOOR, "floor")] {
                let v: Vec<String> = (0..3)
                    .map(|c| format!("{:.2}", i.per_frame[r][t][c] / i.per_frame[r][p][c]))
                    .collect();
                let _ = writeln!(out, "| ratio {tname} / {pname} | {} |", v.join(" | "));
            }
        }
        let _ = writeln!(out);
    }
    let _ = writeln!(
        out,
        "1,000 updates, no cap: `advance_into` {:.0}, `step` {:.0}, floor {:.0} instructions per \
         frame. Clocks (1 / 4 / 16): `advance_into` {:.0} / {:.0} / {:.0}, `step` {:.0} / {:.0} / \
         {:.0}.\n",
        i.many[0],
        i.many[1],
        i.many[2],
        i.clocks[0][0],
        i.clocks[0][1],
        i.clocks[0][2],
        i.clocks[1][0],
        i.clocks[1][1],
        i.clocks[1][2]
    );
    let _ = writeln!(
        out,
        "**Breakdown**, 1 update + render, inlinable: instructions per frame by the source file \
         they were compiled from (inlined code keeps its file in the line tables; files under \
         1 instruction per frame left out).\n"
    );
    for (name, files, _) in &i.breakdown {
        let total: f64 = files.iter().map(|f| f.1).sum();
        let parts: Vec<String> = files
            .iter()
            .filter(|f| f.1 >= 1.0)
            .map(|(f, n)| format!("{f} {n:.1}"))
            .collect();
        let _ = writeln!(out, "* {name} ({total:.1}): {}", parts.join(", "));
    }
    let _ = writeln!(
        out,
        "\nThe same runs by function (self cost): every function listed besides the timing loop \
         (`…Driver>::run`) is one the compiler did not inline into it.\n"
    );
    for (name, _, fns) in &i.breakdown {
        let parts: Vec<String> = fns
            .iter()
            .filter(|f| f.1 >= 1.0)
            .map(|(f, n)| format!("`{}` {n:.1}", short_fn(f)))
            .collect();
        let _ = writeln!(out, "* {name}: {}", parts.join(", "));
    }
    out
}

/// A function name without its crate paths' noise.
fn short_fn(f: &str) -> String {
    let f = f
        .replace("tickfold_peers::drivers::", "")
        .replace("tickfold_peers::", "")
        .replace("tickfold_core::state::", "");
    if f.contains("__memcpy") || f.contains("memmove") {
        "memcpy (libc)".to_string()
    } else {
        f
    }
}

/// The notes under the targets table for the per-frame targets: the figures behind a miss, and
/// where tickfold stands against the floor.
pub fn notes(r: &Results, out: &mut String) {
    let gl = &r.inlinable[GAME_LOOP];
    let fl = &r.inlinable[FLOOR];
    let per_case = |f: &dyn Fn(usize) -> f64| -> String {
        (0..3)
            .map(|c| format!("{:.2}", f(c)))
            .collect::<Vec<_>>()
            .join(" / ")
    };
    let _ = writeln!(
        out,
        "* **Against `game-loop`, inlinable** (0 / 1 / 8 updates): `advance_into` {}, `step` {}; \
         the floor, which reports what tickfold reports with nothing else, is itself {} times \
         `game-loop`. Behind a call: `advance_into` {}, `step` {}, floor {}. Against the floor, \
         inlinable: `advance_into` {}, `step` {}; behind a call: {} and {}.",
        per_case(&|c| ratio(&r.inlinable[0][c], &gl[c])),
        per_case(&|c| ratio(&r.inlinable[1][c], &gl[c])),
        per_case(&|c| ratio(&fl[c], &gl[c])),
        per_case(&|c| ratio(&r.behind_call[0][c], &r.behind_call[GAME_LOOP][c])),
        per_case(&|c| ratio(&r.behind_call[1][c], &r.behind_call[GAME_LOOP][c])),
        per_case(&|c| ratio(&r.behind_call[FLOOR][c], &r.behind_call[GAME_LOOP][c])),
        per_case(&|c| ratio(&r.inlinable[0][c], &fl[c])),
        per_case(&|c| ratio(&r.inlinable[1][c], &fl[c])),
        per_case(&|c| ratio(&r.behind_call[0][c], &r.behind_call[FLOOR][c])),
        per_case(&|c| ratio(&r.behind_call[1][c], &r.behind_call[FLOOR][c])),
    );
    let Ok(i) = &r.instructions else {
        return;
    };
    let per_int = |f: &dyn Fn(usize) -> f64| -> String {
        (0..3)
            .map(|c| format!("{:.0}", f(c)))
            .collect::<Vec<_>>()
            .join(" / ")
    };
    let ir = &i.per_frame[0];
    let _ = writeln!(
        out,
        "* **Instructions per frame**, inlinable (0 / 1 / 8 updates; callgrind, repeatable): \
         `advance_into` {}, `step` {}, `game-loop` {}, floor {}.",
        per_int(&|c| ir[0][c]),
        per_int(&|c| ir[1][c]),
        per_int(&|c| ir[GAME_LOOP][c]),
        per_int(&|c| ir[FLOOR][c]),
    );
    let size = |t: &str| r.sizes.iter().find(|(n, _)| *n == t).map_or(0, |(_, s)| *s);
    let fns = |l: usize| i.breakdown.get(l).map(|b| b.2.as_slice()).unwrap_or(&[]);
    let out_of_line = |l: usize| -> Vec<String> {
        fns(l)
            .iter()
            .filter(|(f, n)| !f.contains("Driver>::run") && *n >= 1.0)
            .map(|(f, n)| format!("`{}` ({n:.0})", short_fn(f)))
            .collect()
    };
    let files = |l: usize, pat: &str| -> f64 {
        i.breakdown.get(l).map_or(0.0, |b| {
            b.1.iter().filter(|f| f.0.contains(pat)).map(|f| f.1).sum()
        })
    };
    let tf_ool = out_of_line(0);
    if !tf_ool.is_empty() {
        // Per update: the 8-update frame less the 1-update frame, over 7.
        let per_update = |l: usize| (ir[l][2] - ir[l][1]) / 7.0;
        let smallvec = files(0, "smallvec");
        let lists = if smallvec >= 0.5 {
            format!(
                " The `SmallVec`s behind the step's runs and rare events: {smallvec:.0} \
                 (length and inline/heap checks on every push and read)."
            )
        } else {
            String::new()
        };
        let _ = writeln!(
            out,
            "* **Why tickfold is above the floor** (1 update + render, inlinable, from the \
             callgrind breakdown in section 1; instructions per frame in brackets). (1) Not \
             inlined: the compiler kept {} out of the timing loop of `advance_into` (the floor \
             and `game-loop` are inlined whole), so each frame pays a call, saved registers and \
             the state reloaded through pointers. (2) tickfold-core's own code, \
             {:.0} instructions against the floor's {:.0} in `floor.rs`: the fast path asks \
             one cached flag whether the frame uses what the floor does not have (several \
             clocks, scale, pause, a render cap, the run-time controls), then still pays for \
             generic `Timestamp` conversions, saturating arithmetic at the end of time, the \
             step's span (the virtual-time view's frame delta) and the clock's latest tick \
             (kept for readers between steps and for saves), and builds the step's \
             description (the run, the rare-event lists, the render, the deadline) in an \
             `Events` value the shell then reads.{lists} (3) Each further update: about {:.0} \
             instructions for `advance_into` against the floor's {:.0} (the 8-update frame \
             less the 1-update frame, over 7): its share of the catch-up, and reading it, a \
             {}-byte `Tick` computed from the run's grid point with 64-bit arithmetic while the \
             times fit. (4) For \
             `step` only: {:.0} in `memcpy`, moving `LoopState` ({} bytes, a box) and `Events` \
             ({} bytes, one clock's run inline, several clocks' runs and rare events in buffers the state lends) out of the call every frame.",
            tf_ool.join(", "),
            files(0, "tickfold-core"),
            files(FLOOR, "floor.rs"),
            per_update(0),
            per_update(FLOOR),
            size("Tick"),
            fns(1)
                .iter()
                .filter(|(f, _)| f.contains("memcpy") || f.contains("memmove"))
                .map(|f| f.1)
                .sum::<f64>(),
            size("LoopState<Nanos>"),
            size("Events<Nanos>"),
        );
    }
    let _ = writeln!(
        out,
        "* **Why the floor is above `game-loop`**: it reports more. Per update `game-loop` \
         hands the closure nothing but the loop (the shell counts), where the floor yields \
         index, `t`, lag and `last_in_step`, which the shell reads; its render also carries \
         the exact lag and tick count, and every frame a deadline. Its time is exact: an \
         integer grid walked as whole ns plus a remainder over `den` (two adds and two \
         compares per tick) instead of one `f64` add, compare and subtract, and alpha comes \
         from the exact lag. Its rare paths (max frame delta, backlog) are out of line, so \
         what remains is that bookkeeping; the floor's {} instructions per frame against \
         `game-loop`'s {} (0 / 1 / 8 updates) are what the extra information costs here.",
        per_int(&|c| ir[FLOOR][c]),
        per_int(&|c| ir[GAME_LOOP][c]),
    );
}
