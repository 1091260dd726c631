//! Roundtrip properties against a naive oracle: after each tick's capture, "previous" equals a
//! plain clone of the state taken before the tick, under random write patterns, for full,
//! dirty-chunk, persistent and ring snapshots alike. The oracle is a `Vec` and `clone()`.

use quickcheck::{Arbitrary, Gen, QuickCheck};
use tickfold_snapshot::{
    DoubleBuffer, Persistent, Ring, SnapshotError, TickNotInRing, Tracked, chunk_checksum,
    state_checksum,
};

/// The hostile mix of length changes, rings shared by two chunk sizes, publishes and bad input.
mod hostile;

/// One write to the state.
#[derive(Clone, Debug)]
enum Op {
    /// Element `i % len` becomes `v`.
    Set(usize, u32),
    /// Elements `i % len ..` (up to `n`) become `v`, through `slice_mut`.
    Fill(usize, usize, u32),
    /// Every element gets `v` added, through the whole-slice write.
    AddAll(u32),
    /// Appends `v` to both buffers.
    Push(u32),
    /// Removes element `i % len`, the last one moving into its place.
    SwapRemove(usize),
    /// Shortens to `len − n`.
    Truncate(usize),
}

impl Arbitrary for Op {
    fn arbitrary(g: &mut Gen) -> Op {
        let i = usize::arbitrary(g) % 4096;
        let v = u32::arbitrary(g);
        match u8::arbitrary(g) % 16 {
            0..=8 => Op::Set(i, v),
            9..=11 => Op::Fill(i, usize::arbitrary(g) % 64, v),
            12 => Op::AddAll(v),
            13 => Op::Push(v),
            14 => Op::SwapRemove(i),
            _ => Op::Truncate(usize::arbitrary(g) % 4),
        }
    }
}

/// Ticks of writes over an initial state, and the chunk size in bytes.
#[derive(Clone, Debug)]
struct Plan {
    initial: Vec<u32>,
    ticks: Vec<Vec<Op>>,
    chunk_bytes: usize,
}

impl Arbitrary for Plan {
    fn arbitrary(g: &mut Gen) -> Plan {
        let len = usize::arbitrary(g) % 300;
        let ticks = usize::arbitrary(g) % 40;
        Plan {
            initial: (0..len).map(|_| u32::arbitrary(g)).collect(),
            ticks: (0..ticks)
                .map(|_| {
                    let n = usize::arbitrary(g) % 12;
                    (0..n).map(|_| Op::arbitrary(g)).collect()
                })
                .collect(),
            // 4 B (one element per chunk) to 4 KiB (the whole state in one chunk).
            chunk_bytes: 1 << (2 + usize::arbitrary(g) % 11),
        }
    }

    fn shrink(&self) -> Box<dyn Iterator<Item = Plan>> {
        let (initial, chunk_bytes) = (self.initial.clone(), self.chunk_bytes);
        Box::new(self.ticks.shrink().map(move |ticks| Plan {
            initial: initial.clone(),
            ticks,
            chunk_bytes,
        }))
    }
}

/// Applies `op` to the oracle: `current` gets every write; `previous` gets the length changes,
/// which the buffers apply to both sides.
fn apply_oracle(op: &Op, current: &mut Vec<u32>, previous: &mut Vec<u32>) {
    let len = current.len();
    match *op {
        Op::Set(i, v) if len > 0 => current[i % len] = v,
        Op::Fill(i, n, v) if len > 0 => {
            let start = i % len;
            let end = (start + n).min(len);
            current[start..end].fill(v);
        }
        Op::AddAll(v) => current.iter_mut().for_each(|x| *x = x.wrapping_add(v)),
        Op::Push(v) => {
            current.push(v);
            previous.push(v);
        }
        Op::SwapRemove(i) if len > 0 => {
            current.swap_remove(i % len);
            previous.swap_remove(i % len);
        }
        Op::Truncate(n) => {
            current.truncate(len.saturating_sub(n));
            previous.truncate(len.saturating_sub(n));
        }
        _ => {}
    }
}

/// The tracked writes `DoubleBuffer` and `Tracked` share, so one `apply` drives both.
trait Writes {
    fn len(&self) -> usize;
    fn set(&mut self, i: usize, v: u32) -> Result<(), SnapshotError>;
    fn slice_mut(&mut self, r: core::ops::Range<usize>) -> Result<&mut [u32], SnapshotError>;
    fn all_mut(&mut self) -> &mut [u32];
    fn push(&mut self, v: u32);
    fn swap_remove(&mut self, i: usize) -> Result<u32, SnapshotError>;
    fn truncate(&mut self, n: usize);
    fn resize(&mut self, n: usize, v: u32);
    fn get_mut(&mut self, i: usize) -> Option<&mut u32>;
    fn index_set(&mut self, i: usize, v: u32);
}

macro_rules! writes {
    ($t:ty, $all:ident, $slice:ident) => {
        impl Writes for $t {
            fn len(&self) -> usize {
                // Through the read view: a path call `<$t>::len` would find this very method.
                self.$slice().len()
            }
            fn set(&mut self, i: usize, v: u32) -> Result<(), SnapshotError> {
                <$t>::set(self, i, v)
            }
            fn slice_mut(
                &mut self,
                r: core::ops::Range<usize>,
            ) -> Result<&mut [u32], SnapshotError> {
                <$t>::slice_mut(self, r)
            }
            fn all_mut(&mut self) -> &mut [u32] {
                <$t>::$all(self)
            }
            fn push(&mut self, v: u32) {
                <$t>::push(self, v)
            }
            fn swap_remove(&mut self, i: usize) -> Result<u32, SnapshotError> {
                <$t>::swap_remove(self, i)
            }
            fn truncate(&mut self, n: usize) {
                <$t>::truncate(self, n)
            }
            fn resize(&mut self, n: usize, v: u32) {
                <$t>::resize(self, n, v)
            }
            fn get_mut(&mut self, i: usize) -> Option<&mut u32> {
                <$t>::get_mut(self, i)
            }
            fn index_set(&mut self, i: usize, v: u32) {
                self[i] = v;
            }
        }
    };
}

writes!(DoubleBuffer<u32>, current_mut, current);
writes!(Tracked<u32>, as_mut_slice, as_slice);

/// Applies `op` through the tracked writes.
fn apply(op: &Op, w: &mut impl Writes) {
    let len = w.len();
    match *op {
        Op::Set(i, v) if len > 0 => w.set(i % len, v).unwrap(),
        Op::Fill(i, n, v) if len > 0 => {
            let start = i % len;
            let end = (start + n).min(len);
            w.slice_mut(start..end).unwrap().fill(v);
        }
        Op::AddAll(v) => w.all_mut().iter_mut().for_each(|x| *x = x.wrapping_add(v)),
        Op::Push(v) => w.push(v),
        Op::SwapRemove(i) if len > 0 => {
            w.swap_remove(i % len).unwrap();
        }
        Op::Truncate(n) => w.truncate(len.saturating_sub(n)),
        _ => {}
    }
}

/// Runs the plan on a double buffer capturing before every tick, checking both sides after
/// each tick against the oracle.
fn double_buffer_matches(plan: &Plan, full_copy_percent: u8) -> bool {
    let mut tracked = Tracked::with_chunk_bytes(plan.initial.clone(), plan.chunk_bytes).unwrap();
    tracked.set_full_copy_percent(full_copy_percent).unwrap();
    let mut buf = DoubleBuffer::from_tracked(tracked);
    let mut current = plan.initial.clone();
    for ops in &plan.ticks {
        let _ = buf.capture();
        let mut previous = current.clone();
        for op in ops {
            apply_oracle(op, &mut current, &mut previous);
            apply(op, &mut buf);
        }
        if buf.previous() != previous || buf.current() != current {
            return false;
        }
    }
    true
}

/// `double_buffer_matches` at full-copy threshold `P`, as a quickcheck property.
fn at_threshold<const P: u8>(plan: Plan) -> bool {
    double_buffer_matches(&plan, P)
}

/// Checks the property over `tests` random plans.
fn check_double_buffer(prop: fn(Plan) -> bool, tests: u64) {
    QuickCheck::new().tests(tests).quickcheck(prop);
}

#[test]
fn dirty_capture_equals_a_clone_of_the_state_before_the_tick() {
    check_double_buffer(at_threshold::<50>, 1500);
}

#[test]
fn dirty_capture_without_full_fallback_equals_the_clone() {
    check_double_buffer(at_threshold::<100>, 1500);
}

#[test]
fn full_capture_equals_the_clone() {
    check_double_buffer(at_threshold::<0>, 500);
}

#[test]
fn publish_makes_the_old_front_the_back_and_capture_still_works_after() {
    fn prop(plan: Plan, publish_every: u8) -> bool {
        let every = usize::from(publish_every % 4) + 1;
        let tracked = Tracked::with_chunk_bytes(plan.initial.clone(), plan.chunk_bytes).unwrap();
        let mut buf = DoubleBuffer::from_tracked(tracked);
        let mut current = plan.initial.clone();
        for (k, ops) in plan.ticks.iter().enumerate() {
            let mut previous = current.clone();
            if k % every == 0 {
                // Publish tier: the next state computed from the front into the back.
                let next: Vec<u32> = current.iter().map(|x| x.rotate_left(3)).collect();
                buf.write_with(|front, back| {
                    for (b, f) in back.iter_mut().zip(front) {
                        *b = f.rotate_left(3);
                    }
                });
                current = next;
            } else {
                let _ = buf.capture();
                for op in ops {
                    apply_oracle(op, &mut current, &mut previous);
                    apply(op, &mut buf);
                }
            }
            if buf.previous() != previous || buf.current() != current {
                return false;
            }
        }
        true
    }
    QuickCheck::new()
        .tests(500)
        .quickcheck(prop as fn(Plan, u8) -> bool);
}

#[test]
fn persistent_capture_equals_the_clone() {
    fn prop(plan: Plan) -> bool {
        let mut p: Persistent<u32> = plan.initial.clone().into();
        let mut current = plan.initial.clone();
        for ops in &plan.ticks {
            p.capture();
            let mut previous = current.clone();
            for op in ops {
                apply_oracle(op, &mut current, &mut previous);
                let len = p.len();
                match *op {
                    Op::Set(i, v) if len > 0 => p.set(i % len, v).unwrap(),
                    Op::Fill(i, n, v) if len > 0 => {
                        let start = i % len;
                        for j in start..(start + n).min(len) {
                            p.set(j, v).unwrap();
                        }
                    }
                    Op::AddAll(v) => {
                        for j in 0..len {
                            let x = p.get_mut(j).unwrap();
                            *x = x.wrapping_add(v);
                        }
                    }
                    Op::Push(v) => p.push(v),
                    Op::SwapRemove(i) if len > 0 => {
                        p.swap_remove(i % len).unwrap();
                    }
                    Op::Truncate(n) => p.truncate(len.saturating_sub(n)),
                    _ => {}
                }
            }
            let prev: Vec<u32> = p.previous().iter().copied().collect();
            let cur: Vec<u32> = p.current().iter().copied().collect();
            if prev != previous || cur != current {
                return false;
            }
        }
        true
    }
    QuickCheck::new()
        .tests(500)
        .quickcheck(prop as fn(Plan) -> bool);
}

/// The whole-state checksum computed from scratch: every chunk hashed, then combined.
fn naive_checksum(data: &[u32], chunk_len: usize) -> u64 {
    let hashes: Vec<u64> = data.chunks(chunk_len).map(chunk_checksum).collect();
    state_checksum(&hashes, data.len())
}

/// What one rollback plan does per tick: write, then maybe roll back `k` ticks.
#[derive(Clone, Debug)]
struct RingPlan {
    plan: Plan,
    ring: usize,
    rollbacks: Vec<Option<u8>>,
}

impl Arbitrary for RingPlan {
    fn arbitrary(g: &mut Gen) -> RingPlan {
        let plan = Plan::arbitrary(g);
        let rollbacks = (0..plan.ticks.len())
            .map(|_| (u8::arbitrary(g) % 4 == 0).then(|| u8::arbitrary(g) % 12))
            .collect();
        RingPlan {
            plan,
            ring: 1 + usize::arbitrary(g) % 9,
            rollbacks,
        }
    }

    fn shrink(&self) -> Box<dyn Iterator<Item = RingPlan>> {
        let (ring, rollbacks) = (self.ring, self.rollbacks.clone());
        Box::new(self.plan.shrink().map(move |plan| RingPlan {
            rollbacks: rollbacks[..plan.ticks.len()].to_vec(),
            plan,
            ring,
        }))
    }
}

#[test]
fn ring_saves_equal_clones_and_loads_restore_them_or_say_the_tick_is_gone() {
    fn prop(rp: RingPlan) -> bool {
        let plan = &rp.plan;
        let mut world = Tracked::with_chunk_bytes(plan.initial.clone(), plan.chunk_bytes).unwrap();
        let chunk_len = world.chunk_len();
        let mut ring = Ring::new(rp.ring, &world).unwrap();
        let mut current = plan.initial.clone();
        // history[t] = the oracle state saved as tick t, for the ticks still on this timeline.
        let mut history: Vec<Vec<u32>> = Vec::new();
        // Which tick each slot holds: saving tick t overwrites slot t mod N, including saves
        // of a future later abandoned by a rollback.
        let mut slots: Vec<Option<u64>> = vec![None; rp.ring];
        let mut tick = 0_u64;
        for (ops, rollback) in plan.ticks.iter().zip(&rp.rollbacks) {
            let mut ignored = current.clone();
            for op in ops {
                apply_oracle(op, &mut current, &mut ignored);
                apply(op, &mut world);
            }
            let _ = ring.save(tick, &mut world);
            slots[(tick % rp.ring as u64) as usize] = Some(tick);
            history.truncate(tick as usize);
            history.push(current.clone());
            if ring.get(tick) != Some(&current[..])
                || ring.checksum(tick) != Some(naive_checksum(&current, chunk_len))
            {
                return false;
            }
            if let Some(k) = rollback {
                let target = tick.saturating_sub(u64::from(*k));
                let held = slots[(target % rp.ring as u64) as usize] == Some(target);
                match ring.load(target, &mut world) {
                    Ok(_) if held => {
                        current = history[target as usize].clone();
                        if world.as_slice() != current {
                            return false;
                        }
                        tick = target;
                    }
                    Err(TickNotInRing { tick: t, holds })
                        if !held && t == target && holds.is_some() =>
                    {
                        if world.as_slice() != current {
                            return false;
                        }
                    }
                    _ => return false,
                }
            }
            tick += 1;
        }
        true
    }
    QuickCheck::new()
        .tests(1000)
        .quickcheck(prop as fn(RingPlan) -> bool);
}
