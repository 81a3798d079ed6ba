"""Playing the rules: baseline bots and their equity kernel, the sparring suite (styles as data),
heads-up matches with duplicate dealing, N-player freeze-outs, match-level lock-in, hand
histories and their replay, the gauntlet, and the ``vcfr variants / match / freezeout / gauntlet /
replay`` commands. Built on `game.rules`."""
