//! The features `glam` and `serde` together make glam's own types serialize: the user needs no
//! glam dependency of their own with its `serde` feature (`tickfold-core`'s `serde` turns on
//! `glam?/serde`). Runs with `--features glam,serde` (and `--all-features`).
#![cfg(all(feature = "glam", feature = "serde"))]

use serde::{Deserialize, Serialize};
use tickfold::glam::{Quat, Vec2, Vec3, Vec3A, Vec4};

#[derive(Debug, PartialEq, Serialize, Deserialize)]
struct Body {
    at: Vec3,
    rotation: Quat,
    rest: (Vec2, Vec3A, Vec4),
}

#[test]
fn the_reexported_glam_types_serialize_with_glam_and_serde() -> Result<(), serde_json::Error> {
    let v = Vec3::new(1.0, -2.5, 0.1);
    let json = serde_json::to_string(&v)?;
    assert_eq!(json, "[1.0,-2.5,0.1]");
    assert_eq!(serde_json::from_str::<Vec3>(&json)?, v);

    let body = Body {
        at: v,
        rotation: Quat::from_rotation_z(0.5),
        rest: (Vec2::X, Vec3A::NEG_Y, Vec4::splat(0.25)),
    };
    let back: Body = serde_json::from_str(&serde_json::to_string(&body)?)?;
    assert_eq!(back, body);
    Ok(())
}
