"""Playing the rules: baseline bots and their equity kernel, heads-up matches with duplicate
dealing, N-player freeze-outs, match-level lock-in, hand histories and their replay, and the
``vcfr variants / match / replay`` commands. Built on `game.rules`."""
