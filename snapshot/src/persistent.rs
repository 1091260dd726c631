//! The persistent variant: `im::Vector` snapshots in O(1) by structural sharing.

use tickfold_core::{BlendColumns, Columns, Interpolate, Tick};

use crate::error::SnapshotError;

/// Current and previous state as persistent vectors ([`im::Vector`], the `imbl` fork).
///
/// [`capture`](Persistent::capture) clones the current vector into the previous one in O(1):
/// the two share every node until a write copies the node it lands in (a leaf of 64 elements
/// and its path to the root). So the cost of a tick is paid by the writes, in proportion to the
/// nodes they touch, not by the capture: cheap when changes cluster, dearer than a dirty-chunk
/// copy when they scatter (each scattered write copies a whole leaf and allocates). Use it for
/// large states that change in a few places per tick; prefer [`DoubleBuffer`](crate::DoubleBuffer)
/// for dense `Copy` data, which never allocates per tick. Elements need only `Clone`.
///
/// Length changes apply to both vectors, as in `DoubleBuffer`.
///
/// # Examples
///
/// ```
/// use tickfold_snapshot::Persistent;
///
/// let mut hp: Persistent<u32> = (0..100_000).collect();
/// hp.capture();                    // O(1): shares every node
/// hp.set(42, 7)?;                  // copies one leaf and its path
/// assert_eq!((hp.previous()[42], hp.current()[42]), (42, 7));
/// assert_eq!(hp.previous().len(), 100_000);
/// # Ok::<(), tickfold_snapshot::SnapshotError>(())
/// ```
#[derive(Clone, Debug)]
pub struct Persistent<T: Clone> {
    current: im::Vector<T>,
    previous: im::Vector<T>,
    captures: u64,
}

impl<T: Clone> Persistent<T> {
    /// Current and previous both `data` (sharing all of it).
    #[must_use]
    pub fn new(data: im::Vector<T>) -> Persistent<T> {
        Persistent {
            previous: data.clone(),
            current: data,
            captures: 0,
        }
    }

    /// The current state.
    #[must_use]
    pub fn current(&self) -> &im::Vector<T> {
        &self.current
    }

    /// The state at the last capture.
    #[must_use]
    pub fn previous(&self) -> &im::Vector<T> {
        &self.previous
    }

    /// Number of elements.
    #[must_use]
    pub fn len(&self) -> usize {
        self.current.len()
    }

    /// Whether there are no elements.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.current.is_empty()
    }

    /// Captures made so far.
    #[must_use]
    pub fn captures(&self) -> u64 {
        self.captures
    }

    /// Makes the previous state the current one, in O(1).
    pub fn capture(&mut self) {
        self.previous = self.current.clone();
        self.captures += 1;
    }

    /// The capture rule of [`Tick::last_in_step`] ([`Columns::before_update`], main clock):
    /// captures only if `tick` is the last update of its step; returns whether it did.
    pub fn before_update(&mut self, tick: &Tick) -> bool {
        Columns::before_update(self, tick)
    }

    /// Element `index` of the current state, mutable; `None` past the end.
    pub fn get_mut(&mut self, index: usize) -> Option<&mut T> {
        self.current.get_mut(index)
    }

    /// Writes `value` at `index` of the current state.
    ///
    /// # Errors
    ///
    /// [`SnapshotError::OutOfBounds`] past the end; nothing is written.
    pub fn set(&mut self, index: usize, value: T) -> Result<(), SnapshotError> {
        match self.current.get_mut(index) {
            Some(slot) => {
                *slot = value;
                Ok(())
            }
            None => Err(SnapshotError::OutOfBounds {
                index,
                len: self.current.len(),
            }),
        }
    }

    /// Appends `value` to both states.
    pub fn push(&mut self, value: T) {
        self.previous.push_back(value.clone());
        self.current.push_back(value);
    }

    /// Removes element `index` from both states, shifting later ones down (O(log n)).
    ///
    /// # Errors
    ///
    /// [`SnapshotError::OutOfBounds`] past the end; nothing is removed.
    pub fn remove(&mut self, index: usize) -> Result<T, SnapshotError> {
        let len = self.current.len();
        if index >= len || index >= self.previous.len() {
            return Err(SnapshotError::OutOfBounds { index, len });
        }
        self.previous.remove(index);
        Ok(self.current.remove(index))
    }

    /// Removes element `index` from both states and moves the last element into its place,
    /// as `Vec::swap_remove` (O(log n)).
    ///
    /// # Errors
    ///
    /// [`SnapshotError::OutOfBounds`] past the end; nothing is removed.
    pub fn swap_remove(&mut self, index: usize) -> Result<T, SnapshotError> {
        let len = self.current.len();
        if index >= len || index >= self.previous.len() {
            return Err(SnapshotError::OutOfBounds { index, len });
        }
        swap_remove(&mut self.previous, index);
        Ok(swap_remove(&mut self.current, index))
    }

    /// Shortens both states to `len`.
    pub fn truncate(&mut self, len: usize) {
        self.current.truncate(len.min(self.current.len()));
        self.previous.truncate(len.min(self.previous.len()));
    }

    /// Every element drawn at `alpha` between previous and current, in order.
    pub fn blend(&self, alpha: f64) -> impl Iterator<Item = T> + '_
    where
        T: Interpolate,
    {
        self.previous
            .iter()
            .zip(self.current.iter())
            .map(move |(p, c)| p.interpolate(c, alpha))
    }
}

/// Persistent vectors as storage: [`capture`](Columns::capture) is the O(1)
/// [`Persistent::capture`], [`blend_into`](BlendColumns::blend_into) appends [`Persistent::blend`].
impl<T: Clone> Columns for Persistent<T> {
    fn capture(&mut self) {
        Persistent::capture(self);
    }
}

impl<T: Clone + Interpolate> BlendColumns for Persistent<T> {
    type Item = T;

    fn blend_into<E: Extend<T>>(&self, alpha: f64, out: &mut E) {
        out.extend(self.blend(alpha));
    }
}

/// `Vec::swap_remove` on a persistent vector; `index` is in bounds.
fn swap_remove<T: Clone>(v: &mut im::Vector<T>, index: usize) -> T {
    let last = v.len() - 1;
    if index < last {
        let moved = v.remove(last);
        v.set(index, moved)
    } else {
        v.remove(last)
    }
}

impl<T: Clone> FromIterator<T> for Persistent<T> {
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> Self {
        Persistent::new(iter.into_iter().collect())
    }
}

impl<T: Clone> From<Vec<T>> for Persistent<T> {
    fn from(data: Vec<T>) -> Self {
        Persistent::new(data.into())
    }
}
