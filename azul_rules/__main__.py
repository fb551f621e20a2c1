"""``python -m azul_rules``: the same as the ``azul-rules`` command."""

from azul_rules.cli import run

run()
