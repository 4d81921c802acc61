//! Password hashing: argon2id at OWASP's minimum cost in the form that
//! uses the least memory (7 MiB, 5 passes; OWASP lists it as a defence
//! equal to 19 MiB with 2 passes), split into 2 lanes, computed on 2
//! threads.
//!
//! The whole work (memory times passes) is the same in each of OWASP's
//! equal forms; the smallest memory makes each check about a fifth faster
//! here (its blocks stay in the cache between passes) and leaves less
//! fresh memory for the kernel to clear in a short-lived `tabula mail`.
//!
//! The lanes make a check cheaper for us without making a guess cheaper
//! for an attacker, who pays for the same memory and the same number of
//! block computations per guess: they run in parallel, so on two cores a
//! check takes about half the time of the single-lane hash it replaces.
//!
//! Hashing and checking go through the crate's own `PasswordHasher` and
//! `PasswordVerifier`, which allocate the working memory zeroed by the
//! system and free it after each hash (so a server never keeps these
//! blocks in its heap).
//!
//! Stored PHC strings carry their own parameters, so hashes made with one
//! lane keep verifying; only new hashes use the parameters below.

use argon2::{Algorithm, Argon2, Params, PasswordHash, PasswordHasher, PasswordVerifier, Version};

/// Memory of a new hash in KiB: the smallest of OWASP's equal minimums
/// for argon2id, 7 MiB.
const M_COST_KIB: u32 = 7 * 1024;
/// Passes over the memory: OWASP's minimum with 7 MiB.
const T_COST: u32 = 5;
/// Lanes: the memory is split in two halves computed at the same time, so
/// the cost for an attacker (memory times passes) is that of one lane.
const P_COST: u32 = 2;
/// Length of the hash output in bytes (argon2's default).
const OUTPUT_LEN: usize = 32;

/// Hash a password with argon2id and a random salt (PHC string).
pub fn hash(pw: &str) -> String {
    let params = Params::new(M_COST_KIB, T_COST, P_COST, Some(OUTPUT_LEN)).expect("valid argon2 parameters");
    Argon2::new(Algorithm::Argon2id, Version::V0x13, params)
        .hash_password(pw.as_bytes())
        .expect("argon2 hashing of a bounded password with a fresh salt")
        .to_string()
}

/// Whether `pw` matches the stored PHC string, with the algorithm, version
/// and parameters the string names (the comparison is constant-time).
pub fn verify(pw: &str, stored: &str) -> bool {
    PasswordHash::new(stored).is_ok_and(|phc| Argon2::default().verify_password(pw.as_bytes(), &phc).is_ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn new_hashes_use_two_lanes_and_verify() {
        let h = hash("secret1");
        assert!(h.starts_with("$argon2id$v=19$m=7168,t=5,p=2$"), "{h}");
        assert!(verify("secret1", &h));
        assert!(!verify("secret2", &h));
    }

    // The vectors below come from argon2's reference implementation (its
    // command-line tool), not from the crate under test.

    #[test]
    fn single_lane_hashes_still_verify() {
        // The parameters every hash had before: 19 MiB, 2 passes, 1 lane.
        let old = "$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHRzYWx0c2FsdA$M0Tkvot+J6cjp8XuY8Cv9wUtv/N/VSXR8nS9vTAy96c";
        assert!(verify("pw-ned-secret", old));
        assert!(!verify("pw-ted-secret", old));
    }

    #[test]
    fn two_lane_hashes_match_the_reference() {
        // 19 MiB, 2 passes, 2 lanes: new hashes before the 7 MiB form.
        let earlier = "$argon2id$v=19$m=19456,t=2,p=2$c2FsdHNhbHRzYWx0c2FsdA$LkgnWU+8Nnttpn722wVdjooY3R4PpXGluQHRnVIQ/kI";
        assert!(verify("pw-ned-secret", earlier));
        assert!(!verify("pw-ned-secreT", earlier));
        let new = "$argon2id$v=19$m=7168,t=5,p=2$c2FsdHNhbHRzYWx0c2FsdA$069d2jQUc2XL8MjAb91XjvKqvIAbgV4VJy78E6d56KI";
        assert!(verify("pw-ned-secret", new));
        assert!(!verify("pw-ned-secreT", new));
    }

    #[test]
    fn other_parameters_verify_too() {
        let phc = "$argon2id$v=19$m=65536,t=2,p=1$c29tZXNhbHQ$CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc";
        assert!(verify("password", phc));
    }

    #[test]
    fn malformed_hashes_never_verify() {
        for bad in
            ["", "garbage", "$argon2id$v=19$m=19456,t=2,p=2$c2FsdHNhbHQ", "$argon2id$v=19$m=8,t=1,p=1$$"]
        {
            assert!(!verify("secret1", bad), "{bad}");
        }
    }
}
