"""Registering a variant (`game.rules.variants.register_variant`, `abstraction.hooks.register_hooks`): a new name
joins every registry-derived list while registered and leaves it after; duplicates and hooks without
rules are refused with one clear error."""

from __future__ import annotations

import pytest

from abstraction.hooks import hooked_variants, register_hooks, tree_hooks
from game.rules.chance import RandomChance
from game.rules.holdem import HoldemConfig, HoldemRound
from game.rules.variants import VARIANTS, Variant, get_variant, register_variant, start_round
from solver.games.abstract_games import AbstractGameConfig
from tests.variant_contract.ante_holdem import NAME, AnteHoldemConfig, AnteHoldemHooks, registered_ante_holdem


def test_a_variant_is_registered_for_the_block_only() -> None:
    builtin = hooked_variants()
    with registered_ante_holdem():
        assert tuple(VARIANTS) == hooked_variants() == (*builtin, NAME)
        assert type(start_round(AnteHoldemConfig(), RandomChance(0))).__name__ == "AnteHoldemRound"
        assert AbstractGameConfig(variant=NAME, card_abstraction="cards.h5").variant_config() == AnteHoldemConfig()
        with pytest.raises(ValueError, match=f"variant '{NAME}' is already registered"):
            register_variant(get_variant(NAME))
        with pytest.raises(ValueError, match=f"variant '{NAME}' already has tree hooks"):
            register_hooks(tree_hooks(NAME))
    assert NAME not in VARIANTS and hooked_variants() == builtin
    with pytest.raises(ValueError, match=f"abstract games support variants .*, got '{NAME}'"):
        AbstractGameConfig(variant=NAME, card_abstraction="cards.h5")


def test_an_error_in_the_block_unregisters_too() -> None:
    with pytest.raises(RuntimeError, match="inside"), registered_ante_holdem():
        raise RuntimeError("inside")
    assert NAME not in VARIANTS and NAME not in hooked_variants()


def test_bad_registrations_are_refused() -> None:
    with pytest.raises(ValueError, match=f"hooks for variant '{NAME}': no such rules variant"):
        register_hooks(AnteHoldemHooks())
    with pytest.raises(ValueError, match="its config class HoldemConfig names variant 'holdem'"):
        register_variant(Variant("holdem2", HoldemConfig, HoldemRound, "Hold'em under another name"))
    with pytest.raises(TypeError, match="round_class must subclass NoLimitRound"):
        register_variant(Variant(NAME, AnteHoldemConfig, dict, "no round"))  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="register_hooks takes a HoldemHooks"):
        register_hooks("holdem")  # type: ignore[arg-type]
    assert NAME not in VARIANTS
