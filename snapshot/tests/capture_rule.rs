//! The capture rule of `Tick::last_in_step`, checked against the naive rule for the snapshot
//! types: random steps of up to five updates on two clocks, with writes of every kind (one
//! element, a range, the whole slice, a publish, pushes and removals) in any update. Each of
//! `DoubleBuffer` (with small dirty chunks, so captures copy only some of them), `Double` and
//! `Persistent` captures through `before_update`; a plain `Vec` model captures before every
//! update of the buffer's clock. After every step, previous and current state and the blend
//! drawn must be the same.

use quickcheck::{Arbitrary, Gen, QuickCheck};
use tickfold_core::{BlendColumns, ClockId, Interpolate, Lag, Nanos, Period, Tick};
use tickfold_snapshot::{Double, DoubleBuffer, Persistent, Tracked};

#[derive(Clone, Debug)]
enum Op {
    Set {
        at: u8,
        v: i8,
    },
    Fill {
        from: u8,
        to: u8,
        v: i8,
    },
    Whole {
        at: u8,
        v: i8,
    },
    /// `write_with`: the next state is the current one plus `by`, then a publish.
    Publish {
        by: i8,
    },
    Push {
        v: i8,
    },
    SwapRemove {
        at: u8,
    },
    Truncate {
        to: u8,
    },
}

impl Arbitrary for Op {
    fn arbitrary(g: &mut Gen) -> Op {
        let (at, v) = (u8::arbitrary(g), i8::arbitrary(g));
        match u8::arbitrary(g) % 10 {
            0..=3 => Op::Set { at, v },
            4 => Op::Fill {
                from: at,
                to: u8::arbitrary(g),
                v,
            },
            5 => Op::Whole { at, v },
            6 => Op::Publish { by: v },
            7 => Op::Push { v },
            8 => Op::SwapRemove { at },
            _ => Op::Truncate { to: at },
        }
    }
}

/// One update: on the second clock when set, and its writes.
#[derive(Clone, Debug)]
struct Update {
    second_clock: bool,
    ops: Vec<Op>,
}

#[derive(Clone, Debug)]
struct Plan {
    len: u8,
    /// Dirty-chunk size of the `DoubleBuffer` in elements: 1, 2, 4, 8 or 16 (4 to 64 bytes).
    chunk_elems: u8,
    /// The buffers follow the second clock.
    second_clock: bool,
    steps: Vec<(Vec<Update>, u8)>,
}

impl Arbitrary for Plan {
    fn arbitrary(g: &mut Gen) -> Plan {
        let steps = (0..usize::from(u8::arbitrary(g) % 12))
            .map(|_| {
                let updates = (0..u8::arbitrary(g) % 6)
                    .map(|_| Update {
                        second_clock: u8::arbitrary(g) % 4 == 0,
                        ops: (0..u8::arbitrary(g) % 5)
                            .map(|_| Op::arbitrary(g))
                            .collect(),
                    })
                    .collect();
                (updates, u8::arbitrary(g))
            })
            .collect();
        Plan {
            len: u8::arbitrary(g) % 40,
            chunk_elems: 1 << (u8::arbitrary(g) % 5),
            second_clock: bool::arbitrary(g),
            steps,
        }
    }
}

/// The reference: a `Vec` of current values and a clone of it taken before every update.
#[derive(Clone, Debug, PartialEq)]
struct Model {
    previous: Vec<f32>,
    current: Vec<f32>,
}

impl Model {
    fn apply(&mut self, op: &Op) {
        let n = self.current.len();
        match *op {
            Op::Set { at, v } | Op::Whole { at, v } if usize::from(at) < n => {
                self.current[usize::from(at)] = f32::from(v);
            }
            Op::Fill { from, to, v } if from <= to && usize::from(to) <= n => {
                self.current[usize::from(from)..usize::from(to)].fill(f32::from(v));
            }
            Op::Publish { by } => {
                let next = self.current.iter().map(|x| x + f32::from(by)).collect();
                self.previous = std::mem::replace(&mut self.current, next);
            }
            Op::Push { v } => {
                self.current.push(f32::from(v));
                self.previous.push(f32::from(v));
            }
            Op::SwapRemove { at } if usize::from(at) < n => {
                self.current.swap_remove(usize::from(at));
                self.previous.swap_remove(usize::from(at));
            }
            Op::Truncate { to } => {
                self.current.truncate(usize::from(to));
                self.previous.truncate(usize::from(to));
            }
            _ => {}
        }
    }

    fn drawn(&self, alpha: f64) -> Vec<f32> {
        let pairs = self.previous.iter().zip(&self.current);
        pairs.map(|(p, c)| p.interpolate(c, alpha)).collect()
    }
}

fn apply_buffer(buf: &mut DoubleBuffer<f32>, op: &Op) {
    let n = buf.len();
    match *op {
        Op::Set { at, v } => _ = buf.set(usize::from(at), f32::from(v)),
        Op::Fill { from, to, v } => {
            if let Ok(s) = buf.slice_mut(usize::from(from)..usize::from(to)) {
                s.fill(f32::from(v));
            }
        }
        Op::Whole { at, v } if usize::from(at) < n => {
            buf.current_mut()[usize::from(at)] = f32::from(v);
        }
        Op::Publish { by } => buf.write_with(|front, back| {
            for (b, f) in back.iter_mut().zip(front) {
                *b = f + f32::from(by);
            }
        }),
        Op::Push { v } => buf.push(f32::from(v)),
        Op::SwapRemove { at } => _ = buf.swap_remove(usize::from(at)),
        Op::Truncate { to } => buf.truncate(usize::from(to)),
        Op::Whole { .. } => {}
    }
}

fn apply_persistent(p: &mut Persistent<f32>, op: &Op) {
    match *op {
        Op::Set { at, v } | Op::Whole { at, v } => _ = p.set(usize::from(at), f32::from(v)),
        Op::Fill { from, to, v } if from <= to && usize::from(to) <= p.len() => {
            for i in usize::from(from)..usize::from(to) {
                _ = p.set(i, f32::from(v));
            }
        }
        Op::Push { v } => p.push(f32::from(v)),
        Op::SwapRemove { at } => _ = p.swap_remove(usize::from(at)),
        Op::Truncate { to } => p.truncate(usize::from(to)),
        // No publish tier: the model below skips it for this type.
        Op::Fill { .. } | Op::Publish { .. } => {}
    }
}

/// `Double<f32>` sees element 0 only: sets write it, a publish writes the next value.
fn apply_double(d: &mut Double<f32>, op: &Op) {
    match *op {
        Op::Set { at: 0, v } | Op::Whole { at: 0, v } => *d.current_mut() = f32::from(v),
        Op::Publish { by } => d.write(d.current() + f32::from(by)),
        _ => {}
    }
}

fn tick(clock: u16, last_in_step: bool) -> Tick {
    Tick {
        clock: ClockId(clock),
        index: 0,
        t: Nanos(0),
        dt: Period::ONE_SECOND,
        lag: Lag::ZERO,
        last_in_step,
    }
}

fn run(plan: &Plan) -> Result<(), String> {
    let start: Vec<f32> = (0..plan.len).map(f32::from).collect();
    let chunk_bytes = usize::from(plan.chunk_elems) * 4;
    let tracked =
        Tracked::with_chunk_bytes(start.clone(), chunk_bytes).map_err(|e| e.to_string())?;
    let clock = u16::from(plan.second_clock);
    let mut buf = DoubleBuffer::from_tracked(tracked);
    buf.set_clock(ClockId(clock));
    // `Double` and `Persistent` follow the main clock.
    let mut double = Double::new(0.0_f32);
    let mut persistent = Persistent::from(start.clone());
    let mut model = Model {
        previous: start.clone(),
        current: start.clone(),
    };
    let mut model_main = model.clone();
    let mut model_one = Model {
        previous: vec![0.0],
        current: vec![0.0],
    };
    for (k, (updates, alpha)) in plan.steps.iter().enumerate() {
        for (i, u) in updates.iter().enumerate() {
            let c = u16::from(u.second_clock);
            let last = !updates[i + 1..]
                .iter()
                .any(|n| n.second_clock == u.second_clock);
            let t = tick(c, last);
            let captured = buf.before_update(&t).is_some();
            if captured != (c == clock && last) {
                return Err(format!(
                    "step {k}: DoubleBuffer captured {captured} at {t:?}"
                ));
            }
            double.before_update(&t);
            persistent.before_update(&t);
            if c == clock {
                model.previous.clone_from(&model.current);
            }
            if c == 0 {
                model_main.previous.clone_from(&model_main.current);
                model_one.previous.clone_from(&model_one.current);
            }
            for op in &u.ops {
                apply_buffer(&mut buf, op);
                model.apply(op);
                apply_double(&mut double, op);
                if matches!(
                    op,
                    Op::Set { at: 0, .. } | Op::Whole { at: 0, .. } | Op::Publish { .. }
                ) {
                    model_one.apply(op);
                }
                apply_persistent(&mut persistent, op);
                if !matches!(op, Op::Publish { .. }) {
                    model_main.apply(op);
                }
            }
        }
        let alpha = f64::from(*alpha) / 255.0;
        let got = (buf.previous(), buf.current());
        if got != (&model.previous[..], &model.current[..]) {
            return Err(format!("step {k}: DoubleBuffer {got:?}, naive {model:?}"));
        }
        let mut drawn = Vec::new();
        buf.blend_into(alpha, &mut drawn);
        if drawn != model.drawn(alpha) {
            return Err(format!("step {k}: DoubleBuffer draws {drawn:?}"));
        }
        let got = (*double.previous(), *double.current());
        if got != (model_one.previous[0], model_one.current[0]) {
            return Err(format!("step {k}: Double {got:?}, naive {model_one:?}"));
        }
        let got: (Vec<f32>, Vec<f32>) = (
            persistent.previous().iter().copied().collect(),
            persistent.current().iter().copied().collect(),
        );
        if (&got.0, &got.1) != (&model_main.previous, &model_main.current) {
            return Err(format!(
                "step {k}: Persistent {got:?}, naive {model_main:?}"
            ));
        }
        let mut drawn = Vec::new();
        persistent.blend_into(alpha, &mut drawn);
        if drawn != model_main.drawn(alpha) {
            return Err(format!("step {k}: Persistent draws {drawn:?}"));
        }
    }
    Ok(())
}

#[test]
fn capturing_before_the_last_update_draws_what_capturing_before_every_update_draws() {
    QuickCheck::new()
        .tests(500)
        .rng(Gen::new(40))
        .quickcheck(run_prop as fn(Plan) -> Result<(), String>);
}

fn run_prop(plan: Plan) -> Result<(), String> {
    run(&plan)
}

#[test]
fn a_buffer_capturing_on_the_wrong_clock_fails_the_comparison() {
    // The property's teeth: a step whose main-clock update writes, followed by a
    // second-clock update, leaves a buffer that captured on the second clock blending the
    // new state with itself.
    let write = Update {
        second_clock: false,
        ops: vec![Op::Set { at: 0, v: 9 }],
    };
    let other = Update {
        second_clock: true,
        ops: vec![],
    };
    let plan = Plan {
        len: 2,
        chunk_elems: 1,
        second_clock: false,
        steps: vec![(vec![write, other], 128)],
    };
    assert_eq!(run(&plan), Ok(()));
    let mut wrong = DoubleBuffer::new(vec![0.0_f32, 1.0]);
    wrong.set_clock(ClockId(1));
    assert!(wrong.before_update(&tick(0, true)).is_none());
    wrong.set(0, 9.0).unwrap();
    assert!(wrong.before_update(&tick(1, true)).is_some());
    assert_eq!(
        wrong.previous(),
        &[9.0, 1.0],
        "the write is lost to the blend"
    );
}
