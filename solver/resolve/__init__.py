"""Real-time re-solving: vector-form CFR over both players' hand vectors in a subgame built at run time.

``hands`` lists the hole-card combinations a board leaves (sorted by strength) and values showdowns
and folds against a range with exact card removal; ``tree`` builds the street's betting tree from
the real pot, stacks and pips with a finer bet set; ``resolver`` runs CFR+ or DCFR over that tree,
optionally behind the safe re-solving gadget (``OpponentValues``), and measures the subgame's
exploitability. Kernels: ``kernels_showdown``, ``kernels_vector_cfr``.
"""
