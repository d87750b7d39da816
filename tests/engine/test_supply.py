"""Tile accounting (engine/supply.py)."""

from __future__ import annotations

import pytest

from engine.supply import OverSupply, check_supply, ensure_supply, unseen_tiles
from engine.tiles import FULL_SET_SIZE, JOKER, parse_melds, parse_tile, parse_tiles


def test_two_copies_are_fine():
    assert check_supply(parse_melds("R1 R2 R3 | R1 R2 R3"), parse_tiles("J J")) == []
    ensure_supply(parse_tiles("R1 R1"))


def test_third_copy_across_table_and_racks():
    problems = check_supply(parse_melds("R1 R2 R3 | R1 K1 B1"), parse_tiles("R1 O9"), parse_tiles("O9"))
    assert problems == ["3 copies of R1: a full set has only 2"]


def test_third_joker():
    problems = check_supply(parse_melds("J R2 R3"), parse_tiles("J"), parse_tiles("J"))
    assert problems == ["3 jokers: a full set has only 2"]


def test_ensure_supply_raises_with_every_problem():
    with pytest.raises(OverSupply) as err:
        ensure_supply(parse_tiles("R1 R1 R1 J J J"))
    assert isinstance(err.value, ValueError)
    assert len(err.value.problems) == 2
    assert "R1" in str(err.value) and "jokers" in str(err.value)


def test_rejects_non_tiles():
    with pytest.raises(TypeError):
        check_supply([["R1"]])


def test_unseen_tiles():
    unseen = unseen_tiles(parse_melds("R1 R2 R3"), parse_tiles("R1 J"))
    assert sum(unseen.values()) == FULL_SET_SIZE - 5
    assert unseen[parse_tile("R1")] == 0
    assert unseen[parse_tile("R2")] == 1
    assert unseen[JOKER] == 1
    assert sum(unseen_tiles().values()) == FULL_SET_SIZE
