"""Real-time re-solving: vector-form CFR over both players' hand vectors in a subgame built at run time.

``hands`` lists the hole-card combinations a board leaves (sorted by strength) and values showdowns
and folds against a range with exact card removal; ``tree`` builds the street's betting tree from
the real pot, stacks and pips with a finer bet set; ``resolver`` runs CFR+ or DCFR over that tree,
optionally behind the safe re-solving gadget (``OpponentValues``), and measures the subgame's
exploitability. Depth-limited (the turn): ``tree`` ends the street at LEAF and RUNOUT nodes,
``hands.turn_hands`` lists a four-card board's hands with every river's showdown order, ``leaves``
holds the continuation values at the leaves and ``continuation`` derives them from a blueprint
(Brown, Sandholm & Amos 2018). Kernels: ``kernels_showdown``, ``kernels_vector_cfr``, ``kernels_leaf``.
"""
