# dna: its title, the one line `list` shows, the rules and the move syntax
# that `help dna` and the web pages show. Command words, option names and
# move syntax are the protocol and stay as they are in every language.

dna-title = DNA
dna-summary = whittle down your opponents' genetic code before they whittle down yours
dna-rules =
    DNA is a game of accelerated evolution for 2 to 8 players: whittle down your opponents' genetic code before they whittle down yours.

    SET-UP. Every player owns a DNA sequence, 36 letters long unless -length says otherwise, made of the nucleotides A, C, G and T (adenine, cytosine, guanine, thymine). With -base=2 or -base=3 only the first two or three of those letters are used. Normally the server draws every sequence at random. With -manual each player sets their own sequence instead, or asks for a random one; nobody sees another player's sequence until all of them are set. Play then begins.

    NOMINATING. Players take turns in the order they were named, the first named player starting. On your turn you nominate a chunk: a run of consecutive letters, 3 long unless -chunk, -min_chunk or -max_chunk allow other sizes. The chunk must occur in your own sequence (not so with -need_not_own). Every instance of it is then removed from your own sequence (not with -no_reduce_self) and from every opponent's sequence (with -reduce_next, only from the next opponent in turn order who is still in the game).

    HOW REMOVAL WORKS. Removal goes in passes. A pass reads a sequence from left to right and cuts out each instance of the chunk it meets; an instance overlapping one just cut is skipped. The letters on both sides of a cut close up, which can form new instances, so passes repeat until a pass finds nothing. Every instance cut in any pass counts as one chunk removed. For example AGC occurs only once in TAAGAAGCGCCT, yet three passes remove three chunks: TAAGA[AGC]GCCT, then TAAG[AGC]CT, then TA[AGC]T, which leaves TAT. Overlapping chunks need care: AACACACA minus ACA leaves AC (the first pass cuts A[ACA]C[ACA]).

    FIRST ROUND. Unless the game was started with -non_incremental, during the first round the i-th player in turn order may not nominate a chunk that would remove more than i chunks from any single opponent: the first player at most one, the second at most two, and so on.

    LEGAL NOMINATIONS. A nomination must remove at least one chunk from some sequence. A player with no legal nomination passes automatically, and the move list says so. If every player still in the game passes in one full round, the sequences can no longer change and the game ends: the longest sequence wins, and equal longest sequences tie. Passes forced by the first-round limits do not count towards this, since the limits end with the first round.

    ELIMINATION AND WINNING. After each nomination, a player whose sequence is shorter than the smallest chunk size is out of the game. The last player standing wins. If one nomination puts out every player still in the game, the longest of their sequences wins; equal longest sequences tie.

    RESIGNING. A player may resign at any time. The resigned player's sequence stays on the board, frozen: later nominations no longer reduce it.

    CHUNK SIZES. With -min_chunk and -max_chunk any size from the smallest to the largest may be nominated; a bound left out is 3, or the other bound where 3 would be on its wrong side. -chunk together with a different -min_chunk or -max_chunk, a smallest size above the largest, or a chunk longer than the sequence are refused.

    EXAMPLE. A game between ned, ted and jed starts with

      ned (36): TCGCATGTACAAAGTTTTCAATCTTCGCCTTGAGAG
      ted (36): TCAGCGCGTTCCCGGAGTCGTCGTATTAAAGGGGAT
      jed (36): GCCAATTATGGACTTGTTGTCAGATAGTTTCCGGCG

    As first move ned nominates AAG, which occurs once in his sequence and once in ted's (he could not nominate TTG: it occurs twice in jed's, and the first player may remove at most one chunk from any opponent):

      ned (33): TCGCATGTACATTTTCAATCTTCGCCTTGAGAG
      ted (33): TCAGCGCGTTCCCGGAGTCGTCGTATTAGGGAT
      jed (36): GCCAATTATGGACTTGTTGTCAGATAGTTTCCGGCG

    As second move ted nominates TTC:

      ned (27): TCGCATGTACATTAATCGCCTTGAGAG
      ted (30): TCAGCGCGCCGGAGTCGTCGTATTAGGGAT
      jed (33): GCCAATTATGGACTTGTTGTCAGATAGTCGGCG

    THE BOARD. One line per player with the length of the sequence and the sequence: `ned (33): TCGCATGTACATTTTCAATCTTCGCCTTGAGAG`. A player out of the game is marked (out), one who resigned (resigned). During a -manual set-up the sequences of others show as hidden.
dna-move-help =
    Nominate a chunk by writing its letters (upper or lower case):
      dna move 1 ned PASSWORD AAG
    A chunk has the game's chunk size (3 by default, or any size from -min_chunk to -max_chunk) and uses only the game's letters (A, C, G, T, or fewer with -base).

    With -manual, before the first nomination every player sets their sequence with a move that is the whole sequence, exactly -length letters:
      dna move 1 ned PASSWORD GCCAATTATGGACTTGTTGTCAGATAGTTTCCGGCG
    or lets the server draw one at random:
      dna move 1 ned PASSWORD random

    To plan a nomination, the calculator shows what removing a chunk does to a sequence, one line per pass with --trace, or as JSON with --json:
      tabula dna remove --trace TAAGAAGCGCCT AGC

## Options, as `help dna` and the challenge form describe them

dna-option-length = sequence length
dna-option-chunk = chunk size (3 if no chunk option is given); sets both -min_chunk and -max_chunk
dna-option-min_chunk = smallest chunk size (at least 2)
dna-option-max_chunk = largest chunk size
dna-option-base = number of letters used: the first 2, 3 or 4 of A, C, G, T
dna-option-manual = players set their own sequences (or `random`), hidden until all are set
dna-option-non_incremental = no first-round limit on the chunks removed from an opponent
dna-option-need_not_own = a nominated chunk need not occur in the mover's own sequence
dna-option-no_reduce_self = a nomination does not reduce the mover's own sequence
dna-option-reduce_next = a nomination reduces only the next opponent in turn order

## Refusals: options that contradict each other, and moves

dna-error-chunk-contradicts = -chunk={ $chunk } contradicts -{ $name }={ $value }: -chunk sets both the smallest and the largest chunk size
dna-error-chunk-too-long = { $culprit } is longer than -length={ $length }: a chunk cannot be longer than the sequence
dna-error-default-chunk = the default chunk size { $size }
dna-error-min-over-max = -min_chunk={ $min } is larger than -max_chunk={ $max }
dna-error-chunk-rule = chunks are { $size } letters long (-chunk={ $size })
dna-error-chunk-rule-range = chunks are { $min } to { $max } letters long (-min_chunk={ $min } -max_chunk={ $max })
dna-error-not-owned = { $chunk } does not occur in your sequence: a nomination must be a chunk of your own sequence
dna-error-first-round = { $chunk } would remove { $removed ->
    [one] { NUMBER($removed, useGrouping: "false") } chunk
   *[other] { NUMBER($removed, useGrouping: "false") } chunks
} from { $opponent }: in the first round the { $position ->
    [1] 1st
    [2] 2nd
    [3] 3rd
   *[other] { $position }th
} player may remove at most { $limit ->
    [one] { NUMBER($limit, useGrouping: "false") } chunk
   *[other] { NUMBER($limit, useGrouping: "false") } chunks
} from any one opponent
dna-error-no-op = { $chunk } would remove nothing: a nomination must remove at least one chunk from some sequence
dna-error-letters = { $text } is not a { $what ->
    [chunk] chunk
   *[sequence] sequence
}: use only the letters { $letters }
dna-error-chunk-size = { $chunk } is { $size ->
    [one] { NUMBER($size, useGrouping: "false") } letter
   *[other] { NUMBER($size, useGrouping: "false") } letters
} long: { $rule }
dna-error-sequence-length = a sequence has exactly { $length } letters (-length={ $length }), not { $given }; nominations start once every sequence is set
dna-error-empty-setup = empty move: write your sequence, or random
dna-error-empty = empty move: write the chunk to nominate, such as AAG
dna-error-too-long = a move of { $given } characters is too long: sequences have { $length } letters
dna-error-random-late = random only sets a sequence during a -manual set-up; now nominate a chunk
dna-error-setup-first = nominations start once every sequence is set
dna-error-already-set = you have already set your sequence; it stays hidden until every sequence is set
dna-error-all-set = every sequence is already set: nominate a chunk
dna-error-preview-setup = not a nomination: the set-up is still going on

## How a game ended; $why is one of the first two

dna-outcome-no-nomination = no player could nominate
dna-outcome-all-eliminated = every remaining player was eliminated at once
dna-outcome-longest-wins = { $why }; the longest sequence wins
dna-outcome-longest-tie = { $why }; equal longest sequences tie
dna-outcome-all-resigned = every player resigned

## History lines

dna-history-passes = { $user } has no legal nomination and passes
dna-history-longest-wins = { $user } wins with the longest sequence ({ $letters ->
    [one] 1 letter
   *[other] { NUMBER($letters, useGrouping: "false") } letters
}): { $why }
dna-history-longest-tie = { $users } tie with the longest sequences ({ $letters ->
    [one] 1 letter
   *[other] { NUMBER($letters, useGrouping: "false") } letters
}): { $why }
dna-history-nomination = { $user }: { $chunk } ({ $effects })
dna-history-out = { $user } is out: { $letters ->
    [one] 1 letter
   *[other] { NUMBER($letters, useGrouping: "false") } letters
} left, fewer than { NUMBER($min, useGrouping: "false") }
dna-history-random-sequence = { $user } sets a random sequence: { $sequence }
dna-history-sequence = { $user } sets the sequence { $sequence }
dna-history-sets-sequence = { $user } sets a sequence
dna-history-all-set = Every sequence is set and now shown to all
dna-history-resigns-frozen = { $user } resigns; their sequence stays on the board, frozen
dna-history-resigns-unset = { $user } resigns before setting a sequence

## The board ($length is a number written as it is; $round is first or later)

dna-board-hidden = { $name } ({ $length }): hidden
dna-board-no-sequence-yet = { $name }: no sequence yet
dna-board-no-sequence = { $name }: no sequence
dna-board-opening-passes = No legal nomination at the start, passed: { $users }
dna-board-out = (out)
dna-board-resigned = (resigned)
dna-board-over = Game over
dna-board-setting-up = Set-up: waiting for { $users }
dna-board-to-nominate = { $users } to nominate{ $round ->
    [first] {" "}(first round)
   *[later] {""}
}
dna-board-last = Last: { $user } nominated { $chunk } ({ $effects })
dna-board-before = before { $chunk }
dna-board-no-strip = no sequence yet
dna-board-adenine = adenine
dna-board-cytosine = cytosine
dna-board-guanine = guanine
dna-board-thymine = thymine
dna-board-removed = removed by the last nomination
