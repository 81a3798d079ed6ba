"""What the tests that replay our rounds in PokerKit (a test-only oracle) share."""

from __future__ import annotations

from types import ModuleType


def pokerkit_automations(pokerkit: ModuleType) -> tuple:
    """PokerKit automates everything but the players' decisions: antes, blinds, dealing chores, showdown, chips."""
    return (
        pokerkit.Automation.ANTE_POSTING,
        pokerkit.Automation.BET_COLLECTION,
        pokerkit.Automation.BLIND_OR_STRADDLE_POSTING,
        pokerkit.Automation.CARD_BURNING,
        pokerkit.Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
        pokerkit.Automation.HAND_KILLING,
        pokerkit.Automation.CHIPS_PUSHING,
        pokerkit.Automation.CHIPS_PULLING,
    )
