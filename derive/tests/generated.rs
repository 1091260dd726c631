//! The derived impls against hand-written ones, bit for bit, over alphas that cover the ends,
//! the switch at ½, values beyond `[0, 1]` and NaN.

use tickfold::Interpolate;
use tickfold::glam::{Quat, Vec3};
use tickfold_hecs::Discrete;

/// Alphas at and around every point where a rule changes, and a fine grid in between.
fn alphas() -> Vec<f64> {
    let mut a = vec![
        f64::NAN,
        f64::NEG_INFINITY,
        -1.0,
        -0.0,
        0.0,
        1e-12,
        0.5_f64.next_down(),
        0.5,
        0.5_f64.next_up(),
        1.0_f64.next_down(),
        1.0,
        1.5,
        f64::INFINITY,
    ];
    a.extend((0..=64).map(|k| f64::from(k) / 64.0));
    a
}

fn bits3(v: Vec3) -> [u32; 3] {
    v.to_array().map(f32::to_bits)
}

fn bits4(q: Quat) -> [u32; 4] {
    q.to_array().map(f32::to_bits)
}

#[derive(Clone, Copy, Debug, PartialEq, Interpolate)]
struct Position(Vec3);

#[test]
fn a_newtype_blends_as_its_field() {
    let (a, b) = (
        Position(Vec3::new(0.1, -2.0, 3.0)),
        Position(Vec3::new(4.0, -2.0, -0.7)),
    );
    for alpha in alphas() {
        let hand = a.0.interpolate(&b.0, alpha);
        assert_eq!(bits3(a.interpolate(&b, alpha).0), bits3(hand), "{alpha}");
    }
}

#[derive(Clone, Copy, Debug, Interpolate)]
struct Tuple(f32, f64, [f32; 2]);

#[derive(Clone, Copy, Debug)]
struct TupleByHand(f32, f64, [f32; 2]);

impl Interpolate for TupleByHand {
    fn interpolate(&self, next: &Self, alpha: f64) -> Self {
        Self(
            self.0.interpolate(&next.0, alpha),
            self.1.interpolate(&next.1, alpha),
            self.2.interpolate(&next.2, alpha),
        )
    }
}

#[test]
fn a_tuple_struct_matches_the_hand_written_impl() {
    let (a, b) = (Tuple(0.3, 0.1, [1.0, 2.0]), Tuple(-7.5, 0.7, [1.0, -2.0]));
    let (ha, hb) = (TupleByHand(a.0, a.1, a.2), TupleByHand(b.0, b.1, b.2));
    for alpha in alphas() {
        let (d, h) = (a.interpolate(&b, alpha), ha.interpolate(&hb, alpha));
        assert_eq!(d.0.to_bits(), h.0.to_bits(), "{alpha}");
        assert_eq!(d.1.to_bits(), h.1.to_bits(), "{alpha}");
        assert_eq!(d.2.map(f32::to_bits), h.2.map(f32::to_bits), "{alpha}");
    }
}

/// Every kind of field at once: blended glam values and floats, and the three choices.
#[derive(Clone, Debug, PartialEq, Interpolate)]
struct Pose {
    at: Position,
    rotation: Quat,
    scale: f64,
    #[interpolate(switch)]
    frame: u32,
    #[interpolate(newest)]
    label: String,
    #[interpolate(skip)]
    id: u64,
}

#[derive(Clone, Debug)]
struct PoseByHand {
    at: Vec3,
    rotation: Quat,
    scale: f64,
    frame: Discrete<u32>,
    label: String,
    id: u64,
}

impl Interpolate for PoseByHand {
    fn interpolate(&self, next: &Self, alpha: f64) -> Self {
        Self {
            at: self.at.interpolate(&next.at, alpha),
            rotation: self.rotation.interpolate(&next.rotation, alpha),
            scale: self.scale.interpolate(&next.scale, alpha),
            frame: self.frame.interpolate(&next.frame, alpha),
            label: next.label.clone(),
            id: self.id,
        }
    }
}

fn by_hand(p: &Pose) -> PoseByHand {
    PoseByHand {
        at: p.at.0,
        rotation: p.rotation,
        scale: p.scale,
        frame: Discrete(p.frame),
        label: p.label.clone(),
        id: p.id,
    }
}

fn poses() -> (Pose, Pose) {
    let a = Pose {
        at: Position(Vec3::new(1.0, 2.0, 3.0)),
        rotation: Quat::from_rotation_y(0.3),
        scale: 1.0,
        frame: 7,
        label: "walk".into(),
        id: 1,
    };
    let b = Pose {
        at: Position(Vec3::new(-1.0, 2.5, 0.0)),
        // Not normalized, and on the far side of the sphere: the slerp normalizes and flips.
        rotation: -Quat::from_rotation_x(2.0) * 1.5,
        scale: 0.25,
        frame: 8,
        label: "run".into(),
        id: 2,
    };
    (a, b)
}

#[test]
fn a_named_struct_matches_the_hand_written_impl_field_by_field() {
    let (a, b) = poses();
    let (ha, hb) = (by_hand(&a), by_hand(&b));
    for alpha in alphas() {
        let (d, h) = (a.interpolate(&b, alpha), ha.interpolate(&hb, alpha));
        assert_eq!(bits3(d.at.0), bits3(h.at), "{alpha}");
        assert_eq!(bits4(d.rotation), bits4(h.rotation), "{alpha}");
        assert_eq!(d.scale.to_bits(), h.scale.to_bits(), "{alpha}");
        assert_eq!(d.frame, h.frame.0, "switch is Discrete's rule at {alpha}");
        assert_eq!(d.label, h.label, "{alpha}");
        assert_eq!(d.id, h.id, "{alpha}");
    }
}

#[test]
fn switch_takes_the_previous_value_below_one_half_and_for_nan() {
    let (a, b) = poses();
    for (alpha, frame) in [
        (f64::NAN, 7),
        (-1.0, 7),
        (0.5_f64.next_down(), 7),
        (0.5, 8),
        (1.0, 8),
        (3.0, 8),
    ] {
        assert_eq!(a.interpolate(&b, alpha).frame, frame, "{alpha}");
    }
}

#[test]
fn newest_and_skip_hold_one_tick_whatever_alpha() {
    let (a, b) = poses();
    for alpha in alphas() {
        let d = a.interpolate(&b, alpha);
        assert_eq!((d.label.as_str(), d.id), ("run", 1), "{alpha}");
    }
}

/// Generic parameters get the bound their fields need: `T: Interpolate` for a blended field,
/// only `K: Clone` for a switched one (`Kind` does not implement `Interpolate`).
#[derive(Clone, Copy, Debug, PartialEq, Interpolate)]
struct Tagged<T, K> {
    at: T,
    #[interpolate(switch)]
    kind: K,
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Kind {
    Idle,
    Moving,
}

#[test]
fn generic_structs_blend_each_instance_as_its_fields() {
    let a = Tagged {
        at: Vec3::ZERO,
        kind: Kind::Idle,
    };
    let b = Tagged {
        at: Vec3::new(2.0, 4.0, 8.0),
        kind: Kind::Moving,
    };
    let c = Tagged {
        at: 0.1_f64,
        kind: Kind::Idle,
    };
    let d = Tagged {
        at: 0.7_f64,
        kind: Kind::Moving,
    };
    for alpha in alphas() {
        let expected = Discrete(Kind::Idle)
            .interpolate(&Discrete(Kind::Moving), alpha)
            .0;
        let v = a.interpolate(&b, alpha);
        assert_eq!(
            bits3(v.at),
            bits3(a.at.interpolate(&b.at, alpha)),
            "{alpha}"
        );
        assert_eq!(v.kind, expected, "{alpha}");
        let f = c.interpolate(&d, alpha);
        assert_eq!(
            f.at.to_bits(),
            c.at.interpolate(&d.at, alpha).to_bits(),
            "{alpha}"
        );
        assert_eq!(f.kind, expected, "{alpha}");
    }
}

/// The trait's contract holds for a struct of blended and switched fields: the ends exact, NaN
/// as 0, and a value that did not move never jitters.
#[test]
fn blended_and_switched_fields_keep_the_contract() {
    let a = Tagged {
        at: Position(Vec3::new(0.1, 0.2, 0.3)),
        kind: Kind::Idle,
    };
    let b = Tagged {
        at: Position(Vec3::new(0.9, 0.2, -0.3)),
        kind: Kind::Moving,
    };
    for alpha in [f64::NAN, f64::NEG_INFINITY, -0.5, 0.0] {
        assert_eq!(a.interpolate(&b, alpha), a, "{alpha}");
    }
    for alpha in [1.0, 2.0, f64::INFINITY] {
        assert_eq!(a.interpolate(&b, alpha), b, "{alpha}");
    }
    for alpha in alphas() {
        assert_eq!(
            bits3(a.interpolate(&a, alpha).at.0),
            bits3(a.at.0),
            "{alpha}"
        );
    }
}

/// Without the facade, the struct names the crate that exports the trait.
#[derive(Clone, Copy, Debug, PartialEq, Interpolate)]
#[interpolate(crate = "tickfold_core")]
struct ThroughCore(f32);

fn blend_with_core<T: tickfold_core::Interpolate>(a: &T, b: &T, alpha: f64) -> T {
    tickfold_core::Interpolate::interpolate(a, b, alpha)
}

#[test]
fn the_crate_path_can_be_named() {
    for alpha in alphas() {
        let d = blend_with_core(&ThroughCore(0.25), &ThroughCore(-3.0), alpha).0;
        assert_eq!(
            d.to_bits(),
            0.25_f32.interpolate(&-3.0, alpha).to_bits(),
            "{alpha}"
        );
    }
}

/// A unit struct and a struct of skipped fields only: nothing to blend, no unused-variable
/// warnings (the tests build with `-D warnings` under clippy).
#[derive(Clone, Copy, Debug, PartialEq, Interpolate)]
struct Marker;

#[derive(Clone, Debug, PartialEq, Interpolate)]
struct Fixed {
    #[interpolate(skip)]
    name: &'static str,
}

#[test]
fn structs_with_nothing_to_blend_hold_their_value() {
    assert_eq!(Marker.interpolate(&Marker, 0.5), Marker);
    let (a, b) = (Fixed { name: "a" }, Fixed { name: "b" });
    assert_eq!(a.interpolate(&b, 1.0), a);
}
