//! A scripted ggrs session and a counting world, for exact tests of what the adapter does with
//! each answer: a fresh frame, a rollback, a refusal (with or without a rollback first).
#![allow(dead_code, unreachable_pub)]

use tickfold_core::{ClockConfig, ClockId, Columns, LoopConfig, LoopState, Nanos, Period};
use tickfold_ggrs::ggrs::{
    Frame, GameStateCell, GgrsError, GgrsRequest, InputStatus, PlayerHandle,
};
use tickfold_ggrs::{GgrsConfig, RollbackState, Session};
use tickfold_snapshot::{DoubleBuffer, Ring, SnapshotError};

pub type Config = GgrsConfig<u8>;

pub const MS: u64 = 1_000_000;

/// What the scripted session answers to one `advance_frame`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// Save the current frame and advance it.
    Fresh,
    /// Roll back this many frames (load, re-simulate, saving each), then as `Fresh`.
    Rollback(Frame),
    /// No request at all (ggrs not synchronised).
    Refuse,
    /// Roll back this many frames, then no new frame (ggrs 0.13 at its prediction window
    /// after inputs arrived).
    RefuseAfterRollback(Frame),
}

/// A session that answers call `n` at frame `f` with `script(n, f)`, in the order ggrs sends
/// its requests; one player, whose input is always 1.
pub struct Scripted<F> {
    pub frame: Frame,
    pub calls: u64,
    script: F,
}

impl<F: FnMut(u64, Frame) -> Answer> Scripted<F> {
    pub fn new(script: F) -> Scripted<F> {
        Scripted {
            frame: 0,
            calls: 0,
            script,
        }
    }
}

impl<F: FnMut(u64, Frame) -> Answer> Session<Config> for Scripted<F> {
    fn add_local_input(&mut self, _: PlayerHandle, _: u8) -> Result<(), GgrsError> {
        Ok(())
    }

    fn advance_frame(&mut self) -> Result<Vec<GgrsRequest<Config>>, GgrsError> {
        let answer = (self.script)(self.calls, self.frame);
        self.calls += 1;
        let inputs = || vec![(1_u8, InputStatus::Confirmed)];
        let cell = GameStateCell::default;
        let mut requests = Vec::new();
        let depth = match answer {
            Answer::Rollback(d) | Answer::RefuseAfterRollback(d) => d.min(self.frame),
            Answer::Fresh | Answer::Refuse => 0,
        };
        if depth > 0 {
            let from = self.frame - depth;
            requests.push(GgrsRequest::LoadGameState {
                cell: cell(),
                frame: from,
            });
            for frame in from..self.frame {
                if frame > from {
                    requests.push(GgrsRequest::SaveGameState {
                        cell: cell(),
                        frame,
                    });
                }
                requests.push(GgrsRequest::AdvanceFrame { inputs: inputs() });
            }
        }
        if matches!(answer, Answer::Fresh | Answer::Rollback(_)) {
            requests.push(GgrsRequest::SaveGameState {
                cell: cell(),
                frame: self.frame,
            });
            requests.push(GgrsRequest::AdvanceFrame { inputs: inputs() });
            self.frame += 1;
        }
        Ok(requests)
    }

    fn confirmed_frame(&self) -> Frame {
        self.frame - 9
    }
}

/// One counter, drawn between ticks, that counts what the capture rule does to it.
#[derive(Debug)]
pub struct Counter {
    pub value: DoubleBuffer<i64>,
    pub clock: ClockId,
    /// `Columns::capture` calls.
    pub captures: u64,
    /// `Columns::note_update` calls: one per update of its clock that ran.
    pub noted: u64,
}

impl Counter {
    pub fn new(clock: ClockId) -> Counter {
        Counter {
            value: DoubleBuffer::new(vec![0]),
            clock,
            captures: 0,
            noted: 0,
        }
    }

    /// (previous, current): what a render blends.
    pub fn drawn(&self) -> (i64, i64) {
        (self.value.previous()[0], self.value.current()[0])
    }
}

impl RollbackState for Counter {
    type Ring = Ring<i64>;
    fn ring(&self, slots: usize) -> Result<Ring<i64>, SnapshotError> {
        self.value.ring(slots)
    }
    fn save(&mut self, ring: &mut Ring<i64>, frame: u64) -> u64 {
        self.value.save(ring, frame)
    }
    fn load(&mut self, ring: &mut Ring<i64>, frame: u64) -> bool {
        self.value.load(ring, frame)
    }
    fn holds(ring: &Ring<i64>, frame: u64) -> bool {
        DoubleBuffer::<i64>::holds(ring, frame)
    }
    fn checksum(ring: &Ring<i64>, frame: u64) -> Option<u64> {
        DoubleBuffer::<i64>::checksum(ring, frame)
    }
}

impl Columns for Counter {
    fn capture(&mut self) {
        self.captures += 1;
        let _ = self.value.capture();
    }
    fn clock(&self) -> ClockId {
        self.clock
    }
    fn note_update(&mut self) {
        self.noted += 1;
    }
}

/// One frame: the counter adds the player's input.
pub fn add(w: &mut Counter, inputs: &[(u8, InputStatus)], _: Frame) {
    if let Some(v) = w.value.get_mut(0) {
        *v += i64::from(inputs[0].0);
    }
}

/// Frames at 60 Hz (the main clock), a 10 Hz clock "ai" beside them, no max frame delta.
pub fn two_clocks() -> LoopState {
    let config = LoopConfig::new(Period::from_hz(60).expect("rate"))
        .max_frame_delta(None)
        .clock(ClockConfig::new("ai", Period::from_hz(10).expect("rate")));
    LoopState::new(config, Nanos(0)).expect("config")
}

/// The accounting identity of every clock of `state`.
pub fn assert_identity(state: &LoopState) {
    for name in state.clock_names() {
        let c = state
            .clock(name)
            .ok()
            .map(|c| c.id())
            .and_then(|id| state.clock(id).ok().map(|c| c.stats()))
            .expect("clock");
        assert_eq!(
            c.ticks_run + c.ticks_dropped + c.pending,
            c.ticks_due + c.ticks_early,
            "{c:?}"
        );
    }
}
