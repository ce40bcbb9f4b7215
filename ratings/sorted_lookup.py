"""Finding many keys at once in a sorted numpy array: the lookup that the replay's columns use instead of a
dict per row (players' starting states in the history's expansion, entrants in the standings, rows' tournaments
in the facts and the championship)."""

from __future__ import annotations

import numpy as np


def sorted_lookup(sorted_keys: np.ndarray, wanted: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Where each of `wanted` is in `sorted_keys` (ascending), and whether it is there at all: (positions, hit),
    a position being any valid one where there is no hit (0 when `sorted_keys` is empty)."""
    if not len(sorted_keys):
        return np.zeros(len(wanted), dtype=np.int64), np.zeros(len(wanted), dtype=bool)
    found = np.minimum(np.searchsorted(sorted_keys, wanted), len(sorted_keys) - 1)
    return found, sorted_keys[found] == wanted


def index_lookup(keys: np.ndarray, wanted: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Where each of `wanted` is in `keys` (in any order), and whether it is there at all: (indexes into `keys`,
    hit), an index being any valid one where there is no hit (0 when `keys` is empty). One sort of `keys`."""
    by_key = np.argsort(keys, kind="stable")
    found, hit = sorted_lookup(keys[by_key], wanted)
    return (by_key[found] if len(keys) else found), hit
