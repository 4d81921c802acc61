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
