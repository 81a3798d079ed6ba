"""The MIT Pokerbots engines (2022-2025): their wire protocol, and a client that plays one of our bots
in an official engine, mirrors each round in our rules and checks every answer. Built on
`game.rules` and `game.play`."""
