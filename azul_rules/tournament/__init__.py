"""Refereed tournaments and self-play at scale: bots against bots, every seat order, many
deals, every move judged by the referee; in this process, a pool of processes, or a Ray
cluster.  See ``docs/tournament.md``.

>>> from azul_rules.tournament import run
>>> results = run(["greedy", "random"], games=4, seed=1)
>>> [(b.name, b.games, b.seats) for b in results.bots]
[('greedy', 4, (2, 2)), ('random', 4, (2, 2))]
>>> results.ends
{'finished': 4, 'forfeit': 0, 'unfinished': 0}

Layer: beside the web judge and the reference engine, under the command line.  May
import ``testing``, the AI adapters, ``svg``, ``adjudication``, ``formats`` and ``core``.
"""

from azul_rules.core.bots import Bot, BotFactory, BotSpecError, bot_factory, build_bot, seat_seed
from azul_rules.tournament.backends import BACKENDS, Lost
from azul_rules.tournament.cluster import RayClusterError, check_ray_address
from azul_rules.tournament.lines import load_record
from azul_rules.tournament.referee import Forfeit, GameDone, GameSummary, play_game
from azul_rules.tournament.runner import Results, run
from azul_rules.tournament.schedule import GameSpec, cycle_length, deal_seed, game_spec, lineup
from azul_rules.tournament.settings import Entrant, Settings, TournamentError
from azul_rules.tournament.stats import BotStats, Rating, bradley_terry, wilson_interval

__all__ = [
    "BACKENDS",
    "Bot",
    "BotFactory",
    "BotSpecError",
    "BotStats",
    "Entrant",
    "Forfeit",
    "GameDone",
    "GameSpec",
    "GameSummary",
    "Lost",
    "Rating",
    "RayClusterError",
    "Results",
    "Settings",
    "TournamentError",
    "bot_factory",
    "bradley_terry",
    "build_bot",
    "check_ray_address",
    "cycle_length",
    "deal_seed",
    "game_spec",
    "lineup",
    "load_record",
    "play_game",
    "run",
    "seat_seed",
    "wilson_interval",
]
