//! The adapter's error type.

use core::fmt;

use hecs::Entity;

/// What an [`Interpolated`](crate::Interpolated) call refused to do. New variants may be added.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Error {
    /// The entity does not exist (despawned, or a stale handle of a recycled id).
    NoSuchEntity(Entity),
    /// The entity exists but has no component of this type.
    MissingComponent {
        /// The entity.
        entity: Entity,
        /// The component type's name.
        type_name: &'static str,
    },
    /// [`Interpolated::load`](crate::Interpolated::load): the map gave no new handle for this
    /// saved entity (its handle at save time).
    Unmapped(Entity),
    /// [`Interpolated::load`](crate::Interpolated::load): the saved data is not something a
    /// tracker saves; the reason names what.
    InvalidSave(&'static str),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::NoSuchEntity(e) => write!(f, "no such entity: {e:?}"),
            Error::MissingComponent { entity, type_name } => {
                write!(f, "entity {entity:?} has no {type_name} component")
            }
            Error::Unmapped(e) => write!(f, "no new handle for the saved entity {e:?}"),
            Error::InvalidSave(why) => write!(f, "invalid saved tracker: {why}"),
        }
    }
}

impl std::error::Error for Error {}
