//! Rewrite (Merkkikorvauspeli).
pub mod engine;
pub mod goal;
