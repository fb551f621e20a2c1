"""The message catalogue: one English and one French template per error code.

Templates use the game's own words (factory / fabrique, centre, pattern line / ligne de
préparation, wall / mur, floor line / plancher, lid / couvercle, starting player marker /
marqueur premier joueur).  Violations store raw figures (0-based indices, colours); this
module turns them into words, numbering from 1 as players do at the table.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Final

from azul_rules.core.codes import ErrorCode, StateProblem
from azul_rules.core.colors import CENTER, FLOOR, Color
from azul_rules.core.shown import fill, number, shown

__all__ = ["LANGUAGES", "PROBLEM_TEMPLATES", "TEMPLATES", "render", "render_problem"]

LANGUAGES: Final = ("en", "fr")

_COLOR_NAMES: Final = {
    "en": ("blue", "yellow", "red", "black", "white"),
    "fr": ("bleue", "jaune", "rouge", "noire", "blanche"),
}
_AND: Final = {"en": "and", "fr": "et"}
_PHASES: Final = {
    "en": {
        "factory_offer": "factory offer",
        "wall_tiling": "wall tiling",
        "refill": "refill",
        "game_over": "game over",
    },
    "fr": {
        "factory_offer": "offre des fabriques",
        "wall_tiling": "décoration du mur",
        "refill": "préparation de la manche",
        "game_over": "fin de partie",
    },
}
_KINDS: Final = {
    "en": {
        "take": "take",
        "table_take": "table take",
        "refill": "refill",
        "place_tile": "wall placement",
    },
    "fr": {
        "take": "prise",
        "table_take": "prise à la table",
        "refill": "remplissage",
        "place_tile": "pose au mur",
    },
}


def _source(value: object, lang: str) -> str:
    if value == CENTER:
        return "the centre" if lang == "en" else "le centre"
    shown = _one_based(value, lang)
    return f"factory {shown}" if lang == "en" else f"la fabrique {shown}"


def _line(value: object, lang: str) -> str:
    if value == FLOOR:
        return "the floor line" if lang == "en" else "le plancher"
    shown = _one_based(value, lang)
    return f"pattern line {shown}" if lang == "en" else f"la ligne de préparation {shown}"


def _color(value: object, lang: str) -> str:
    if isinstance(value, Color):
        return _COLOR_NAMES[lang][value]
    return "the marker" if lang == "en" else "le marqueur"


def _join(items: list[str], lang: str) -> str:
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} {_AND[lang]} {items[-1]}"


def _one_based(value: object, lang: str) -> str:
    """A 0-based index as players count, from 1 (hostile input may give 10**5000: it is
    then said to be a long number, in brackets)."""
    if not isinstance(value, int):
        return str(value)
    shown = number(int(value) + 1, lang)
    return shown if shown[-1].isdigit() else f"({shown})"


def _lines(value: object, lang: str) -> str:
    assert isinstance(value, tuple)
    return _join([_one_based(v, lang) for v in value], lang)


def _colors(value: object, lang: str) -> str:
    assert isinstance(value, tuple)
    return _join([_color(v, lang) for v in value], lang)


def _phase(value: object, lang: str) -> str:
    return _PHASES[lang].get(str(value), str(value))


def _players(value: object, lang: str) -> str:
    assert isinstance(value, tuple)
    word = "player" if lang == "en" else "joueur"
    return _join([f"{word} {int(v) + 1}" for v in value], lang) or "-"


def _kind(value: object, lang: str) -> str:
    return _KINDS[lang].get(str(value), str(value))


_FORMATTERS: Final[Mapping[str, Callable[[object, str], str]]] = {
    "player": _one_based,
    "current": _one_based,
    "row": _one_based,
    "column": _one_based,
    "source": _source,
    "line": _line,
    "next": _line,
    "color": _color,
    "line_color": _color,
    "space_color": _color,
    "covered": _color,
    "correct_row": _one_based,
    "correct_column": _one_based,
    "lines": _lines,
    "colors": _colors,
    "phase": _phase,
    "kind": _kind,
    "factory": _source,
    "claimed_players": _players,
    "correct_players": _players,
}

# Keys are codes, or "CODE/reason" when one code has several wordings.
TEMPLATES: Final[Mapping[str, Mapping[str, str]]] = {
    "PARTIAL_TAKE": {
        "en": "{count} of the {available} {color} tiles of {source} {count:was|were} taken: "
        "every tile of the chosen colour must be taken",
        "fr": "{count} des {available} carreaux de couleur {color} de {source} {count:a|ont} "
        "été pris : "
        "il faut prendre tous les carreaux de la couleur choisie",
    },
    "SPLIT_LOT": {
        "en": "the lot was spread over pattern lines {lines}: it goes into one pattern line "
        "(the excess to the floor line) or entirely to the floor line",
        "fr": "le lot a été réparti sur les lignes de préparation {lines} : il va dans une seule "
        "ligne de préparation (l'excédent au plancher) ou entièrement au plancher",
    },
    "WALL_COLOR_CONFLICT": {
        "en": "row {row} of the wall already holds {color}: {color} cannot go into {line}",
        "fr": "la rangée {row} du mur contient déjà la couleur {color} : cette couleur ne peut "
        "pas aller dans {line}",
    },
    "INCOMPLETE_LINE_CLEARED": {
        "en": "player {player}'s {line} is incomplete ({count} of {capacity}): it keeps its "
        "tiles for the next round",
        "fr": "{line} du joueur {player} est incomplète ({count} sur {capacity}) : elle garde "
        "ses carreaux pour la manche suivante",
    },
    "DIAGONAL_COUNTED": {
        "en": "player {player} claims {claimed} where the rules give {correct}: diagonal "
        "neighbours were counted, but only horizontal and vertical runs score",
        "fr": "le joueur {player} annonce {claimed} au lieu de {correct} : les voisins en "
        "diagonale ont été comptés, or seules les lignes horizontales et verticales comptent",
    },
    "GAP_COUNTED": {
        "en": "player {player} claims {claimed} where the rules give {correct}: tiles beyond "
        "an empty space were counted, but an empty space ends a run",
        "fr": "le joueur {player} annonce {claimed} au lieu de {correct} : des carreaux au-delà "
        "d'une case vide ont été comptés, or une case vide interrompt la ligne",
    },
    "MARKER_PENALTY_FORGOTTEN": {
        "en": "player {player} claims {claimed} where the rules give {correct}: the starting "
        "player marker occupies a floor space and is penalised by it",
        "fr": "le joueur {player} annonce {claimed} au lieu de {correct} : le marqueur premier "
        "joueur occupe une place du plancher et en subit la pénalité",
    },
    "GAME_ENDED_EARLY": {
        "en": "the game was stopped before every player's wall tiling and floor line: it ends "
        "only after the whole round's tiling",
        "fr": "la partie a été arrêtée avant la décoration du mur et le plancher de chaque "
        "joueur : elle ne finit qu'après la décoration de toute la manche",
    },
    "GAME_OVER": {
        "en": "the game is over: no move can be made",
        "fr": "la partie est terminée : aucun coup n'est possible",
    },
    "WRONG_PHASE": {
        "en": "a {kind} move is not accepted during the {phase} phase",
        "fr": "un coup de type {kind} n'est pas accepté pendant la phase {phase}",
    },
    "NOT_YOUR_TURN": {
        "en": "it is player {current}'s turn, not player {player}'s",
        "fr": "c'est au joueur {current} de jouer, pas au joueur {player}",
    },
    "NO_SUCH_SOURCE": {
        "en": "there is no {source}: this table has factories 1 to {factories} and the centre",
        "fr": "{source} n'existe pas : cette table a les fabriques 1 à {factories} et le centre",
    },
    "EMPTY_SOURCE": {
        "en": "{source} holds no tile",
        "fr": "{source} ne contient aucun carreau",
    },
    "COLOR_NOT_IN_SOURCE": {
        "en": "{source} holds no {color} tile",
        "fr": "{source} ne contient aucun carreau de couleur {color}",
    },
    "TOO_MANY_TAKEN": {
        "en": "{count} {color} {count:tile was|tiles were} claimed from {source}, which holds "
        "only {available}",
        "fr": "{count} {count:carreau|carreaux} de couleur {color} {count:a été annoncé pris|ont "
        "été annoncés pris} sur {source}, qui n'en contient que {available}",
    },
    "TWO_COLORS": {
        "en": "tiles of {colors} were taken in one turn: a turn takes one colour",
        "fr": "des carreaux de couleurs {colors} ont été pris au même tour : un tour ne prend "
        "qu'une couleur",
    },
    "MARKER_ALONE": {
        "en": "the starting player marker is not a colour: it cannot be taken on its own",
        "fr": "le marqueur premier joueur n'est pas une couleur : il ne peut pas être pris seul",
    },
    "WRONG_PHASE/incomplete_line": {
        "en": "{line} is not complete ({count} of {capacity}): only complete lines are tiled",
        "fr": "{line} n'est pas complète ({count} sur {capacity}) : seules les lignes "
        "complètes vont au mur",
    },
    "WRONG_PHASE/not_next_line": {
        "en": "{line} is not the next to tile: {next} comes first (lines are tiled from "
        "top to bottom)",
        "fr": "{line} n'est pas la suivante à poser : {next} passe d'abord (les lignes se "
        "posent de haut en bas)",
    },
    "NO_SUCH_LINE/column": {
        "en": "there is no wall column {column}: columns are 1 to 5",
        "fr": "la colonne {column} du mur n'existe pas : les colonnes vont de 1 à 5",
    },
    "NO_SUCH_LINE": {
        "en": "there is no {line}: pattern lines are 1 to 5, or the floor line",
        "fr": "{line} n'existe pas : les lignes de préparation vont de 1 à 5, ou le plancher",
    },
    "LINE_COLOR_MISMATCH": {
        "en": "{line} already holds {line_color} tiles: {color} cannot be added to it",
        "fr": "{line} contient déjà des carreaux de couleur {line_color} : on ne peut pas y "
        "ajouter la couleur {color}",
    },
    "LINE_FULL": {
        "en": "{line} has room for {room} more {room:tile|tiles}: {count} cannot be put there",
        "fr": "{line} n'a de place que pour {room} {room:carreau|carreaux} de plus : on ne peut "
        "pas y en mettre {count}",
    },
    "LINE_FULL/complete": {
        "en": "{line} is complete: it accepts no more tiles",
        "fr": "{line} est complète : elle n'accepte plus aucun carreau",
    },
    "FLOOR_WHILE_ROOM": {
        "en": "{floor} {floor:tile|tiles} went to the floor line while {line} still had room "
        "for {room}",
        "fr": "{floor} {floor:carreau est allé|carreaux sont allés} au plancher alors que {line} "
        "avait encore {room} {room:place|places}",
    },
    "TILE_COUNT_MISMATCH": {
        "en": "{taken} {taken:tile was|tiles were} taken but {placed} {placed:was|were} placed",
        "fr": "{taken} {taken:carreau a été pris|carreaux ont été pris} mais {placed} "
        "{placed:a été posé|ont été posés}",
    },
    "COLUMN_COLOR_CONFLICT": {
        "en": "column {column} of the wall already holds {color}",
        "fr": "la colonne {column} du mur contient déjà la couleur {color}",
    },
    "SPACE_OCCUPIED": {
        "en": "the wall space at row {row}, column {column} is already taken",
        "fr": "la case du mur en rangée {row}, colonne {column} est déjà occupée",
    },
    "NOT_WALL_COLOR_SPACE": {
        "en": "a {color} tile lies at row {row}, column {column} of the coloured wall, "
        "whose space is {space_color}",
        "fr": "un carreau de couleur {color} est en rangée {row}, colonne {column} du mur "
        "coloré, dont la case est de couleur {space_color}",
    },
    "FILL_IMPOSSIBLE/too_many": {
        "en": "{source} shows {count} {count:tile|tiles}: a factory holds at most 4",
        "fr": "{source} montre {count} {count:carreau|carreaux} : une fabrique en contient au "
        "plus 4",
    },
    "FILL_IMPOSSIBLE/factory_count": {
        "en": "{count} {count:factory was|factories were} described: this table has "
        "{factories}",
        "fr": "{count} {count:fabrique a été décrite|fabriques ont été décrites} : cette table "
        "en a {factories}",
    },
    "FILL_IMPOSSIBLE/short": {
        "en": "{source} shows {count} {count:tile|tiles} while {remaining} {remaining:tile "
        "was|tiles were} left to draw: factories are filled with 4 tiles, in order, while "
        "tiles remain",
        "fr": "{source} montre {count} {count:carreau|carreaux} alors qu'il restait {remaining} "
        "{remaining:carreau|carreaux} à tirer : les fabriques se remplissent de 4 carreaux, "
        "dans l'ordre, tant qu'il en reste",
    },
    "FILL_IMPOSSIBLE/color": {
        "en": "{seen} {color} {seen:tile was|tiles were} drawn, but the bag and lid could only "
        "give {available}",
        "fr": "{seen} {seen:carreau|carreaux} de couleur {color} {seen:a été tiré|ont été tirés}"
        ", mais le sac et le couvercle ne pouvaient en donner que {available}",
    },
    "FILL_IMPOSSIBLE/lid_before_bag": {
        "en": "{color} tiles from the lid were seen before the bag ran out: the lid is poured "
        "into the bag only when the bag is empty",
        "fr": "des carreaux de couleur {color} du couvercle sont apparus avant que le sac soit "
        "vide : le couvercle n'est versé dans le sac que lorsque celui-ci est vide",
    },
    "EMPTY_DIRECTION_COUNTED": {
        "en": "player {player} claims {claimed} where the rules give {correct}: a point was "
        "added for a direction with no neighbour",
        "fr": "le joueur {player} annonce {claimed} au lieu de {correct} : un point a été "
        "ajouté pour une direction sans voisin",
    },
    "CROSS_COUNTED_ONCE": {
        "en": "player {player} claims {claimed} where the rules give {correct}: the new tile "
        "counts in both its horizontal and its vertical run",
        "fr": "le joueur {player} annonce {claimed} au lieu de {correct} : le nouveau carreau "
        "compte dans sa ligne horizontale et dans sa ligne verticale",
    },
    "SCORE_MISCOUNT": {
        "en": "player {player} claims {claimed} where the rules give {correct}",
        "fr": "le joueur {player} annonce {claimed} au lieu de {correct}",
    },
    "FLOOR_OVERFLOW_PENALIZED": {
        "en": "player {player} claims {claimed} where the rules give {correct}: tiles beyond "
        "the 7 floor spaces go to the lid and cost nothing",
        "fr": "le joueur {player} annonce {claimed} au lieu de {correct} : les carreaux "
        "au-delà des 7 places du plancher vont au couvercle sans pénalité",
    },
    "SCORE_BELOW_ZERO": {
        "en": "player {player} claims {claimed} where the rules give {correct}: a score never "
        "drops below 0",
        "fr": "le joueur {player} annonce {claimed} au lieu de {correct} : un score ne descend "
        "jamais sous 0",
    },
    "BONUS_MISCOUNT": {
        "en": "player {player} claims end bonuses of {claimed} where the rules give {correct}",
        "fr": "le joueur {player} annonce des bonus de fin de {claimed} au lieu de {correct}",
    },
    "WRONG_WINNER": {
        "en": "the claimed winners are {claimed_players}; the scores and the tie-break give "
        "{correct_players}",
        "fr": "les gagnants annoncés sont {claimed_players} ; les scores et le départage "
        "donnent {correct_players}",
    },
    "DIAGONAL_COUNTED/tile": {
        "en": "player {player}'s {color} tile at row {row}, column {column} scores {correct} "
        "(runs of {horizontal} across and {vertical} down), not {claimed} ({counted}): diagonal "
        "neighbours never count",
        "fr": "le carreau de couleur {color} "
        "du joueur {player} en rangée {row}, colonne {column} vaut "
        "{correct} (lignes de {horizontal} en horizontale et {vertical} en verticale), pas "
        "{claimed} ({counted}) : les voisins en diagonale ne comptent jamais",
    },
    "GAP_COUNTED/tile": {
        "en": "player {player}'s {color} tile at row {row}, column {column} scores {correct} "
        "(runs of {horizontal} across and {vertical} down), not {claimed} ({counted}): an empty "
        "space "
        "ends a run",
        "fr": "le carreau de couleur {color} "
        "du joueur {player} en rangée {row}, colonne {column} vaut "
        "{correct} (lignes de {horizontal} en horizontale et {vertical} en verticale), pas "
        "{claimed} ({counted}) : une case vide interrompt la ligne",
    },
    "EMPTY_DIRECTION_COUNTED/tile": {
        "en": "player {player}'s {color} tile at row {row}, column {column} scores {correct} "
        "(runs of {horizontal} across and {vertical} down), not {claimed} ({counted}): a "
        "direction with "
        "no neighbour adds nothing",
        "fr": "le carreau de couleur {color} "
        "du joueur {player} en rangée {row}, colonne {column} vaut "
        "{correct} (lignes de {horizontal} en horizontale et {vertical} en verticale), pas "
        "{claimed} ({counted}) : une direction sans voisin n'ajoute rien",
    },
    "CROSS_COUNTED_ONCE/tile": {
        "en": "player {player}'s {color} tile at row {row}, column {column} scores {correct} "
        "({horizontal} across + {vertical} down), not {claimed} ({counted}): the new tile counts "
        "in both "
        "runs",
        "fr": "le carreau de couleur {color} "
        "du joueur {player} en rangée {row}, colonne {column} vaut "
        "{correct} ({horizontal} en horizontale + {vertical} en verticale), pas {claimed} "
        "({counted}) : "
        "le nouveau carreau compte dans les deux lignes",
    },
    "MARKER_PENALTY_FORGOTTEN/floor": {
        "en": "player {player}'s floor line costs {correct}, not {claimed}: the starting "
        "player marker occupies a space and is penalised by it",
        "fr": "le plancher du joueur {player} coûte {correct}, pas {claimed} : le marqueur "
        "premier joueur occupe une place et en subit la pénalité",
    },
    "FLOOR_OVERFLOW_PENALIZED/floor": {
        "en": "player {player}'s floor line costs {correct}, not {claimed}: tiles beyond the "
        "7 spaces go to the lid and cost nothing",
        "fr": "le plancher du joueur {player} coûte {correct}, pas {claimed} : les carreaux "
        "au-delà des 7 places vont au couvercle sans pénalité",
    },
    "GAME_ENDED_EARLY/skipped": {
        "en": "player {player} claims {claimed}, their score before the tiling, where the "
        "rules give {correct}: every player finishes the round's tiling and floor line "
        "before the game ends",
        "fr": "le joueur {player} annonce {claimed}, son score d'avant la décoration, au lieu "
        "de {correct} : chaque joueur termine la décoration et le plancher de la manche "
        "avant la fin de la partie",
    },
    "INCOMPLETE_LINE_CLEARED/emptied": {
        "en": "player {player}'s {line} is incomplete ({count} of {capacity}): it keeps its "
        "tiles for the next round",
        "fr": "{line} du joueur {player} est incomplète ({count} sur {capacity}) : elle garde "
        "ses carreaux pour la manche suivante",
    },
    "INCOMPLETE_LINE_CLEARED/tiled": {
        "en": "player {player}'s {line} is incomplete ({count} of {capacity}), yet a {color} "
        "tile from it lies at row {row}, column {column} of the wall: only complete lines "
        "are tiled, the others keep their tiles",
        "fr": "{line} du joueur {player} est incomplète ({count} sur {capacity}), pourtant un "
        "carreau de couleur {color} "
        "en est posé en rangée {row}, colonne {column} du mur : seules les "
        "lignes complètes passent au mur, les autres gardent leurs carreaux",
    },
    "NOT_WALL_COLOR_SPACE/tiling": {
        "en": "player {player}'s {color} tile from {line} lies at row {row}, column {column}, "
        "a {space_color} space: on the coloured wall it goes to the {color} space of its row, "
        "column {correct_column}",
        "fr": "le carreau de couleur {color} "
        "de {line} du joueur {player} est en rangée {row}, colonne "
        "{column}, une case {space_color} : sur le mur coloré, il va sur la case {color} de "
        "sa rangée, colonne {correct_column}",
    },
    "NOT_WALL_COLOR_SPACE/wrong_row": {
        "en": "player {player}'s {color} tile from {line} lies in wall row {row} (column "
        "{column}): a complete line's tile goes to the wall row beside it, row {correct_row}",
        "fr": "le carreau de couleur {color} "
        "de {line} du joueur {player} est dans la rangée {row} du "
        "mur (colonne {column}) : le carreau d'une ligne complète va dans la rangée du mur "
        "à sa hauteur, la rangée {correct_row}",
    },
    "WALL_COLOR_CONFLICT/twice_in_row": {
        "en": "player {player}'s wall row {row} shows {color} twice (a new tile at column "
        "{column}): a colour appears once in each row",
        "fr": "la rangée {row} du mur du joueur {player} montre deux fois la couleur {color} "
        "(un nouveau carreau en colonne {column}) : chaque couleur figure une fois par rangée",
    },
    "SPACE_OCCUPIED/tiling": {
        "en": "player {player}'s {color} tile from {line} was put at row {row}, column "
        "{column}, on a space already holding a {covered} tile",
        "fr": "le carreau de couleur {color} "
        "de {line} du joueur {player} a été posé en rangée {row}, "
        "colonne {column}, sur une case qui porte déjà un carreau de couleur {covered}",
    },
    "SPACE_OCCUPIED/no_space": {
        "en": "player {player}'s {color} tile from {line} was put at row {row}, column "
        "{column}, on a space already holding a {covered} tile; no space of row {row} could "
        "take {color}, so {count:the|all} {count} {count:tile|tiles} of the line "
        "{count:goes|go} to the floor line",
        "fr": "le carreau de couleur {color} "
        "de {line} du joueur {player} a été posé en rangée {row}, "
        "colonne {column}, sur une case qui porte déjà un carreau de couleur {covered} "
        "; aucune case de "
        "la rangée {row} ne pouvait recevoir cette couleur, {count:le|les} {count} "
        "{count:carreau|carreaux} de la ligne {count:va|vont} donc au plancher",
    },
    "COLUMN_COLOR_CONFLICT/tiling": {
        "en": "player {player}'s {color} tile from {line} was put in column {column}, which "
        "already holds {color}: a colour appears once in each column",
        "fr": "le carreau de couleur {color} "
        "de {line} du joueur {player} a été posé dans la colonne "
        "{column}, qui contient déjà cette couleur : chaque couleur figure une fois par "
        "colonne",
    },
    "COLUMN_COLOR_CONFLICT/no_space": {
        "en": "player {player}'s {color} tile from {line} was put in column {column}, which "
        "already holds {color}; no space of row {row} could take {color}, so {count:the|all} "
        "{count} {count:tile|tiles} of the line {count:goes|go} to the floor line",
        "fr": "le carreau de couleur {color} "
        "de {line} du joueur {player} a été posé dans la colonne "
        "{column}, qui contient déjà cette couleur ; aucune case de la rangée {row} ne "
        "pouvait la recevoir, {count:le|les} {count} {count:carreau|carreaux} de la ligne "
        "{count:va|vont} donc au plancher",
    },
    "WRONG_PHASE/untiled": {
        "en": "player {player}'s {line} is complete ({color}) but none of its tiles reached "
        "the wall: every complete line moves a tile to the wall during the tiling",
        "fr": "{line} du joueur {player} est complète ({color}) mais aucun de ses carreaux "
        "n'est passé au mur : chaque ligne complète envoie un carreau au mur pendant la "
        "décoration",
    },
    "WRONG_PHASE/kept": {
        "en": "player {player}'s {line} had no legal space for {color}, yet {count} of its "
        "tiles stayed in the line: all its tiles go to the floor line",
        "fr": "{line} du joueur {player} n'avait aucune case possible pour la couleur {color}, "
        "pourtant {count} de ses carreaux {count:est resté|sont restés} dans la ligne : tous "
        "vont au plancher",
    },
    "TILE_COUNT_MISMATCH/leftovers": {
        "en": "player {player}'s {line} still holds {count} {count:tile|tiles} after the "
        "tiling: a "
        "complete line sends one tile to the wall and the others to the lid",
        "fr": "{line} du joueur {player} contient encore {count} {count:carreau|carreaux} "
        "après la "
        "décoration : une ligne complète envoie un carreau au mur et les autres au couvercle",
    },
    "TILE_COUNT_MISMATCH/floor": {
        "en": "player {player}'s floor line still holds {count} {count:piece|pieces} after the "
        "tiling: "
        "its tiles go to the lid and the marker to its holder",
        "fr": "le plancher du joueur {player} contient encore {count} {count:pièce|pièces} "
        "après la "
        "décoration : ses carreaux vont au couvercle et le marqueur à son détenteur",
    },
    "TILE_COUNT_MISMATCH/appeared": {
        "en": "a {color} tile lies at row {row}, column {column} of player {player}'s wall, "
        "but no pattern line of theirs could have given it",
        "fr": "un carreau de couleur {color} "
        "est en rangée {row}, colonne {column} du mur du joueur "
        "{player}, mais aucune de ses lignes de préparation ne pouvait le fournir",
    },
    "TILE_COUNT_MISMATCH/removed": {
        "en": "the {color} tile at row {row}, column {column} of player {player}'s wall is "
        "gone: tiles stay on the wall until the end of the game",
        "fr": "le carreau de couleur {color} "
        "en rangée {row}, colonne {column} du mur du joueur {player} "
        "a disparu : les carreaux restent au mur jusqu'à la fin de la partie",
    },
    "TILE_COUNT_MISMATCH/line_changed": {
        "en": "player {player}'s {line} holds tiles it did not hold before the tiling: the "
        "tiling only takes tiles out of complete lines",
        "fr": "{line} du joueur {player} contient des carreaux qu'elle n'avait pas avant la "
        "décoration : la décoration ne fait que vider les lignes complètes",
    },
    "TILE_COUNT_MISMATCH/lid": {
        "en": "the lid was counted with {claimed} {claimed:tile|tiles} where the tiling leaves "
        "{correct} "
        "there (wrong count of {colors})",
        "fr": "le couvercle a été compté avec {claimed} {claimed:carreau|carreaux} alors que la "
        "décoration y en "
        "laisse {correct} (compte faux pour : {colors})",
    },
    "GAME_OVER/continued": {
        "en": "the game ends after this tiling (a wall row is complete, or none can be "
        "completed any more): no new round is dealt",
        "fr": "la partie se termine après cette décoration (une rangée du mur est complète, "
        "ou plus aucune ne peut l'être) : aucune nouvelle manche n'est distribuée",
    },
    "SCORE_MISCOUNT/final": {
        "en": "player {player} wrote a final total of {claimed} where their last round and "
        "end bonuses give {correct}",
        "fr": "le joueur {player} a écrit un total final de {claimed} alors que sa dernière "
        "manche et ses bonus de fin donnent {correct}",
    },
    "GAME_ENDED_EARLY/no_row": {
        "en": "the game does not end: no wall row is complete after this tiling",
        "fr": "la partie ne se termine pas : aucune rangée du mur n'est complète après cette "
        "décoration",
    },
}


# Why a position cannot exist (``StateProblem``), keyed like TEMPLATES.
PROBLEM_TEMPLATES: Final[Mapping[str, Mapping[str, str]]] = {
    "PLAYER_COUNT": {
        "en": "{count} {count:player|players}: Azul has 2 to 4",
        "fr": "{count} {count:joueur|joueurs} : Azul se joue à 2, 3 ou 4",
    },
    "FACTORY_COUNT": {
        "en": "{count} {count:factory|factories}: {players} players play with {expected}",
        "fr": "{count} {count:fabrique|fabriques} : à {players} joueurs, on joue avec "
        "{expected}",
    },
    "FACTORY_OVERFULL": {
        "en": "{factory} holds {count} {count:tile|tiles}: at most 4",
        "fr": "{factory} contient {count} {count:carreau|carreaux} : au plus 4",
    },
    "TILE_COUNT": {
        "en": "{count} {color} {count:tile|tiles} in all: the game has 20 of each colour",
        "fr": "{count} {count:carreau|carreaux} de couleur {color} en tout : le jeu en compte 20 "
        "de chaque couleur",
    },
    "NEGATIVE_SCORE": {
        "en": "score {score} < 0",
        "fr": "score {score} < 0 : un score n'est jamais négatif",
    },
    "LINE_OVER_CAPACITY": {
        "en": "{line} holds {count} {count:tile|tiles}: it has {capacity} "
        "{capacity:space|spaces}",
        "fr": "{line} contient {count} {count:carreau|carreaux} : elle n'a que {capacity} "
        "{capacity:place|places}",
    },
    "LINE_MIXED_COLORS": {
        "en": "{line} mixes colours",
        "fr": "{line} mélange plusieurs couleurs",
    },
    "LINE_COLOR_ON_WALL": {
        "en": "{line} holds {color}, already on wall row {row}",
        "fr": "{line} contient la couleur {color}, déjà présente dans la rangée {row} du mur",
    },
    "ROW_REPEATED_COLOR": {
        "en": "wall row {row} holds a colour twice",
        "fr": "la rangée {row} du mur contient deux fois la même couleur",
    },
    "WALL_TILE_OFF_COLOR": {
        "en": "a {color} tile on the {space_color} space of the coloured wall",
        "fr": "un carreau de couleur {color} sur la case {space_color} du mur coloré",
    },
    "COLUMN_REPEATED_COLOR": {
        "en": "wall column {column} holds a colour twice",
        "fr": "la colonne {column} du mur contient deux fois la même couleur",
    },
    "FLOOR_TOO_LONG": {
        "en": "{count} {count:item|items} on a floor line of {spaces} {spaces:space|spaces}",
        "fr": "{count} {count:pièce|pièces} sur un plancher de {spaces} {spaces:place|places}",
    },
    "PLAYER_OUT_OF_RANGE": {
        "en": "no player {player}",
        "fr": "il n'y a pas de joueur {player}",
    },
    "MARKER_COUNT/too_many": {
        "en": "{count} {count:marker|markers} on the floors: one exists",
        "fr": "{count} {count:marqueur|marqueurs} premier joueur sur les planchers : il n'en "
        "existe qu'un",
    },
    "MARKER_COUNT/not_held": {
        "en": "the marker is on a floor but marker_holder says it is in the centre",
        "fr": "le marqueur premier joueur est sur un plancher, mais marker_holder le dit au "
        "centre",
    },
    "MARKER_COUNT/off_floor": {
        "en": "player {player} holds the marker but it is not on their floor (only a full "
        "floor leaves it off, F4)",
        "fr": "le joueur {player} détient le marqueur premier joueur, mais il n'est pas sur son "
        "plancher (seul un plancher plein le laisse dehors, F4)",
    },
    "MARKER_COUNT/between_rounds": {
        "en": "between rounds the marker is with the next starting player, not on a floor",
        "fr": "entre deux manches, le marqueur premier joueur est chez le prochain premier "
        "joueur, pas sur un plancher",
    },
    "PHASE_MISMATCH/offer_empty": {
        "en": "the factory offer cannot go on: no tile is left in the factories or the centre",
        "fr": "l'offre des fabriques ne peut pas continuer : il ne reste aucun carreau dans les "
        "fabriques ni au centre",
    },
    "PHASE_MISMATCH/tiles_left": {
        "en": "tiles lie in the factories or the centre during the {phase} phase",
        "fr": "des carreaux restent dans les fabriques ou au centre pendant la phase {phase}",
    },
    "PHASE_MISMATCH/colored_tiling": {
        "en": "the coloured wall never waits for a wall placement",
        "fr": "le mur coloré n'attend jamais de pose au mur",
    },
    "PHASE_MISMATCH/seeded_refill": {
        "en": "a seeded game fills its factories itself: it never waits for a refill "
        "(rng_state must be null with external draws)",
        "fr": "une partie avec graine remplit elle-même ses fabriques : elle n'attend jamais "
        "de remplissage (rng_state doit être null avec des tirages extérieurs)",
    },
    "PHASE_MISMATCH/tiled_late": {
        "en": "player {player} tiles before player {current} this round, but still has a "
        "complete pattern line",
        "fr": "le joueur {player} décore son mur avant le joueur {current} à cette manche, mais "
        "a encore une ligne de préparation complète",
    },
    "PHASE_MISMATCH/nothing_to_place": {
        "en": "player {player} is to place a tile on the wall, but has no complete pattern "
        "line",
        "fr": "le joueur {player} doit poser un carreau au mur, mais n'a aucune ligne de "
        "préparation complète",
    },
    "PHASE_MISMATCH/no_legal_space": {
        "en": "player {player}'s {line} has no legal wall space: it goes to the floor by "
        "itself, with nothing to decide",
        "fr": "{line} du joueur {player} n'a aucune case possible au mur : elle va d'elle-même "
        "au plancher, sans rien à décider",
    },
    "GAME_SHOULD_HAVE_ENDED/complete_row": {
        "en": "a wall has a complete row: the game ended after the tiling that completed it",
        "fr": "un mur a une rangée complète : la partie s'est terminée après la décoration "
        "qui l'a complétée",
    },
    "GAME_SHOULD_HAVE_ENDED/stuck": {
        "en": "no wall row of any player can ever be completed: the game ended after the "
        "tiling that made it so",
        "fr": "plus aucune rangée du mur d'aucun joueur ne peut être complétée : la partie "
        "s'est terminée après la décoration qui a mené là",
    },
    "FLOOR_NOT_CLEARED": {
        "en": "player {player}'s floor line holds tiles, but floors are emptied at the wall "
        "tiling",
        "fr": "le plancher du joueur {player} contient des carreaux, or les planchers sont "
        "vidés à la décoration du mur",
    },
    "LINE_NOT_TILED": {
        "en": "player {player}'s {line} is complete, but complete lines are tiled at the end "
        "of the round",
        "fr": "{line} du joueur {player} est complète, or les lignes complètes passent au mur "
        "à la fin de la manche",
    },
    "TOO_MANY_WALL_TILES": {
        "en": "player {player}'s wall holds {wall_tiles} {wall_tiles:tile|tiles}, but at most "
        "{allowed} can be placed by round {round} ({phase}): 5 per tiling",
        "fr": "le mur du joueur {player} contient {wall_tiles} {wall_tiles:carreau|carreaux}, "
        "mais {allowed} au plus {allowed:peut y être posé|peuvent y être posés} à la manche "
        "{round} ({phase}) : 5 par décoration",
    },
    "TOO_MANY_WALL_TILES/row": {
        "en": "row {row} of player {player}'s wall holds {wall_tiles} "
        "{wall_tiles:tile|tiles}, but at most {allowed} can be placed there by round "
        "{round} ({phase}): one per tiling, from pattern line {row}",
        "fr": "la rangée {row} du mur du joueur {player} contient {wall_tiles} "
        "{wall_tiles:carreau|carreaux}, mais {allowed} au plus {allowed:peut y être posé|"
        "peuvent y être posés} à la manche {round} ({phase}) : un par décoration, depuis la "
        "ligne de préparation {row}",
    },
    "TOO_MANY_WALL_TILES/waiting": {
        "en": "player {player}'s wall holds {wall_tiles} {wall_tiles:tile|tiles}, but at most "
        "{allowed} can be placed by round {round} ({phase}): 5 per tiling, less one per "
        "complete pattern line still waiting to be tiled this round ({waiting} here)",
        "fr": "le mur du joueur {player} contient {wall_tiles} {wall_tiles:carreau|carreaux}, "
        "mais {allowed} au plus {allowed:peut y être posé|peuvent y être posés} à la manche "
        "{round} ({phase}) : 5 par décoration, moins un par ligne de préparation complète "
        "qui attend encore d'être décorée à cette manche ({waiting} ici)",
    },
    "TOO_MANY_WALL_TILES/row_waiting": {
        "en": "row {row} of player {player}'s wall holds {wall_tiles} "
        "{wall_tiles:tile|tiles}, but at most {allowed} can be there by round {round} "
        "({phase}): pattern line {row} is complete and still waits to be tiled, so this "
        "round's tile of the row is not on the wall yet (one per tiling)",
        "fr": "la rangée {row} du mur du joueur {player} contient {wall_tiles} "
        "{wall_tiles:carreau|carreaux}, mais {allowed} au plus {allowed:peut y être|peuvent "
        "y être} à la manche {round} ({phase}) : la ligne de préparation {row} est complète "
        "et attend encore d'être décorée, donc le carreau de cette manche n'est pas encore "
        "posé dans la rangée (un par décoration)",
    },
}


def _fill(templates: Mapping[str, Mapping[str, str]], code: str, params: Mapping[str, object],
          lang: str) -> str:  # fmt: skip
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {shown(lang)}: choose one of {', '.join(LANGUAGES)}")
    reason = params.get("reason")
    key = f"{code}/{reason}" if reason is not None else code
    template = templates[key][lang]
    words = {name: _word(name, value, lang) for name, value in params.items()}
    return fill(template, lang, **words)


def _word(name: str, value: object, lang: str) -> object:
    """A figure of a message as words (``player`` 0 is ``1``, ``source`` -1 ``the
    centre``...); a count stays a number, for :func:`~azul_rules.core.shown.fill` to write and
    to choose the words it counts by."""
    if name in _FORMATTERS:
        return _FORMATTERS[name](value, lang)
    return value


def render(code: ErrorCode, params: dict[str, object], lang: str) -> str:
    """The message of ``code`` in ``lang``, its figures filled in from ``params``."""
    return _fill(TEMPLATES, code.value, params, lang)


def render_problem(code: StateProblem, params: Mapping[str, object], lang: str) -> str:
    """Why a position cannot exist (``code``) in ``lang``, its figures filled in from
    ``params`` (0-based indices, colours, counts; ``reason`` picks one of a code's
    wordings)."""
    return _fill(PROBLEM_TEMPLATES, code.value, params, lang)


# Words of the command line's own output (``show``, ``play``, ``replay``...), by key.
PHRASES: Final[Mapping[str, Mapping[str, str]]] = {
    "header": {
        "en": "Azul, {players} players, {variant} wall, round {round}, {phase}",
        "fr": "Azul, {players} joueurs, mur {variant}, manche {round}, {phase}",
    },
    "to_move": {"en": ", player {player} to move", "fr": ", au joueur {player} de jouer"},
    "factory": {"en": "  factory {number}: {tiles}", "fr": "  fabrique {number} : {tiles}"},
    "centre": {"en": "  centre: {tiles}", "fr": "  centre : {tiles}"},
    "supply": {
        "en": "  bag: {bag} {bag:tile|tiles}, lid: {lid} {lid:tile|tiles}",
        "fr": "  sac : {bag} {bag:carreau|carreaux}, couvercle : {lid} {lid:carreau|carreaux}",
    },
    "board": {"en": "Player {player}: score {score}", "fr": "Joueur {player} : score {score}"},
    "board_to_move": {"en": "  <- to move", "fr": "  <- à jouer"},
    "floor": {
        "en": "  floor: {items} ({used}/{spaces}, -{penalty})",
        "fr": "  plancher : {items} ({used}/{spaces}, -{penalty})",
    },
    "game_over": {
        "en": "Game over: {result} {winners}",
        "fr": "Partie terminée : {result} {winners}",
    },
    "winner": {"en": "winner", "fr": "gagnant"},
    "shared": {"en": "shared victory", "fr": "victoire partagée"},
    "game_intro": {
        "en": "Azul, {players} players, seed {seed}, {variant} wall; {bots}",
        "fr": "Azul, {players} joueurs, graine {seed}, mur {variant} ; {bots}",
    },
    "seat": {"en": "player {player}: {bot}", "fr": "joueur {player} : {bot}"},
    "round_start": {
        "en": "== round {round}: player {player} starts ==",
        "fr": "== manche {round} : le joueur {player} commence ==",
    },
    "factories": {"en": "   factories: {tiles}", "fr": "   fabriques : {tiles}"},
    "played": {
        "en": "   player {player}: {move}{tiling}",
        "fr": "   joueur {player} : {move}{tiling}",
    },
    "during_tiling": {"en": "  (wall tiling)", "fr": "  (décoration du mur)"},
    "tiling_title": {
        "en": "-- wall tiling of round {round} --",
        "fr": "-- décoration du mur, manche {round} --",
    },
    "placement": {
        "en": "  player {player}: {color} to row {row}, column {column}: runs {horizontal} "
        "across, {vertical} down -> {points} {points:point|points}",
        "fr": "  joueur {player} : {color} en rangée {row}, colonne {column} : lignes de "
        "{horizontal} en horizontale, {vertical} en verticale -> {points} {points:point|points}",
    },
    "forced": {
        "en": "  player {player}: pattern line {line} goes whole to the floor (V4)",
        "fr": "  joueur {player} : la ligne de préparation {line} va entière au plancher (V4)",
    },
    "tiling_total": {
        "en": "  player {player}: +{placed} placed, -{penalty} floor, score {before} -> {after}",
        "fr": "  joueur {player} : +{placed} posés, -{penalty} plancher, score {before} -> {after}",
    },
    "bonuses": {
        "en": "  player {player}: end bonuses {rows} {rows:row|rows} x2, {columns} "
        "{columns:column|columns} x7, {colors} {colors:colour|colours} x10 = +{points} -> "
        "{score}",
        "fr": "  joueur {player} : bonus de fin {rows} {rows:rangée|rangées} x2, {columns} "
        "{columns:colonne|colonnes} x7, {colors} {colors:couleur|couleurs} x10 = +{points} -> "
        "{score}",
    },
    "game_end": {
        "en": "== game over after round {round} ==",
        "fr": "== fin de la partie après la manche {round} ==",
    },
    "final_scores": {"en": "final scores: {scores}", "fr": "scores finaux : {scores}"},
    "player_score": {"en": "player {player}: {score}", "fr": "joueur {player} : {score}"},
    "player": {"en": "player {player}", "fr": "joueur {player}"},
    "and": {"en": " and ", "fr": " et "},
    "result": {"en": "{result}: {winners}", "fr": "{result} : {winners}"},
    "stuck": {
        "en": "== stopped in round {round}: the bots have not ended the game after this "
        "many rounds (random play on the grey wall can last very long) ==",
        "fr": "== arrêt à la manche {round} : les robots n'ont pas fini la partie après "
        "tant de manches (au hasard, une partie sur le mur gris peut durer très longtemps) ==",
    },
    "forfeit": {
        "en": "player {player} ({bot}) forfeits at move {number}: {reason}",
        "fr": "le joueur {player} ({bot}) perd par forfait au coup {number} : {reason}",
    },
    "forfeit_illegal": {"en": "illegal move {move}", "fr": "coup illégal {move}"},
    "stopped_scores": {
        "en": "scores when the game stopped: {scores}",
        "fr": "scores à l'arrêt de la partie : {scores}",
    },
    "record_saved": {"en": "record saved to {path}", "fr": "partie enregistrée dans {path}"},
    "all_legal": {"en": "{moves} moves, all legal", "fr": "{moves} coups, tous légaux"},
    "one_legal": {"en": "{moves} move, legal", "fr": "{moves} coup, légal"},
    "illegal_at": {
        "en": "move {number} ({move}), player {player}: illegal",
        "fr": "coup {number} ({move}), joueur {player} : illégal",
    },
    "violation": {"en": "{indent}{code} ({rule}): {message}",
                  "fr": "{indent}{code} ({rule}) : {message}"},
    "check_legal": {"en": "legal: {move}", "fr": "coup légal : {move}"},
    "check_illegal": {"en": "illegal: {move}", "fr": "coup illégal : {move}"},
    "not_over": {
        "en": "the game is not over: round {round}, {phase}",
        "fr": "la partie n'est pas finie : manche {round}, {phase}",
    },
    # what makes an input file unusable
    "impossible_position": {
        "en": "{source}: impossible position: {code} ({rule}) at {path}: {message}",
        "fr": "{source} : position impossible : {code} ({rule}) en {path} : {message}",
    },
    # audit-game and rules (the rule book)
    "sheet_correct": {
        "en": "the scoresheet is correct ({rounds} {rounds:round|rounds})",
        "fr": "la feuille de score est correcte ({rounds} {rounds:manche|manches})",
    },
    "sheet_wrong": {"en": "the scoresheet is wrong:", "fr": "la feuille de score est fausse :"},
    "sheet_round": {
        "en": "round {round}: written {written}; the rules give {correct}",
        "fr": "manche {round} : écrit {written} ; les règles donnent {correct}",
    },
    "sheet_round_ok": {"en": "round {round}: {written}, correct",
                       "fr": "manche {round} : {written}, correct"},
    "sheet_carried": {
        "en": "    (no new mistake: figures carried from an earlier round)",
        "fr": "    (pas de nouvelle erreur : chiffres reportés d'une manche précédente)",
    },
    "sheet_end": {"en": "end of the game:", "fr": "fin de la partie :"},
    "sheet_final": {
        "en": "final scores by the rules: {scores}",
        "fr": "scores finaux selon les règles : {scores}",
    },
    "sheet_illegal": {
        "en": "the record's move {number} ({move}) is illegal; the rounds after it are not "
        "checked:",
        "fr": "le coup {number} ({move}) de la partie est illégal ; les manches suivantes ne "
        "sont pas vérifiées :",
    },
    "no_rule": {
        "en": "no rule {id} in the rule book: the ids are {ids}",
        "fr": "aucune règle {id} dans le livre de règles : les identifiants sont {ids}",
    },
    "rules_title": {
        "en": "The rules of Azul (azul-rules rules ID for one rule's text)",
        "fr": "Les règles d'Azul (azul-rules rules ID pour le texte d'une règle)",
    },
}


def phrase(key: str, lang: str, **params: object) -> str:
    """A phrase of the command line's output in ``lang`` (``"en"`` or ``"fr"``), its
    numbers written and the words they count in the singular or the plural
    (:func:`~azul_rules.core.shown.fill`)."""
    return fill(PHRASES[key][lang], lang, **params)


def color_name(color: Color, lang: str) -> str:
    """A colour's name in ``lang``."""
    return _COLOR_NAMES[lang][color]


def phase_name(value: str, lang: str) -> str:
    """A phase's name in ``lang``."""
    return _phase(value, lang)
