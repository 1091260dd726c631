//! One frame of a Chrome trace (`tracing-chrome`'s threaded style: `B`/`E` pairs per span and
//! `i` entries per event, times in µs) drawn as a trace viewer draws it: time across, one row
//! per nesting level, a bar per span labelled with its name and fields, an event as a marker.

use std::error::Error;
use std::fmt::Write as _;

use serde_json::Value;

/// A span as drawn: where it starts and ends (µs), how deep it is, its label.
struct Bar {
    start: f64,
    end: f64,
    depth: usize,
    name: String,
    label: String,
}

/// An event as drawn: when (µs) and its message.
struct Mark {
    at: f64,
    text: String,
}

/// A field's value as text: `tracing-chrome` writes a string field with its quotes.
fn text(v: &Value) -> String {
    v.as_str()
        .map_or_else(|| v.to_string(), |s| s.trim_matches('"').to_string())
}

/// The span's label: its name and its fields (`update physics #12`, `step 7 updates`).
fn label(name: &str, args: Option<&Value>) -> String {
    let arg = |k: &str| args.and_then(|a| a.get(k)).map(text);
    match name {
        "update" => format!(
            "update {} #{}",
            arg("clock").unwrap_or_default(),
            arg("tick").unwrap_or_default()
        ),
        "step" => format!("step: {}", arg("by_clock").unwrap_or_default()),
        "render" => format!(
            "render α {:.2}",
            arg("alpha")
                .and_then(|a| a.parse::<f64>().ok())
                .unwrap_or(0.0)
        ),
        _ => name.to_string(),
    }
}

/// The first `frame` span of the main thread that holds a WARN event (tickfold's drops), as
/// an SVG; the events are those `tracing-chrome` wrote, spans closed in order.
pub(crate) fn frame_with_warning(json: &str) -> Result<String, Box<dyn Error>> {
    let entries: Vec<Value> =
        serde_json::from_str(json.trim_end().trim_end_matches(',')).or_else(|_| {
            serde_json::from_str(&format!("{}]", json.trim_end().trim_end_matches(',')))
        })?;
    let (mut bars, mut marks, mut open) =
        (Vec::new(), Vec::new(), Vec::<(f64, String, String)>::new());
    let mut frame: Option<(f64, f64)> = None;
    let mut frame_bars = Vec::new();
    let mut frame_marks = Vec::new();
    let mut warned = false;
    for e in &entries {
        let ts = e["ts"].as_f64().unwrap_or(0.0);
        let name = e["name"].as_str().unwrap_or("");
        match e["ph"].as_str() {
            Some("B") => open.push((ts, name.to_string(), label(name, e.get("args")))),
            Some("E") => {
                let Some((start, name, _)) = open.pop() else {
                    continue;
                };
                // The end entry carries the fields recorded since the start (`step`'s counts).
                let label = label(&name, e.get("args"));
                let depth = open.len();
                bars.push(Bar {
                    start,
                    end: ts,
                    depth,
                    name: name.clone(),
                    label,
                });
                if name == "frame" && depth == 0 {
                    if warned {
                        frame = Some((start, ts));
                        frame_bars = std::mem::take(&mut bars);
                        frame_marks = std::mem::take(&mut marks);
                        break;
                    }
                    bars.clear();
                    marks.clear();
                }
            }
            Some("i") => {
                let msg = e["args"]["message"].as_str().unwrap_or(name).to_string();
                warned |= msg.starts_with("ticks dropped");
                let clock = text(&e["args"]["clock"]);
                let ticks = text(&e["args"]["ticks"]);
                marks.push(Mark {
                    at: ts,
                    text: format!("WARN {msg} ({clock}, {ticks} ticks)"),
                });
            }
            _ => {}
        }
    }
    let (t0, t1) = frame.ok_or("no frame with a dropped tick in the trace")?;
    Ok(draw(t0, t1, &frame_bars, &frame_marks))
}

/// The colour of a span's bar, by name.
fn colour(bar: &Bar) -> &'static str {
    match bar.name.as_str() {
        "frame" => "#9e9e9e",
        "step" => "#5c6bc0",
        "update" if bar.label.contains("physics") => "#43a047",
        "update" => "#fb8c00",
        "render" => "#8e24aa",
        "hitch" => "#e53935",
        _ => "#90caf9",
    }
}

fn draw(t0: f64, t1: f64, bars: &[Bar], marks: &[Mark]) -> String {
    let (w, left, row) = (1000.0, 10.0, 26.0);
    let depth = bars.iter().map(|b| b.depth).max().unwrap_or(0) + 1;
    let top = 40.0;
    let h = top + row * depth as f64 + 50.0 + 14.0 * marks.len() as f64;
    let x = |t: f64| left + (t - t0) / (t1 - t0) * (w - 2.0 * left);
    let mut s = String::new();
    let _ = write!(
        s,
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" font-family="sans-serif" font-size="11">
<rect width="{w}" height="{h}" fill="white"/>
<text x="{left}" y="16" font-size="13">One frame of the profile example's Chrome trace (tracing-chrome): {:.1} ms, the frame after a 150 ms hitch</text>
"##,
        (t1 - t0) / 1000.0
    );
    // A time axis every 5 ms.
    let mut ms = 0.0;
    while t0 + ms * 1000.0 <= t1 {
        let xx = x(t0 + ms * 1000.0);
        let _ = writeln!(
            s,
            r##"<line x1="{xx:.1}" y1="{:.1}" x2="{xx:.1}" y2="{:.1}" stroke="#e0e0e0"/><text x="{:.1}" y="{:.1}" fill="#757575">{ms} ms</text>"##,
            top - 8.0,
            top + row * depth as f64,
            xx + 2.0,
            top - 10.0 + row * depth as f64 + 24.0
        );
        ms += 5.0;
    }
    for b in bars {
        let (x0, x1) = (x(b.start), x(b.end));
        let y = top + row * b.depth as f64;
        let bw = (x1 - x0).max(1.0);
        let _ = writeln!(
            s,
            r##"<rect x="{x0:.1}" y="{y:.1}" width="{bw:.1}" height="{:.1}" fill="{}" stroke="white"><title>{} ({:.3} ms)</title></rect>"##,
            row - 2.0,
            colour(b),
            b.label,
            (b.end - b.start) / 1000.0
        );
        // The label when it fits (about 6 px a character).
        if bw > 6.0 * b.label.chars().count() as f64 + 6.0 {
            let _ = writeln!(
                s,
                r##"<text x="{:.1}" y="{:.1}" fill="white">{}</text>"##,
                x0 + 3.0,
                y + row / 2.0 + 3.0,
                b.label
            );
        } else if bw > 14.0 && b.name == "update" {
            let short = b.label.rsplit(' ').next().unwrap_or("");
            let _ = writeln!(
                s,
                r##"<text x="{:.1}" y="{:.1}" fill="white" font-size="9">{short}</text>"##,
                x0 + 2.0,
                y + row / 2.0 + 3.0
            );
        }
    }
    // The step is a sliver at the frame's start: its label under the bars.
    let y = top + row * depth as f64 + 30.0 + 14.0 * marks.len() as f64;
    for b in bars.iter().filter(|b| b.name == "step") {
        let _ = writeln!(
            s,
            r##"<rect x="{left}" y="{:.1}" width="10" height="10" fill="{}"/><text x="{:.1}" y="{y:.1}">{} ({:.3} ms)</text>"##,
            y - 9.0,
            colour(b),
            left + 14.0,
            b.label,
            (b.end - b.start) / 1000.0
        );
    }
    for (i, m) in marks.iter().enumerate() {
        let xx = x(m.at);
        let y = top + row * depth as f64 + 30.0 + 14.0 * i as f64;
        let _ = writeln!(
            s,
            r##"<path d="M{xx:.1},{:.1} l-5,-9 h10 z" fill="#e53935"/><line x1="{xx:.1}" y1="{top}" x2="{xx:.1}" y2="{:.1}" stroke="#e53935" stroke-dasharray="2,2"/><text x="{:.1}" y="{y:.1}" fill="#c62828">{}</text>"##,
            top + row + 9.0,
            y - 10.0,
            xx + 8.0,
            m.text
        );
    }
    s.push_str("</svg>\n");
    s
}
