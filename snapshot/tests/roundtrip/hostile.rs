//! The hostile mix: length changes interleaved with ring saves and loads, publishes, two chunk
//! sizes and a bare `Tracked` (now and then swapped for a clone) sharing two rings, out-of-range
//! indices and ticks, checked after every call against plain `Vec`s and checksums recomputed
//! from scratch.

use quickcheck::{Arbitrary, Gen, QuickCheck, TestResult};
use tickfold_snapshot::{
    DoubleBuffer, Ring, SnapshotError, TickNotInRing, Tracked, chunk_checksum, state_checksum,
};

use super::Writes;

/// One call of a hostile user. `s % 3` picks the state: two double buffers and a bare
/// `Tracked`, each with its own chunk size; `r % 2` one of two rings all three share. Indices,
/// lengths and ticks are raw, so some land past the end or on ticks the ring no longer holds.
#[derive(Clone, Debug)]
enum Call {
    Set(u8, usize, u32),
    GetMut(u8, usize, u32),
    /// `state[i] = v`, only where `i` is in range (`IndexMut` panics past the end, like a slice).
    Index(u8, usize, u32),
    Fill(u8, usize, usize, u32),
    AddAll(u8, u32),
    Push(u8, u32),
    SwapRemove(u8, usize),
    Truncate(u8, usize),
    Resize(u8, usize, u32),
    /// The double buffers' own calls; on the bare state they do nothing.
    Capture(u8),
    Publish(u8),
    /// `back_mut()[i] = v` without publishing.
    BackSet(u8, usize, u32),
    /// `write(&[v; n])`: a length mismatch unless `n` is the length.
    Write(u8, usize, u32),
    /// `write_with`: the next state is the front rotated left by `k` bits, element by element.
    WriteWith(u8, u32),
    /// `write_guard`: element `i` of the back becomes `v`, the guard publishes when dropped.
    Guard(u8, usize, u32),
    Save(u8, u8, u64),
    Load(u8, u8, u64),
    /// The bare state becomes a clone of itself (a new identity to the rings) with the full-copy
    /// threshold `p` (a bad one above 100 is refused).
    Clone(u8),
}

impl Arbitrary for Call {
    fn arbitrary(g: &mut Gen) -> Call {
        let (s, r) = (u8::arbitrary(g) % 3, u8::arbitrary(g) % 2);
        let i = usize::arbitrary(g) % 72;
        let v = u32::arbitrary(g);
        let tick = u64::arbitrary(g) % 9;
        match u8::arbitrary(g) % 23 {
            0..=2 => Call::Set(s, i, v),
            3 => Call::GetMut(s, i, v),
            4 => Call::Index(s, i, v),
            5 => Call::Fill(s, i, usize::arbitrary(g) % 72, v),
            6 => Call::AddAll(s, v),
            7 => Call::Push(s, v),
            8 => Call::SwapRemove(s, i),
            9 => Call::Truncate(s, i),
            10 => Call::Resize(s, i, v),
            11 => Call::Capture(s),
            12 => Call::Publish(s),
            13 => Call::BackSet(s, i, v),
            14 => Call::Write(s, i, v),
            15 => Call::WriteWith(s, v % 32),
            16 => Call::Guard(s, i, v),
            17..=19 => Call::Save(s, r, tick),
            20 => Call::Clone(u8::arbitrary(g) % 110),
            _ => Call::Load(s, r, tick),
        }
    }
}

/// Initial lengths, chunk sizes and thresholds of the three states, two ring lengths, the calls.
#[derive(Clone, Debug)]
struct Script {
    lens: [usize; 3],
    chunk_bytes: [usize; 3],
    percent: [u8; 3],
    rings: [usize; 2],
    calls: Vec<Call>,
}

impl Arbitrary for Script {
    fn arbitrary(g: &mut Gen) -> Script {
        let n = usize::arbitrary(g) % 60;
        Script {
            lens: [0; 3].map(|_| usize::arbitrary(g) % 64),
            // 4 B (one `u32` per chunk) to 256 B (64 per chunk).
            chunk_bytes: [0; 3].map(|_| 1 << (2 + usize::arbitrary(g) % 7)),
            percent: [0; 3].map(|_| {
                let any = u8::arbitrary(g) % 101;
                *g.choose(&[0, 50, 100, any]).unwrap()
            }),
            rings: [0; 2].map(|_| 1 + usize::arbitrary(g) % 4),
            calls: (0..n).map(|_| Call::arbitrary(g)).collect(),
        }
    }

    fn shrink(&self) -> Box<dyn Iterator<Item = Script>> {
        let base = self.clone();
        let calls = self.calls.shrink().map({
            let base = base.clone();
            move |calls| Script {
                calls,
                ..base.clone()
            }
        });
        let lens = (0..3).filter(|&k| self.lens[k] > 0).flat_map(move |k| {
            [0, base.lens[k] / 2].map(|len| {
                let mut smaller = base.clone();
                smaller.lens[k] = len;
                smaller
            })
        });
        Box::new(calls.chain(lens.collect::<Vec<_>>()))
    }
}

/// What a ring slot should hold: the tick, the state saved, the saver's elements per chunk.
type SlotModel = Option<(u64, Vec<u32>, usize)>;

/// The naive model: plain `Vec`s and clones.
struct Model {
    front: [Vec<u32>; 3],
    back: [Vec<u32>; 3],
    chunk_len: [usize; 3],
    rings: [Vec<SlotModel>; 2],
}

/// The system under test.
struct System {
    bufs: [DoubleBuffer<u32>; 2],
    bare: Tracked<u32>,
    rings: [Ring<u32>; 2],
}

impl System {
    fn writes(&mut self, s: usize) -> &mut dyn Writes {
        match s {
            0 | 1 => &mut self.bufs[s],
            _ => &mut self.bare,
        }
    }
}

/// A call's observable result, compared between model and system.
#[derive(Debug, PartialEq)]
enum Outcome {
    Done,
    Value(Option<u32>),
    Unit(Result<(), SnapshotError>),
    Removed(Result<u32, SnapshotError>),
    Loaded(Result<(), TickNotInRing>),
}

fn model_call(m: &mut Model, call: &Call) -> Outcome {
    use Outcome::{Done, Loaded, Removed, Unit, Value};
    let st = |s: u8| usize::from(s % 3);
    match *call {
        Call::Set(s, i, v) => {
            let f = &mut m.front[st(s)];
            let len = f.len();
            Unit(match f.get_mut(i) {
                Some(x) => {
                    *x = v;
                    Ok(())
                }
                None => Err(SnapshotError::OutOfBounds { index: i, len }),
            })
        }
        Call::GetMut(s, i, v) => Value(m.front[st(s)].get_mut(i).map(|x| {
            *x = v;
            v
        })),
        Call::Index(s, i, v) => {
            if let Some(x) = m.front[st(s)].get_mut(i) {
                *x = v;
            }
            Done
        }
        Call::Fill(s, a, b, v) => {
            let f = &mut m.front[st(s)];
            let len = f.len();
            Unit(if a > b {
                Err(SnapshotError::BadRange { start: a, end: b })
            } else if b > len {
                Err(SnapshotError::OutOfBounds { index: b, len })
            } else {
                f[a..b].fill(v);
                Ok(())
            })
        }
        Call::AddAll(s, v) => {
            m.front[st(s)]
                .iter_mut()
                .for_each(|x| *x = x.wrapping_add(v));
            Done
        }
        Call::Push(s, v) => {
            m.front[st(s)].push(v);
            m.back[st(s)].push(v);
            Done
        }
        Call::SwapRemove(s, i) => {
            let len = m.front[st(s)].len();
            Removed(if i < len {
                m.back[st(s)].swap_remove(i);
                Ok(m.front[st(s)].swap_remove(i))
            } else {
                Err(SnapshotError::OutOfBounds { index: i, len })
            })
        }
        Call::Truncate(s, n) => {
            m.front[st(s)].truncate(n);
            m.back[st(s)].truncate(n);
            Done
        }
        Call::Resize(s, n, v) => {
            m.front[st(s)].resize(n, v);
            m.back[st(s)].resize(n, v);
            Done
        }
        Call::Capture(s) => {
            m.back[st(s)] = m.front[st(s)].clone();
            Done
        }
        Call::Publish(s) => {
            let s = st(s);
            if s < 2 {
                core::mem::swap(&mut m.front[s], &mut m.back[s]);
            }
            Done
        }
        Call::BackSet(s, i, v) => {
            if let Some(x) = m.back[st(s)].get_mut(i) {
                *x = v;
            }
            Done
        }
        Call::Write(s, n, v) => {
            let s = st(s);
            let len = m.front[s].len();
            Unit(if s == 2 {
                Ok(())
            } else if n == len {
                m.back[s] = core::mem::replace(&mut m.front[s], vec![v; n]);
                Ok(())
            } else {
                Err(SnapshotError::LengthMismatch {
                    expected: len,
                    got: n,
                })
            })
        }
        Call::WriteWith(s, k) => {
            let s = st(s);
            if s < 2 {
                let next = m.front[s].iter().map(|x| x.rotate_left(k)).collect();
                m.back[s] = core::mem::replace(&mut m.front[s], next);
            }
            Done
        }
        Call::Guard(s, i, v) => {
            let s = st(s);
            if s < 2 {
                if let Some(x) = m.back[s].get_mut(i) {
                    *x = v;
                }
                core::mem::swap(&mut m.front[s], &mut m.back[s]);
            }
            Done
        }
        Call::Save(s, r, tick) => {
            let ring = &mut m.rings[usize::from(r % 2)];
            let k = (tick % ring.len() as u64) as usize;
            ring[k] = Some((tick, m.front[st(s)].clone(), m.chunk_len[st(s)]));
            Done
        }
        Call::Clone(p) => Unit(if p > 100 {
            Err(SnapshotError::BadThreshold { percent: p })
        } else {
            Ok(())
        }),
        Call::Load(s, r, tick) => {
            let s = st(s);
            let ring = &m.rings[usize::from(r % 2)];
            Loaded(match &ring[(tick % ring.len() as u64) as usize] {
                Some((t, data, _)) if *t == tick => {
                    m.front[s] = data.clone();
                    if m.back[s].len() != data.len() {
                        m.back[s] = data.clone();
                    }
                    Ok(())
                }
                held => Err(TickNotInRing {
                    tick,
                    holds: held.as_ref().map(|h| h.0),
                }),
            })
        }
    }
}

fn system_call(sys: &mut System, call: &Call) -> Outcome {
    use Outcome::{Done, Loaded, Removed, Unit, Value};
    let st = |s: u8| usize::from(s % 3);
    match *call {
        Call::Set(s, i, v) => Unit(sys.writes(st(s)).set(i, v)),
        Call::GetMut(s, i, v) => Value(sys.writes(st(s)).get_mut(i).map(|x| {
            *x = v;
            v
        })),
        Call::Index(s, i, v) => {
            let w = sys.writes(st(s));
            if i < w.len() {
                w.index_set(i, v);
            }
            Done
        }
        Call::Fill(s, a, b, v) => Unit(sys.writes(st(s)).slice_mut(a..b).map(|x| x.fill(v))),
        Call::AddAll(s, v) => {
            let all = sys.writes(st(s)).all_mut();
            all.iter_mut().for_each(|x| *x = x.wrapping_add(v));
            Done
        }
        Call::Push(s, v) => {
            sys.writes(st(s)).push(v);
            Done
        }
        Call::SwapRemove(s, i) => Removed(sys.writes(st(s)).swap_remove(i)),
        Call::Truncate(s, n) => {
            sys.writes(st(s)).truncate(n);
            Done
        }
        Call::Resize(s, n, v) => {
            sys.writes(st(s)).resize(n, v);
            Done
        }
        Call::Capture(s) => {
            if let Some(b) = sys.bufs.get_mut(st(s)) {
                let _ = b.capture();
            }
            Done
        }
        Call::Publish(s) => {
            if let Some(b) = sys.bufs.get_mut(st(s)) {
                b.publish();
            }
            Done
        }
        Call::BackSet(s, i, v) => {
            if let Some(x) = sys
                .bufs
                .get_mut(st(s))
                .and_then(|b| b.back_mut().get_mut(i))
            {
                *x = v;
            }
            Done
        }
        Call::Write(s, n, v) => Unit(match sys.bufs.get_mut(st(s)) {
            Some(b) => b.write(&vec![v; n]),
            None => Ok(()),
        }),
        Call::WriteWith(s, k) => {
            if let Some(b) = sys.bufs.get_mut(st(s)) {
                b.write_with(|front, back| {
                    for (n, x) in back.iter_mut().zip(front) {
                        *n = x.rotate_left(k);
                    }
                });
            }
            Done
        }
        Call::Guard(s, i, v) => {
            if let Some(b) = sys.bufs.get_mut(st(s)) {
                if let Some(x) = b.write_guard().get_mut(i) {
                    *x = v;
                }
            }
            Done
        }
        Call::Save(s, r, tick) => {
            let ring = &mut sys.rings[usize::from(r % 2)];
            let _ = match sys.bufs.get_mut(st(s)) {
                Some(b) => ring.save_buffer(tick, b),
                None => ring.save(tick, &mut sys.bare),
            };
            Done
        }
        Call::Clone(p) => {
            sys.bare = sys.bare.clone();
            Unit(sys.bare.set_full_copy_percent(p))
        }
        Call::Load(s, r, tick) => {
            let ring = &mut sys.rings[usize::from(r % 2)];
            Loaded(
                match sys.bufs.get_mut(st(s)) {
                    Some(b) => ring.load_buffer(tick, b),
                    None => ring.load(tick, &mut sys.bare),
                }
                .map(|_| ()),
            )
        }
    }
}

/// Every observable of the system against the model: lengths, contents, chunk counts, and each
/// held tick's data and checksums against a from-scratch recomputation.
fn compare(sys: &System, m: &Model) -> Result<(), String> {
    for s in 0..2 {
        let b = &sys.bufs[s];
        if b.current() != m.front[s] || b.previous() != m.back[s] || b.len() != m.front[s].len() {
            return Err(format!(
                "buffer {s}: front {:?} back {:?}, model {:?} {:?}",
                b.current(),
                b.previous(),
                m.front[s],
                m.back[s]
            ));
        }
    }
    if sys.bare.as_slice() != m.front[2] {
        return Err(format!(
            "bare: {:?}, model {:?}",
            sys.bare.as_slice(),
            m.front[2]
        ));
    }
    let tracked = [sys.bufs[0].tracked(), sys.bufs[1].tracked(), &sys.bare];
    for (s, t) in tracked.iter().enumerate() {
        if t.chunk_count() != t.len().div_ceil(m.chunk_len[s]) {
            return Err(format!("state {s}: {} chunks", t.chunk_count()));
        }
    }
    for (r, (ring, model)) in sys.rings.iter().zip(&m.rings).enumerate() {
        let mut ticks: Vec<u64> = ring.ticks().collect();
        let mut want: Vec<u64> = model.iter().flatten().map(|h| h.0).collect();
        ticks.sort_unstable();
        want.sort_unstable();
        if ticks != want {
            return Err(format!("ring {r} holds {ticks:?}, model {want:?}"));
        }
        for (tick, data, chunk_len) in model.iter().flatten() {
            let hashes: Vec<u64> = data.chunks(*chunk_len).map(chunk_checksum).collect();
            let seen = (
                ring.get(*tick),
                ring.chunk_checksums(*tick),
                ring.checksum(*tick),
            );
            let expected = (
                Some(&data[..]),
                Some(&hashes[..]),
                Some(state_checksum(&hashes, data.len())),
            );
            if seen != expected {
                return Err(format!(
                    "ring {r} tick {tick}: {seen:?}, expected {expected:?}"
                ));
            }
        }
    }
    Ok(())
}

fn run_script(script: &Script) -> Result<(), String> {
    let initial =
        |s: usize| -> Vec<u32> { (0..script.lens[s] as u32).map(|x| x * 7 + 1).collect() };
    let tracked = |s: usize| {
        let mut t = Tracked::with_chunk_bytes(initial(s), script.chunk_bytes[s]).unwrap();
        t.set_full_copy_percent(script.percent[s]).unwrap();
        t
    };
    let bufs = [0, 1].map(|s| DoubleBuffer::from_tracked(tracked(s)));
    let bare = tracked(2);
    let rings = script
        .rings
        .map(|n| Ring::new(n, bufs[0].tracked()).unwrap());
    let mut sys = System { bufs, bare, rings };
    let mut m = Model {
        front: [0, 1, 2].map(initial),
        back: [0, 1, 2].map(initial),
        // Power-of-two chunk sizes of at least 4 B: a whole number of `u32`s.
        chunk_len: script.chunk_bytes.map(|b| b / 4),
        rings: script.rings.map(|n| vec![None; n]),
    };
    for (k, call) in script.calls.iter().enumerate() {
        let want = model_call(&mut m, call);
        let got =
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| system_call(&mut sys, call)))
                .map_err(|_| format!("call {k} {call:?} panicked"))?;
        if got != want {
            return Err(format!("call {k} {call:?}: {got:?}, model {want:?}"));
        }
        compare(&sys, &m).map_err(|e| format!("after call {k} {call:?}: {e}"))?;
    }
    Ok(())
}

#[test]
fn hostile_calls_on_shared_rings_match_the_naive_model_after_every_call() {
    fn prop(script: Script) -> TestResult {
        match run_script(&script) {
            Ok(()) => TestResult::passed(),
            Err(e) => TestResult::error(e),
        }
    }
    let tests = std::env::var("HOSTILE_TESTS").map_or(3000, |n| n.parse().unwrap());
    QuickCheck::new()
        .tests(tests)
        .max_tests(tests)
        .quickcheck(prop as fn(Script) -> TestResult);
}

/// Zero-sized elements under the same kind of mix: only lengths are observable (both sides of
/// the buffer always share one), and every saved tick's checksum is that of one empty chunk
/// (none for an empty state).
#[test]
fn zero_sized_states_keep_their_lengths_and_never_panic() {
    fn prop(calls: Vec<(u8, usize)>, initial: usize) -> TestResult {
        let run = std::panic::catch_unwind(|| {
            let mut buf = DoubleBuffer::new(vec![(); initial % 100]);
            let mut ring = Ring::new(3, buf.tracked()).unwrap();
            let mut len = buf.len();
            let mut slots: [Option<(u64, usize)>; 3] = [None; 3];
            for &(op, i) in &calls {
                let (i, tick) = (i % 120, (i % 7) as u64);
                let slot = (tick % 3) as usize;
                match op % 9 {
                    0 => {
                        buf.push(());
                        len += 1;
                    }
                    1 => {
                        assert_eq!(buf.swap_remove(i).is_ok(), i < len);
                        len -= usize::from(i < len);
                    }
                    2 => {
                        buf.truncate(i);
                        len = len.min(i);
                    }
                    3 => {
                        buf.resize(i, ());
                        len = i;
                    }
                    4 => assert_eq!(buf.set(i, ()).is_ok(), i < len),
                    5 => {
                        let _ = buf.capture();
                    }
                    6 => buf.publish(),
                    7 => {
                        let _ = ring.save_buffer(tick, &mut buf);
                        slots[slot] = Some((tick, len));
                    }
                    _ => match (ring.load_buffer(tick, &mut buf), slots[slot]) {
                        (Ok(_), Some((t, saved))) if t == tick => len = saved,
                        (Err(_), held) if held.map(|h| h.0) != Some(tick) => {}
                        (got, held) => panic!("load {tick}: {got:?}, holds {held:?}"),
                    },
                }
                assert_eq!((buf.current().len(), buf.previous().len()), (len, len));
                assert_eq!(buf.tracked().chunk_count(), usize::from(len > 0));
                for &(t, saved) in slots.iter().flatten() {
                    let hashes = vec![chunk_checksum::<()>(&[]); usize::from(saved > 0)];
                    assert_eq!(ring.get(t).map(<[()]>::len), Some(saved));
                    assert_eq!(ring.chunk_checksums(t), Some(&hashes[..]));
                    assert_eq!(ring.checksum(t), Some(state_checksum(&hashes, saved)));
                }
            }
        });
        TestResult::from_bool(run.is_ok())
    }
    QuickCheck::new()
        .tests(1000)
        .quickcheck(prop as fn(Vec<(u8, usize)>, usize) -> TestResult);
}
