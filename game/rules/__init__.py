"""The rules of every game as round state machines: actions, the heads-up no-limit round and its
variants (Hold'em, Swap, River of Blood, Auction, Bounty), Kuhn, Leduc and small hold'em, N-player
limit hold'em, chance sources and pot division. Built on `game.cards`."""
