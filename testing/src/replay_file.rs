//! Replay files: the rules every [`Recording`] keeps ([`ReplayError`]), and with the `serde`
//! feature its file format, versioned and checked on load like a save: a format tag, a
//! version, the recording, and a digest of it (64-bit FNV-1a over its serde data, see
//! `digest.rs`).

use core::fmt;

use tickfold_core::{ClockId, ConfigError, LoopState};
#[cfg(feature = "serde")]
use tickfold_core::{Nanos, SavedState, StateError};

#[cfg(feature = "serde")]
use crate::keyframe::Keyframe;
#[cfg(feature = "serde")]
use crate::replay::RecordedStep;
use crate::replay::Recording;

/// The format tag at the head of every replay file.
#[cfg(feature = "serde")]
const FORMAT_TAG: &str = "tickfold replay";

/// The version of the replay format written by this crate.
#[cfg(feature = "serde")]
const VERSION: u32 = 1;

/// Why a replay file was refused on load, or a [`Recording`] cannot be played back by a
/// [`Player`](crate::Player): the file is not one this crate wrote (another format, another
/// version), was edited or corrupted (its digest does not match, or it breaks a rule every
/// recording keeps), or holds no keyframes to seek from.
///
/// A truncated file does not parse: the format itself refuses it (with `serde_json`, an error
/// whose `is_eof()` is true).
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum ReplayError {
    /// The file's format tag is not a tickfold replay's: it is some other file.
    Foreign(String),
    /// The file was written by a replay format version this crate does not read.
    UnsupportedVersion(u32),
    /// The file's digest does not match its contents: it was edited or corrupted.
    Digest {
        /// The digest written in the file.
        stored: u64,
        /// The digest of what was read.
        computed: u64,
    },
    /// The file holds a different number of step hashes than steps.
    StepHashes {
        /// Steps in the file.
        steps: usize,
        /// Step hashes in the file.
        hashes: usize,
    },
    /// The recording has no keyframes to seek from: record with
    /// [`Recorder::with_saves`](crate::Recorder::with_saves) before the first step.
    NoKeyframes,
    /// The first keyframe is not the recording's start: before the first step, the loop as
    /// its configuration and start build it (saves were turned on after the first step, or
    /// the file was edited).
    FirstKeyframe,
    /// Keyframe `n` is not after the one before it, or is past the last step.
    KeyframeOrder(usize),
    /// The last keyframe is not after the last step.
    LastKeyframe,
    /// The recording's alpha clock (its first keyframe's) is missing from a keyframe.
    ClockRemoved(ClockId),
    /// The loop refuses the recording's configuration.
    Config(ConfigError),
    /// (Feature `serde`.) Keyframe `index`'s loop state breaks a rule every state the fold
    /// builds keeps.
    #[cfg(feature = "serde")]
    Keyframe {
        /// The keyframe's place in the file.
        index: usize,
        /// What is wrong with its loop state.
        error: StateError,
    },
}

impl fmt::Display for ReplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReplayError::Foreign(tag) => {
                write!(f, "not a tickfold replay file (its format is {tag:?})")
            }
            ReplayError::UnsupportedVersion(v) => write!(
                f,
                "replay format version {v} is not one this crate reads (it reads version 1)"
            ),
            ReplayError::Digest { stored, computed } => write!(
                f,
                "the replay file was edited or corrupted: its digest is {stored:#018x}, its contents' {computed:#018x}"
            ),
            ReplayError::StepHashes { steps, hashes } => write!(
                f,
                "the replay holds {steps} steps but {hashes} step hashes"
            ),
            ReplayError::NoKeyframes => f.write_str(
                "the recording has no keyframes to seek from (record with `Recorder::with_saves`)",
            ),
            ReplayError::FirstKeyframe => f.write_str(
                "the recording's first keyframe is not its start (turn saves on before the first step)",
            ),
            ReplayError::KeyframeOrder(n) => write!(
                f,
                "keyframe {n} is not after the one before it, or is past the last step"
            ),
            ReplayError::LastKeyframe => {
                f.write_str("the recording's last keyframe is not after its last step")
            }
            ReplayError::ClockRemoved(id) => {
                write!(f, "the recording's alpha clock ({id:?}) is missing from a keyframe")
            }
            ReplayError::Config(e) => write!(f, "the recording's loop settings are invalid: {e}"),
            #[cfg(feature = "serde")]
            ReplayError::Keyframe { index, error } => {
                write!(f, "keyframe {index}'s loop state is refused: {error}")
            }
        }
    }
}

impl std::error::Error for ReplayError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ReplayError::Config(e) => Some(e),
            #[cfg(feature = "serde")]
            ReplayError::Keyframe { error, .. } => Some(error),
            _ => None,
        }
    }
}

impl<S, I, W> Recording<S, I, W> {
    /// Checks the rules every recording a [`Recorder`](crate::Recorder) makes keeps: a step
    /// hash per step, and keyframes (if any) from the start to the last step, in step order.
    pub(crate) fn check(&self) -> Result<(), ReplayError> {
        if self.step_hashes.len() != self.steps.len() {
            return Err(ReplayError::StepHashes {
                steps: self.steps.len(),
                hashes: self.step_hashes.len(),
            });
        }
        let (Some(first), Some(last)) = (self.keyframes.first(), self.keyframes.last()) else {
            return Ok(());
        };
        let start = LoopState::new(self.config.clone(), self.start).map_err(ReplayError::Config)?;
        if first.step != 0 || first.loop_state != start {
            return Err(ReplayError::FirstKeyframe);
        }
        for (n, pair) in self.keyframes.windows(2).enumerate() {
            if pair[1].step <= pair[0].step || pair[1].step > self.steps.len() {
                return Err(ReplayError::KeyframeOrder(n + 1));
            }
        }
        if last.step != self.steps.len() {
            return Err(ReplayError::LastKeyframe);
        }
        Ok(())
    }
}

#[cfg(feature = "serde")]
mod file {
    use serde::de::Error as _;
    use serde::ser::{Error as _, SerializeStruct};
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    use super::*;
    use crate::digest::digest;

    /// A keyframe as read, its loop state not yet checked.
    #[derive(Clone, Debug, Deserialize)]
    struct KeyframeIn<W> {
        step: usize,
        state: SavedState,
        world: W,
    }

    /// A replay file as read, not yet checked: the typed route to a [`ReplayError`] (feature
    /// `serde`).
    ///
    /// Deserializing a [`Recording`] refuses a file it cannot vouch for with the format's own
    /// error, whose message is the [`ReplayError`]'s. To tell a file that does not parse (the
    /// format's error: a truncated file, another kind of file) from one that parses but was
    /// edited, corrupted or written by another version, deserialize a `SavedRecording`
    /// instead and check it with `Recording::try_from` (its [`TryFrom`] impl). Both read the
    /// same data and apply the same checks; nothing else can be done with a `SavedRecording`.
    ///
    /// # Examples
    ///
    /// A recorded `now` changed by one nanosecond:
    ///
    /// ```
    /// use tickfold_testing::{Recorder, Recording, ReplayError, SavedRecording};
    /// use tickfold_core::{LoopConfig, Nanos, Period, Tick};
    ///
    /// fn update(x: &mut i64, _: &Tick, push: &i64) { *x += push; }
    /// let mut rec = Recorder::new(LoopConfig::new(Period::from_hz(60)?), Nanos(0), 0i64)?;
    /// for frame in 1..=10u64 {
    ///     rec.step(Nanos::from_millis(17 * frame), 1, update);
    /// }
    /// let mut file = serde_json::to_value(&rec.finish())?;
    /// file["steps"][3]["now"] = 51_000_001.into();
    ///
    /// let saved: SavedRecording<i64> = serde_json::from_value(file.clone())?; // it parses
    /// let refused = Recording::<i64, i64>::try_from(saved).unwrap_err();
    /// assert!(matches!(refused, ReplayError::Digest { .. }));
    /// // Loading the `Recording` directly refuses it too, with the same message.
    /// let err = serde_json::from_value::<Recording<i64, i64>>(file).unwrap_err();
    /// assert_eq!(err.to_string(), refused.to_string());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[derive(Clone, Debug, Deserialize)]
    #[serde(bound(deserialize = "I: Deserialize<'de>, W: Deserialize<'de>"))]
    #[cfg_attr(docsrs, doc(cfg(feature = "serde")))]
    pub struct SavedRecording<I, W = ()> {
        format: String,
        version: u32,
        config: tickfold_core::LoopConfig,
        start: Nanos,
        steps: Vec<RecordedStep<I>>,
        step_hashes: Vec<u64>,
        keyframes: Vec<KeyframeIn<W>>,
        digest: u64,
    }

    /// The digest of a recording's contents, as written in its file.
    fn digest_of<S, I: Serialize, W: Serialize>(
        r: &Recording<S, I, W>,
    ) -> Result<u64, crate::digest::DigestError> {
        digest(&(
            FORMAT_TAG,
            VERSION,
            &r.config,
            r.start,
            &r.steps,
            &r.step_hashes,
            &r.keyframes,
        ))
    }

    /// Writes the format tag, the version, the recording (its keyframes included) and the
    /// digest of all of them. The state checksum is a function and is not written.
    #[cfg_attr(docsrs, doc(cfg(feature = "serde")))]
    impl<S, I: Serialize, W: Serialize> Serialize for Recording<S, I, W> {
        fn serialize<Z: Serializer>(&self, z: Z) -> Result<Z::Ok, Z::Error> {
            let digest = digest_of(self).map_err(Z::Error::custom)?;
            let mut s = z.serialize_struct("Recording", 8)?;
            s.serialize_field("format", FORMAT_TAG)?;
            s.serialize_field("version", &VERSION)?;
            s.serialize_field("config", &self.config)?;
            s.serialize_field("start", &self.start)?;
            s.serialize_field("steps", &self.steps)?;
            s.serialize_field("step_hashes", &self.step_hashes)?;
            s.serialize_field("keyframes", &self.keyframes)?;
            s.serialize_field("digest", &digest)?;
            s.end()
        }
    }

    /// Checks a replay file: its format tag and version, each keyframe's loop state (as a
    /// save is checked), the digest, and the rules every recording keeps.
    ///
    /// # Errors
    ///
    /// The first check the file fails, as a [`ReplayError`].
    #[cfg_attr(docsrs, doc(cfg(feature = "serde")))]
    impl<S, I: Serialize, W: Serialize> TryFrom<SavedRecording<I, W>> for Recording<S, I, W> {
        type Error = ReplayError;

        fn try_from(saved: SavedRecording<I, W>) -> Result<Recording<S, I, W>, ReplayError> {
            if saved.format != FORMAT_TAG {
                return Err(ReplayError::Foreign(saved.format));
            }
            if saved.version != VERSION {
                return Err(ReplayError::UnsupportedVersion(saved.version));
            }
            let mut keyframes = Vec::with_capacity(saved.keyframes.len());
            for (index, k) in saved.keyframes.into_iter().enumerate() {
                let loop_state = LoopState::try_from(k.state)
                    .map_err(|error| ReplayError::Keyframe { index, error })?;
                keyframes.push(Keyframe {
                    step: k.step,
                    loop_state,
                    world: k.world,
                });
            }
            let recording = Recording {
                config: saved.config,
                start: saved.start,
                steps: saved.steps,
                step_hashes: saved.step_hashes,
                keyframes,
                checksum: None,
            };
            // A value serde cannot write back cannot be vouched for either.
            let computed = digest_of(&recording).unwrap_or(!saved.digest);
            if computed != saved.digest {
                return Err(ReplayError::Digest {
                    stored: saved.digest,
                    computed,
                });
            }
            recording.check()?;
            Ok(recording)
        }
    }

    /// Loads a replay file written by the `Serialize` impl, checked (see [`SavedRecording`]
    /// for the typed [`ReplayError`]).
    #[cfg_attr(docsrs, doc(cfg(feature = "serde")))]
    impl<'de, S, I, W> Deserialize<'de> for Recording<S, I, W>
    where
        I: Serialize + Deserialize<'de>,
        W: Serialize + Deserialize<'de>,
    {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Recording<S, I, W>, D::Error> {
            let saved = SavedRecording::<I, W>::deserialize(d)?;
            Recording::try_from(saved).map_err(D::Error::custom)
        }
    }
}

#[cfg(feature = "serde")]
pub use file::SavedRecording;
