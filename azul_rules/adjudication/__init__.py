"""Adjudication: judging what happened at a real table after the fact.

``claims`` reads what a player says a move or a round scored, ``auditing`` checks a claim,
a round or a whole game (``audit_game``) against the rules and names each wrong figure,
``scoresheet`` checks a written score sheet, and ``miscount`` tells which tile-count
mistake a physical take made.

May import: ``azul_rules.formats`` and ``azul_rules.core``.
"""
