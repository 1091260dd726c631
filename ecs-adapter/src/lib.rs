//! hecs integration for tickfold: per-tick capture and interpolation of components (coming: see the ecs-adapter issue).
#![forbid(unsafe_code)]
#![no_std]
