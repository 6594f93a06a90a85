"""What a German class reads must be German: ``german_scan(texts, where)`` fails naming
every text that still holds English words (``ENGLISH``: words that are not German too).
Used by tests/test_i18n.py and by every area's German test (widgets, exercises, notebooks).
"""
from __future__ import annotations

import html.parser
import re

# English words that are not German words too ("hand", "die", "in", "an", "man", "will",
# "also", "her", "Chance", "Pass" are both, and are left out); a word is a run of letters,
# umlauts included ("höher" is one word, not "h" and "her")
ENGLISH = frozenset("""
the and of to with from your his their its plays play played draws draw takes take
player players card cards turn turns wins win won round rounds court courts points point
game games over nobody deal dealt deals each must may own hidden left put puts
roll rolls rolled dice gets score scores scored passes choose chooses chosen pile
face down up back next first last none yes is are has have for or not on at by it this
that which who what when where out one two three four five six seven eight nine ten
share estimate estimated exact best worst move moves step steps seat seats view show
hide new replay table value values probability odds outcome outcomes winner loser tie
tied above below between than more less after before until while again only
""".split())
# a word is a run of letters, umlauts and ß included ("höher" is one word, not "h" + "her")
WORD = re.compile(r"[^\W\d_]+")


class _Text(html.parser.HTMLParser):
    """The words a person reads in an HTML page: text, and the names given to
    controls and pictures (aria-label, title, alt)."""

    def __init__(self):
        super().__init__()
        self.parts: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag, attrs):
        if tag in ("style", "script"):
            self._skip += 1
        for k, v in attrs:
            if k in ("aria-label", "title", "alt") and v:
                self.parts.append(v)

    def handle_endtag(self, tag):
        if tag in ("style", "script") and self._skip:
            self._skip -= 1

    def handle_data(self, data):
        if not self._skip:
            self.parts.append(data)


def readable(text: str) -> str:
    """What a person reads of ``text`` (the words of HTML, or the text itself)."""
    if "<" in text and ">" in text:
        parser = _Text()
        parser.feed(text)
        return " ".join(parser.parts)
    return text


def english_words(text: str) -> list[str]:
    return sorted({w for w in WORD.findall(readable(text))
                   if w.lower() in ENGLISH and not (w.isupper() and len(w) > 1)})


def german_scan(texts, where: str) -> None:
    """Fail naming every text of ``texts`` that still holds English words."""
    bad = {}
    for text in texts:
        words = english_words(text)
        if words:
            bad.setdefault(readable(text)[:160], words)
    assert not bad, f"{where}: English in German texts ({len(bad)}):\n" + "\n".join(
        f"  {words}: {text!r}" for text, words in list(bad.items())[:25])


