//! The adapter's error type.

use core::fmt;

use hecs::Entity;

/// What an [`Interpolator`](crate::Interpolator) call refused to do.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Error {
    /// The component type was never registered with
    /// [`Interpolator::track`](crate::Interpolator::track).
    Unregistered {
        /// The type's name.
        type_name: &'static str,
    },
    /// The component type is already registered.
    AlreadyTracked {
        /// The type's name.
        type_name: &'static str,
    },
    /// The entity does not exist (despawned, or a stale handle of a recycled id).
    NoSuchEntity(Entity),
    /// The entity exists but has no component of this type.
    MissingComponent {
        /// The entity.
        entity: Entity,
        /// The component type's name.
        type_name: &'static str,
    },
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Unregistered { type_name } => {
                write!(
                    f,
                    "component type {type_name} is not tracked by the interpolator"
                )
            }
            Error::AlreadyTracked { type_name } => {
                write!(f, "component type {type_name} is already tracked")
            }
            Error::NoSuchEntity(e) => write!(f, "no such entity: {e:?}"),
            Error::MissingComponent { entity, type_name } => {
                write!(f, "entity {entity:?} has no {type_name} component")
            }
        }
    }
}

impl std::error::Error for Error {}
