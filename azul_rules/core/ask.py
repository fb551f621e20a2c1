"""Asking the judge in words: a question as players phrase it, answered by the rules that
settle it, best first.

The answers are ranked by BM25 over the rule book of the catalogues (each rule and
ruling, by its title, its text and the words players use about it, ``ask.rule.ID``)
and over the table of the mistakes the referee names (each error code's description,
which counts for the rules it cites).  A question is folded (lower case, accents
removed, the language's plural endings dropped), its stop words are left out
(``ask.stopwords``) and each word is also asked as the words players use for the same
thing (``ask.synonyms``).  Everything is read from the catalogues, nothing is
downloaded; the index of a language is built on its first question, once.

>>> import azul_rules as az
>>> az.ask("can I take just two of the three blues?")[0].rule
'T2'
>>> az.ask("les diagonales comptent ?", lang="fr")[0].rule
'W3'
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections import Counter
from collections.abc import Mapping
from functools import cache
from typing import Final
from urllib.parse import quote

import attrs

from azul_rules.core.messages import check_language
from azul_rules.core.rulebook import CODE_RULES, RULES, code_description
from azul_rules.core.shown import shown
from azul_rules.text import keys, template

__all__ = ["EXAMPLE_POSITION", "MAX_ANSWERS", "MAX_QUESTION", "Answer", "ask"]

MAX_QUESTION: Final = 500
"""The most characters of a question (a longer one is a ``ValueError``)."""

MAX_ANSWERS: Final = 5
"""The most answers :func:`ask` gives."""

EXAMPLE_POSITION: Final = (
    "c2f2.122_.b3r.yrkw..k2w2.y2r_b14y13r16k14w15_3039_3.02y1b02k.g8010._2.1r02w00.80g00.m"
)
"""The notation of ``examples/round-2-position.json``: the position the worked
examples (``ask.example.ID``) are told on, and their links open."""

_EXAMPLE_MOVES: Final[Mapping[str, str]] = {
    "T2": '{"type":"table_take","source":1,"color":"blue","count":2,"placements":{"2":2}}',
    "T3": "CR1",
    "P1": '{"type":"table_take","source":1,"color":"blue","count":3,'
    '"placements":{"2":2,"3":1}}',
    "P2": "CY5",
    "P3": "3Y4",
    "P4": "CY2",
    "P5": "2B3",
}
"""The move each worked example asks about on :data:`EXAMPLE_POSITION` (a notation, or
a move document as ``examples/partial-take.json`` and ``split-lot.json`` hold it)."""

_K1: Final = 1.2
"""BM25's saturation of a word's count in a document."""

_B: Final = 0.75
"""BM25's weight of a document's length."""

_SYNONYM_WEIGHT: Final = 0.5
"""How much a word counts when the question holds only one of its synonyms."""

_CITED_WEIGHT: Final = 0.8
"""How much a mistake's match counts for the rules it cites after the first."""

_TITLE_REPEAT: Final = 2
"""A rule's title counts this many times in its document."""


@attrs.frozen
class Answer:
    """One answer to a question: the ``rule`` of the book that settles it (``"P3"``),
    its ``title`` and ``text`` in the question's language, whether it is a ``ruling``,
    how well it matches (``score``, higher is better, only comparable within one
    question), and where the book has one a worked ``example`` with a ``link`` that
    opens it on the web judge's page (``/?position=...&move=...``), else ``None``.
    Raises nothing: :func:`ask` makes them."""

    rule: str
    title: str
    text: str
    score: float
    ruling: bool = False
    example: str | None = None
    link: str | None = None

    def to_dict(self) -> dict[str, object]:
        """The answer as JSON-ready data: what ``GET /api/v1/ask`` and ``azul-rules ask
        --json`` write for it."""
        return {
            "rule": self.rule,
            "title": self.title,
            "text": self.text,
            "ruling": self.ruling,
            "score": round(self.score, 4),
            "example": self.example,
            "link": self.link,
        }


def ask(question: str, lang: str = "en") -> tuple[Answer, ...]:
    """The rules that answer ``question`` (words as players say them) in ``lang``, best
    first, at most :data:`MAX_ANSWERS`; ``()`` for a question with no word the book
    knows (empty, or only stop words).

    >>> import azul_rules as az
    >>> answers = az.ask("can I split my tiles between two rows?")
    >>> answers[0].rule, answers[0].title
    ('P1', 'The lot goes to one place')

    :raises ValueError: for a language no catalogue has, or a question longer than
        :data:`MAX_QUESTION` characters.
    :raises TypeError: for a question that is not a string.
    """
    lang = check_language(lang)
    if not isinstance(question, str):
        raise TypeError(f"a question is a string, not {shown(question)}")
    if len(question) > MAX_QUESTION:
        raise ValueError(
            f"a question holds at most {MAX_QUESTION} characters, not {len(question)}"
        )
    index = _index(lang)
    words = index.query(question)
    if not words:
        return ()
    ranked = index.rank(words)
    return tuple(_answer(rule_id, score, lang) for rule_id, score in ranked[:MAX_ANSWERS])


def _answer(rule_id: str, score: float, lang: str) -> Answer:
    entry = RULES[rule_id]
    example_key = f"ask.example.{rule_id}"
    example = template(lang, example_key) if example_key in _example_keys() else None
    move = _EXAMPLE_MOVES.get(rule_id)
    link = None
    if example is not None and move is not None:
        link = f"/?position={EXAMPLE_POSITION}&move={quote(move, safe='')}"
    return Answer(
        rule_id, entry.title_in(lang), entry.text(lang), score, entry.ruling, example, link
    )


@cache
def _example_keys() -> frozenset[str]:
    """The rules with a worked example (``ask.example.ID``), read once."""
    return frozenset(keys("ask.example."))


# -- words -----------------------------------------------------------------------------------

_WORD: Final = re.compile(r"[a-z0-9]+")
_ELISION: Final = re.compile(r"\b(?:[cdjlmnst]|qu)'")


def fold(text: str, lang: str) -> list[str]:
    """The words of ``text`` as the index compares them: lower case, without accents,
    the elided articles of French (``l'``, ``qu'``) and plural endings dropped."""
    text = text.lower().replace("\u2019", "'")
    if lang == "fr":
        text = _ELISION.sub(" ", text)
    text = unicodedata.normalize("NFKD", text)
    text = "".join(c for c in text if not unicodedata.combining(c))
    return [_stem(word, lang) for word in _WORD.findall(text)]


def _stem(word: str, lang: str) -> str:
    """A word without its plural ending (``tiles``: ``tile``; ``carreaux``: ``carreau``)."""
    if len(word) <= 3 or not word.isalpha():
        return word
    if lang == "en":
        if word.endswith("ies"):
            return word[:-3] + "y"
        if word.endswith("s") and not word.endswith(("ss", "us", "is")):
            return word[:-1]
        return word
    if word.endswith("aux"):
        return word[:-1] if word in _KEEP_AUX else word[:-3] + "al"
    if word.endswith(("s", "x")) and not word.endswith(("ss", "us")):
        return word[:-1]
    return word


_KEEP_AUX: Final = frozenset({"carreaux", "tuyaux", "noyaux", "boyaux"})
"""French words in -aux whose singular is in -au, not -al."""


# -- the index -------------------------------------------------------------------------------


@attrs.frozen
class _Document:
    rules: tuple[str, ...]
    counts: Mapping[str, int]
    length: int


class _Index:
    """BM25 over one language's documents: each rule (title, text, players' words) and
    each error code's description (for the rules it cites)."""

    def __init__(self, lang: str) -> None:
        self.lang = lang
        self.stopwords = frozenset(fold(template(lang, "ask.stopwords"), lang))
        self.synonyms = _synonyms(template(lang, "ask.synonyms"), lang)
        *names, colour = fold(template(lang, "ask.colours"), lang)
        self.colours = dict.fromkeys(names, colour)
        documents = [self._document((rule_id,), self._rule_words(rule_id)) for rule_id in RULES]
        for code, cited in CODE_RULES.items():
            documents.append(self._document(cited, code_description(code, lang)))
        self.documents = tuple(documents)
        self.average = sum(d.length for d in documents) / len(documents)
        frequency: Counter[str] = Counter()
        for document in documents:
            frequency.update(document.counts.keys())
        total = len(documents)
        self.idf = {
            word: math.log(1 + (total - seen + 0.5) / (seen + 0.5))
            for word, seen in frequency.items()
        }

    def _rule_words(self, rule_id: str) -> str:
        entry = RULES[rule_id]
        parts = [entry.title_in(self.lang)] * _TITLE_REPEAT + [entry.text(self.lang)]
        extra = f"ask.rule.{rule_id}"
        if extra in _players_keys():
            parts.append(template(self.lang, extra))
        return " ".join(parts)

    def _document(self, rules: tuple[str, ...], text: str) -> _Document:
        words = self._words(text)
        return _Document(rules, Counter(words), len(words))

    def _words(self, text: str) -> list[str]:
        """The words of ``text`` that count: folded, each colour's name as the word
        colour, without stop words."""
        folded = (self.colours.get(w, w) for w in fold(text, self.lang))
        return [w for w in folded if w not in self.stopwords]

    def query(self, question: str) -> dict[str, float]:
        """The question's words with their weights: 1 for a word asked, less for a
        word of the same group of synonyms; only words some document holds, and the
        rule ids."""
        asked = self._words(question)
        weights: dict[str, float] = {}
        for word in asked:
            weights[word] = 1.0
        for word in asked:
            for other in self.synonyms.get(word, ()):
                weights[other] = max(weights.get(other, 0.0), _SYNONYM_WEIGHT)
        return {w: weight for w, weight in weights.items() if w in self.idf or w.upper() in RULES}

    def rank(self, words: Mapping[str, float]) -> list[tuple[str, float]]:
        """The rules by score, best first (the book's order among equals), those with a
        positive score only; a rule the question names by its id (``P3``) first."""
        scores: dict[str, float] = {}
        for document in self.documents:
            score = self._score(document, words)
            if score <= 0:
                continue
            for place, rule_id in enumerate(document.rules):
                weighted = score if place == 0 else score * _CITED_WEIGHT
                scores[rule_id] = max(scores.get(rule_id, 0.0), weighted)
        named = [w.upper() for w in words if w.upper() in RULES]
        top = max(scores.values(), default=0.0)
        for rule_id in named:  # a rule named by its id comes first
            scores[rule_id] = top + words[rule_id.lower()]
        order = {rule_id: n for n, rule_id in enumerate(RULES)}
        return sorted(scores.items(), key=lambda item: (-item[1], order[item[0]]))

    def _score(self, document: _Document, words: Mapping[str, float]) -> float:
        norm = _K1 * (1 - _B + _B * document.length / self.average)
        total = 0.0
        for word, weight in words.items():
            count = document.counts.get(word, 0)
            if count:
                total += weight * self.idf[word] * count * (_K1 + 1) / (count + norm)
        return total


def _synonyms(phrase: str, lang: str) -> dict[str, tuple[str, ...]]:
    """The groups of ``ask.synonyms``: each word -> the other words of its groups."""
    found: dict[str, set[str]] = {}
    for group in phrase.split(";"):
        words = fold(group, lang)
        for word in words:
            found.setdefault(word, set()).update(w for w in words if w != word)
    return {word: tuple(sorted(others)) for word, others in found.items()}


@cache
def _players_keys() -> frozenset[str]:
    """The rules with players' words (``ask.rule.ID``), read once."""
    return frozenset(keys("ask.rule."))


@cache
def _index(lang: str) -> _Index:
    """The index of ``lang``, built on its first question."""
    return _Index(lang)
