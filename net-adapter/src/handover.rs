//! A mid-game join on the adapter's own parts: the host hands over a save (its loop state and
//! a confirmed frame of its ring, through `serde`), the newcomer loads it and follows the
//! host's confirmed inputs from that frame with a [`Feed`].

use ggrs::{Config, Frame};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use tickfold_core::{Columns, LoopState, Nanos};
use tickfold_snapshot::bytemuck::NoUninit;
use tickfold_snapshot::{DoubleBuffer, Ring, Tracked};

use crate::error::NetError;
use crate::feed::{Feed, FrameInputs};
use crate::rollback::Rollback;
use crate::session::Saved;
use crate::state::RollbackState;

/// A [`RollbackState`] whose saved frames can leave the process: a frame the ring holds, as
/// plain values, and back into a world.
///
/// Implemented for [`Tracked`] and [`DoubleBuffer`] of serde values (a frame is the part's
/// elements, a `Vec<T>`), for `&mut` of any implementor and for tuples of up to six parts. A
/// game struct implements it by delegating to a tuple of its parts, as for `RollbackState`.
pub trait FrameValues: RollbackState {
    /// One saved frame as values.
    type Values: Serialize + DeserializeOwned;

    /// `frame` as the ring holds it; `None` when it does not.
    fn values(ring: &Self::Ring, frame: u64) -> Option<Self::Values>;

    /// Makes this state `values`: every part takes their length and elements, and what a render
    /// blends from (a [`DoubleBuffer`]'s previous state) is set to them too, so the first
    /// frame drawn after a join blends nothing from before it.
    fn restore(&mut self, values: &Self::Values);
}

impl<T: Copy + NoUninit + Serialize + DeserializeOwned> FrameValues for Tracked<T> {
    type Values = Vec<T>;

    fn values(ring: &Ring<T>, frame: u64) -> Option<Vec<T>> {
        ring.get(frame).map(<[T]>::to_vec)
    }

    fn restore(&mut self, values: &Vec<T>) {
        self.truncate(values.len());
        let kept = self.as_slice().len();
        self.as_mut_slice().copy_from_slice(&values[..kept]);
        for &v in &values[kept..] {
            self.push(v);
        }
    }
}

impl<T: Copy + NoUninit + Serialize + DeserializeOwned> FrameValues for DoubleBuffer<T> {
    type Values = Vec<T>;

    fn values(ring: &Ring<T>, frame: u64) -> Option<Vec<T>> {
        ring.get(frame).map(<[T]>::to_vec)
    }

    fn restore(&mut self, values: &Vec<T>) {
        self.truncate(values.len());
        let kept = self.len();
        self.current_mut().copy_from_slice(&values[..kept]);
        for &v in &values[kept..] {
            self.push(v);
        }
        let _ = self.capture();
    }
}

impl<S: FrameValues + ?Sized> FrameValues for &mut S {
    type Values = S::Values;

    fn values(ring: &S::Ring, frame: u64) -> Option<S::Values> {
        S::values(ring, frame)
    }

    fn restore(&mut self, values: &S::Values) {
        (**self).restore(values);
    }
}

macro_rules! tuple_values {
    ($($p:ident $i:tt),+) => {
        impl<$($p: FrameValues),+> FrameValues for ($($p,)+) {
            type Values = ($($p::Values,)+);

            fn values(ring: &Self::Ring, frame: u64) -> Option<Self::Values> {
                Some(($($p::values(&ring.$i, frame)?,)+))
            }

            fn restore(&mut self, values: &Self::Values) {
                $(self.$i.restore(&values.$i);)+
            }
        }
    };
}

tuple_values!(A 0);
tuple_values!(A 0, B 1);
tuple_values!(A 0, B 1, C 2);
tuple_values!(A 0, B 1, C 2, D 3);
tuple_values!(A 0, B 1, C 2, D 3, E 4);
tuple_values!(A 0, B 1, C 2, D 3, E 4, F 5);

/// What a host sends a newcomer so that it can follow a match already under way: its loop
/// state, a confirmed frame of its ring (a state no rollback will change) with its checksum,
/// and the confirmed inputs from that frame up to where its feed goes on. Made by
/// [`Rollback::handover`], loaded by [`Rollback::join`]; a plain serde value (`V` the world's
/// [`FrameValues::Values`], `I` the input), sent on the game's own channel in any format.
///
/// ggrs has no mid-game join: a `SpectatorSession` starts at frame 0 and a host registers its
/// spectators before its session starts. So the newcomer follows through the adapter's
/// [`Feed`], fed with the host's confirmed inputs ([`Rollback::drain_feed`]). It ends
/// identical to a spectator that watched from the start.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Handover<V, I> {
    /// The host's loop at the handover, on a [`Nanos`] axis (a real-time loop rebases onto it
    /// with [`LoopState::rebase`]): its clocks, rates and settings. The newcomer moves it onto
    /// its own axis ([`LoopState::rebase`], [`LoopState::resume_at`]) and runs it, at its own
    /// time scale (the host's may be a [`TimeSync`](crate::TimeSync)'s). Its frame clock is
    /// ahead of `frame` by the frames not yet confirmed: the newcomer catches them up.
    pub state: LoopState<Nanos>,
    /// The handed-over frame: the next frame the newcomer simulates.
    pub frame: Frame,
    /// The ring's checksum of `frame` on the host, checked at the load.
    pub checksum: u64,
    /// The world at `frame`, as [`FrameValues::values`].
    pub world: V,
    /// The confirmed inputs of `frame` and the frames after it that the host's feed had
    /// already handed out; the feed goes on after the last of them.
    pub inputs: Vec<FrameInputs<I>>,
}

impl<C, W> Rollback<C, W>
where
    C: Config<State = Saved>,
    W: RollbackState + Columns + FrameValues,
{
    /// A save for a newcomer (host side): `state` (the host's loop, on a [`Nanos`] axis) and
    /// the latest confirmed frame the ring holds, with the inputs the newcomer needs up to
    /// where [`drain_feed`](Rollback::drain_feed) goes on (the feed starts at the first
    /// handover, and every follower reads the same feed). `None` while the ring holds no
    /// confirmed frame (at the start of a match, or in lockstep), or the inputs since it: ask
    /// again at the next step.
    #[must_use]
    pub fn handover(&mut self, state: &LoopState<Nanos>) -> Option<Handover<W::Values, C::Input>> {
        let newest = self.confirmed_frame().min(self.frame() - 1) + 1;
        let frame = (newest - Frame::try_from(self.slots()).unwrap_or(0)..=newest)
            .rev()
            .find(|&f| u64::try_from(f).is_ok_and(|at| W::holds(self.ring(), at)))?;
        let at = u64::try_from(frame).ok()?;
        let world = W::values(self.ring(), at)?;
        let checksum = W::checksum(self.ring(), at)?;
        let next = self.feed_start().unwrap_or(frame);
        let inputs = (frame..next)
            .map(|f| self.frame_inputs(f))
            .collect::<Option<Vec<_>>>()?;
        self.start_feed(next);
        Some(Handover {
            state: state.clone(),
            frame,
            checksum,
            world,
            inputs,
        })
    }

    /// Loads a [`Handover`] into `world` and this adapter (newcomer side; an adapter made for
    /// it with [`Rollback::new`], nothing run yet) and returns the [`Feed`] to follow with,
    /// holding the handover's inputs: push the host's feed into it and hand it to
    /// [`update`](Rollback::update) as the session. The adapter's frame becomes the
    /// handover's; its [`stats`](Rollback::stats) count from there.
    ///
    /// # Errors
    ///
    /// [`NetError::HandoverMismatch`] when the loaded world's checksum is not the host's, and
    /// [`NetError::FeedGap`] when the handover's inputs do not follow each other from its
    /// frame: `world` holds the loaded values, but do not follow from it.
    pub fn join(
        &mut self,
        world: &mut W,
        handover: &Handover<W::Values, C::Input>,
    ) -> Result<Feed<C>, NetError> {
        world.restore(&handover.world);
        self.start_at(handover.frame);
        let got = self.save(world, handover.frame)?;
        if got != handover.checksum {
            return Err(NetError::HandoverMismatch {
                frame: handover.frame,
                expected: handover.checksum,
                got,
            });
        }
        let mut feed = Feed::new(handover.frame);
        for inputs in &handover.inputs {
            let _ = feed.push(inputs.clone())?;
        }
        Ok(feed)
    }
}
