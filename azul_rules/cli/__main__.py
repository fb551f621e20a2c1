"""``python -m azul_rules.cli``: the same as the ``azul-rules`` command."""

from azul_rules.cli import run

if __name__ == "__main__":
    run()
