//! Feature `tracing`: one frame of the runner with two clocks and a drop, recorded by a small
//! subscriber that keeps every span's and event's name, fields, level and parent, rendered as
//! an indented tree. The tree must be exactly the one the guide's profiling chapter shows
//! (`src/guide/profiling.rs`, the block under "One frame, as a subscriber sees it").

use std::fmt::Write as _;
use std::sync::Mutex;
use std::time::Duration;

use tickfold::runner::{NoSleep, Runner, TimeSource};
use tickfold::{ClockConfig, Event, LoopConfig, LoopState, Nanos, Period, Policy};
use tracing::field::{Field, Visit};
use tracing::span::{Attributes, Id, Record};
use tracing::{Level, Metadata, Subscriber};

/// A span or an event, as recorded.
struct Node {
    /// `name fields` for a span, `LEVEL message fields` for an event.
    line: String,
    parent: Option<u64>,
    /// For a span, its id (events have none).
    id: Option<u64>,
}

/// Records spans and events in the order they happen, with their parents (explicit, or the
/// span entered on this thread).
#[derive(Default)]
struct Recorder {
    nodes: Mutex<Vec<Node>>,
    stack: Mutex<Vec<u64>>,
}

/// Writes `name=value` pairs; the message apart.
#[derive(Default)]
struct Fields {
    message: String,
    pairs: String,
}

impl Visit for Fields {
    fn record_debug(&mut self, field: &Field, value: &dyn std::fmt::Debug) {
        if field.name() == "message" {
            self.message = format!("{value:?}");
        } else {
            let _ = write!(self.pairs, " {}={value:?}", field.name());
        }
    }
}

impl Recorder {
    fn parent(&self, explicit: Option<&Id>, contextual: bool) -> Option<u64> {
        match explicit {
            Some(id) => Some(id.into_u64()),
            None if contextual => self.stack.lock().unwrap().last().copied(),
            None => None,
        }
    }

    /// The recorded tree, two spaces of indent per level.
    fn tree(&self) -> String {
        fn children(nodes: &[Node], parent: Option<u64>, depth: usize, out: &mut String) {
            for node in nodes.iter().filter(|n| n.parent == parent) {
                let _ = writeln!(out, "{}{}", "  ".repeat(depth), node.line);
                if node.id.is_some() {
                    children(nodes, node.id, depth + 1, out);
                }
            }
        }
        let mut out = String::new();
        children(&self.nodes.lock().unwrap(), None, 0, &mut out);
        out
    }
}

impl Subscriber for &'static Recorder {
    fn enabled(&self, _: &Metadata<'_>) -> bool {
        true
    }

    fn new_span(&self, span: &Attributes<'_>) -> Id {
        let mut fields = Fields::default();
        span.record(&mut fields);
        let parent = self.parent(span.parent(), span.is_contextual());
        let mut nodes = self.nodes.lock().unwrap();
        let id = nodes.len() as u64 + 1;
        nodes.push(Node {
            line: format!("{}{}", span.metadata().name(), fields.pairs),
            parent,
            id: Some(id),
        });
        Id::from_u64(id)
    }

    fn record(&self, span: &Id, values: &Record<'_>) {
        let mut fields = Fields::default();
        values.record(&mut fields);
        let mut nodes = self.nodes.lock().unwrap();
        let node = nodes
            .iter_mut()
            .find(|n| n.id == Some(span.into_u64()))
            .expect("a span this subscriber made");
        node.line.push_str(&fields.pairs);
    }

    fn record_follows_from(&self, _: &Id, _: &Id) {}

    fn event(&self, event: &tracing::Event<'_>) {
        let mut fields = Fields::default();
        event.record(&mut fields);
        let parent = self.parent(event.parent(), event.is_contextual());
        let level = *event.metadata().level();
        self.nodes.lock().unwrap().push(Node {
            line: format!("{level} {}{}", fields.message, fields.pairs),
            parent,
            id: None,
        });
    }

    fn enter(&self, span: &Id) {
        self.stack.lock().unwrap().push(span.into_u64());
    }

    fn exit(&self, span: &Id) {
        let popped = self.stack.lock().unwrap().pop();
        assert_eq!(
            popped,
            Some(span.into_u64()),
            "spans exit in the order they entered"
        );
    }

    fn max_level_hint(&self) -> Option<tracing::level_filters::LevelFilter> {
        Some(Level::TRACE.into())
    }
}

/// Runs `f` with a new recorder as this thread's subscriber; returns `f`'s result and the tree.
fn record<R>(f: impl FnOnce() -> R) -> (R, String) {
    let recorder: &'static Recorder = Box::leak(Box::default());
    let out = tracing::subscriber::with_default(recorder, f);
    (out, recorder.tree())
}

/// A fake clock: each reading is the next of `times`, in ms.
struct Times(Vec<u64>);

impl TimeSource<Nanos> for Times {
    fn now(&mut self) -> Nanos {
        Nanos::from_millis(self.0.remove(0))
    }
}

/// The tree the guide shows: its first `text` block after the heading.
fn guide_tree() -> String {
    let guide = include_str!("../src/guide/profiling.rs");
    let after = guide
        .split_once("//! ## One frame, as a subscriber sees it")
        .expect("the guide's heading")
        .1;
    let block = after
        .split_once("//! ```text\n")
        .expect("a text block")
        .1
        .split_once("//! ```\n")
        .expect("the block's end")
        .0;
    block
        .lines()
        .map(|l| {
            l.strip_prefix("//! ")
                .unwrap_or(l.trim_start_matches("//!"))
        })
        .fold(String::new(), |s, l| s + l + "\n")
}

#[test]
fn one_frame_with_two_clocks_and_a_drop_is_the_guides_tree() {
    // Physics at 20 Hz and AI at 10 Hz, frames at most 100 ms apart; the frame comes 150 ms
    // after the start: physics' ticks 0, 1 and 2 are due, tick 0 is dropped.
    let config = LoopConfig::from_clock(ClockConfig::new("physics", Period::from_hz(20).unwrap()))
        .clock(ClockConfig::new("ai", Period::from_hz(10).unwrap()))
        .max_frame_delta(Some(Duration::from_millis(100)));
    let state = LoopState::new(config, Nanos(0)).unwrap();
    let mut runner = Runner::new(state, Times(vec![150]), NoSleep);
    let mut handled = Vec::new();
    let ((), tree) = record(|| {
        runner.frame(|event, _| handled.push(*event));
    });
    assert!(matches!(handled[0], Event::DiscardedTime { ticks: 1, .. }));
    assert_eq!(handled.len(), 5);
    assert_eq!(tree, guide_tree(), "recorded:\n{tree}");
}

/// The pure fold, no shell: the step's span at the root, and the handlers' spans beside it
/// when the events are handed on with `hand_on`.
#[test]
fn the_pure_fold_hands_on_in_spans_of_its_own() {
    let config = LoopConfig::new(Period::from_hz(50).unwrap());
    let mut state = LoopState::new(config, Nanos(0)).unwrap();
    let mut seen = Vec::new();
    let ((), tree) = record(|| {
        let events = state.advance(Nanos::from_millis(45));
        state
            .hand_on(&events, |event, state| {
                tracing::info!(at = ?state.as_of_tick().map(|t| t.index), "handled");
                seen.push(event);
            })
            .unwrap();
    });
    assert_eq!(seen.len(), 3);
    assert_eq!(
        tree,
        "step updates=2 by_clock=main: 2\n\
         update clock=\"main\" tick=0\n  INFO handled at=Some(0)\n\
         update clock=\"main\" tick=1\n  INFO handled at=Some(1)\n\
         render alpha=0.25\n  INFO handled at=None\n",
        "recorded:\n{tree}"
    );
}

/// Each of the step's reports at its level: a lost tick is a warning, a deferral (nothing
/// lost) a debug line, a discard the game asked for an info line.
#[test]
fn each_report_has_its_level() {
    let ms = Nanos::from_millis;
    let capped = LoopConfig::new(Period::from_hz(10).unwrap())
        .max_updates(Some(1))
        .max_frame_delta(None);
    let mut capped = LoopState::new(capped, Nanos(0)).unwrap();
    let slots = LoopConfig::new(Period::from_hz(10).unwrap())
        .policy(Policy::DropAndRest)
        .max_frame_delta(None);
    let mut slots = LoopState::new(slots, Nanos(0)).unwrap();
    let ((), tree) = record(|| {
        // 250 ms: ticks 0 and 1 are due, the cap runs one.
        let _ = capped.advance(ms(250));
        // The game gives up the backlog: tick 1.
        let _ = capped.clock_mut("main").unwrap().discard_overstep(ms(100));
        let _ = capped.advance(ms(260));
        // The clock reads 60 ms earlier.
        let _ = capped.advance(ms(200));
        // A constant-rate clock: at 350 ms, the slots of ticks 0 to 2 have passed.
        let _ = slots.advance(ms(350));
    });
    assert_eq!(
        tree,
        "step updates=1 by_clock=main: 1\n  \
           DEBUG ticks deferred to the next step clock=\"main\" ticks=1\n\
         step updates=0 by_clock=main: 0\n  \
           INFO ticks discarded on request clock=\"main\" first=1 count=1\n\
         step updates=0 by_clock=main: 0\n  \
           WARN time went backwards: no time passes by_ns=60000000\n\
         step updates=1 by_clock=main: 1\n  \
           WARN ticks dropped: their slots passed clock=\"main\" first=0 count=4\n",
        "recorded:\n{tree}"
    );
}

/// The web shell's frames (feature `web`; its stamp logic runs on the host): each in a `frame`
/// span, as the runner's.
#[cfg(feature = "web")]
#[test]
fn a_web_frame_is_a_frame_span() {
    use tickfold::web::{Hidden, WebLoop};

    let state = LoopState::new(LoopConfig::new(Period::from_hz(50).unwrap()), Nanos(0)).unwrap();
    let mut page = WebLoop::new(state, Hidden::Pause).unwrap();
    let (handled, tree) = record(|| {
        let mut handled = 0;
        for stamp in [1000.0, 1045.0] {
            page.frame(stamp, |_, _| handled += 1).unwrap();
        }
        handled
    });
    assert_eq!(handled, 4);
    assert_eq!(
        tree,
        "frame\n  step updates=0 by_clock=main: 0\n  render alpha=0.0\n\
         frame\n  step updates=2 by_clock=main: 2\n  \
           update clock=\"main\" tick=0\n  update clock=\"main\" tick=1\n  render alpha=0.25\n",
        "recorded:\n{tree}"
    );
}
