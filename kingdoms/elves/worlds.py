"""Hidden information in King of the Elves: what one player has not seen
(``ElvesState.unseen``) and a full state consistent with everything he has seen
(``ElvesState.sample_world``, for determinizing searches such as IS-MCTS).

What player ``p`` does not see (``view(p)``): the cards of the supply (except while he
searches it after his own "No village card!"), the other hands (their sizes are
public), the other players' gold totals and another traveller's cards and gold.
``unseen(p)`` counts the cards whose place ``p`` cannot see: the deck less his hand,
the discard pile, the cards on the table (and the supply while he searches it).

Gold: every gold transfer is an action everybody sees (a buy's price, a removal's
price, a spell's price, what a visit pays and the thief takes), so each player's gold
is the starting gold plus the transfers in ``p``'s history (``history(p)``, the same
sums as ``rules.gold_ledger``).  A world's gold is the true gold.

Cards.  A *world* puts the unseen cards (``unseen(p)``) into the other hands, each of
its public size, and the supply.  It is *consistent* when some course of the game
from the start leads to it that ``p`` could not tell from the true one: the same
actions as ``p`` saw them and the same views at every step.  What ``p`` saw constrains
the hidden places along the way (``knowledge``): every card another player lays down,
discards or spends on a journey left his hand, so he had it then; a hand shown with
"No village card!" was exactly that hand; the village taken after it came from the
supply; a search that finds no village shows a supply without villages; ``p``'s own
search shows the whole supply; a player who passes with an empty realm holds no
village; at the end of a round the discard pile and the table go back into the supply
(so what a hand carries into the next round was unseen at that round's end); a
traveller who cast the teleporting spell holds the travel cards he still hands in.

The measure: the world is drawn **uniformly over the consistent arrangements of the
unseen physical cards** (each world weighed by the number of ways to place the
physical cards, ``prod_kinds unseen! / prod_places copies!``, among the consistent
ones).  It does not weigh a world by what the other players' choices might betray,
nor by how many courses of the game lead to it.

How (exact): rejection sampling over the present arrangement.  A proposal puts the
cards that must still be in a hand (a shown hand less the cards laid down since), in
the other hands together (after a look at the supply or a search finding no
village), and a village a hand took after "No village card!" in place as marked
physical cards, and deals the rest by a uniform shuffle; it is accepted with the
ratio of the two measures (``prod 1 / C(copies there, marked copies)``, at most 1)
and only if it is consistent.  Consistency is decided exactly: in round 1 before any
such event every arrangement is consistent (a player's cards laid down can be given
to his earliest draws: hand sizes are public); otherwise a course of the game built
backward from the arrangement proves it (``_Backward``), and where that greedy
construction fails a small integer program over how many cards of each kind each
group of hidden draws brought (``_Model``, scipy's HiGHS) says whether one exists.  The number of tries is bounded (``MAX_TRIES``): past it a clear
``RuntimeError`` is raised, never an inexact world.  (Known weak spot: with 5-6
players and many "No village card!"s, early in a later round, when the hands are
mostly cards carried over, most proposals are refused and the budget can run out.)

Only ``view(p)`` of the states along the way, ``history(p)`` and the game's public
data are read.  What ``p`` observed is the ``Knowledge`` of ``knowledge(state, p)``
(``ElvesState._observation``): ``state.observed(p)``, the view the search bot is
handed, carries it, so worlds sampled from that view are those sampled from the
state (the same world for the same random numbers), and a sampled world carries it
too.  A bare view, or a state without its history from the start, raises
``NotImplementedError`` (the other players' gold is then unknown); a finished game
is public: the world is the state itself.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from math import comb

from kingdoms.core.cache import owner_cache
from kingdoms.core.protocol import CHANCE, HIDDEN, replace

from .journey import Teleport, TeleportTo, Visit
from .rules import GameOver

__all__ = ["sample_world", "unseen", "public_gold", "knowledge", "Knowledge", "MAX_TRIES"]

MAX_TRIES = 20000       # proposals per world before giving up (RuntimeError)


def _not_here(why: str):
    return NotImplementedError(f"King of the Elves does not sample worlds "
                               f"(State.sample_world) {why}")


# --------------------------------------------------------------------------- counting

def _table_counts(g, realms) -> list:
    out = [0] * len(g.kinds)
    for realm in realms:
        for kind, specials in realm:
            out[g.index[kind]] += 1
            for special, _ in specials:
                out[g.special_idx[special]] += 1
    return out


def _public_counts(view) -> list:
    """The discard pile and the table, kind by kind."""
    return [d + t for d, t in zip(view.discard, _table_counts(view.game, view.realms))]


def _unseen_counts(view, player: int) -> list:
    """Per kind: the deck less ``player``'s hand, the discard pile, the table and (while
    he searches it) the supply."""
    g = view.game
    left = [c - h - x for c, h, x in zip(g.deck, view.hands[player], _public_counts(view))]
    if view.supply and view.supply[0] is not HIDDEN:
        left = [a - b for a, b in zip(left, view.supply)]
    return left


def unseen(state, player: int) -> Counter:
    """``Counter(card kind -> copies)`` of the cards whose place ``player`` cannot see
    (computed from ``view(player)`` only): the deck less his hand, the discard pile,
    the table, and the supply while he searches it.  Empty when the game is over."""
    view = state.view(player)
    if isinstance(view.step, GameOver):
        return Counter()
    return Counter({k: c for k, c in zip(view.game.kinds, _unseen_counts(view, player)) if c})


def public_gold(state, player: int) -> tuple:
    """Every player's gold from the transfers in ``state.history(player)`` (actions
    everyone sees: see the module doc)."""
    gold = [state.game.numbers["starting_gold"]] * state.game.players
    for who, a in state.history(player):
        _pay(gold, who, a)
    return tuple(gold)


def _pay(gold: list, who: int, a) -> None:
    from .rules import Buy, RemoveVillage
    if isinstance(a, (Buy, RemoveVillage, Teleport)):
        gold[who] -= a.cost
    elif isinstance(a, (Visit, TeleportTo)):
        gold[who] += a.gold + a.bonus - a.thief
        if a.thief:
            gold[a.thief_to] += a.thief


# --------------------------------------------------------------------------- what p knows

@dataclass(frozen=True)
class Knowledge:
    """What ``player`` learnt about the hidden places, in time order (``events``):

    * ``("slot", q, village)``: a card from the supply to ``q``'s hand (``village``: a
      village taken after "No village card!");
    * ``("leave", q, kind)``: a card of ``kind`` left ``q``'s hand face up;
    * ``("show", q, counts)``: ``q``'s hand was exactly ``counts``;
    * ``("no_village", q)``: ``q``'s hand held no village (he passed, realm empty);
    * ``("round_end", unseen)``: the end of a round; the supply was ``unseen`` less the
      other hands (per kind), before the table and discards went back into it;
    * ``("look", supply, unseen)``: ``player`` saw the whole supply;
    * ``("no_village_supply", unseen)``: the supply held no village card.

    ``gold``: every player's gold (public); ``checked``: some event beyond slots and
    leaves (without one every arrangement is consistent)."""

    player: int
    events: tuple
    gold: tuple
    checked: bool


def _fold(know: Knowledge, s0, s1, who: int, a) -> Knowledge:
    """``know`` after the step ``s0 -> s1`` (``a`` as ``know.player`` saw it)."""
    from .rules import Draw, NoVillageCard, Pass, TakeVillage
    p = know.player
    g = s0.game
    gold = list(know.gold)
    _pay(gold, who, a)
    ev = []
    v0 = s0.view(p)
    if isinstance(s1.step, GameOver) or s1.round != s0.round:
        ev.append(("round_end", tuple(_unseen_counts(v0, p))))
    elif isinstance(a, Draw):
        if a.to != p:
            ev.append(("slot", a.to, False))
    elif isinstance(a, TakeVillage):
        if a.village is None:
            ev.append(("no_village_supply", tuple(_unseen_counts(v0, p))))
        elif a.by != p:
            ev.append(("slot", a.by, True))
    elif who == p and isinstance(a, NoVillageCard):
        v1 = s1.view(p)                 # he searches: the supply is shown to him
        ev.append(("look", tuple(v1.supply), tuple(_unseen_counts(v0, p))))
        if g.players == 2:              # so the other hand is known too
            q = 1 - p
            shown = tuple(u - y for u, y in zip(_unseen_counts(v0, p), v1.supply))
            ev.append(("show", q, shown))
    elif who != p and who != CHANCE:
        if isinstance(a, NoVillageCard):
            shown = [0] * len(g.kinds)
            for k in a.shown:
                shown[g.index[k]] += 1
            ev.append(("show", who, tuple(shown)))
        elif isinstance(a, Pass) and not s0.realms[who]:
            ev.append(("no_village", who))
        else:
            gone = [b - c for b, c in zip(_public_counts(s1.view(p)), _public_counts(v0))]
            ev.extend(("leave", who, i) for i, c in enumerate(gone) for _ in range(c))
    checked = know.checked or any(e[0] not in ("slot", "leave") for e in ev)
    return Knowledge(p, know.events + tuple(ev), tuple(gold), checked)


def knowledge(state, player: int) -> Knowledge:
    """What ``player`` knows of the hidden places (``Knowledge``), from ``history(p)``
    and ``view(p)`` of the states on the way (kept beside the state for speed).

    On a view that carries what ``player`` observed (``state.observed(player)``, what
    ``play`` hands the search bot) it is the carried ``Knowledge``
    (``ElvesState._observation``); a bare view, or a state without its history from
    the start, raises ``NotImplementedError``."""
    carried = state.__dict__.get("_observed")
    if carried is not None and (carried[0] == player or state.is_view()):
        return state.observation(player)    # ValueError for another player's view
    g = state.game
    if state.root() != g.initial_state():
        raise _not_here("for a position without its history from the start (a bare "
                        "view: use state.observed(player), which carries what the "
                        "player observed)")
    path = state.path()
    found, at = None, 0
    for i in range(len(path) - 1, -1, -1):
        found = owner_cache(path[i], "elves.worlds.knowledge", 8).get(player)
        if found is not None:
            at = i
            break
    if found is None:
        found = Knowledge(player, (), (g.numbers["starting_gold"],) * g.players, False)
    for i in range(at, len(path) - 1):
        who, a = path[i + 1]._last
        seen = a.seen_by(player) if hasattr(a, "seen_by") else a
        found = _fold(found, path[i], path[i + 1], who, seen)
    owner_cache(state, "elves.worlds.knowledge", 8)[player] = found
    return found


# --------------------------------------------------------------------------- consistency

class _Model:
    """Does a course of the game lead to the arrangement ``hands`` (the other players'
    hands now)?  Unknowns: for each group of consecutive hidden draws of one player,
    how many cards of each kind it brought (``y[group, kind] >= 0``, summing to the
    group's size; villages only for a village taken from the supply).  A hand at any
    moment is what its groups brought less what left it; each event of ``Knowledge``
    is a linear condition on these sums, and the hands now must equal ``hands``.  An
    integer program decides it exactly (scipy's HiGHS)."""

    def __init__(self, know: Knowledge, g):
        import numpy as np
        self.np = np
        self.nk = nk = len(g.kinds)
        self.villages = set(g.village_idx)
        self.others = [q for q in range(g.players) if q != know.player]
        self.lcum = {q: [0] * nk for q in self.others}    # cards that left q so far
        self.held = {(q, k): [] for q in self.others for k in range(nk)}  # their columns
        self.groups, self.ncols = [], 0                   # [q, size, village, columns]
        self.rows, self.lo, self.hi = [], [], []
        last = None
        for e in know.events:
            if e[0] != "slot":
                last = None
                self._condition(e)
            elif last is not None and (last[0], last[2]) == (e[1], e[2]):
                last[1] += 1                              # one more draw of the group
            else:
                last = self._group(e[1], e[2])
        for _, size, _, columns in self.groups:
            self._row(columns, size, size)
        self.present = {}
        for q in self.others:
            for k in range(nk):
                self.present[q, k] = (len(self.rows), self.lcum[q][k])
                self._row(self.held[q, k], 0, 0)
        self._matrix(self.rows, self.lo, self.hi, self.ncols)

    def _row(self, columns, a, b):
        self.rows.append([(c, 1) for c in columns])
        self.lo.append(a)
        self.hi.append(b)

    def _group(self, q: int, village: bool) -> list:
        """A new group of hidden draws of ``q``: a column per kind it may bring."""
        columns = []
        for k in range(self.nk):
            if not village or k in self.villages:
                self.held[q, k] = self.held[q, k] + [self.ncols]
                columns.append(self.ncols)
                self.ncols += 1
        group = [q, 1, village, columns]
        self.groups.append(group)
        return group

    def _condition(self, e) -> None:
        """The rows of one event (``Knowledge``) other than a draw."""
        kind, lcum, held = e[0], self.lcum, self.held
        if kind == "leave":
            _, q, k = e
            lcum[q][k] += 1
            self._row(held[q, k], lcum[q][k], None)
        elif kind == "show":
            for k in range(self.nk):
                x = e[2][k] + lcum[e[1]][k]
                self._row(held[e[1], k], x, x)
        elif kind == "no_village":
            for k in self.villages:
                self._row(held[e[1], k], None, lcum[e[1]][k])
        else:                      # the supply: all other hands together vs unseen
            if kind == "round_end":
                bound = [(None, u) for u in e[1]]
            elif kind == "look":
                bound = [(u - y, u - y) for y, u in zip(e[1], e[2])]
            else:                  # no_village_supply
                bound = [(u, u) if k in self.villages else (None, None)
                         for k, u in enumerate(e[1])]
            for k, (a, b) in enumerate(bound):
                if a is None and b is None:
                    continue
                base = sum(lcum[q][k] for q in self.others)
                self._row([c for q in self.others for c in held[q, k]],
                          None if a is None else a + base, None if b is None else b + base)

    def _matrix(self, rows, lo, hi, ncols):
        np = self.np
        from scipy.sparse import coo_matrix
        r, c, v = [], [], []
        for i, parts in enumerate(rows):
            for j, x in parts:
                r.append(i)
                c.append(j)
                v.append(x)
        self.A = coo_matrix((v, (r, c)), shape=(len(rows), max(ncols, 1))).tocsr()
        self.lo = np.array([-np.inf if x is None else x for x in lo], dtype=float)
        self.hi = np.array([np.inf if x is None else x for x in hi], dtype=float)
        self.ncols = max(ncols, 1)

    def consistent(self, hands) -> bool:
        np = self.np
        from scipy.optimize import Bounds, LinearConstraint, milp
        lo, hi = self.lo.copy(), self.hi.copy()
        for (q, k), (i, base) in self.present.items():
            lo[i] = hi[i] = hands[q][k] + base
        res = milp(np.zeros(self.ncols), integrality=np.ones(self.ncols),
                   bounds=Bounds(0, np.inf), constraints=LinearConstraint(self.A, lo, hi))
        if res.status == 0:
            return True
        if res.status == 2:
            return False
        raise RuntimeError(f"the consistency check of a King of the Elves world failed: "
                           f"{res.message}")


class _Backward:
    """A quick certificate of consistency: a course of the game built backward from
    the arrangement (each hidden draw gives back a card of the hand, chosen for the
    nearest earlier condition); if every condition holds on the way, the arrangement
    is consistent.  When it fails, ``_Model`` decides."""

    GLOBAL = ("round_end", "look", "no_village_supply")

    def __init__(self, know: Knowledge, g):
        ev = know.events
        self.events = ev
        self.others = others = [q for q in range(g.players) if q != know.player]
        self.villages = tuple(g.village_idx)
        self.nk = nk = len(g.kinds)
        cur = {q: [0] * nk for q in others}
        last = {q: -1 for q in others}
        self.cum, self.prev = [], []
        for e in ev:
            self.cum.append(dict(cur))        # leaves before this event (shared lists)
            self.prev.append(dict(last))
            if e[0] == "leave":
                cur[e[1]] = cur[e[1]][:]
                cur[e[1]][e[2]] += 1
            elif e[0] in ("show", "no_village"):
                last[e[1]] = len(self.cum) - 1
            elif e[0] in self.GLOBAL:
                last = {q: len(self.cum) - 1 for q in others}

    def consistent(self, hands) -> bool:
        h = {q: list(hands[q]) for q in self.others}
        ev, villages = self.events, self.villages
        for i in range(len(ev) - 1, -1, -1):
            e = ev[i]
            kind = e[0]
            if kind == "leave":
                h[e[1]][e[2]] += 1
            elif kind == "slot":
                k = self._give_back(h, i, e[1], e[2])
                if k is None:
                    return False
                h[e[1]][k] -= 1
            elif kind == "show":
                if h[e[1]] != list(e[2]):
                    return False
            elif kind == "no_village":
                if any(h[e[1]][k] for k in villages):
                    return False
            else:
                total = [sum(x) for x in zip(*h.values())]
                if kind == "round_end":
                    if any(a > u for a, u in zip(total, e[1])):
                        return False
                elif kind == "look":
                    if any(a != u - y for a, y, u in zip(total, e[1], e[2])):
                        return False
                elif any(total[k] != e[1][k] for k in villages):
                    return False
        return True

    def _give_back(self, h, i, q, village):
        """The kind the draw at event ``i`` gave ``q`` in the course being built: one
        the nearest earlier condition has too many of (else the next one back), never
        one an exact condition on the way needs."""
        hand = h[q]
        kinds = [k for k in (self.villages if village else range(self.nk)) if hand[k]]
        if not kinds:
            return None
        j, keep = self.prev[i][q], set()
        for _ in range(4):
            if j < 0:
                break
            excess, exact = self._excess(h, i, j, q)
            best = [k for k in kinds if excess[k] > 0 and k not in keep]
            if best:                # first what only this hand can give back
                if self.events[j][0] in self.GLOBAL:
                    return max(best, key=lambda k: (excess[k] + hand[k] - sum(
                        h[r][k] for r in self.others), excess[k], hand[k]))
                return max(best, key=lambda k: (excess[k], hand[k]))
            if exact:
                keep.update(k for k in kinds if excess[k] <= 0)
            j = self.prev[j][q]
        free = [k for k in kinds if k not in keep] or kinds
        return max(free, key=hand.__getitem__)

    def _excess(self, h, i, j, q) -> tuple:
        """Per kind, how many more cards the hands (``q``'s, or all for a supply
        condition) would hold at event ``j`` than it allows if no more were given
        back; and whether the condition is an equality."""
        cp = self.events[j]
        later, before = self.cum[i], self.cum[j]
        nk, villages = self.nk, self.villages
        if cp[0] in ("show", "no_village"):
            own = [h[q][k] + later[q][k] - before[q][k] for k in range(nk)]
            if cp[0] == "show":
                return [a - x for a, x in zip(own, cp[2])], True
            return [own[k] if k in villages else 0 for k in range(nk)], False
        total = [sum(h[r][k] + later[r][k] - before[r][k] for r in self.others)
                 for k in range(nk)]
        if cp[0] == "round_end":
            return [a - u for a, u in zip(total, cp[1])], False
        if cp[0] == "look":
            return [a - u + y for a, y, u in zip(total, cp[1], cp[2])], True
        return [total[k] - cp[1][k] if k in villages else 0 for k in range(nk)], True


class _Check:
    """Consistency: the quick certificate, else the exact integer program."""

    def __init__(self, know: Knowledge, g):
        self.quick = _Backward(know, g)
        self.know, self.g, self.exact = know, g, None

    def consistent(self, hands) -> bool:
        if self.quick.consistent(hands):
            return True
        if self.exact is None:
            self.exact = _Model(self.know, self.g)
        return self.exact.consistent(hands)


def _model(state, know: Knowledge) -> _Check:
    """The consistency check of ``know`` (kept beside ``state``: the full state or the
    observed view a search samples its worlds from)."""
    table = owner_cache(state, "elves.worlds.model", 8)
    m = table.get(know.player)
    if m is None:
        m = table[know.player] = _Check(know, state.game)
    return m


# --------------------------------------------------------------------------- sampling

def _forced(know: Knowledge, g) -> tuple:
    """Lower bounds (per kind) on the hands now: ``{q: counts}`` that must still be in
    ``q``'s hand (a shown hand less the cards that left it since), and ``counts`` that
    must be in the other hands together (what ``p`` saw was not in the supply, less
    the cards that left those hands since).  Each event gives a bound; the largest
    is kept."""
    nk = len(g.kinds)
    villages = set(g.village_idx)
    single, union = {}, []          # [q, counts] and [counts] still being decremented
    for e in know.events:
        if e[0] == "show":
            single.setdefault(e[1], []).append(list(e[2]))
        elif e[0] == "look":
            union.append([u - y for y, u in zip(e[1], e[2])])
        elif e[0] == "no_village_supply":
            union.append([u if k in villages else 0 for k, u in enumerate(e[1])])
        elif e[0] == "leave":
            q, k = e[1], e[2]
            for b in single.get(q, []) + union:
                b[k] = max(0, b[k] - 1)
    for q, bound in _split_looks(know, g):
        single.setdefault(q, []).append(bound)
    ones = {q: [max(c) for c in zip(*bounds)] for q, bounds in single.items()}
    together = [max(c) for c in zip(*union)] if union else [0] * nk
    if g.players == 2 and any(together):
        q = 1 - know.player
        ones[q] = [max(a, b) for a, b in zip(ones.get(q, together), together)]
        together = [0] * nk
    # the villages a hand took are other cards than those named above, unless the
    # others' villages together are named too (one of them may be the one taken)
    taken = {} if any(together[k] for k in villages) else _taken(know, villages)
    return ones, together, taken


def _split_looks(know: Knowledge, g):
    """``(q, counts)``: bounds on single hands now from a look at the supply (the other
    hands together were then ``unseen - supply``): ``q`` held at least that less what
    each other hand ``r`` can have held then, at most its next shown hand plus the
    cards it laid down in between; less what ``q`` laid down since."""
    events = know.events
    others = [q for q in range(g.players) if q != know.player]
    for t, e in enumerate(events):
        if e[0] != "look" or len(others) < 2:
            continue
        most = {}
        for r in others:
            down = [0] * len(g.kinds)
            for e2 in events[t + 1:]:
                if e2[0] == "leave" and e2[1] == r:
                    down[e2[2]] += 1
                elif e2[0] == "show" and e2[1] == r:
                    most[r] = [a + b for a, b in zip(e2[2], down)]
                    break
        for q in others:
            if any(r not in most for r in others if r != q):
                continue
            bound = [u - y - sum(most[r][k] for r in others if r != q)
                     for k, (y, u) in enumerate(zip(e[1], e[2]))]
            for e2 in events[t + 1:]:
                if e2[0] == "leave" and e2[1] == q:
                    bound[e2[2]] -= 1
            yield q, [max(0, b) for b in bound]


def _taken(know: Knowledge, villages: set) -> dict:
    """``q -> r``: since his last shown hand (none of it villages) and since ``p`` last
    learnt that the other hands held villages (a look, a search finding none), ``q``
    took ``r`` village cards from the supply and laid fewer villages down: he holds
    at least ``r`` villages, other cards than those the bounds above name."""
    out = {}
    for e in know.events:
        if e[0] == "show":
            out[e[1]] = 0
        elif e[0] in ("look", "no_village_supply"):
            out = {q: 0 for q in out}
        elif e[0] == "slot" and e[2] and e[1] in out:
            out[e[1]] += 1
        elif e[0] == "leave" and e[2] in villages and e[1] in out:
            out[e[1]] = max(0, out[e[1]] - 1)
    return {q: r for q, r in out.items() if r}


def sample_world(state, player: int, rng):
    """A full state ``player`` cannot tell from ``state``, drawn uniformly over the
    consistent arrangements of the unseen cards (see the module doc)."""
    view = state.view(player)
    if isinstance(view.step, GameOver):  # everything is shown
        return view
    know = knowledge(state, player)
    g = view.game
    left = _unseen_counts(view, player)
    if min(left) < 0:                   # pragma: no cover - a broken state
        raise ValueError("more cards seen than the game has")
    sizes = {q: view.hands[q][1] for q in range(g.players) if q != player}
    searching = view.supply[0] is not HIDDEN
    supply_size = 0 if searching else view.supply[1]
    if sum(sizes.values()) + supply_size != sum(left):    # pragma: no cover
        raise ValueError(f"{sum(left)} unseen cards do not fill the hidden places")
    forced = _forced(know, g)
    trip = view.trip
    travel = (trip.player, trip.teleport_left) if (
        trip is not None and trip.player != player and trip.teleport_left > 0) else None
    model = _model(state, know) if know.checked else None
    for _ in range(MAX_TRIES):
        hands = _propose(left, sizes, forced, g, rng)
        if hands is None:
            continue
        if travel and sum(hands[travel[0]][i] for i in g.travel_idx) < travel[1]:
            continue
        if model is not None and not model.consistent(hands):
            continue
        world = _world(state, view, player, hands, left, know.gold)
        # the world carries what ``player`` observed (the same as on the way here), so
        # its observed view samples as this state does (nothing the player did not see)
        world.__dict__["_observed"] = (player, know)
        return world
    raise RuntimeError(f"King of the Elves: no world consistent with what "
                       f"{g.player_name(player)} has seen was found in {MAX_TRIES} tries")


def _propose(left, sizes: dict, forced: tuple, g, rng):
    """Other hands, placed as in the module doc: the forced cards of one hand in it,
    the villages a hand took (random village cards of the rest) on its free places,
    the forced cards of the other hands together on random free places among them,
    then a uniform shuffle of the rest (what is left of it is the supply).  Returns
    ``None`` when the ratio test rejects the proposal."""
    ones, together, taken = forced
    nk = len(g.kinds)
    hands = {q: list(ones.get(q, (0,) * nk)) for q in sizes}
    extra = [max(0, t - sum(h[k] for h in hands.values())) for k, t in enumerate(together)]
    pool = [a - e - sum(h[k] for h in hands.values()) for k, (a, e) in enumerate(zip(left, extra))]
    if min(pool) < 0:                   # pragma: no cover - a broken knowledge
        raise ValueError("the cards known to be in hands are not all unseen")
    accept = _place_taken(hands, taken, pool, sizes, g, rng)
    if accept is None:
        return None
    free = [q for q, size in sizes.items() for _ in range(size - sum(hands[q]))]
    rng.shuffle(free)
    at = 0
    landed = {q: 0 for q in taken}       # forced villages of the others that went to q
    for k, c in enumerate(extra):
        for q in free[at:at + c]:
            hands[q][k] += 1
            if q in landed and k in g.village_idx:
                landed[q] += 1
        at += c
    cards = [i for i, k in enumerate(pool) for _ in range(k)]
    rng.shuffle(cards)
    for q, i in zip(free[at:], cards):
        hands[q][i] += 1
    for q, f in ones.items():
        for k, c in enumerate(f):
            if c:
                accept /= comb(hands[q][k], c)
    for k, c in enumerate(extra):
        if c:
            accept /= comb(sum(h[k] for h in hands.values()) - together[k] + c, c)
    for q, r in taken.items():          # designations of the taken villages
        accept /= comb(sum(hands[q][k] for k in g.village_idx) - landed[q], r)
    if accept < 1.0 and rng.random() >= accept:
        return None
    return {q: tuple(h) for q, h in hands.items()}


def _place_taken(hands: dict, taken: dict, pool: list, sizes: dict, g, rng):
    """Put ``taken[q]`` random village cards of ``pool`` (taken out of it) into hand
    ``q``; 1.0, or ``None`` when there are not enough."""
    for q, r in taken.items():
        for _ in range(r):
            villages = [(k, pool[k]) for k in g.village_idx if pool[k]]
            total = sum(c for _, c in villages)
            if not total or sum(hands[q]) >= sizes[q]:
                return None
            x = rng.randrange(total)
            for k, c in villages:
                if x < c:
                    break
                x -= c
            pool[k] -= 1
            hands[q][k] += 1
    return 1.0


def _world(state, view, player, hands: dict, left, gold):
    g = view.game
    all_hands = list(view.hands)
    supply = list(left)
    for q, hand in hands.items():
        all_hands[q] = hand
        supply = [a - b for a, b in zip(supply, hand)]
    fields = dict(hands=tuple(all_hands), gold=gold)
    if view.supply[0] is HIDDEN:
        fields["supply"] = tuple(supply)
    trip = view.trip
    if trip is not None and trip.player != player:
        hand = all_hands[trip.player]
        fields["trip"] = replace(trip, hand=tuple(hand[i] for i in g.travel_idx),
                                 escorts=hand[g.escort_idx], turns=hand[g.turn_idx],
                                 gold=gold[trip.player])
    return replace(view, **fields)
