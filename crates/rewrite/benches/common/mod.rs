//! The inputs of the engine bench, shared with the `one_pass` example so
//! that both measure the same strings and rules.

use rand::Rng;
use rand_chacha::ChaCha8Rng;
use tabula_rewrite::engine::{Rule, RuleSet};

/// `len` random letters of `alphabet`.
pub fn random_string(rng: &mut ChaCha8Rng, alphabet: &[u8], len: usize) -> Vec<u8> {
    (0..len).map(|_| alphabet[rng.random_range(0..alphabet.len())]).collect()
}

/// `count` rules with distinct random left sides of `lhs_len` letters and
/// right sides of 0 to 8 letters, as players of the game write them.
pub fn random_rules(
    rng: &mut ChaCha8Rng,
    alphabet: &[u8],
    count: usize,
    lhs_len: (usize, usize),
) -> RuleSet<usize> {
    let mut seen = std::collections::HashSet::new();
    let mut rules = Vec::new();
    while rules.len() < count {
        let n = rng.random_range(lhs_len.0..=lhs_len.1);
        let lhs = String::from_utf8(random_string(rng, alphabet, n)).unwrap();
        if !seen.insert(lhs.clone()) {
            continue;
        }
        let m = rng.random_range(0..=8);
        let rhs = String::from_utf8(random_string(rng, alphabet, m)).unwrap();
        rules.push(Rule::new(rules.len(), lhs, rhs));
    }
    RuleSet::new(rules).unwrap()
}
