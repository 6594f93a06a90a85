"""The student tasks of the 15 lesson notebooks, as a script: it (re)inserts them.

    python tools/lesson_tasks.py [GAME/LESSON ...]      then re-execute the notebooks

Each lesson gets a predict-then-check task (``my_guess = ...`` and a ``compare_guess`` cell
after the cell that reveals the truth), a by-hand task (``by_hand = ...`` and a
``check_by_hand`` cell) and an explain-in-words task (a question and an answer cell), all
tagged ``student-task``; the expected answer follows each check in a cell tagged
``teacher-only`` (dropped from the student edition; its ``lesson_answer`` metadata lets
tests/test_lessons.py run the lesson with the teacher's answers typed in). Existing
"Predict first" prompts become tasks. Then the projector view: setup and helper code (and
code over 8 lines) collapsed with ``jupyter.source_hidden``, ``slideshow`` slide types for
RISE (sections are slides, tasks sub-slides, setup skipped), and the cells a handout shows
tagged ``handout`` (tools/handouts.py).

Cells are placed by *anchors*, text of existing cells, never by position, and every task
cell has an id starting with ``task-``: the script first removes those, so it can run
again on a notebook that others have edited since (it fails loudly if an anchor is gone).
"""
from __future__ import annotations

import json
import re
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

class NB:
    def __init__(self, rel):
        self.rel = rel
        self.path = REPO / rel
        self.nb = json.loads(self.path.read_text(encoding="utf-8"))
        # start again from the notebook without its task cells (ids "task-..."), so that
        # running this twice, or on a notebook someone else edited since, gives the same cells
        self.nb["cells"] = [c for c in self.nb["cells"] if not str(c.get("id", "")).startswith("task-")]
        self.cells = self.nb["cells"]
        self.n = 0
        self.handout_cells = []

    def find(self, text):
        hits = [i for i, c in enumerate(self.cells) if text in "".join(c["source"])]
        assert len(hits) == 1, (self.rel, text, hits)
        return hits[0]

    def _id(self, kind):
        self.n += 1
        stem = self.rel.split("/")[-2] + "-" + self.rel.split("/")[-1].split(".")[0]
        return f"task-{stem}-{self.n}-{kind}"[:64]

    def md(self, src, *tags):
        return {"cell_type": "markdown", "id": self._id("md"), "metadata": {"tags": list(tags)} if tags else {},
                "source": src.strip("\n")}

    def code(self, src, *tags):
        return {"cell_type": "code", "execution_count": None, "id": self._id("code"),
                "metadata": {"tags": list(tags)} if tags else {}, "outputs": [], "source": src.strip("\n")}

    def after(self, anchor, *cells):
        i = self.find(anchor)
        self.cells[i + 1:i + 1] = list(cells)

    def before(self, anchor, *cells):
        i = self.find(anchor)
        self.cells[i:i] = list(cells)

    def tag(self, anchor, *tags):
        c = self.cells[self.find(anchor)]
        t = c.setdefault("metadata", {}).setdefault("tags", [])
        for x in tags:
            if x not in t:
                t.append(x)
        return c

    def upgrade(self, anchor, extra):
        """An existing 'Predict first' prompt becomes a task: tagged, with a line saying where to type."""
        c = self.tag(anchor, "student-task", "handout")
        s = "".join(c["source"]).rstrip("\n")
        if extra.strip() not in s:
            c["source"] = s + "\n\n" + extra.strip()

    # the three tasks ------------------------------------------------------------
    def predict(self, question, guess_line, reveal_anchor, compare, teacher, upgrade=None, answer=None):
        """question: new prompt (or None with upgrade=anchor of an existing prompt)."""
        guess = self.code(guess_line, "student-task")
        if upgrade:
            self.upgrade(upgrade, "*Type your guess in the cell below (`my_guess = ...`) before you run on.*")
            self.after(upgrade, guess)
        else:
            q = self.md("**Predict first.** " + question.strip() +
                        "\n\n*Type your guess in the cell below (`my_guess = ...`) before you run on.*",
                        "student-task", "handout")
            self.before(reveal_anchor, q, guess)
        t = self.md("**For the teacher.** " + teacher.strip(), "teacher-only")
        if answer is not None:
            t["metadata"]["lesson_answer"] = {"my_guess": answer}
        self.after(reveal_anchor, self.code(compare), t)

    def by_hand(self, after_anchor, question, hint_line, check, worked, reveal=None, answer=None):
        """reveal: the anchor of an existing cell that prints the value; the check goes after it."""
        hint_line = "from fractions import Fraction\n" + hint_line
        t = self.md("**For the teacher: the worked answer.** " + worked.strip(), "teacher-only")
        if answer is not None:
            t["metadata"]["lesson_answer"] = {"by_hand": answer}
        if reveal:
            self.after(after_anchor, self.md("**By hand.** " + question.strip() +
                         "\n\n*Work it out with pencil and paper and type it in the cell below before you run on.*",
                         "student-task", "handout"), self.code(hint_line, "student-task"))
            self.after(reveal, self.code(check), t)
            return
        cells = [self.md("**By hand.** " + question.strip() +
                         "\n\n*Work it out with pencil and paper, type it in the cell below, then run the check.*",
                         "student-task", "handout"),
                 self.code(hint_line, "student-task"),
                 self.code(check), t]
        self.after(after_anchor, *cells)

    def explain(self, after_anchor, question, answer):
        cells = [self.md("**Explain in words.** " + question.strip(), "student-task", "handout"),
                 self.md("*Your answer (double-click here to write):* ", "student-task"),
                 self.md("**For the teacher: an expected answer.** " + answer.strip(), "teacher-only")]
        self.after(after_anchor, *cells)

    def handout(self, anchor):
        self.tag(anchor, "handout")

    # the projector view ----------------------------------------------------------
    def finish(self, collapse=()):
        first_code = True
        first_code_cell = next(c for c in self.cells if c["cell_type"] == "code")
        for i, c in enumerate(self.cells):
            md = c.setdefault("metadata", {})
            src = "".join(c["source"])
            tags = md.get("tags", [])
            if c["cell_type"] == "code":
                hide = (first_code or re.search(r"^def ", src, re.M) or any(a in src for a in collapse)
                        or (len(src.splitlines()) > 8 and "student-task" not in tags))
                first_code = False
                if hide and "student-task" not in tags:
                    md["jupyter"] = {"source_hidden": True}
            if c["cell_type"] == "code" and md.get("jupyter", {}).get("source_hidden") and (
                    c is first_code_cell
                    or (not c.get("outputs") and not str(c.get("id", "")).startswith("task-"))):
                st = "skip"       # setup and helpers: nothing to show on a slide
            elif i == 0:
                st = "slide"
                if "handout" not in tags:
                    md.setdefault("tags", []).append("handout")
            elif any(t.startswith("navigation") for t in tags):
                st = "skip"
            elif c["cell_type"] == "markdown" and re.search(r"^## ", src, re.M):
                st = "slide"
            elif c["cell_type"] == "markdown" and (re.search(r"^### ", src, re.M) or
                                                   (("student-task" in tags or "teacher-only" in tags) and src.startswith("**"))):
                st = "subslide"
            else:
                st = "-"
            md["slideshow"] = {"slide_type": st}
        self.nb["metadata"]["rise"] = {"scroll": True, "autolaunch": False}
        self.path.write_text(json.dumps(self.nb, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        print(f"wrote {self.rel} ({len(self.cells)} cells)")


def woods_walkthrough():
    nb = NB("notebooks/woods/walkthrough.ipynb")
    nb.predict(None, "my_guess = ...   # the score of Player 2's court after the Assassin, e.g. 10",
        'print("Three Fools lie at Player 2\'s court, so it scores 0:")',
        "from kingdoms.lessons import compare_guess\n"
        "compare_guess(my_guess, t.court_scores()[1], \"Player 2's court score after the Assassin covers a Fool\", close=0)",
        "Cover a Fool: the court keeps the Knight (5) and two uncovered Fools (4 + 4), so it scores 13 instead of 0. "
        "Covering the Knight would leave 3 uncovered Fools: still 0. The point to draw out: the Assassin can *help* "
        "the court it attacks — one card changes the count of uncovered Fools.",
        upgrade="**Predict first.** Player 2's court holds a Knight and three Fools", answer="13")
    nb.by_hand("### Trader, Knight, Treasurer, General: the intrigues",
        "The Treasurer draws a random card from the target's hand. Player 2 holds a Fool, a Fool and a Knight, "
        "and Player 1 plays the Treasurer to Player 2's court. What is the chance that the Treasurer draws a Fool?",
        "by_hand = ...   # P(the Treasurer draws a Fool), e.g. Fraction(1, 2)",
        "from kingdoms.lessons import check_by_hand\n"
        "draw = {outcome.card: p for outcome, p in t.chance_outcomes()}   # the card drawn -> its probability\n"
        "check_by_hand(by_hand, draw[\"Fool\"], \"P(the Treasurer draws a Fool)\")",
        "Laplace: 3 cards, each equally likely, 2 of them Fools: 2/3. The model lists the two *different* outcomes "
        "(Fool 2/3, Knight 1/3) — a good moment to say that equally likely *cards* give outcomes that are not equally likely.",
        reveal='t = p.apply(Play("Treasurer", 1))', answer="Fraction(2, 3)")
    nb.predict(None, "my_guess = ...   # what Player 1's court scores with 4 Fools (and the Knight), e.g. 0",
        "one = Woods(players=2, one_round=True)",
        "from kingdoms.lessons import compare_guess\n"
        "compare_guess(my_guess, scores[0], \"Player 1's score with 4 Fools\", close=0)",
        "With 3 uncovered Fools the court scores 0; with 4 it counts normally: Knight 5 + 4 × 4 = 21. "
        "The jump from 0 to 21 for one card is the heart of the Fool rule (the odds notebook prices it).",
        upgrade="**Predict first.** Player 1's court holds a Knight and some Fools", answer="21")
    nb.explain("`state.view(player)` hides what that player cannot see",
        "A computer player chooses its move from `state.view(player)`, not from `state`. Why would a player "
        "that looks at `state` be cheating? What stays visible in the view, and why?",
        "`state` holds every card, including the other hands and the set-aside pile; `state.view(player)` replaces "
        "what that player cannot see with `?` (the sizes of the hands stay visible, and cards seen through the "
        "Knight, Trader or General stay visible to whoever saw them). A player deciding from `state` would use "
        "information that no person at the table has. This is also why the odds notebook speaks of probabilities "
        "*from Player 1's view*: a probability depends on what you know (conditional probability).")
    nb.finish()


def woods_odds():
    nb = NB("notebooks/woods/odds.ipynb")
    nb.by_hand("So the number\nof Fools in player 2's hand is **hypergeometric**",
        "Player 1 has not seen 17 cards, and 4 of them are Fools. Player 2's hand is 7 of those 17 cards, "
        "each hand of 7 equally likely. What is the chance that Player 2 holds **no** Fool? "
        "(Count the hands of 7 made only of the 13 other cards, and divide by all hands of 7 from the 17; "
        "or multiply the chances card by card: 13/17 for the first card, then ...)",
        "by_hand = ...   # P(Player 2 holds no Fool), e.g. Fraction(1, 7)",
        "from kingdoms.lessons import check_by_hand\n"
        "check_by_hand(by_hand, odds.fool_distribution(state, me)[1][0], \"P(Player 2 holds no Fool)\")",
        "$\\binom{13}{7}/\\binom{17}{7} = 1716/19448 = 3/34 \\approx 0.088$, or card by card "
        "$\\frac{13}{17}\\cdot\\frac{12}{16}\\cdot\\frac{11}{15}\\cdot\\frac{10}{14}\\cdot\\frac{9}{13}\\cdot\\frac{8}{12}\\cdot\\frac{7}{11} = \\frac{3}{34}$. "
        "Typical slips: 31/34 (the complement: *at least one* Fool), $(13/17)^7 \\approx 0.15$ (drawing *with* replacement), "
        "a decimal instead of the exact fraction.", answer="Fraction(3, 34)")
    nb.predict(None, "my_guess = ...   # how much MORE influence the Knight brings, e.g. 0.5",
        "kn = odds.knight_expected_gain(state, me, 1)",
        "from kingdoms.lessons import compare_guess\n"
        "treasurer = tre.E(lambda c: game.influence[c])\n"
        "compare_guess(my_guess, kn.mean() - treasurer, \"how much more influence the Knight brings\", close=0.25)",
        "The Knight brings 9344/2431 − 46/17 = 2766/2431 ≈ 1.14 more influence on average. Most students "
        "guess more (the Knight picks the best card, up to 6): ask why the gain is so small. Answer: with "
        "probability 7/17 a Squire in the hand forces him to take a Squire (influence 2).",
        upgrade="**Predict first.** The Treasurer draws blind", answer="1.1")
    nb.explain("simulated mean: {number(total / n, 3)}",
        "Both the Treasurer and the Knight take one card from Player 2's hand. Why does the Knight bring more "
        "influence *on average*? And why is the difference smaller than you might think?",
        "The Treasurer draws blind, so each card of the hand is equally likely and the expected influence is the "
        "average influence of the unseen cards, 46/17 ≈ 2.7 (Laplace: all cards equally likely). The Knight *looks* "
        "and takes the best card, and the best of 7 cards is at least their average. But whenever the hand holds a "
        "Squire (probability 7/17) he must take it, influence 2, which pulls his average down to 9344/2431 ≈ 3.84. "
        "Misconception to listen for: \"the Knight always gets the General\" — the General is in Player 2's hand "
        "only with probability 7/17.")
    nb.handout("fools[1].plot(samples=samples")
    nb.finish()


def woods_explore():
    nb = NB("notebooks/woods/explore.ipynb")
    nb.predict(None, "my_guess = ...   # greedy's share of the wins, e.g. 0.5 for half the games",
        "show(simulate(game, 300, [greedy_policy, random_policy, random_policy], seed=1",
        "from kingdoms.lessons import compare_guess\n"
        "greedy = simulate(game, 300, [greedy_policy, random_policy, random_policy], seed=1, progress=False)\n"
        "compare_guess(my_guess, greedy.win_shares()[0], \"greedy's share of the wins in these 300 games\", close=0.15, percent=True)",
        "Greedy wins 81.2% of the 300 games (95% interval 76.4% to 85.2%), far above the fair share of 1/3. "
        "Ask: is 81.2% *the* probability? No — it is an estimate from 300 games; the interval says how far off it may be.",
        upgrade="**Predict first.** One greedy player against two random ones", answer="0.8")
    nb.explain("Does the seat matter? Player 1 starts the first round.",
        "Player 1 won 33.0% of 300 all-greedy games, with the 95% interval 27.9% to 38.5% (the cell above). "
        "Does this show that sitting first is no advantage? What would you do to find out more?",
        "The interval contains 1/3 (33.3%), so these 300 games cannot tell Player 1's chance from a fair share. "
        "But they do not prove it *is* fair either: an advantage of a few percentage points would hide inside an "
        "interval this wide. Playing more games narrows the interval (its width shrinks like 1/√n: four times the "
        "games, half the width). Misconception: \"inside the interval\" means \"equal\".")
    nb.predict("With best play on both sides Player 1 ends this endgame 4 behind (margin −4). If both players "
        "played at random from here instead, what would Player 1's average margin be: worse than −4, about the same, or better?",
        "my_guess = ...   # Player 1's average margin if both play at random, e.g. -6",
        "average = odds.expected_at_round_end(end",
        "from kingdoms.lessons import compare_guess\n"
        "compare_guess(my_guess, average, \"Player 1's average margin under random play\", close=0.25)",
        "Random play gives Player 1 an average margin of −101/32 ≈ −3.16, *better* than the −4 of best play. "
        "Not a paradox: best play means the best *for both sides*; at random Player 2 also makes mistakes. "
        "The expectimax value and the average under a random model answer different questions.", answer="-3")
    nb.by_hand("Squares are decisions, circles chance, diamonds the end of the round.",
        "Player 1 holds a Fool and a Guard, Player 2 one Fool; Player 1's court holds Fool, Fool, Trader "
        "(4 + 4 + 1), Player 2's a Squire (2). Player 1 plays the Guard (influence 2) to their own court. "
        "Then Player 2 plays the Fool, then Player 1 plays the Fool, each to the court that is best for them. "
        "What is the margin (Player 1's court minus Player 2's) at the end, with best play on both sides? "
        "Draw the little tree: Player 2 has 2 choices, then Player 1 has 2.",
        "by_hand = ...   # the margin after 'play the Guard to Player 1's court', e.g. -3",
        "from kingdoms.lessons import check_by_hand\n"
        "guard_first = {str(a): v[0] for a, v in sol.action_values().items()}[\"play the Guard to Player 1's court\"]\n"
        "check_by_hand(by_hand, guard_first, \"the margin after the Guard, with best play\")",
        "If Player 2 puts the Fool at Player 1's court (3 Fools), Player 1 answers with the 4th Fool at home: "
        "4·4 + 1 + 2 = 19 against 2, margin +17. So Player 2 keeps the Fool at home (2 + 4 = 6); then Player 1's "
        "Fool at home would make 3 Fools (court 0, margin −6), so it goes to Player 2's court: 11 against 2 + 4 + 4 = 10, "
        "margin **+1**. Backward induction: solve the last move first.",
        reveal="small = two.position(hands=[[\"Fool\", \"Guard\"], [\"Fool\"]]", answer="1")
    nb.handout("tree = odds.endgame_tree(small, depth=6")
    nb.finish()


def black_forest_walkthrough():
    nb = NB("notebooks/black_forest/walkthrough.ipynb")
    nb.by_hand("We fix the three encounters by hand",
        "Red's deck has 12 cards, Red 1 to Red 12, shuffled. Red draws cards one at a time. What is the chance "
        "that Red's first card is Red 1 **and** the second is Red 2?",
        "by_hand = ...   # P(Red 1 first, then Red 2), e.g. Fraction(1, 144)",
        "from kingdoms.lessons import check_by_hand\n"
        "then = {a.card.value: p for a, p in after_first.chance_outcomes()}   # Red's next card -> its probability\n"
        "check_by_hand(by_hand, first_p * then[2], \"P(Red 1, then Red 2)\")",
        "1/12 · 1/11 = 1/132 (after Red 1 is drawn, 11 cards are left). Slip: 1/144, as if Red 1 went back into "
        "the deck (with replacement).",
        reveal="for name in (\"Wolf Ridge\", \"Witch's Hut\", \"Crossroads\"):", answer="Fraction(1, 132)")
    nb.explain("### Hidden information: hands and face-down cards",
        "In Red's view Blue's Right card is a `?`. What does Red know about that card, and what can Red not "
        "know? What would Red have to *assume* to give a probability that it beats a card of Red's?",
        "Red knows it is one of Blue's cards that Red has not seen (not in the display, not won before), and that "
        "Blue chose to put it there. Red cannot know which one. To give a probability, Red must assume a model, "
        "e.g. that each unseen Blue card is equally likely (Laplace). That is an assumption: Blue chose the card on "
        "purpose. The odds notebook makes exactly this assumption and says so.")
    nb.predict(None, "my_guess = ...   # Green's points after this encounter, e.g. 10",
        "for card, space in [(\"Red 10\", \"top\"), (\"Green 3\", \"bottom\"), (\"Blue 6\", \"left\")]:",
        "from kingdoms.lessons import compare_guess\n"
        "compare_guess(my_guess, state.points[1], \"Green's points after the encounter\", close=0)",
        "Green has 14: Green 3 is lowest at the Bottom and wins Red 4's value (+4); Green 11 is highest at the Top "
        "and wins Red 10's value (+10). A space pays the *losing* card's value (Bottom, Top); the usual mistake is "
        "to score one's own card.",
        upgrade="**Predict first.** Red will play Red 10 on the Top", answer="14")
    nb.finish()


def black_forest_odds():
    nb = NB("notebooks/black_forest/odds.ipynb")
    nb.by_hand("## Counting cards for an empty space",
        "Green's deck holds the 12 values 1 to 12, once each, and Red cannot see which of them Green holds: each of "
        "the 12 is equally likely to be the card Green answers with. Red puts Red 7 on the Bottom. Red wins only if "
        "Green's card is **strictly higher** (a tie loses both). What is P(Red wins)?",
        "by_hand = ...   # P(Red 7 wins the Bottom), e.g. Fraction(1, 2)",
        "from kingdoms.lessons import check_by_hand\n"
        "for card in view0.hands[0]:\n"
        "    if card.deck == \"Red\" and card.value == 7:\n"
        "        red7 = card\n"
        "check_by_hand(by_hand, odds.p_win(view0, red7, \"bottom\"), \"P(Red 7 wins the Bottom)\")",
        "Green's values above 7 are 8, 9, 10, 11, 12: 5 of 12 equally likely values, P = 5/12 (Laplace). Slips: "
        "6/12 (counting the tie 7 as a win), 7/12 (the chance of a *lower* card).",
        reveal="g3 = kingdoms.game(\"black_forest\", players=3)", answer="Fraction(5, 12)")
    nb.predict(None, "my_guess = ...   # P(a match) with two Top cards to come, e.g. 0.5",
        "p2 = formula.subs({N: 24, s: 6, k: 2})",
        "from kingdoms.lessons import compare_guess\n"
        "compare_guess(my_guess, Fraction(str(p2)), \"P(a match with two Top cards)\", close=0.05)",
        "41/92 ≈ 0.446: a bit less than 1/2. Adding 1/4 + 1/4 counts twice the deals where *both* Top cards match; "
        "the complement avoids it: 1 − (18/24)(17/23) = 41/92.",
        upgrade="**Predict first.** One Top card gives a match with chance 6/24 = 1/4.", answer="0.45")
    nb.explain("print(f\"simulated (20000 pairs of cards): {number(hits / 20000, 3)}\")",
        "One Top card matches with chance 1/4. Why is the chance with two Top cards not 1/4 + 1/4 = 1/2? Explain "
        "with the complement.",
        "The two events \"the first Top card matches\" and \"the second matches\" can happen together, so adding "
        "counts those deals twice. Easier: no match means both Top cards come from the 18 other cards, without "
        "replacement: 18/24 · 17/23 = 51/92; so P(match) = 1 − 51/92 = 41/92 ≈ 0.446 — a bit less than 1/2.")
    nb.predict(None, "my_guess = ...   # \"ahead\" or \"behind\": where Red/Green ends with best play",
        "duel = odds.open_encounter([[\"Red 9\", \"Red 2\", \"Green 7\"]",
        "from kingdoms.lessons import compare_guess\n"
        "compare_guess(my_guess, \"ahead\" if margin > 0 else \"behind\" if margin < 0 else \"level\",\n"
        "              \"where Red/Green ends with best play on both sides\")",
        "Behind, by 2 points, even with best play; two first moves are equally good (Red 2 on the Bottom, Red 9 on "
        "the Top). The solver searched 528 positions: minimax over a small tree.",
        upgrade="**Predict first.** Red/Green holds Red 9, Red 2 and Green 7", answer='"behind"')
    nb.handout("ax = values.plot(title=")
    nb.finish()


def black_forest_explore():
    nb = NB("notebooks/black_forest/explore.ipynb")
    nb.predict(None, "my_guess = ...   # greedy's share of the wins, e.g. 0.25 for a quarter",
        "show(result, [\"greedy\", \"random\", \"random\", \"random\"])",
        "from kingdoms.lessons import compare_guess\n"
        "compare_guess(my_guess, result.win_shares()[0], \"greedy's share of the wins in these 40 games\",\n"
        "              close=0.15, percent=True)",
        "Nearly all: 98.8% of 40 games (95% interval 89.1% to 99.9%). Ask why the interval is so wide although "
        "greedy lost (almost) nothing: 40 games are few.",
        upgrade="**Predict first.** How often will the greedy player win", answer="0.95")
    nb.by_hand("## Who gets the token?",
        "With 4 players an encounter lasts 5 turns plus one per Right card, and the token goes to the seat after "
        "the last player. Start seat 1 plays first. With 2 Right cards, how many seats on does the token move? "
        "(Count the turns, then take the remainder after dividing by 4.)",
        "by_hand = ...   # seats the token moves with 4 players and 2 Right cards, e.g. 1",
        "from kingdoms.lessons import check_by_hand\n"
        "check_by_hand(by_hand, int(moves[2]), \"the number of seats the token moves\")",
        "5 + 2 = 7 turns; seats 1, 2, 3, 4, 1, 2, 3 play, so the last is seat 3 and the token goes to seat 4: "
        "3 seats on (7 mod 4 = 3).",
        reveal="for n in (2, 3, 4):", answer="3")
    nb.predict(None, "my_guess = ...   # in how many of the 24 games the token points changed the winner, e.g. 12",
        "from kingdoms.black_forest.rules import winners_shares",
        "from kingdoms.lessons import compare_guess\n"
        "compare_guess(my_guess, moved, \"the number of games whose winner the token points changed\", close=1)",
        "1.5 of the 24 games (a game whose win became shared counts as part of a game). The token point matters "
        "only in close games. Any guess from 0 to 3 counts as well predicted here.",
        upgrade="**Predict first.** In how many of the 24 games do you think the token points changed the winner",
        answer="2")
    nb.explain("**Takeaways.** Expected-points play beats random play clearly",
        "Red collects the most token points (2.71 per game, against 1.08 for Blue), yet the token points changed "
        "the winner in only 1.5 of 24 games. Explain how both can be true.",
        "A token point changes the winner only when the game is close: when the winner's lead is smaller than the "
        "difference in token points. Most games are won by far more than 1 or 2 points, so the extra points do not "
        "change the order. (And 24 games are few: the 95% interval of any seat's share is wide.)")
    nb.finish()


def elves_walkthrough():
    nb = NB("notebooks/elves/walkthrough.ipynb")
    nb.by_hand("The supply is a face-down shuffled pile, so the top card is equally likely",
        "The supply holds 120 cards, 10 of them rafts. What is the chance that the first card dealt is a raft? "
        "And, if it was, that the second card is a raft too? Type the chance that **both** are rafts.",
        "by_hand = ...   # P(the first two cards are both rafts), e.g. Fraction(1, 100)",
        "from kingdoms.lessons import check_by_hand\n"
        "after_a_raft = game.initial_state().apply(Draw(\"travel:raft\", 0))\n"
        "second = dict(after_a_raft.chance_outcomes())[Draw(\"travel:raft\", 0)]\n"
        "check_by_hand(by_hand, raft * second, \"P(two rafts first)\")",
        "10/120 · 9/119 = 90/14280 = 3/476 ≈ 0.0063 (without replacement: after a raft, 9 rafts among 119 cards). "
        "Slip: (1/12)² = 1/144 (with replacement).",
        reveal="first = dict(state.chance_outcomes())", answer="Fraction(3, 476)")
    nb.predict(None, "my_guess = ...   # the net gold of Anna's best journey, e.g. 10",
        "plan = best_journey(state.table, state.trip, rules)",
        "from kingdoms.lessons import compare_guess\n"
        "compare_guess(my_guess, plan.value, \"the net gold of Anna's best journey\", close=0)",
        "8 gold: a magic cloud to her mountain village (+5, but 2 to Doris's thief) and a dragon to her desert "
        "village (+5), then stop. Students often plan to travel on; the next village cannot be reached with the "
        "cards left, and villages may not be skipped.",
        upgrade="**Predict first.** Look at Anna's hand and the realms above.", answer="8")
    nb.explain("10/120 · 9/119 = 90/14280 = 3/476",
        "The first card is a raft with probability 10/120. Is the *second* card a raft with probability 10/120 too? "
        "Explain what it depends on, and why the model deals the cards one at a time instead of listing every "
        "order of a shuffle.",
        "It depends on the first card: after a raft, 9 of the 119 cards left are rafts (9/119); after another card, "
        "10/119. That is conditional probability for drawing without replacement. Before anything is seen, the "
        "second card is a raft with 10/120 too (by symmetry: 10/120 · 9/119 + 110/120 · 10/119 = 10/120). Listing "
        "every order of 120 cards is impossible (120! orders); one draw at a time needs only 'copies left / cards "
        "left' and stays exact.")
    nb.finish()


def elves_odds():
    nb = NB("notebooks/elves/odds.ipynb")
    nb.predict(None, "my_guess = ...   # the most likely number of villages in 10 cards: 0, 1, 2 or 3",
        "villages = odds.village_count_distribution(game, 10)",
        "from kingdoms.lessons import compare_guess\n"
        "most_likely = max(range(11), key=lambda k: villages[k])\n"
        "compare_guess(my_guess, most_likely, \"the most likely number of villages\", close=0)",
        "2 villages (≈ 0.31), then 3 (≈ 0.23) and 1 (≈ 0.24). The expected number is 13/6 ≈ 2.17; \"a fifth of 10\" "
        "gives 2 — a good guess, but the most likely value and the mean are different things.",
        upgrade="**Predict first.** About a fifth of the cards are villages.", answer="2")
    nb.by_hand("## How many villages does a first deal hold?",
        "26 of the 120 cards are villages. Each of the 10 cards dealt is a village with chance 26/120. Without "
        "the table: how many villages does a 10-card deal hold **on average**? (Expectation is linear: add up "
        "the chances of the 10 cards — even though the cards are not independent.)",
        "by_hand = ...   # the expected number of villages in 10 cards, e.g. Fraction(5, 2)",
        "from kingdoms.lessons import check_by_hand\n"
        "check_by_hand(by_hand, villages.mean(), \"the expected number of villages\")",
        "10 · 26/120 = 260/120 = 13/6 ≈ 2.17 (linearity of expectation: E[X₁ + … + X₁₀] = E[X₁] + … + E[X₁₀], "
        "dependence does not matter). The hypergeometric mean n·K/N. Slip: 2 (rounded) or 26/120.",
        reveal="villages = odds.village_count_distribution(game, 10)", answer="Fraction(13, 6)")
    nb.predict(None, "my_guess = ...   # \"buy 1\", \"buy 2\" or \"draw 3\": the best chance of a second raft",
        "hand = {\"village:lake:7\": 1, \"travel:raft\": 1",
        "from kingdoms.lessons import compare_guess\n"
        "chances = {\"buy 1\": odds.p_success_after_buying(lumped_hand, lumped_pile, two_rafts),\n"
        "           \"buy 2\": odds.p_success_after_buying(lumped_hand, lumped_pile, two_rafts, cards=2),\n"
        "           \"draw 3\": odds.p_success_after_draw3(lumped_hand, lumped_pile, two_rafts)}\n"
        "compare_guess(my_guess, max(chances, key=chances.get), \"the best way to a second raft\")",
        "Draw 3 / discard 4: 149/654 ≈ 0.23, against 189/1199 ≈ 0.16 for buying two and 9/110 ≈ 0.08 for one. "
        "Three cards seen beat two; what it costs (a card of the hand, against 1 + 2 gold) is the next question.",
        upgrade="**Predict first.** Only a few of the unseen cards are rafts", answer='"draw 3"')
    nb.explain("est = odds.sample_deal_can_reach(game, 10, 20_000, seed=7)",
        "Listing every 10-card deal would take millions of cases. The notebook first looks only at the travel "
        "cards, and then at the villages. Explain in words why that split gives the exact answer, and why it is "
        "so much smaller.",
        "By the law of total probability: P(playable) = Σ over the travel-card counts t of P(t) · P(playable | t). "
        "Given the travel cards we know which terrains can be reached, and the other cards are a uniform draw from "
        "the 56 non-travel cards, so P(playable | t) is one complement: 1 − C(56−g, r)/C(56, r). Only 19,448 "
        "travel-card outcomes need listing instead of every composition of the deal. The brute-force count for 2 "
        "and 3 cards and the simulation (within a standard error or so) confirm it.")
    nb.finish()


def elves_explore():
    nb = NB("notebooks/elves/explore.ipynb")
    nb.predict(None, "my_guess = ...   # the net gold of Anna's best journey, e.g. 25",
        "anna = start_trip(ANNA, 0,",
        "from kingdoms.lessons import compare_guess\n"
        "compare_guess(my_guess, plan.value, \"the net gold of Anna's best journey\", close=0)",
        "32 gold, the rulebook's route (34 earned, 2 paid to Bob's thief). The solver examined every journey; "
        "ask how many the students tried on paper, and how they knew when to stop.",
        upgrade="**Predict first.** Anna holds 3 rafts, 2 elfcycles", answer="32")
    nb.explain("Take away one of Doris's cards at a time and solve again",
        "Before you run the next cell: which of Doris's cards do you think is worth the most to her on this table, "
        "and why? After running it, explain why one raft is worth 22 gold while a giant pig is worth only 2.",
        "The worth of a card is the drop of the best journey's value without it (a difference of two optima). "
        "Without her raft Doris cannot cross Anna's river village, and villages may not be skipped: the journey "
        "stops early (18 instead of 40). A giant pig has substitutes (an elfcycle, a trollwagon, a dragon can "
        "do its job), so losing it costs little. Misconception: a card's worth is fixed — it depends on the table "
        "and on the rest of the hand.")
    nb.handout("tree_picture(tree, title=\"Doris's journey")
    nb.by_hand("heuristics = tournament(two, [\"planner\", \"homebody\"], 100",
        "A tie counts as half a win. In 100 games the planner won 82, tied 0 and lost 18 (the table below). "
        "What is the planner's share of the win, as a fraction?",
        "by_hand = ...   # the planner's share of the win, e.g. Fraction(3, 4)",
        "from kingdoms.lessons import check_by_hand\n"
        "check_by_hand(by_hand, heuristics.win_share(\"planner\"), \"the planner's share of the win\")",
        "82/100 = 41/50 = 82%: the mean of a score that is 1 for a win, ½ for a tie, 0 for a loss. With its 95% "
        "interval (73.3% to 88.3%) above 50%, these games do tell the planner is stronger.",
        answer="Fraction(41, 50)")
    nb.finish()


def horse_walkthrough():
    nb = NB("notebooks/horse/walkthrough.ipynb")
    nb.by_hand("**1. Roll.** Before rolling Ann could play a farm card",
        "Each King die has six different faces (1 sheep, 2 sheep, 1 pig, half cattle, 1 fence, 2 fences); the pink "
        "die shows sheep on 2 of its 6 faces. What is the chance that one roll shows exactly the King dice "
        "1 fence, 2 sheep and half cattle (in any order) **and** sheep on the pink die?",
        "by_hand = ...   # P(1 fence, 2 sheep, half cattle and a pink sheep), e.g. Fraction(1, 216)",
        "from kingdoms.lessons import check_by_hand\n"
        "check_by_hand(by_hand, chance, \"P(1 fence, 2 sheep, half cattle; pink sheep)\")",
        "Three different faces on three dice can come in 3! = 6 orders: 6/216 = 1/36; the pink die is independent: "
        "× 2/6. Together 1/108. Typical slip: 1/648 (the order forgotten: the three yellow dice are identical, "
        "but they are still three dice).",
        reveal="if RollDice() in state.legal_actions():", answer="Fraction(1, 108)")
    nb.predict(None, 'my_guess = ...   # "yes" or "no": does Ann\'s herd still fit after the 2 sheep?',
        'state = state.apply(UseDie("2 sheep"))',
        "from kingdoms.lessons import compare_guess\n"
        "compare_guess(my_guess, \"yes\" if state.farms[0].fits() else \"no\", \"whether Ann's herd still fits\")",
        "Yes: 3 sheep in one area (room 4) and 1 pig in the other. The question to ask next: what would a 4th and "
        "5th sheep do? (5 sheep do not fit: no area holds more than 4.)",
        upgrade="**Predict first.** Ann's pasture has room for 4 sheep and 4 pigs", answer='"yes"')
    nb.explain("fences = pasture.enclosure({0, 1, 2}) | pasture.enclosure({8, 9})",
        "White's areas hold 6 + 4 = 10 animals, and White has 5 sheep and 5 pigs: 10 animals. Why does the herd "
        "not fit? And why does 4 sheep and 5 pigs fit?",
        "Each area holds one species. 5 sheep need an area with room for at least 5, and so do 5 pigs; only the big "
        "area (6) is large enough, and it cannot take both. Room in total is not the question: it is an *assignment* "
        "of species to areas. With 4 sheep the small area (4) takes the sheep and the big one the pigs. "
        "Misconception: adding up the room.")
    nb.finish()


def horse_odds():
    nb = NB("notebooks/horse/odds.ipynb")
    nb.predict(None, "my_guess = ...   # P(a whole cattle in one roll), e.g. 0.2",
        "p = odds.p_cattle(game)",
        "from kingdoms.lessons import compare_guess\n"
        "compare_guess(my_guess, p, \"P(a cattle in one roll)\", close=0.25)",
        "P = 3·(1/6)²·(5/6) + (1/6)³ = 15/216 + 1/216 = 2/27 ≈ 0.074: less than 1/10. Many students guess 1/6 "
        "or 2/6 by adding chances.",
        upgrade="**Predict first.** With these dice one face in six is a half cattle.", answer="0.07")
    nb.predict(None, "my_guess = ...   # how many times the single-roll chance, e.g. 2",
        "cattle = odds.solve_rerolls(odds.goal_cattle(game), game=game)",
        "from kingdoms.lessons import compare_guess\n"
        "compare_guess(my_guess, cattle.value / p, \"how many times larger two re-rolls make the chance\", close=0.2)",
        "1929473/5038848 ≈ 0.383 against 2/27 ≈ 0.074: about 5.2 times. Students who say \"three tries, three times "
        "the chance\" forget that kept half cattle carry over: each die gets three tries, so q = 1 − (5/6)³ per die.",
        upgrade="**Predict first.** Without re-rolls the chance is the one just computed.", answer="5")
    nb.by_hand("print(cattle.explain(example))",
        "Keeping every half cattle, a King die has three tries (the roll and two re-rolls) to show a half cattle "
        "(chance 1/6 each try). What is the chance q that it shows one at least once? (Think of the complement: "
        "never in three tries.)",
        "by_hand = ...   # q = P(at least one half cattle in three tries), e.g. Fraction(1, 2)",
        "from kingdoms.lessons import check_by_hand\n"
        "check_by_hand(by_hand, Fraction(str(q)), \"q, the chance of a half cattle within three tries\")",
        "q = 1 − (5/6)³ = 1 − 125/216 = 91/216 ≈ 0.42. Slips: 3 · 1/6 = 1/2 (adding chances of events that can "
        "happen together), 125/216 (the complement itself).",
        reveal="h = sp.Rational(king_faces.count(\"half cattle\"), len(king_faces))", answer="Fraction(91, 216)")
    nb.explain("r = odds.useful_die_left(two_sheep, k, game=game)",
        "Two seats after the active player, a 2-sheep die is still there with chance 289/864 ≈ 0.33 if the player "
        "before you picks at random, but only 2/27 ≈ 0.07 if that player wants the 2 sheep too. Explain the "
        "difference. Why are the two chances equal for the first seat?",
        "For the first seat nobody has picked yet: the die is there if at least one of the three King dice shows "
        "2 sheep, 1 − (5/6)³ = 91/216, whoever the rivals are. Two seats later, a rival who *wants* the 2 sheep takes "
        "it whenever there is one, so it is left for you only if at least two dice show 2 sheep: "
        "3·(1/6)²·(5/6) + (1/6)³ = 2/27 — the same count as the cattle. A random picker takes it only sometimes. "
        "The chance depends on how the others decide: a probability needs a model of the players.")
    nb.handout("halves.plot(title=\"number of half cattle in one roll\")")
    nb.finish()


def horse_explore():
    nb = NB("notebooks/horse/explore.ipynb")
    nb.predict(None, "my_guess = ...   # the mean number of turns Moritz needs, e.g. 10",
        "mean = odds.moritz_mean_turns(game)",
        "from kingdoms.lessons import compare_guess\n"
        "compare_guess(my_guess, round(float(mean), 3), \"the mean number of turns Moritz needs (rounded)\", close=0.15)",
        "About 5.38 turns (exact, from the Markov chain; only rounded for printing). Students often guess 10: "
        "a horse is worth 24 sheep and he starts with 4. Trading everything he can, every turn, makes him fast.",
        upgrade="**Predict first.** How many turns does Moritz need on average", answer="5.4")
    nb.explain("So you must finish in about five turns of your own",
        "Moritz's turns could be computed *exactly* with a Markov chain of 112 herds. Why does that work for Moritz, "
        "and why can we not do the same for a human player's whole game (so that we simulate instead)?",
        "Moritz follows a fixed rule and needs no fences: his herd after a turn depends only on his herd before it "
        "and the dice (the Markov property), and only 112 herds can occur, so the chance of each herd after t turns "
        "follows from a 112 × 112 table. A human player's next position also depends on the pasture, the cards, the "
        "other players' dice and, above all, on their *choices*: far too many states, and a different chain for "
        "every strategy. Then a seeded simulation with a 95% interval is the honest tool.")
    nb.by_hand("heuristics = tournament(two, [\"greedy\", \"no_reroll\"], 100",
        "A tie counts as half a win. In 100 games greedy won 76, tied 4 and lost 20 (the table below). "
        "What is greedy's share of the win, as a fraction?",
        "by_hand = ...   # greedy's share of the win, e.g. Fraction(3, 4)",
        "from kingdoms.lessons import check_by_hand\n"
        "check_by_hand(by_hand, heuristics.win_share(\"greedy\"), \"greedy's share of the win\")",
        "(76 + 4/2) / 100 = 78/100 = 39/50 = 78%: the mean of a score that is 1 for a win, ½ for a tie and 0 for a "
        "loss (an expectation estimated by an average). Slips: 76/100 (ties dropped), 80/100 (ties counted as wins).",
        answer="Fraction(39, 50)")
    nb.handout("turns.plot(samples=sims")
    nb.finish()


def ten_characters_walkthrough():
    nb = NB("notebooks/ten_characters/walkthrough.ipynb")
    nb.by_hand("## A deal\n",
        "The pile holds 100 cards, 10 of each character. What is the chance that the first two cards dealt are "
        "both Jesters?",
        "by_hand = ...   # P(the first two cards are Jesters), e.g. Fraction(1, 100)",
        "from kingdoms.lessons import check_by_hand\n"
        "start = game.initial_state()\n"
        "for deal, p in start.chance_outcomes():\n"
        "    if deal.card == \"jester\":\n"
        "        first_jester, p_first = deal, p\n"
        "for deal, p in start.apply(first_jester).chance_outcomes():\n"
        "    if deal.card == \"jester\":\n"
        "        p_second = p\n"
        "check_by_hand(by_hand, p_first * p_second, \"P(two Jesters first)\")",
        "10/100 · 9/99 = 1/10 · 1/11 = 1/110 ≈ 0.009 (without replacement). Slip: 1/100 (with replacement).",
        answer="Fraction(1, 110)")
    nb.explain("Player 1's hand shows as `?` and the chosen card as *face down*",
        "The program asks Player 1 first, then Player 2, then Player 3. Why is this still a game of "
        "*simultaneous* choice? What would change if Player 2 could see Player 1's card before choosing?",
        "Player 2's view hides Player 1's choice until all cards are revealed together, so Player 2 decides with "
        "the same information as if everyone chose at once (imperfect information). If Player 2 could see it, the "
        "game would become sequential: Player 2 could always answer best (a Jester against a King) and Player 1 "
        "would lose the advantage of being unpredictable. That is why the odds notebook needs a payoff matrix and "
        "mixed strategies, not a decision tree with perfect information.")
    nb.predict(None, "my_guess = ...   # Player 2's points in this pass, e.g. 8",
        "end = duel.position([[\"king\", \"king\", \"dragon\"], [\"jester\", \"queen\", \"farmer\"]]",
        "from kingdoms.lessons import compare_guess\n"
        "sheet = duel.position([[\"king\", \"king\", \"dragon\"], [\"jester\", \"queen\", \"farmer\"]],\n"
        "                      display={\"king\": 3, \"queen\": 1, \"dragon\": 1}).score_sheet([[\"king\", \"king\"], [\"jester\", \"queen\"]])\n"
        "compare_guess(my_guess, sheet.totals[1], \"Player 2's points\", close=0)",
        "Player 1 scores 0 (a King scores nothing while another player keeps a Jester); Player 2 scores 15: the "
        "Jester 4 × 3 Kings = 12 and the Queen 3 × 1 set of Queen + King. The rule that is easy to miss: the Kings "
        "in the display still count for the Jester.",
        upgrade="**Predict first.** Player 1 keeps two Kings, Player 2 a Jester and a Queen", answer="15")
    nb.finish()


def ten_characters_odds():
    nb = NB("notebooks/ten_characters/odds.ipynb")
    nb.by_hand("## 2. Scoring conditions as probabilities",
        "Player 1 cannot see 91 cards, 10 of them Jesters; Player 2's hand is 3 of those 91, every 3 equally "
        "likely. What is the chance that Player 2 holds **at least one** Jester? (Complement: no Jester means all "
        "3 cards come from the 81 others.)",
        "by_hand = ...   # P(Player 2 holds at least one Jester), e.g. Fraction(1, 3)",
        "from kingdoms.lessons import check_by_hand\n"
        "check_by_hand(by_hand, p, \"P(Player 2 holds at least one Jester)\")",
        "1 − C(81,3)/C(91,3) = 1 − 85320/121485 = 2411/8099 ≈ 0.298 (or 1 − 81/91 · 80/90 · 79/89). "
        "Slips: 3 · 10/91 = 30/91 ≈ 0.33 (adding chances of events that overlap), 5688/8099 (the complement itself).",
        reveal="s = game.position([[\"king\", \"king\", \"dragon\"], [\"farmer\", \"queen\", \"mage\"]]",
        answer="Fraction(2411, 8099)")
    nb.predict(None, "my_guess = ...   # the value of the game for Player 1, e.g. 2.5",
        "eq = equilibrium(M)",
        "from kingdoms.lessons import compare_guess\n"
        "compare_guess(my_guess, eq[\"value\"], \"the value of the game for Player 1\", close=0.1)",
        "The value is 10/3 ≈ 3.33, between maximin 2 and minimax 4, nearer 4. Player 1 mixes: the King with 5/6, "
        "the Jester with 1/6, never the Dragon. Ask the students who answered \"always the same card\" what Player 2 would do "
        "against a Player 1 who always plays the King: a predictable player can be exploited.",
        upgrade="**Predict first.** Look at the matrix. Should Player 1 always play the same card", answer="3.3")
    nb.explain("Player 2 plays the {game.label(c):15} and concedes {concedes}",
        "Against Player 2's equilibrium mix, Player 1 earns exactly 10/3 by playing the Jester **and** exactly 10/3 "
        "by playing the King, but only −8/3 with the Dragon. Explain why the two cards Player 1 uses must earn the "
        "same, and why the Dragon is never played.",
        "If one of the used cards earned more against Player 2's mix, Player 1 would play only that card, and the "
        "mix would not be an equilibrium; so every card played with positive probability earns the value 10/3 "
        "(the indifference principle). The Dragon earns less (−8/3), so any weight on it would lower Player 1's "
        "average: it gets probability 0. The same holds for Player 2: the King and the Knight concede 10/3, the "
        "Fortune Teller 8. Misconception: a mixed strategy means \"the cards are equally good in general\" — they "
        "are equally good only against the opponent's mix.")
    nb.handout("M = payoff_matrix(pos)")
    nb.finish()


def ten_characters_explore():
    nb = NB("notebooks/ten_characters/explore.ipynb")
    nb.predict(None, "my_guess = ...   # greedy's share of the wins against random, e.g. 0.5 for half",
        "print(results[\"greedy\", \"random\"])",
        "from kingdoms.lessons import compare_guess\n"
        "compare_guess(my_guess, results[\"greedy\", \"random\"].win_shares()[0], \"greedy's share of the wins in these 80 games\",\n"
        "              close=0.15, percent=True)",
        "Greedy wins 83.8% of the 80 games (95% interval 74.2% to 90.3%). A game with this much luck in the deal "
        "still rewards a simple plan clearly.",
        upgrade="**Predict first.** Out of 80 games between *greedy* and *random*", answer="0.8")
    nb.by_hand("The pairing that matters most, *greedy* against *hold back*",
        "Greedy played 100 games in the first seat and won a share of 59.5%; in the other 100 games, in the "
        "second seat, *hold back* won 35.0% (ties split, so greedy got the rest). What is greedy's share over all "
        "200 games? Type it as an exact fraction.",
        "by_hand = ...   # greedy's share of the 200 games, e.g. Fraction(3, 5)",
        "from kingdoms.lessons import check_by_hand\n"
        "check_by_hand(by_hand, pooled, \"greedy's share of the 200 games\")",
        "In the second seat greedy gets 1 − 35/100 = 65/100 (the complement). Both halves have 100 games, so the "
        "share over 200 is the plain average: (59.5 + 65)/200 = 124.5/200 = 249/400 = 62.25%. With unequal numbers "
        "of games it would be a weighted average (total wins / total games).",
        reveal="pooled = (first.wins[0] + second.wins[1]) / games", answer="Fraction(249, 400)")
    nb.explain("Now change the assumption: equal cards start with a *rotating* player.",
        "With three random players Player 2 won 38.4% of 300 games, 95% interval 33.1% to 44.1%. Does that show "
        "that the second seat is an advantage? What would you need to be sure?",
        "1/3 = 33.3% lies (just) inside the interval, so these 300 games cannot rule out a fair share: the "
        "difference may be luck. It is a hint worth testing, not a proof. More games make the interval narrower "
        "(its width shrinks like 1/√n); with several seats compared at once, one of them looking lucky is also "
        "more likely. Then change one thing at a time (the rotating order below) and compare.")
    nb.handout("ax.hist(points, bins=15, alpha=0.5, label=label)")
    nb.finish()


LESSONS = {f"{g}/{l}": globals()[f"{g}_{l}"]
           for g in ("woods", "black_forest", "elves", "horse", "ten_characters")
           for l in ("walkthrough", "odds", "explore")}


def main(argv=None) -> int:
    names = (argv if argv is not None else sys.argv[1:]) or list(LESSONS)
    unknown = [n for n in names if n not in LESSONS]
    if unknown:
        print(f"unknown lesson(s): {', '.join(unknown)}; the lessons are: {', '.join(LESSONS)}",
              file=sys.stderr)
        return 2
    for name in names:
        LESSONS[name]()
    print("now re-execute them: jupyter nbconvert --to notebook --execute --inplace <notebook>")
    return 0


if __name__ == "__main__":
    sys.exit(main())
