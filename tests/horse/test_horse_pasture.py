"""The pasture model against brute force (hypothesis)."""
from itertools import product

import pytest
from hypothesis import HealthCheck, assume, given, settings, strategies as st

from kingdoms.horse import pasture


def brute_areas(fences):
    """Components of fields joined through unfenced inner borders (union-find),
    kept when none of their board-edge borders is open."""
    parent = list(range(12))

    def find(x):
        while parent[x] != x:
            x = parent[x]
        return x

    for f in range(12):
        r, c = divmod(f, 4)
        if c < 3 and not fences >> pasture.V(r, c + 1) & 1:
            parent[find(f)] = find(f + 1)
        if r < 2 and not fences >> pasture.H(r + 1, c) & 1:
            parent[find(f)] = find(f + 4)
    comps = {}
    for f in range(12):
        comps.setdefault(find(f), []).append(f)
    out = []
    for fields in comps.values():
        closed = True
        for f in fields:
            r, c = divmod(f, 4)
            for e, inside in ((pasture.H(r, c), r > 0), (pasture.H(r + 1, c), r < 2),
                              (pasture.V(r, c), c > 0), (pasture.V(r, c + 1), c < 3)):
                if not inside and not fences >> e & 1:
                    closed = False
        if closed:
            out.append(sum(1 << f for f in fields))
    return tuple(sorted(out))


def brute_fits(fences, herd):
    ars = brute_areas(fences)
    for owner in product(range(5), repeat=len(ars)):      # 4 = empty
        room = [0] * 4
        for a, o in zip(ars, owner):
            if o < 4:
                room[o] += 2 * bin(a).count("1")
        if all(room[s] >= herd[s] for s in range(4)):
            return True
    return not any(herd)


masks = st.integers(0, (1 << 31) - 1)
dense = st.lists(st.integers(0, 30), min_size=10, max_size=26).map(
    lambda es: sum(1 << e for e in set(es)))
herds = st.tuples(*(st.integers(0, 7) for _ in range(4)))


@settings(max_examples=300, deadline=None)
@given(fences=st.one_of(masks, dense))
def test_areas_match_union_find(fences):
    assert pasture.areas(fences) == brute_areas(fences)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(fences=st.one_of(masks, dense), herd=herds)
def test_fits_matches_brute_force_assignment(fences, herd):
    # the brute force tries 5 ** areas owners: bounded here (12 one-field areas
    # would be 244 million tries, minutes of CI time)
    assume(len(brute_areas(fences)) <= 8)
    ok = pasture.fits(fences, herd)
    assert ok == brute_fits(fences, herd)
    if ok:
        assign = pasture.assignment(fences, herd)
        room = [0] * 4
        for area, s in assign.items():
            room[s] += 2 * bin(area).count("1")
        assert all(room[s] >= herd[s] for s in range(4))
        place = pasture.placement(fences, herd)
        assert [sum(k for s2, k in place.values() if s2 == s) for s in range(4)] == list(herd)
    else:
        assert pasture.assignment(fences, herd) is None


def test_edge_names_round_trip():
    for e in range(pasture.EDGES):
        assert pasture.edge_index(pasture.edge_name(e)) == e
    # rows and columns counted from 1 in text (the edge names count from 0)
    assert pasture.edge_words(pasture.edge_index("H30")) == "below the field in row 3, column 1"
    assert pasture.edge_words(pasture.edge_index("V14")) == "right of the field in row 2, column 4"
    assert pasture.edge_words(pasture.edge_index("H12")) == "above the field in row 2, column 3"


def _groups(fields):
    """The 4-connected groups of ``fields`` (a set), each as a field bitmask."""
    left, out = set(fields), []
    while left:
        stack, group = [left.pop()], 0
        while stack:
            f = stack.pop()
            group |= 1 << f
            r, c = divmod(f, 4)
            for nr, nc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                g = nr * 4 + nc
                if 0 <= nr < 3 and 0 <= nc < 4 and g in left:
                    left.remove(g)
                    stack.append(g)
        out.append(group)
    return out


def test_enclosure_fences_exactly_the_given_fields_every_subset():
    """Fencing a set of fields makes each of its connected groups an area, and also
    any group of other fields cut off from the board's edge by them; nothing else."""
    edge_fields = {f for f in range(12) if f // 4 in (0, 2) or f % 4 in (0, 3)}
    for bits in range(1 << 12):
        fields = {f for f in range(12) if bits >> f & 1}
        outside = [g for g in _groups(set(range(12)) - fields)
                   if not any(g >> f & 1 for f in edge_fields)]
        fences = pasture.enclosure(fields)
        assert pasture.areas(fences) == tuple(sorted(_groups(fields) + outside))
        assert pasture.areas(fences) == brute_areas(fences)


def test_enclosure_names_the_borders_and_refuses_fields_off_the_board():
    E = pasture.edge_index
    assert pasture.enclosure({0}) == sum(1 << E(b) for b in ("H00", "H10", "V00", "V01"))
    assert pasture.enclosure(()) == 0
    assert pasture.enclosure(range(12)) == sum(
        1 << E(b) for b in [f"H0{c}" for c in range(4)] + [f"H3{c}" for c in range(4)]
        + [f"V{r}0" for r in range(3)] + [f"V{r}4" for r in range(3)])
    for bad in (12, -1, "0", 1.0):
        with pytest.raises(ValueError, match="fields are numbered 0..11"):
            pasture.enclosure({bad})
