//! The hecs target's reads: every read API of the adapter against the model, and the rule's
//! draw against the naive world's after each step.

use tickfold::hecs_adapter::hecs::Entity;
use tickfold::hecs_adapter::{BlendColumns, Counts, Discrete, Error, Rendered, Sample};

use super::Harness;
use super::model::{Tracked, clamp_alpha, expected, ghost_drawn};

impl Harness {
    /// Reads both types at `alpha` through every API and compares with the model, with the
    /// ghosts and the stats.
    pub(super) fn render(&mut self, alpha: f64) {
        self.render_type::<f64>(alpha);
        self.render_type::<Discrete<u8>>(alpha);
        self.ghosts_and_stats::<f64>();
        self.ghosts_and_stats::<Discrete<u8>>();
    }

    fn ghosts_and_stats<T: Tracked>(&self) {
        let (tracker, lane) = (T::tracker(&self.trackers), T::lane(&self.lanes));
        let name = std::any::type_name::<T>();
        check!(
            tracker.ghosts() == &lane.ghosts[..],
            "{name} ghosts {:?}, model {:?}",
            tracker.ghosts(),
            lane.ghosts
        );
        check!(
            tracker.stats() == lane.stats,
            "{name} stats {:?}, model {:?}",
            tracker.stats(),
            lane.stats
        );
    }

    fn render_type<T: Tracked>(&mut self, raw_alpha: f64) {
        let alpha = clamp_alpha(raw_alpha);
        let mode = T::lane(&self.lanes).settings.mode();
        let tracker = T::tracker(&self.trackers);
        // for_each: every entity holding T once, companions first, each as the model says.
        let mut seen: Vec<(Entity, Sample<T>)> = Vec::new();
        let counts = tracker.for_each(&self.world, raw_alpha, |e, s| seen.push((e, s)));
        let (mut want, mut want_rendered) = (Counts::default(), Counts::default());
        let mut untracked_started = false;
        for (e, s) in &seen {
            let m = self.live.get(e);
            check!(m.is_some(), "for_each visited dead entity {e:?}");
            let Some(m) = m else { return };
            let slot = T::slot(m);
            check!(
                slot.cur.is_some(),
                "for_each visited {e:?} without the component"
            );
            let Some(cur) = slot.cur else { return };
            if slot.companion.is_none() {
                untracked_started = true;
            } else {
                check!(
                    !untracked_started,
                    "for_each visited an entity with companions after one without"
                );
            }
            let x = expected(mode, slot.companion, cur, alpha, &mut want);
            if slot.rendered {
                let _ = expected(mode, slot.companion, cur, alpha, &mut want_rendered);
            }
            check!(
                *s == x,
                "{e:?} ({mode:?}, {:?}) at alpha {raw_alpha}: read {s:?}, model {x:?}",
                slot.companion
            );
            let one = tracker.sample(&self.world, *e, raw_alpha);
            check!(
                one.as_ref() == Ok(s),
                "sample({e:?}) {one:?} differs from for_each"
            );
        }
        let holding = self
            .live
            .values()
            .filter(|m| T::slot(m).cur.is_some())
            .count();
        check!(
            seen.len() == holding,
            "for_each visited {} entities, {holding} hold the component",
            seen.len()
        );
        check!(counts == want, "for_each counts {counts:?}, model {want:?}");
        // extract, extract_with_entities and blend_into: the same values in the same order.
        let values: Vec<T> = seen.iter().map(|(_, s)| s.into_value()).collect();
        let mut out = Vec::new();
        let c = tracker.extract(&self.world, raw_alpha, &mut out);
        check!(c == want, "extract counts {c:?}, model {want:?}");
        check!(out == values, "extract differs from for_each");
        let (mut out2, mut ents) = (vec![T::make(1)], vec![]);
        let c = tracker.extract_with_entities(&self.world, raw_alpha, &mut out2, &mut ents);
        check!(c == want, "extract_with_entities counts");
        let order: Vec<Entity> = seen.iter().map(|(e, _)| *e).collect();
        check!(
            out2 == values && ents == order,
            "extract_with_entities differs"
        );
        // write_rendered: every entity with T and a Rendered<T> gets the read value.
        let c = tracker.write_rendered(&self.world, raw_alpha);
        check!(
            c == want_rendered,
            "write_rendered counts {c:?}, model {want_rendered:?}"
        );
        for (e, s) in &seen {
            let slot = T::slot(&self.live[e]);
            let r = self.world.get::<&Rendered<T>>(*e).map(|r| r.0);
            check!(
                r.is_ok() == slot.rendered,
                "{e:?} has a Rendered copy: {}, model {}",
                r.is_ok(),
                slot.rendered
            );
            if let Ok(r) = r {
                let v = s.into_value();
                check!(r == v, "Rendered of {e:?} is {r:?}, read {v:?}");
            }
        }
        // Dead entities are NoSuchEntity; live ones without T are MissingComponent.
        for e in &self.all {
            let r = tracker.sample(&self.world, *e, raw_alpha);
            match self.live.get(e) {
                None => check!(r == Err(Error::NoSuchEntity(*e)), "sample of dead {e:?}"),
                Some(m) if T::slot(m).cur.is_none() => check!(
                    matches!(r, Err(Error::MissingComponent { .. })),
                    "sample of {e:?} without the component: {r:?}"
                ),
                Some(_) => {}
            }
        }
        // The storage trait, as ECS-agnostic code reads it.
        let mut blended = vec![T::make(2)];
        T::tracker_mut(&mut self.trackers)
            .in_world(&mut self.world)
            .blend_into(raw_alpha, &mut blended);
        check!(
            blended[1..] == values[..],
            "blend_into differs from extract (after the element already there)"
        );
    }

    /// Right after a step: what capturing by the rule draws (the model the adapter was just
    /// compared with) is what capturing before every update draws.
    pub(super) fn check_against_naive(&self, alpha: f64) {
        self.naive_type::<f64>(alpha);
        self.naive_type::<Discrete<u8>>(alpha);
    }

    fn naive_type<T: Tracked>(&self, raw_alpha: f64) {
        let alpha = clamp_alpha(raw_alpha);
        let lane = T::lane(&self.lanes);
        let mode = lane.settings.mode();
        let mut scratch = Counts::default();
        for (e, m) in &self.live {
            let slot = T::slot(m);
            let Some(cur) = slot.cur else { continue };
            let by_rule = expected(mode, slot.companion, cur, alpha, &mut scratch);
            let naive = expected(mode, slot.naive, cur, alpha, &mut scratch);
            check!(
                by_rule == naive,
                "{e:?} draws {by_rule:?} by the rule, {naive:?} capturing before every update \
                 ({:?} vs {:?})",
                slot.companion,
                slot.naive
            );
        }
        let ticks = lane.settings.ghost_ticks;
        let drawn = |g| ghost_drawn(g, raw_alpha, ticks);
        let by_rule: Vec<_> = lane.ghosts.iter().map(drawn).collect();
        let naive: Vec<_> = lane.naive_ghosts.iter().map(drawn).collect();
        check!(
            by_rule == naive,
            "ghosts draw {by_rule:?} by the rule, {naive:?} capturing before every update"
        );
    }
}
