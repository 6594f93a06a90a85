"""The solo race against Moritz: what the player ``policies()["solo"]``
(``kingdoms.horse.policies.solo_policy``) weighs, and the dice faces it is measured on.

Moritz rolls twice a turn, needs no fences and trades every species each turn, so he
holds the set after about 5.4 turns (``odds.moritz_mean_turns``).  You win by
holding the set first (you move first each round), or, when he triggers the end,
by a better herd after the final trade (most horses, then cattle, pigs, sheep).
``solo_policy`` plays for that race:

* **dice** — the exact re-roll solver (``odds.keep_policy``, the choices of
  ``odds.solve_rerolls``) for the goal ``dice_goal``: what the herd is worth after the
  dice (animals that would not fit the fences count nothing), minus the sheep it still
  lacks to reach the set by trading, plus 3 a fence while the layout is unfinished,
  plus a large bonus when this turn's trading phase can then complete the set;
* **cards** — plays the permanent engines at once (Training to Merchant Sheep: trade
  every species; the cheaper trade rates), a one-shot card when it is worth 2 sheep or
  more, and otherwise discards the small cards to dig for those;
* **trades** — looks at every trade (and, with every species tradable, every chain of
  trades up the line) and keeps the herd ``herd_score`` rates best: the set now if it
  can, else the fewest sheep lacking, then the most multiplication to expect, then the
  fewest trading phases; the final trade maximises the herd's place in the ranking;
* **fences** — the fixed four-area plan of ``greedy`` (``policies.TARGET_LAYOUT``, handed
  to these helpers as ``layout``).

It reads only its own view (the solo game hides nothing from you but the deck order).
"""
from __future__ import annotations

from fractions import Fraction

from kingdoms.core.cache import speed_cache

from . import odds, pasture
from .actions import KeepDice, PlayCard, Trade
from .components import SPECIES
from .dice import dice_gain
from .rules import _rates
from .steps import FinalTrading

__all__ = ["dice_goal", "herd_score", "housed", "keep_choice", "trade_choice", "card_value",
           "best_card", "junk", "FACE_VARIANTS", "face_variant_game"]

FINISH = 1000          # the bonus of holding the set (the end is triggered: you win)
FENCE_VALUE = 3        # a fence in sheep while the layout is unfinished (as greedy)
PLAY_AT_LEAST = 2      # a one-shot card is played when worth this many sheep or more
MULT_WEIGHT = 4        # herd_score: weight of the multiplication to expect
PHASE_COST = 2         # herd_score: sheep a trading phase still needed costs
GOAL_MULT = 0          # dice_goal: weight of the multiplication to expect afterwards
GOAL_LACK = 1          # dice_goal: weight of the sheep lacking for the set


@speed_cache(maxsize=16)
def _sheep_values(comp) -> tuple:
    vals = odds.sheep_values(comp)
    return tuple(vals[s] for s in SPECIES)


@speed_cache(maxsize=1 << 16)
def housed(comp, fences: int, herd: tuple) -> tuple:
    """``herd`` after the animals that do not fit ``fences`` ran away (the cheapest
    first, never below the goal while another species has more)."""
    h = list(herd)
    while not pasture.fits_cached(fences, tuple(h), comp.per_field):
        # give up one animal: of the species most above the goal, the cheapest
        i = max((i for i in range(4) if h[i]), key=lambda i: (h[i] - comp.goal, -i))
        h[i] -= 1
    return tuple(h)


@speed_cache(maxsize=1 << 16)
def _lacking(comp, herd: tuple) -> int:
    """The sheep ``herd`` still lacks to reach the set by trading alone."""
    return odds.extra_sheep_needed(herd, game=comp)


@speed_cache(maxsize=1 << 16)
def _phases(comp, herd: tuple) -> int:
    return odds.fewest_trading_phases(herd, game=comp) or 0


def herd_score(comp, herd: tuple) -> Fraction:
    """How good a (housed) herd is for the race, in sheep: ``FINISH`` for the set;
    else minus the sheep it lacks, plus the animals the pink die brings on average,
    minus 2 per trading phase still needed once nothing is lacking."""
    goal = comp.goal
    if min(herd) >= goal:
        return Fraction(FINISH)
    lack = _lacking(comp, herd)
    phases = _phases(comp, herd) if lack == 0 else 0
    return -lack + MULT_WEIGHT * _expected_mult(comp, herd) - PHASE_COST * phases


@speed_cache(maxsize=1 << 16)
def _expected_mult(comp, herd: tuple) -> Fraction:
    """The sheep-value the pink die adds to ``herd`` on average (one roll)."""
    vals = _sheep_values(comp)
    faces = comp.mult_faces
    return Fraction(sum(herd[SPECIES.index(s)] // 2 * vals[SPECIES.index(s)]
                        for s in faces), len(faces))


def dice_goal(comp, herd: tuple, fences: int, trades_all: bool = False, layout: int = 0):
    """The re-roll goal ``roll -> whole number`` of a player with ``herd`` and
    ``fences``: the housed herd's sheep-value after the four dice, minus the sheep it
    lacks for the set, plus ``FENCE_VALUE`` a fence while the fence plan ``layout`` is
    unfinished, plus ``FINISH`` when one trading phase (every species with
    ``trades_all``) can then complete the set."""
    vals = _sheep_values(comp)
    fence_value = FENCE_VALUE if layout & ~fences else 0

    def goal(roll):
        gain, new_fences = dice_gain(roll, herd, comp)
        h = housed(comp, fences, tuple(a + b for a, b in zip(herd, gain)))
        v = (sum(a * b for a, b in zip(h, vals)) - GOAL_LACK * _lacking(comp, h)
             + fence_value * new_fences)
        if GOAL_MULT:
            v += GOAL_MULT * _expected_mult(comp, h)
        if _finishes(comp, fences, h, trades_all):
            v += FINISH
        return v
    return goal


@speed_cache(maxsize=1 << 16)
def _finishes(comp, fences, herd, trades_all):
    """Can one trading phase turn ``herd`` into a housed set?"""
    if trades_all:
        after = odds.trade_cascade(herd, game=comp)
        return after is not None and pasture.fits_cached(fences, after, comp.per_field)
    return any(min(h) >= comp.goal and pasture.fits_cached(fences, h, comp.per_field)
               for h in odds._one_phase(herd, comp))


@speed_cache(maxsize=4096)
def _keep(comp, herd, fences, trades_all, layout):
    return odds.keep_policy(dice_goal(comp, herd, fences, trades_all, layout), game=comp)


def keep_choice(state, layout: int = 0) -> KeepDice:
    """The exact re-roll solver's keep choice for ``dice_goal`` in a Keeping step."""
    me = state.current_player()
    farm = state.farms[me]
    pol = _keep(state.game.comp, farm.herd, farm.fences, state.trades_all(me), layout)
    kept, keep_mult = pol(state.dice, state.rerolls_left)
    return KeepDice(kept, keep_mult)


# ---- trading ------------------------------------------------------------------------

def _final_key(comp, herd):
    """The ranking at the end: holding the set, then horses, cattle, pigs, sheep."""
    return (min(herd) >= comp.goal, herd[3], herd[2], herd[1], herd[0])


def _chains(herd, rates, species):
    """Every herd reachable by trading each of ``species`` (indices, bottom up) at
    most once, with the first trade made: ``(herd, first (give, k) or None)``."""
    if not species:
        yield herd, None
        return
    i, rest = species[0], species[1:]
    r = rates[i]
    for k in range(herd[i] // r + 1):
        h = list(herd)
        h[i] -= k * r
        h[i + 1] += k
        for end, first in _chains(tuple(h), rates, rest):
            yield end, ((i, k) if k else first)


def trade_choice(state, acts):
    """The trade (or the end of trading) leading to the best herd this phase."""
    comp = state.game.comp
    me = state.current_player()
    farm = state.farms[me]
    final = isinstance(state.step, FinalTrading)
    rates = state.rates(me)
    open_ = [i for i in range(3) if SPECIES[i] not in state.traded]
    if not state.trades_all(me):
        open_ = open_ if not state.traded else []
    fences = farm.fences
    best = best_first = None
    candidates = ([(end, first) for end, first in _chains(farm.herd, rates, open_)]
                  if state.trades_all(me) else
                  [(farm.herd, None)] + [(end, first) for i in open_
                                         for end, first in _chains(farm.herd, rates, [i])
                                         if first is not None])
    for end, first in candidates:
        h = housed(comp, fences, end)
        score = _final_key(comp, h) if final else (herd_score(comp, h), -sum(h))
        if best is None or score > best:
            best, best_first = score, first
    if best_first is not None:
        i, k = best_first
        for a in acts:
            if type(a) is Trade and a.give == SPECIES[i] and a.count == k:
                return a
    return acts[-1]                                    # no (more) trades


# ---- cards --------------------------------------------------------------------------

def card_value(comp, farm, name: str, layout: int = 0) -> Fraction:
    """What playing card ``name`` now is worth to ``farm``, in sheep (a rough guide:
    the permanent engines count what they save over a game)."""
    c = comp.card(name)
    vals = _sheep_values(comp)
    pay = sum(a * b for a, b in zip(c.pay, vals))
    if c.trade_all:
        return Fraction(0) if any(comp.card(t).trade_all for t in farm.tableau) else \
            Fraction(40 - pay)
    if c.rate:
        i = SPECIES.index(c.rate[0])
        return Fraction(12 - pay) if c.rate[1] < _rates(comp, farm.tableau)[i] else Fraction(0)
    if c.multiply_bonus:
        return Fraction(2 - pay)
    herd = tuple(a - b for a, b in zip(farm.herd, c.pay))
    herd = tuple(a + b for a, b in zip(herd, c.gain))
    if c.multiply:
        i = SPECIES.index(c.multiply)
        herd = herd[:i] + (herd[i] + herd[i] // 2,) + herd[i + 1:]
    after = housed(comp, farm.fences, herd)
    before = housed(comp, farm.fences, farm.herd)
    worth = lambda h: sum(a * b for a, b in zip(h, vals)) - _lacking(comp, h)
    fence = FENCE_VALUE * c.fences if layout & ~farm.fences else 0
    return Fraction(worth(after) - worth(before) + fence)


def best_card(comp, farm, acts, permanent_only=False, layout: int = 0):
    """The card among ``acts`` worth most (at least ``PLAY_AT_LEAST``), or None."""
    best = None
    for a in acts:
        if type(a) is PlayCard:
            c = comp.card(a.card)
            if permanent_only and c.kind != "infinity":
                continue
            v = card_value(comp, farm, a.card, layout)
            if v >= PLAY_AT_LEAST and (best is None or v > best[0]):
                best = (v, a)
    return None if best is None else best[1]


def junk(comp, farm, name, layout: int = 0) -> bool:
    """A card worth less than ``PLAY_AT_LEAST`` even at its best: discard it."""
    c = comp.card(name)
    if c.trade_all or c.rate or c.multiply in ("pig", "cattle"):
        return False
    if any(c.pay) and any(c.gain):                     # a cheap trade (calf, foal)
        return False
    return not (c.fences and layout & ~farm.fences)


# ---- the dice faces: the answer under each plausible assumption -----------------------

# data.toml KNOWS the first three King faces (1 sheep, 2 sheep, 1 pig: a review), that
# half cattle and fences with 1 or 2 slats are King faces (the rulebook) and that no face
# shows a horse; it ASSUMES the rest: one face each for half cattle, 1 fence and 2 fences,
# and a pink die with 2 faces per species.  The variants below keep every known fact and
# change only an assumed face (``face_variant_game``); the first is the data as shipped.
FACE_VARIANTS = {
    "as in data.toml": {},
    "King die: 2 half cattle, no 1-fence face": {
        "king_die": ["1 sheep", "2 sheep", "1 pig", "half cattle", "half cattle", "2 fences"]},
    "King die: 2 half cattle, no 2-fence face": {
        "king_die": ["1 sheep", "2 sheep", "1 pig", "half cattle", "half cattle", "1 fence"]},
    "pink die: 3 sheep, 2 pig, 1 cattle": {
        "multiplication_die": ["sheep", "sheep", "sheep", "pig", "pig", "cattle"]},
}


def face_variant_game(variant: str, players: int = 1):
    """The Horse game with the faces of ``FACE_VARIANTS[variant]`` in place of the
    shipped ones (every other value as in data.toml; the file itself is not changed:
    the changed copy is handed over as data, ``EmbeddedData``)."""
    import tomllib
    from kingdoms.core.data import EmbeddedData, GameData, load_data
    from .rules import Horse
    if variant not in FACE_VARIANTS:
        raise ValueError(f"no face variant {variant!r}; choose one of "
                         f"{', '.join(map(repr, FACE_VARIANTS))}")
    text = load_data("kingdoms.horse").text
    shipped = tomllib.loads(text)
    for table, faces in FACE_VARIANTS[variant].items():
        old = "faces = " + _toml_list(shipped[table]["faces"])
        if text.count(old) != 1:
            raise ValueError(f"data.toml's [{table}] faces line is not {old!r}")
        text = text.replace(old, "faces = " + _toml_list(faces))
    if not FACE_VARIANTS[variant]:
        return Horse.create(players=players)
    data = GameData.from_toml(text, f"kingdoms.horse/data.toml, {variant}")
    return Horse.create(players=players, data=EmbeddedData(data))


def _toml_list(items) -> str:
    return "[" + ", ".join(f'"{x}"' for x in items) + "]"
