"""Random Elves tables for the journey tests (shared by tests/elves)."""
from __future__ import annotations

from kingdoms.elves.journey import Spot, Table

TERRAINS = ("plains", "forest", "mountain", "desert", "river", "lake")


def random_table(rng, players, most=2):
    """A random table: up to ``most`` spots a realm, some with gold, thieves, obstacles."""
    spots = []
    for p in range(players):
        for slot in range(rng.randint(0, most)):
            terrain = rng.choice(TERRAINS)
            kw = {}
            if rng.random() < 0.3:
                kw["gold"] = rng.randrange(players)
            if rng.random() < 0.3:
                kw["thief"] = rng.randrange(players)
            if rng.random() < 0.3:
                kw["obstacle"] = "sea_monster" if terrain in ("river", "lake") else "tree"
                kw["obstacle_owner"] = rng.randrange(players)
            spots.append(Spot(p, slot, terrain, rng.randint(2, 7), **kw))
    return Table(players, tuple(spots))
