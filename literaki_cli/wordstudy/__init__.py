"""Word study for players and tournament helpers: searches over the compiled word graph
(pattern, regular expression, anagram, subanagram, hooks), Zyzzyva-style probability order,
Polish collation, the words added and removed between two lexicon versions, and the logic of
the tournament word judge.

Every search is one walk of the lexicon's DAWG in step with a finite automaton (the pattern,
the regular expression and the other filters compiled together, :mod:`.automaton`) and, for
anagrams, the tiles still unused (:mod:`.kernels`): a branch no word of the answer can lie
under is never entered, so a pattern with a fixed first letter looks at one letter's subtree.
"""
