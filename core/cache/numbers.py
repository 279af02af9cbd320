"""Quantities in a question, compared by the number guard of the verified-answer cache.

Parsing is :func:`core.text.quantities` (the one text module): "thirty days" and "30 days" give the
same quantity ``(30, "day")``; "Rs 40,000", "INR 40000" and "40000" all give ``40000`` (money, or no
unit); "Rs 3 lakh" gives ``300000``; "5%" and "5 percent" give ``(5, "percent")``; "2nd" and "second"
give ``(2, "ordinal")``. Indian digit grouping ("1,00,000") and Western grouping ("100,000") both parse.
"""

from __future__ import annotations

from collections.abc import Iterable

from core.text import Quantity, quantities

__all__ = ["Quantity", "quantities", "same_quantities"]


def _by_value(qs: Iterable[Quantity]) -> dict[float, set[str]]:
    grouped: dict[float, set[str]] = {}
    for q in qs:
        units = grouped.setdefault(round(q.value, 6), set())
        if q.unit is not None:
            units.add(q.unit)
    return grouped


def same_quantities(a: Iterable[Quantity], b: Iterable[Quantity]) -> bool:
    """True when ``a`` and ``b`` hold the same set of values and, for each value, compatible units.

    Units are compatible when equal or when one side gives none ("Rs 40,000" vs "40000").
    """
    ga, gb = _by_value(a), _by_value(b)
    if ga.keys() != gb.keys():
        return False
    return all(not (ga[v] and gb[v]) or ga[v] == gb[v] for v in ga)
