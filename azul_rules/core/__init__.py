"""The core: the values, the rules and the immutable game state, with its compiled version.

Everything the referee needs to answer "is this move legal, and what does it do" lives
here and nowhere else: the tile colours and the error codes (``colors``, ``codes``), the
boards, moves and phases, the scoring (W3, F1-F4, E2), the grey wall (V1-V5), the round's
end (R1-R7), the checks of a position (``problems``), ``GameState`` itself, the seeded
generator, the words of the verdicts (``messages``, ``rulebook``, ``render``: their
phrases come from the catalogues of ``azul_rules.text``), a question in words answered
from the rule book (``ask``) and the built-in bots.
``_engine/`` is the rules engine in plain C (a position as a struct of counts and bit
masks, one file per part of the rules) with its CPython face, compiled into
``_compiled``: the compiled version of the hot functions (it holds no phrase); the Python code is
the reference (``_accelerate`` says which functions have a compiled version and how a rule changes
in both).

May import: ``azul_rules.text``, the standard library, attrs and cattrs.  Nothing above
it (``formats``, ``adjudication``, ``svg``, the AI adapters, ``testing``, ``tournament``,
``web``, ``cli``) --
with one exception kept lazy, ``GameState._repr_svg_``, which draws with ``azul_rules.svg``
when a notebook asks for the picture.  The import-linter contracts in ``pyproject.toml``
enforce it.
"""
