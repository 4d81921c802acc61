# rewrite: its title, the one line `list` shows, the rules and the move syntax
# that `help rewrite` and the web pages show. Command words, option names and
# move syntax are the protocol and stay as they are in every language.

rewrite-title = Rewrite
rewrite-summary = secret goals, secret rewrite rules revealed at once: make the final string say what you want
rewrite-rules =
    Rewrite is Merkkikorvauspeli, the Finnish string rewriting game. Every player secretly chooses a goal: 3 letters (-goal_length), or with -regex_goals a regular expression with at least that many letters. The table string starts as the alphabet (atcg). Each round every player secretly writes one rule lhs=>rhs; all rules of the round are revealed at once. The lhs must not be empty or equal to the table string; the rhs may be empty but must not contain (or match) the player's own goal. The round's rule set is applied to the table string, then every earlier round's set, newest to oldest. A set is applied in one scan from the start: at each position the rule with the longest matching lhs applies, among equal lhs the shortest rhs; if still tied none applies there. Replacements are not rewritten again in the same pass, and where no rule applies one letter is copied. After the last round (-rounds=3) the goals are revealed and hits counted in the final string (overlaps count). Most hits wins; a tie goes to the tied player whose rule was applied most recently, else a draw.

    EXAMPLE. Five players H, Y, I, G and M choose the goals aag, acc, ctc, acg and tca. Round 1 on atcg: H tcg=>ag, Y t=>ac, I g=>tc, G at=>ta, M g=>at. G's at=>ta applies at the start; c is copied; I's and M's rules for g tie (same lhs, rhs of the same length), so g is copied too: tacg. Round 2: H ac=>aa, Y tac=>atc, I ta=>ct, G c=>ac, M t=>tc. The longest lhs wins at the start, Y's tac=>atc, giving atcg; then set 1 turns it back into tacg. Round 3: H cg=>gg, Y cg=>tctc, I g=>tc, G tac=>tac, M acg=>ca. Set 3 gives tactc, set 2 atctcac, set 1 tacaccac. Only Y's goal acc is in it (tacACCac): Y wins with 1 hit (and would have won the tie too: Y's t=>ac was the last rule applied).
rewrite-move-help =
    goal aag      choose your secret goal (replaceable until all goals are in)
    tcg=>ag       your secret rule for this round (replaceable until everyone has submitted)
    tcg=>         a rule with an empty right side
    tcg->ag       the same rule: -> may stand for =>

    On a command line, quote a rule: the shell takes > for a redirection, so an unquoted t=>ac (or t->ac) moves t= and writes a file named ac:
    tabula rewrite move 1 ned PASSWORD 'tcg=>ag'

## Options, as `help rewrite` and the challenge form describe them

rewrite-option-alphabet = the letters of the game; the table string starts as each letter once, in order
rewrite-option-alphabet-accepts = distinct lowercase letters a-z
rewrite-option-rounds = rounds of rule writing
rewrite-option-goal_length = letters in a goal (at least this many in a pattern goal)
rewrite-option-regex_goals = goals are regular expressions (letters, . [ ] ( ) | * + ? {"{"}m,n{"}"} ^ $)
rewrite-option-max_rhs = most letters on the right side of a rule
rewrite-option-max_length = the table string never grows past this: a longer pass is cut here

## Refusals: options, goals and rules ($letter and $text are quoted input)

rewrite-error-alphabet-letter = { $letter } is not a lowercase letter a-z
rewrite-error-alphabet-twice = { $letter } is given twice (at position { $position })
rewrite-error-max-length = -max_length={ $max } is shorter than the starting string { $alphabet } (-alphabet)
rewrite-error-goal-word = write the goal after the word goal: goal aag
rewrite-error-rule-spaces = { $text }: a rule has no spaces inside its sides
rewrite-error-not-a-move = { $text } is not a move: write goal aag to choose your goal, or a rule like tcg=>ag
rewrite-error-goal-first = rule 1: first choose your secret goal (goal aag); rules are written once every goal is in
rewrite-error-goals-fixed = rule 1: the goals are fixed once every goal is in
rewrite-error-lhs-empty = rule 3: the left side must not be empty
rewrite-error-letter = -alphabet: { $letter } is not one of the letters { $alphabet }
rewrite-error-lhs-long = the left side may have at most { $max } letters, not { $given }
rewrite-error-lhs-table = rule 3: the left side must not be the table string itself ({ $lhs })
rewrite-error-rhs-long = -max_rhs: the right side may have at most { $max } letters, not { $given }
rewrite-error-rhs-goal = rule 3: the right side must not { $how ->
    [match] match
   *[contain] contain
} your own goal ({ $goal })
rewrite-error-goal-long = a goal may have at most { $max } characters
rewrite-error-goal-length = rule 1: a goal has exactly { $length } letters (-goal_length), not { $given }
rewrite-error-pattern-group = only (?: ) groups are allowed after (?
rewrite-error-pattern-char = { $letter } is not allowed in a goal pattern (use the letters { $alphabet } and . [ ] ^ - ( ) (?: ) | * + ? {"{"}m,n{"}"} $)
rewrite-error-pattern-letters = rule 1: a goal pattern has at least { $length } letters (-goal_length), not counting metacharacters; { $text } has { $given }
rewrite-error-pattern-invalid = { $text } is not a valid regular expression: { $problem }
rewrite-error-pattern-empty = rule 1: a goal must not match the empty string
rewrite-error-pattern-nothing = rule 1: a goal must be able to match something
rewrite-error-goal-complex = the goal { $text } is too complex: { $problem }

## How a game ended

rewrite-outcome-others-resigned = every other player resigned
rewrite-outcome-most-hits = most hits ({ NUMBER($hits, useGrouping: "false") } { $hits ->
    [one] hit
   *[other] hits
})
rewrite-outcome-tie-applied-last = tied on { NUMBER($hits, useGrouping: "false") } { $hits ->
    [one] hit
   *[other] hits
}; { $user }'s rule was applied last
rewrite-outcome-tie-never-applied = tied on { NUMBER($hits, useGrouping: "false") } { $hits ->
    [one] hit
   *[other] hits
}; no tied player's rule was ever applied

## History lines

rewrite-history-goals-in = Every goal is in. Round 1: write your rules.
rewrite-history-round-rules = Round { $round } rules: { $rules }.
rewrite-history-cut = Round { $round }, set { $set }: the string was cut at { NUMBER($letters, useGrouping: "false") } letters (-max_length).
rewrite-history-pass = set { $set }: { $input } -> { $output }
rewrite-history-round = Round { $round }: { $passes }.
rewrite-history-next-round = Round { $round }: write your rules.
rewrite-history-goal = { $user } { $goal } ({ NUMBER($hits, useGrouping: "false") } { $hits ->
    [one] hit
   *[other] hits
})
rewrite-history-no-goal = { $user } (no goal)
rewrite-history-over = The game is over. Goals: { $goals }.
rewrite-history-wins = { $user } wins: { $reason }.
rewrite-history-draw = Draw: { $reason }.
rewrite-history-goal-changes = { $user } changes their goal to { $goal }
rewrite-history-goal-changed = { $user } changed their goal
rewrite-history-goal-chooses = { $user } chooses the goal { $goal }
rewrite-history-goal-chose = { $user } chose a goal
rewrite-history-rule-replaces = { $user } replaces their round { $round } rule with { $rule }
rewrite-history-rule-replaced = { $user } replaced their rule for round { $round }
rewrite-history-rule-writes = { $user } writes { $rule } for round { $round }
rewrite-history-rule-wrote = { $user } wrote a rule for round { $round }

## What is wrong with a goal pattern ($problem of rewrite-error-pattern-invalid)

rewrite-regex-class-unclosed = error: unclosed character class
rewrite-regex-class-range = error: invalid character class range, the start must be <= the end
rewrite-regex-class-range-literal = error: invalid range boundary, must be a literal
rewrite-regex-group-unclosed = error: unclosed group
rewrite-regex-group-unopened = error: unopened group
rewrite-regex-repetition-missing = error: repetition operator missing expression
rewrite-regex-count-range = error: invalid repetition count range, the start must be <= the end
rewrite-regex-count-unclosed = error: unclosed counted repetition
rewrite-regex-count-empty = error: repetition quantifier expects a valid decimal
rewrite-regex-decimal-empty = error: decimal literal empty
rewrite-regex-decimal-invalid = error: decimal literal invalid
rewrite-regex-nesting = error: exceed the maximum number of nested parentheses/brackets ({ $limit })
# Any other problem: the parser's own line, in English, quoted.
rewrite-regex-other = { $detail }

## The board ($round, $rounds, $set, $letters, $length, $pos and $count are numbers written as they are; $cut is yes or no)

rewrite-board-heading = Rewrite, alphabet { $alphabet }: { $status }
rewrite-board-choosing-goals = choosing goals
rewrite-board-writing-rules = round { $round } of { $rounds }: writing rules
rewrite-board-over = over after { $round } of { $rounds } rounds
rewrite-board-table = Table string:
rewrite-board-start = start
rewrite-board-round = round { $round }
rewrite-board-cut = (cut at { $letters } letters, -max_length)
rewrite-board-shown-long = { $text } ({ $length } letters)
rewrite-board-rules = Rules:
rewrite-board-set = round { $round }:
rewrite-board-trace = Round { $round }, pass by pass:
rewrite-board-pass = set { $set }: { $input } -> { $output }  ({ NUMBER($applications, useGrouping: "false") } { $applications ->
    [one] application
   *[other] applications
}{ $cut ->
    [yes] , cut at -max_length
   *[no] {""}
})
rewrite-board-step = { $user } { $rule } at { $pos }
rewrite-board-more = ... and { $count } more
rewrite-board-your-goal = Your goal: { $goal }
rewrite-board-your-rule = Your rule for round { $round }: { $rule } (you may replace it until everyone has written one)
rewrite-board-waiting = Waiting for: { $users }
rewrite-board-results = Goals and hits in the final string:
rewrite-board-no-goal = { $user } (no goal)
rewrite-board-goal = { $user } { $goal } { NUMBER($hits, useGrouping: "false") } { $hits ->
    [one] hit
   *[other] hits
}
