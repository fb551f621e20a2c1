"""``azul-rules rules``: the rule book (docs/rules.md) -- its index by section, every
rule's text (``--all``), or one rule's (``rules P3``)."""

from __future__ import annotations

import argparse
import textwrap

from azul_rules.cli._common import Commands, UsageError, add_lang
from azul_rules.core.messages import phrase
from azul_rules.core.rulebook import SECTIONS, Rule, id_ranges, rule, rules, section_title
from azul_rules.core.shown import shown

__all__ = ["NAME", "register", "run"]

NAME = "rules"


def register(commands: Commands) -> None:
    """Add ``rules`` and its options to ``commands``."""
    book = commands.add_parser(NAME, help="the rule book: the index, or one rule's text")
    book.add_argument("rule_id", metavar="ID", nargs="?", help="a rule id such as P3")
    book.add_argument("--all", action="store_true", help="every rule with its text")
    add_lang(book)


def run(args: argparse.Namespace) -> int:
    """Print one rule (an unknown id: one line naming the ids there are, exit 2), or the
    index."""
    lang = args.lang
    if args.rule_id is not None:
        try:
            entry = rule(args.rule_id)
        except ValueError:
            raise UsageError(phrase("no_rule", lang, id=shown(args.rule_id),
                                    ids=id_ranges())) from None  # fmt: skip
        print(f"{entry.id} {entry.title_in(lang)}")
        print(_text(entry, lang))
        return 0
    print(phrase("rules_title", lang))
    for letter in SECTIONS:
        print(f"\n{section_title(letter, lang)}")
        for entry in rules(letter):
            print(f"  {entry.id:<3} {entry.title_in(lang)}")
            if args.all:
                print(_text(entry, lang, "      "))
    return 0


def _text(entry: Rule, lang: str, indent: str = "  ") -> str:
    return textwrap.fill(entry.text(lang), width=92, initial_indent=indent,
                         subsequent_indent=indent)  # fmt: skip
