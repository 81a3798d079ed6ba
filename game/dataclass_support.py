"""Checks and the JSON form shared by the frozen dataclasses (configs, reports) of every layer.

- :func:`check_int`: one ``ValueError`` naming the field when a value is not an int at least a
  minimum (a bool is refused; numpy integers count as ints).
- :func:`check_sha256_or_empty`: a ``card_hash``-like field is a sha256 hex digest or ``''``.
- :func:`json_fields`: a dataclass's fields by name, in declaration order, tuples as lists.

It lives in ``game`` (the lowest layer) so that ``abstraction`` and ``solver`` can import it.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any

import numpy as np

_HEX_DIGITS = frozenset("0123456789abcdef")


def check_int(name: str, value: Any, minimum: int = 1) -> None:
    """Raise ``ValueError`` unless ``value`` is an int (not a bool) ``>= minimum``.

    >>> check_int("hands", 2, minimum=2)
    >>> check_int("hands", True)
    Traceback (most recent call last):
    ...
    ValueError: hands must be an int >= 1, got True
    """
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < minimum:
        raise ValueError(f"{name} must be an int >= {minimum}, got {value!r}")


def check_sha256_or_empty(name: str, value: Any, of: str) -> None:
    """Raise ``ValueError`` unless ``value`` is the sha256 hex digest (64 lowercase hex digits) of
    ``of``, or ``''`` (not recorded).

    >>> check_sha256_or_empty("card_hash", "", "the card file")
    >>> check_sha256_or_empty("card_hash", "abc", "the card file")
    Traceback (most recent call last):
    ...
    ValueError: card_hash must be the sha256 hex digest of the card file (64 hex digits) or '', got 'abc'
    """
    if not isinstance(value, str) or (value and (len(value) != 64 or set(value) - _HEX_DIGITS)):
        raise ValueError(f"{name} must be the sha256 hex digest of {of} (64 hex digits) or '', got {value!r}")


def json_fields(record: Any, exclude: tuple[str, ...] = ()) -> dict[str, Any]:
    """The fields of the dataclass instance ``record`` but ``exclude``, by name in declaration
    order, tuples as lists (values are not copied).

    >>> from dataclasses import dataclass
    >>> @dataclass
    ... class Pair:
    ...     name: str
    ...     seats: tuple[int, ...]
    ...     note: str = ""
    >>> json_fields(Pair("a", (0, 1)), exclude=("note",))
    {'name': 'a', 'seats': [0, 1]}
    """
    values = {field.name: getattr(record, field.name) for field in fields(record) if field.name not in exclude}
    return {name: list(value) if isinstance(value, tuple) else value for name, value in values.items()}
