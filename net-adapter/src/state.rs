//! What rolls back: plain-data parts saved into snapshot rings, one checksum over all of them.

use tickfold_snapshot::bytemuck::NoUninit;
use tickfold_snapshot::{DoubleBuffer, Ring, SnapshotError, Tracked, state_checksum};

/// A game state that can be saved into, and restored from, a ring of frames.
///
/// Implemented for [`Tracked`] and [`DoubleBuffer`] (each part gets its own [`Ring`], which
/// copies only the chunks written since a slot was last saved or loaded), for `&mut` of any
/// implementor, and for tuples of up to six parts: a composite state (players, bullets, the
/// RNG) whose checksum is one [`state_checksum`] over the parts' checksums, so the two peers
/// compare one number per frame.
///
/// What is drawn between ticks is the other half of a rollback world:
/// [`Rollback`](crate::Rollback) also needs the world to be tickfold-core's
/// [`Columns`](tickfold_core::Columns) (a [`DoubleBuffer`] is), whose
/// [`before_update`](tickfold_core::Columns::before_update) is the one capture rule, and whose
/// [`clock`](tickfold_core::Columns::clock) is the frame clock.
///
/// A game struct implements both by delegating to its fields: `RollbackState` through a tuple
/// of `&mut` borrows, `Columns` by capturing the parts it draws.
///
/// ```
/// use tickfold_core::Columns;
/// use tickfold_ggrs::RollbackState;
/// use tickfold_snapshot::{DoubleBuffer, Ring, SnapshotError, Tracked};
///
/// struct Game { ships: DoubleBuffer<[f32; 2]>, rng: Tracked<u64> }
///
/// impl RollbackState for Game {
///     type Ring = (Ring<[f32; 2]>, Ring<u64>);
///     fn ring(&self, slots: usize) -> Result<Self::Ring, SnapshotError> {
///         Ok((self.ships.ring(slots)?, self.rng.ring(slots)?))
///     }
///     fn save(&mut self, ring: &mut Self::Ring, frame: u64) -> u64 {
///         (&mut self.ships, &mut self.rng).save(ring, frame)
///     }
///     fn load(&mut self, ring: &mut Self::Ring, frame: u64) -> bool {
///         (&mut self.ships, &mut self.rng).load(ring, frame)
///     }
///     fn holds(ring: &Self::Ring, frame: u64) -> bool {
///         <(DoubleBuffer<[f32; 2]>, Tracked<u64>)>::holds(ring, frame)
///     }
///     fn checksum(ring: &Self::Ring, frame: u64) -> Option<u64> {
///         <(DoubleBuffer<[f32; 2]>, Tracked<u64>)>::checksum(ring, frame)
///     }
/// }
///
/// // Only the ships are drawn between ticks; the RNG is not.
/// impl Columns for Game {
///     fn capture(&mut self) {
///         let _ = self.ships.capture();
///     }
/// }
///
/// let mut game = Game {
///     ships: DoubleBuffer::new(vec![[0.0, 0.0]; 2]),
///     rng: Tracked::new(vec![7]),
/// };
/// let mut ring = game.ring(9)?;
/// let at_0 = game.save(&mut ring, 0);
/// game.ships.set(1, [3.0, 4.0])?;
/// assert_ne!(game.save(&mut ring, 1), at_0);
/// assert!(game.load(&mut ring, 0));
/// assert_eq!(game.ships.current()[1], [0.0, 0.0]);
/// assert!(!game.load(&mut ring, 12)); // never saved
/// # Ok::<(), SnapshotError>(())
/// ```
pub trait RollbackState {
    /// The saved frames: one [`Ring`] per part.
    type Ring;

    /// Rings of `slots` frames sized for this state's current capacity (allocated here, once).
    ///
    /// # Errors
    ///
    /// As [`Ring::new`]: no slots, or slots too large to reserve.
    fn ring(&self, slots: usize) -> Result<Self::Ring, SnapshotError>;

    /// Saves the state as `frame` and returns its checksum (the ring's XXH3 checksum; for a
    /// composite, the checksum of the parts' checksums).
    fn save(&mut self, ring: &mut Self::Ring, frame: u64) -> u64;

    /// Restores `frame`; `false` (and the state untouched) when the ring no longer holds it.
    /// A composite checks every part before restoring any.
    #[must_use = "a frame the ring no longer holds was not restored"]
    fn load(&mut self, ring: &mut Self::Ring, frame: u64) -> bool;

    /// Whether the ring holds `frame` (for every part).
    fn holds(ring: &Self::Ring, frame: u64) -> bool;

    /// The checksum `save` returned for `frame`, if the ring still holds it.
    fn checksum(ring: &Self::Ring, frame: u64) -> Option<u64>;
}

impl<T: Copy + NoUninit> RollbackState for Tracked<T> {
    type Ring = Ring<T>;

    fn ring(&self, slots: usize) -> Result<Ring<T>, SnapshotError> {
        Ring::new(slots, self)
    }

    fn save(&mut self, ring: &mut Ring<T>, frame: u64) -> u64 {
        let _ = ring.save(frame, self);
        ring.checksum(frame).unwrap_or_default()
    }

    fn load(&mut self, ring: &mut Ring<T>, frame: u64) -> bool {
        ring.load(frame, self).is_ok()
    }

    fn holds(ring: &Ring<T>, frame: u64) -> bool {
        ring.contains(frame)
    }

    fn checksum(ring: &Ring<T>, frame: u64) -> Option<u64> {
        ring.checksum(frame)
    }
}

impl<T: Copy + NoUninit> RollbackState for DoubleBuffer<T> {
    type Ring = Ring<T>;

    fn ring(&self, slots: usize) -> Result<Ring<T>, SnapshotError> {
        Ring::new(slots, self.tracked())
    }

    fn save(&mut self, ring: &mut Ring<T>, frame: u64) -> u64 {
        let _ = ring.save_buffer(frame, self);
        ring.checksum(frame).unwrap_or_default()
    }

    fn load(&mut self, ring: &mut Ring<T>, frame: u64) -> bool {
        ring.load_buffer(frame, self).is_ok()
    }

    fn holds(ring: &Ring<T>, frame: u64) -> bool {
        ring.contains(frame)
    }

    fn checksum(ring: &Ring<T>, frame: u64) -> Option<u64> {
        ring.checksum(frame)
    }
}

impl<S: RollbackState + ?Sized> RollbackState for &mut S {
    type Ring = S::Ring;

    fn ring(&self, slots: usize) -> Result<S::Ring, SnapshotError> {
        (**self).ring(slots)
    }

    fn save(&mut self, ring: &mut S::Ring, frame: u64) -> u64 {
        (**self).save(ring, frame)
    }

    fn load(&mut self, ring: &mut S::Ring, frame: u64) -> bool {
        (**self).load(ring, frame)
    }

    fn holds(ring: &S::Ring, frame: u64) -> bool {
        S::holds(ring, frame)
    }

    fn checksum(ring: &S::Ring, frame: u64) -> Option<u64> {
        S::checksum(ring, frame)
    }
}

macro_rules! tuple_state {
    ($n:literal; $($p:ident $i:tt),+) => {
        impl<$($p: RollbackState),+> RollbackState for ($($p,)+) {
            type Ring = ($($p::Ring,)+);

            fn ring(&self, slots: usize) -> Result<Self::Ring, SnapshotError> {
                Ok(($(self.$i.ring(slots)?,)+))
            }

            fn save(&mut self, ring: &mut Self::Ring, frame: u64) -> u64 {
                let parts = [$(self.$i.save(&mut ring.$i, frame)),+];
                state_checksum(&parts, $n)
            }

            fn load(&mut self, ring: &mut Self::Ring, frame: u64) -> bool {
                if !Self::holds(ring, frame) {
                    return false;
                }
                $(let ok = self.$i.load(&mut ring.$i, frame); debug_assert!(ok);)+
                true
            }

            fn holds(ring: &Self::Ring, frame: u64) -> bool {
                $($p::holds(&ring.$i, frame))&&+
            }

            fn checksum(ring: &Self::Ring, frame: u64) -> Option<u64> {
                let parts = [$($p::checksum(&ring.$i, frame)?),+];
                Some(state_checksum(&parts, $n))
            }
        }
    };
}

tuple_state!(1; A 0);
tuple_state!(2; A 0, B 1);
tuple_state!(3; A 0, B 1, C 2);
tuple_state!(4; A 0, B 1, C 2, D 3);
tuple_state!(5; A 0, B 1, C 2, D 3, E 4);
tuple_state!(6; A 0, B 1, C 2, D 3, E 4, F 5);
