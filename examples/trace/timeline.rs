//! An SVG timeline of a traced run, in the style of the "Constant Rate Loop" article's figures: one row per step on a
//! shared time axis; each update as a box over its tick's slot with a darker bar where it ran;
//! renders as ticks labelled with α; dropped slots in red; sleeps as dashed gaps.

use std::fmt::Write as _;

/// What the trace saw, on the fake clock (ns).
pub(crate) enum Mark {
    /// An update of tick `index` for slot `[slot, slot + dt)`, run from `at` for `cost`.
    Update {
        index: u64,
        slot: u64,
        dt: u64,
        at: u64,
        cost: u64,
    },
    /// A render at `at` with `alpha`.
    Render { at: u64, alpha: f64 },
    /// Slots `[from, to)` dropped.
    Dropped { from: u64, to: u64 },
    /// A sleep from `at` until `until`.
    Sleep { at: u64, until: u64 },
}

/// The SVG for `rows` (one per step).
pub(crate) fn svg(rows: &[Vec<Mark>]) -> String {
    let end = rows
        .iter()
        .flatten()
        .map(|m| match m {
            Mark::Update {
                slot, dt, at, cost, ..
            } => (slot + dt).max(at + cost),
            Mark::Render { at, .. } => *at,
            Mark::Dropped { to, .. } => *to,
            Mark::Sleep { until, .. } => *until,
        })
        .max()
        .unwrap_or(1)
        .max(1);
    let (left, width, row_h) = (60.0, 900.0, 34.0);
    let x = |ns: u64| left + width * ns as f64 / end as f64;
    let height = 40.0 + row_h * rows.len() as f64 + 20.0;
    let mut s = format!(
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{height}" font-family="sans-serif" font-size="10">
<rect width="100%" height="100%" fill="white"/>
<text x="{left}" y="14">time (ms) →  0 … {end_ms:.3}; grey: tick slot, blue: update running, green: render (α), red: dropped slots, dashed: sleep</text>
"##,
        w = left + width + 20.0,
        end_ms = end as f64 / 1e6,
    );
    for (i, row) in rows.iter().enumerate() {
        let y = 30.0 + row_h * i as f64;
        let _ = writeln!(s, r##"<text x="4" y="{}">step {i}</text>"##, y + 16.0);
        for m in row {
            let _ = match m {
                Mark::Update {
                    index,
                    slot,
                    dt,
                    at,
                    cost,
                } => writeln!(
                    s,
                    r##"<rect x="{:.1}" y="{y}" width="{:.1}" height="22" fill="#e8e8e8" stroke="#999"/><rect x="{:.1}" y="{}" width="{:.1}" height="10" fill="#1f77b4"/><text x="{:.1}" y="{}">{index}</text>"##,
                    x(*slot),
                    (x(slot + dt) - x(*slot)).max(1.0),
                    x(*at),
                    y + 12.0,
                    (x(at + cost) - x(*at)).max(2.0),
                    x(*slot) + 2.0,
                    y + 9.0,
                ),
                Mark::Render { at, alpha } => writeln!(
                    s,
                    r##"<line x1="{0:.1}" y1="{y}" x2="{0:.1}" y2="{1}" stroke="#2ca02c" stroke-width="2"/><text x="{2:.1}" y="{1}" fill="#2ca02c">α={alpha:.2}</text>"##,
                    x(*at),
                    y + 22.0,
                    x(*at) + 3.0,
                ),
                Mark::Dropped { from, to } => writeln!(
                    s,
                    r##"<rect x="{:.1}" y="{y}" width="{:.1}" height="22" fill="#d62728" fill-opacity="0.35" stroke="#d62728"/>"##,
                    x(*from),
                    (x(*to) - x(*from)).max(1.0),
                ),
                Mark::Sleep { at, until } => writeln!(
                    s,
                    r##"<line x1="{0:.1}" y1="{1}" x2="{2:.1}" y2="{1}" stroke="#555" stroke-dasharray="4 3"/>"##,
                    x(*at),
                    y + 28.0,
                    x(*until),
                ),
            };
        }
    }
    s.push_str("</svg>\n");
    s
}
