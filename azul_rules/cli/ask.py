"""``azul-rules ask "QUESTION"``: a question in words, answered by the rules that settle
it, best first (:func:`azul_rules.ask`); ``--json`` prints what ``GET /api/v1/ask``
answers."""

from __future__ import annotations

import argparse
import textwrap

from azul_rules.cli._common import Commands, UsageError, add_json, add_lang
from azul_rules.cli._outputs import print_json
from azul_rules.core.ask import MAX_QUESTION, Answer, ask
from azul_rules.core.messages import phrase

__all__ = ["NAME", "register", "run"]

NAME = "ask"


def register(commands: Commands) -> None:
    """Add ``ask`` and its options to ``commands``."""
    asking = commands.add_parser(
        NAME, help="a question in words, answered by the rules that settle it"
    )
    asking.add_argument(
        "question", metavar="QUESTION",
        help=f"the question as you would ask it at the table, at most {MAX_QUESTION} "
        "characters (quote it)",
    )  # fmt: skip
    add_lang(asking)
    add_json(asking)


def run(args: argparse.Namespace) -> int:
    """Print the answers, best first: 0; none (no word of the book in the question): 1;
    a question over the bound: one line, exit 2."""
    lang = args.lang
    question = args.question
    if len(question) > MAX_QUESTION:
        raise UsageError(phrase("ask_too_long", lang, count=len(question), limit=MAX_QUESTION))
    answers = ask(question, lang)
    if args.json:
        print_json({"lang": lang, "question": question,
                    "answers": [a.to_dict() for a in answers]})  # fmt: skip
        return 0 if answers else 1
    if not answers:
        print(phrase("ask_none", lang))
        return 1
    for number, answer in enumerate(answers, 1):
        if number > 1:
            print()
        _print(number, answer, lang)
    return 0


def _print(number: int, answer: Answer, lang: str) -> None:
    ruling = f" ({phrase('ask_ruling', lang)})" if answer.ruling else ""
    print(f"{number}. {answer.rule} {answer.title}{ruling}")
    print(_wrapped(answer.text))
    if answer.example is not None:
        print(_wrapped(f"{phrase('ask_example', lang)} {answer.example}"))
    if answer.link is not None:
        print(_wrapped(phrase("ask_link", lang, link=answer.link)))


def _wrapped(text: str) -> str:
    return textwrap.fill(text, width=92, initial_indent="   ", subsequent_indent="   ",
                         break_long_words=False, break_on_hyphens=False)  # fmt: skip
