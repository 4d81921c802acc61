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
//! Two things make a check cheaper for us without making a guess cheaper
//! for an attacker, who pays for the same memory and the same number of
//! block computations per guess:
//!
//! - the lanes run in parallel, so on two cores a check takes about half
//!   the time of the single-lane hash it replaces;
//! - the working memory is mapped fresh and backed by 2 MiB
//!   pages where the system allows it: one page fault per 2 MiB instead of
//!   one per 4 KiB (with 19 MiB, about 4,900 of them: a third of a
//!   single-lane check's time in a short-lived process), and far fewer TLB misses in argon2's
//!   random reads across the whole block.
//!
//! Stored PHC strings carry their own parameters, so hashes made with one
//! lane keep verifying; only new hashes use the parameters below.

use argon2::password_hash::phc::{Output, ParamsString, PasswordHash, Salt};
use argon2::{Algorithm, Argon2, Block, Params, Version};

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

fn params() -> Params {
    Params::new(M_COST_KIB, T_COST, P_COST, Some(OUTPUT_LEN)).expect("valid argon2 parameters")
}

/// Hash a password with argon2id and a random salt (PHC string).
pub fn hash(pw: &str) -> String {
    let salt = Salt::new(&argon2::password_hash::generate_salt()).expect("a salt of the recommended length");
    let params = params();
    let argon = Argon2::new(Algorithm::Argon2id, Version::V0x13, params.clone());
    let mut out = [0u8; OUTPUT_LEN];
    compute(&argon, pw.as_bytes(), &salt, &mut out).expect("argon2 hashing of a bounded password");
    PasswordHash {
        algorithm: Algorithm::Argon2id.ident(),
        version: Some(Version::V0x13.into()),
        params: ParamsString::try_from(&params).expect("argon2 parameters as a PHC string"),
        salt: Some(salt),
        hash: Some(Output::new(&out).expect("an output of argon2's default length")),
    }
    .to_string()
}

/// Whether `pw` matches the stored PHC string, with the algorithm, version
/// and parameters the string names.
pub fn verify(pw: &str, stored: &str) -> bool {
    let Ok(phc) = PasswordHash::new(stored) else { return false };
    let (Some(salt), Some(expected)) = (&phc.salt, &phc.hash) else { return false };
    let Ok(algorithm) = Algorithm::try_from(phc.algorithm.as_str()) else { return false };
    let Ok(version) = phc.version.map_or(Ok(Version::default()), Version::try_from) else { return false };
    let Ok(params) = Params::try_from(&phc) else { return false };
    let argon = Argon2::new(algorithm, version, params);
    let mut out = vec![0u8; expected.len()];
    if compute(&argon, pw.as_bytes(), salt, &mut out).is_err() {
        return false;
    }
    // `Output`'s equality is constant-time.
    Output::new(&out).is_ok_and(|computed| &computed == expected)
}

fn compute(argon: &Argon2<'_>, pw: &[u8], salt: &[u8], out: &mut [u8]) -> argon2::Result<()> {
    match HugeBlocks::new(argon.params().block_count()) {
        Some(mut memory) => argon.hash_password_into_with_memory(pw, salt, out, memory.as_mut()),
        None => argon.hash_password_into(pw, salt, out),
    }
}

/// Argon2's working memory in an anonymous mapping of its own, aligned to
/// 2 MiB and advised as huge pages, unmapped when dropped (so a server
/// never keeps these blocks in its heap).
struct HugeBlocks {
    start: std::ptr::NonNull<Block>,
    blocks: usize,
    mapped: usize,
}

/// Size of a transparent huge page on x86-64 and arm64.
const HUGE_PAGE: usize = 2 << 20;

impl HugeBlocks {
    #[cfg(target_os = "linux")]
    fn new(blocks: usize) -> Option<Self> {
        let mapped = blocks.checked_mul(Block::SIZE)?.checked_next_multiple_of(HUGE_PAGE)?;
        let reserve = mapped.checked_add(HUGE_PAGE)?;
        // SAFETY: a fresh private anonymous mapping; nothing else refers to it.
        let raw = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                reserve,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            )
        };
        if raw == libc::MAP_FAILED {
            return None;
        }
        let raw_addr = raw as usize;
        let head = raw_addr.next_multiple_of(HUGE_PAGE) - raw_addr;
        let tail = reserve - head - mapped;
        // SAFETY: the head and tail lie inside the mapping just made and
        // are page-aligned (mmap returns pages, HUGE_PAGE is a multiple of
        // the page size); the aligned middle stays mapped. Failures only
        // leave unused address space mapped, so they are ignored, as is a
        // refused advice (huge pages disabled): the memory works either way.
        let start = unsafe {
            if head > 0 {
                libc::munmap(raw, head);
            }
            let start = raw.cast::<u8>().add(head);
            if tail > 0 {
                libc::munmap(start.add(mapped).cast(), tail);
            }
            libc::madvise(start.cast(), mapped, libc::MADV_HUGEPAGE);
            start
        };
        // Fresh anonymous pages read as zeros, a valid `Block` (plain u64s),
        // and the start is 2 MiB aligned, more than `Block`'s 64 bytes.
        Some(Self { start: std::ptr::NonNull::new(start.cast())?, blocks, mapped })
    }

    #[cfg(not(target_os = "linux"))]
    fn new(_blocks: usize) -> Option<Self> {
        None
    }

    fn as_mut(&mut self) -> &mut [Block] {
        // SAFETY: `start` points to `blocks` zero-initialised, aligned
        // blocks owned by `self` until drop; `&mut self` makes this the only
        // reference.
        unsafe { std::slice::from_raw_parts_mut(self.start.as_ptr(), self.blocks) }
    }
}

impl Drop for HugeBlocks {
    fn drop(&mut self) {
        #[cfg(target_os = "linux")]
        // SAFETY: the mapping made in `new`, no longer borrowed.
        unsafe {
            libc::munmap(self.start.as_ptr().cast(), self.mapped);
        }
    }
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
