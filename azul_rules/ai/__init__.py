"""The AI adapters: the batch engine for the CPU (:mod:`azul_rules.ai.vector`).

The framework adapters (``azul_rules.actions``, ``.spiel``, ``.pettingzoo``, ``.pgx``)
keep their places until the house issue moves them here.  Nothing is imported here:
each adapter is imported by name, and brings only what it needs (numpy for ``vector``).
"""
