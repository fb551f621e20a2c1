"""The AI adapters: Azul for AI frameworks, each module behind its extra.

* :mod:`azul_rules.ai.actions`: moves as integer ids, positions as float vectors, the
  returns; what every adapter shares (no extra).
* :mod:`azul_rules.ai.spiel`: the OpenSpiel game ``python_azul`` (``openspiel``), with
  :mod:`azul_rules.ai.deals`, a factory's fill as OpenSpiel's chance outcomes.
* :mod:`azul_rules.ai.pettingzoo`: a PettingZoo AEC environment (``pettingzoo``).
* :mod:`azul_rules.ai.pgx`: Azul as a JAX-native ``pgx.Env`` (``pgx``).
* :mod:`azul_rules.ai.vector`: the batch engine for the CPU, many games in the compiled
  engine stepped with numpy arrays (``vector``).

Nothing is imported here: each adapter is imported by name and brings only what it
needs.  The old paths (``azul_rules.actions``, ``.spiel``, ``.pettingzoo``, ``.pgx``,
``azul_rules.core.deals``) still import, with a ``DeprecationWarning``, until the next
release.
"""
