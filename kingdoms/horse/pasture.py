"""The 3x4 pasture: fence borders, fenced areas and whether a herd fits.

Fields are numbered ``r * 4 + c`` (rows r = 0..2 from the top, columns c = 0..3).
Borders (where fences go, board edge included) are 31 bits of an int:

* ``H r c`` (index ``r*4 + c``, 0..15): the horizontal border above field (r, c);
  ``H 3 c`` is the bottom edge of the board;
* ``V r c`` (index ``16 + r*5 + c``, 16..30): the vertical border left of field
  (r, c); ``V r 4`` is the right edge of the board.

A *fenced area* is a set of fields connected through unfenced borders whose whole
outer boundary is fenced (every board-edge border of it carries a fence; the borders
towards other fields carry one by construction).  Capacity is 2 animals per field.

Because animals may be moved and swapped between areas at any time, where each
animal stands never matters: a herd is legal exactly when the species can be given
disjoint sets of areas, each set's capacity holding that species (one species per
area).  ``fits`` decides that; ``assignment`` gives one such placement for drawing.
"""
from __future__ import annotations

from kingdoms.core.cache import speed_cache
from kingdoms.core.i18n import _
from kingdoms.core.protocol import check_count, safe_repr

__all__ = ["ROWS", "COLS", "EDGES", "edge_index", "edge_name", "areas", "capacities",
           "fits", "assignment", "field_edges", "enclosure", "popcount"]

ROWS, COLS = 3, 4
N_H = (ROWS + 1) * COLS          # 16
N_V = ROWS * (COLS + 1)          # 15
EDGES = N_H + N_V                # 31
ALL_EDGES = (1 << EDGES) - 1


def H(r, c):
    return r * COLS + c


def V(r, c):
    return N_H + r * (COLS + 1) + c


def edge_index(name: str) -> int:
    """``"H00"`` / ``"V12"`` (also ``"H 0 0"``) -> bit index."""
    t = name.replace(" ", "").upper()
    if len(t) == 3 and t[0] in "HV" and t[1:].isdigit():
        r, c = int(t[1]), int(t[2])
        if t[0] == "H" and 0 <= r <= ROWS and 0 <= c < COLS:
            return H(r, c)
        if t[0] == "V" and 0 <= r < ROWS and 0 <= c <= COLS:
            return V(r, c)
    raise ValueError(f"{name!r} is not a border: use 'H r c' (r 0-3, c 0-3) "
                     "or 'V r c' (r 0-2, c 0-4)")


def edge_name(i: int) -> str:
    if i < N_H:
        return f"H{i // COLS}{i % COLS}"
    j = i - N_H
    return f"V{j // (COLS + 1)}{j % (COLS + 1)}"


def edge_words(i: int) -> str:
    """Plain words for a border, counting rows and columns from 1 as people do,
    e.g. 'above the field in row 2, column 3' (the border ``H12``)."""
    if i < N_H:
        r, c = divmod(i, COLS)
        if r == ROWS:
            return _("below the field in row {row}, column {col}").format(row=r, col=c + 1)
        return _("above the field in row {row}, column {col}").format(row=r + 1, col=c + 1)
    r, c = divmod(i - N_H, COLS + 1)
    if c == COLS:
        return _("right of the field in row {row}, column {col}").format(row=r + 1, col=c)
    return _("left of the field in row {row}, column {col}").format(row=r + 1, col=c + 1)


def field_edges(f: int) -> tuple:
    """(top, bottom, left, right) border indices of field ``f``."""
    r, c = divmod(f, COLS)
    return H(r, c), H(r + 1, c), V(r, c), V(r, c + 1)


_FIELD_EDGES = tuple(field_edges(f) for f in range(ROWS * COLS))


def popcount(x: int) -> int:
    return bin(x).count("1")


def _neighbours(f: int) -> tuple:
    """(border, field across it or -1 at the board edge) for the 4 sides of field ``f``."""
    r, c = divmod(f, COLS)
    top, bottom, left, right = _FIELD_EDGES[f]
    return tuple((edge, nr * COLS + nc if 0 <= nr < ROWS and 0 <= nc < COLS else -1)
                 for edge, nr, nc in ((top, r - 1, c), (bottom, r + 1, c),
                                      (left, r, c - 1), (right, r, c + 1)))


_NEIGHBOURS = tuple(_neighbours(f) for f in range(ROWS * COLS))


def enclosure(fields) -> int:
    """The fences (a border bitmask) around exactly the given fields: every border
    between one of them and a field outside them or the board's edge.  Connected
    fields make one fenced area of ``areas``; e.g. ``enclosure({0, 1})`` fences the
    two top-left fields as one area."""
    inside = set(fields)
    for f in inside:
        if type(f) is not int or not 0 <= f < ROWS * COLS:
            raise ValueError(f"fields are numbered 0..{ROWS * COLS - 1}, not {f!r}")
    mask = 0
    for f in inside:
        for edge, g in _NEIGHBOURS[f]:
            if g not in inside:
                mask |= 1 << edge
    return mask


def _check_fences(fences) -> None:
    if type(fences) is not int or not 0 <= fences <= ALL_EDGES:
        raise ValueError(f"fences are a border bitmask, a whole number from 0 to {ALL_EDGES} "
                         f"(bit i: a fence on border i, see edge_index); not {fences!r:.40}")


def check_herd(herd, species: tuple | None = None, what: str = "herd") -> tuple:
    """``herd`` as a tuple if it counts animals per species (whole numbers of at least
    0; with ``species``, one count per species in that order), else a ``ValueError``."""
    try:
        h = tuple(herd)
    except TypeError:
        h = None
    if (h is None or isinstance(herd, (str, bytes, dict))
            or (species is not None and len(h) != len(species))
            or not all(type(n) is int and n >= 0 for n in h)):
        order = f" in the order {', '.join(species)}" if species else ""
        raise ValueError(f"{what} must be the animals of each species{order}, whole numbers "
                         f"of at least 0 (e.g. (3, 1, 0, 0)); not {safe_repr(herd)}")
    return h


def _check_herd(herd, per_field) -> None:
    check_count(per_field, "per_field", 1)
    check_herd(herd)


@speed_cache(maxsize=1 << 16)
def areas(fences: int) -> tuple:
    """The fenced areas of a fence bitmask: a sorted tuple of field bitmasks."""
    _check_fences(fences)           # (cached: checked once per mask)
    seen = 0
    out = []
    for start in range(ROWS * COLS):
        if seen >> start & 1:
            continue
        comp = 1 << start
        closed = True
        stack = [start]
        while stack:
            for edge, g in _NEIGHBOURS[stack.pop()]:
                if fences >> edge & 1:
                    continue
                if g < 0:
                    closed = False           # an open board-edge border
                elif not comp >> g & 1:
                    comp |= 1 << g
                    stack.append(g)
        seen |= comp
        if closed:
            out.append(comp)
    return tuple(sorted(out))


@speed_cache(maxsize=1 << 16)
def capacities(fences: int, per_field: int = 2) -> tuple:
    """Capacities of the fenced areas, largest first."""
    _check_herd((), per_field)
    return tuple(sorted((per_field * popcount(a) for a in areas(fences)), reverse=True))


@speed_cache(maxsize=1 << 18)
def _fits(caps: tuple, needs: tuple) -> bool:
    if not any(needs):
        return True
    if not caps or sum(needs) > sum(caps):
        return False
    cap, rest = caps[0], caps[1:]
    if _fits(rest, needs):            # leave this area empty
        return True
    tried = set()
    for i, n in enumerate(needs):
        if n and n not in tried:      # equal needs are interchangeable
            tried.add(n)
            nxt = list(needs)
            nxt[i] = max(0, n - cap)
            if _fits(rest, tuple(sorted(nxt, reverse=True))):
                return True
    return False


def fits(fences: int, herd: tuple, per_field: int = 2) -> bool:
    """Can ``herd`` (counts per species) be kept on a pasture with these fences?"""
    _check_herd(herd, per_field)
    return _herd_fits(fences, herd, per_field)


def _herd_fits(fences: int, herd: tuple, per_field: int) -> bool:
    return _fits(capacities(fences, per_field), tuple(sorted(herd, reverse=True)))


# The rules ask after every step of every player: one cache lookup (herd a tuple).  They
# hand over their own herds (whole numbers), so the check of ``fits`` is not repeated.
fits_cached = speed_cache(maxsize=1 << 18)(_herd_fits)


def assignment(fences: int, herd: tuple, per_field: int = 2) -> dict | None:
    """One legal placement: {area bitmask: species index} (None if it does not fit)."""
    _check_herd(herd, per_field)
    ars = sorted(areas(fences), key=popcount, reverse=True)
    caps = [per_field * popcount(a) for a in ars]
    result: dict = {}

    def go(i, needs):
        if not any(needs):
            return True
        if i == len(ars):
            return False
        if go(i + 1, needs):
            return True
        for s, n in enumerate(needs):
            if n:
                nxt = list(needs)
                nxt[s] = max(0, n - caps[i])
                result[ars[i]] = s
                if go(i + 1, tuple(nxt)):
                    return True
                del result[ars[i]]
        return False

    if not go(0, tuple(herd)):
        return None
    return result


@speed_cache(maxsize=1 << 14)
def placement(fences: int, herd: tuple, per_field: int = 2) -> dict:
    """{field: (species index, animals on it)} for drawing a legal herd (cached:
    do not modify the result)."""
    assign = assignment(fences, herd, per_field)
    out: dict = {}
    if not assign:
        return out
    left = list(herd)
    for area, s in sorted(assign.items(), key=lambda kv: (kv[1], -popcount(kv[0]))):
        for f in range(ROWS * COLS):
            if area >> f & 1 and left[s] > 0:
                k = min(per_field, left[s])
                left[s] -= k
                out[f] = (s, k)
    return out
