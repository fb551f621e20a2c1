"""The rule book: every rule and ruling the referee enforces, by id, in English and French.

The ids (``G1``, ``P3``, ``R7``...) are the ones every :class:`~azul_rules.Violation`,
every :class:`~azul_rules.Problem`, the error-code tables and the tests cite.  The texts
live here, as data, and nowhere else: ``docs/rules.md`` (English) and ``docs/regles.md``
(French) are generated from them by ``python -m azul_rules.cli.make_docs`` (``--check`` only
compares), and a test keeps the committed pages equal to what :func:`markdown` writes.

>>> import azul_rules as az
>>> az.rule("P3").title
'No colour twice beside a wall row'
>>> az.rule("p3").text("fr").startswith("On ne peut pas")
True
"""

from __future__ import annotations

import textwrap
from collections.abc import Mapping
from typing import Final

import attrs

from azul_rules.core.shown import shown

__all__ = [
    "CODE_RULES", "LANGUAGES", "RULES", "SECTIONS", "Rule", "id_ranges", "markdown", "rule",
    "rules",
]  # fmt: skip

LANGUAGES: Final = ("en", "fr")


@attrs.frozen
class Rule:
    """One rule (or ruling) of the book: ``id`` such as ``"P3"``, its ``section`` letter,
    whether it is a ``ruling`` (a decision where the printed rules are silent or
    unclear), and its title and text in each language."""

    id: str
    ruling: bool
    titles: Mapping[str, str] = attrs.field(repr=False)
    texts: Mapping[str, str] = attrs.field(repr=False)

    @property
    def section(self) -> str:
        """The letter of the rule's section (``"P"`` for ``P3``)."""
        return self.id[0]

    @property
    def title(self) -> str:
        """The English title."""
        return self.titles["en"]

    def title_in(self, lang: str) -> str:
        """The title in ``lang`` (``"en"`` or ``"fr"``)."""
        return self.titles[_lang(lang)]

    def text(self, lang: str = "en") -> str:
        """The rule's text in ``lang`` (``"en"`` or ``"fr"``).

        :raises ValueError: for an unknown language.
        """
        return self.texts[_lang(lang)]

    def __str__(self) -> str:
        return f"{self.id} {self.title}: {self.text('en')}"

    def __repr__(self) -> str:
        """Short, with the English title: ``<Rule P3 'No colour twice beside a wall
        row'>`` (``str`` gives the text too)."""
        kind = "Ruling" if self.ruling else "Rule"
        return f"<{kind} {self.id} {self.title!r}>"


def _lang(lang: str) -> str:
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {shown(lang)}: choose one of {', '.join(LANGUAGES)}")
    return lang


# The sections, in the book's order: letter -> (English title, French title).
SECTIONS: Final[Mapping[str, tuple[str, str]]] = {
    "G": ("Phases and turns", "Phases et tours de jeu"),
    "S": ("Material and setup", "Matériel et mise en place"),
    "T": ("Taking tiles", "Prendre des carreaux"),
    "P": ("Placing the lot on a pattern line", "Placer le lot sur une ligne de préparation"),
    "F": ("The floor line", "Le plancher"),
    "W": ("Wall tiling", "Décoration du mur"),
    "R": ("The next round", "La manche suivante"),
    "E": ("End of the game", "Fin de la partie"),
    "V": ("The grey-wall variant", "La variante du mur gris"),
}

# id, ruling, English title, French title, English text, French text.
_BOOK: Final[tuple[tuple[str, bool, str, str, str, str], ...]] = (
    ("G1", False, "Three phases, in order", "Trois phases, dans l'ordre",
     "Every round goes through the same three phases, always in this order: the factory "
     "offer, when players take tiles; the wall tiling, when complete pattern lines move to "
     "the walls (only the grey wall asks the players to decide anything there); and the "
     "preparation of the next round, when the factories are refilled. A move is accepted "
     "only during the phase it belongs to.",
     "Chaque manche passe par les trois mêmes phases, toujours dans cet ordre : l'offre des "
     "fabriques, où l'on prend des carreaux ; la décoration du mur, où les lignes de "
     "préparation complètes passent au mur (seul le mur gris demande alors des choix aux "
     "joueurs) ; puis la préparation de la manche suivante, où l'on remplit les fabriques. "
     "Un coup n'est accepté que pendant la phase à laquelle il appartient."),
    ("G2", False, "Clockwise", "Sens des aiguilles d'une montre",
     "Play passes clockwise, which the referee counts as the next player number: after "
     "player 1 comes player 2, and after the last player comes player 1 again.",
     "Le jeu tourne dans le sens des aiguilles d'une montre, c'est-à-dire, pour l'arbitre, "
     "vers le joueur de numéro suivant : après le joueur 1 vient le joueur 2, et après le "
     "dernier joueur revient le joueur 1."),
    ("S1", False, "Two to four players", "De deux à quatre joueurs",
     "A game has two, three or four players; any other number is refused.",
     "Une partie réunit deux, trois ou quatre joueurs ; tout autre nombre est refusé."),
    ("S2", False, "Factory displays", "Les fabriques",
     "The number of factory displays follows the number of players: five for two players, "
     "seven for three and nine for four.",
     "Le nombre de fabriques dépend du nombre de joueurs : cinq à deux joueurs, sept à "
     "trois et neuf à quatre."),
    ("S3", False, "One hundred tiles", "Cent carreaux",
     "The game holds exactly 100 tiles, twenty of each of the five colours: blue, yellow, "
     "red, black and white. No tile is ever added or lost: at every moment each one lies "
     "somewhere (bag, lid, factories, centre, pattern lines, walls or floor lines).",
     "Le jeu compte exactement 100 carreaux, vingt de chacune des cinq couleurs : bleu, "
     "jaune, rouge, noir et blanc. Aucun carreau n'apparaît ni ne disparaît : à tout "
     "moment, chacun se trouve quelque part (sac, couvercle, fabriques, centre de la table, "
     "lignes de préparation, murs ou planchers)."),
    ("S4", False, "The player board", "Le plateau individuel",
     "Each player has a board with five pattern lines, numbered 1 to 5 from the top, line "
     "n having room for n tiles; a wall of five rows by five columns; a floor line of "
     "seven spaces; and a score, which starts at 0. (The Python API numbers lines, rows and "
     "columns from 0.)",
     "Chaque joueur a un plateau avec cinq lignes de préparation, numérotées de 1 à 5 "
     "depuis le haut, la ligne n offrant n places ; un mur de cinq rangées sur cinq "
     "colonnes ; un plancher de sept places ; et un score, qui commence à 0. (L'API Python "
     "numérote lignes, rangées et colonnes à partir de 0.)"),
    ("S5", False, "The coloured wall", "Le mur coloré",
     "On the coloured side each wall space shows the one colour it accepts. The top row "
     "reads, from left to right, blue, yellow, red, black, white; every row below repeats "
     "the row above shifted one space to the right, the colour pushed off the end coming "
     "back on the left, so the second row reads white, blue, yellow, red, black. Each "
     "colour thus appears once in every row and once in every column, along diagonals. "
     "(Counting from 0 and numbering the colours blue 0 to white 4, the space at row r, "
     "column c shows colour (c - r) mod 5.)",
     "Sur la face colorée, chaque case du mur montre la seule couleur qu'elle accepte. La "
     "rangée du haut se lit, de gauche à droite : bleu, jaune, rouge, noir, blanc ; chaque "
     "rangée suivante reprend celle du dessus décalée d'une case vers la droite, la couleur "
     "sortie à droite revenant à gauche : la deuxième rangée se lit donc blanc, bleu, "
     "jaune, rouge, noir. Chaque couleur figure ainsi une fois par rangée et une fois par "
     "colonne, en diagonales. (En comptant depuis 0 et en numérotant les couleurs de bleu 0 "
     "à blanc 4, la case de la rangée r et de la colonne c montre la couleur (c - r) "
     "mod 5.)"),
    ("S6", False, "Bag and lid at the start", "Le sac et le couvercle au départ",
     "When the game starts, all 100 tiles are in the bag, and the box lid, where discarded "
     "tiles are collected, is empty.",
     "Au début de la partie, les 100 carreaux sont dans le sac, et le couvercle de la "
     "boîte, qui recueille les carreaux écartés, est vide."),
    ("S7", False, "The first player", "Le premier joueur",
     "The first player is drawn at random (reproducibly, from the game's seed) unless one "
     "is named when the game is created. That player gets the starting player marker, "
     "fills every factory with four tiles from the bag (R2), puts the marker in the centre "
     "of the table (R4) and plays first.",
     "Le premier joueur est tiré au sort (de façon reproductible, à partir de la graine de "
     "la partie), sauf si on le désigne en créant la partie. Il reçoit le marqueur premier "
     "joueur, remplit chaque fabrique de quatre carreaux tirés du sac (R2), pose le "
     "marqueur au centre de la table (R4) et joue en premier."),
    ("T1", False, "No passing", "Pas de passe",
     "A player whose turn it is must take tiles: there is no passing. While any factory or "
     "the centre still holds a tile, some take is legal, because the floor line accepts "
     "any lot.",
     "Le joueur dont c'est le tour doit prendre des carreaux : on ne passe pas. Tant qu'une "
     "fabrique ou le centre de la table contient un carreau, une prise est possible, car le "
     "plancher accepte n'importe quel lot."),
    ("T2", False, "Taking from a factory", "Prendre sur une fabrique",
     "A player may pick one factory and one colour on it: they take every tile of that "
     "colour there. The factory's other tiles are pushed into the centre of the table, and "
     "the factory stays empty until the next round.",
     "Un joueur peut choisir une fabrique et une couleur qui s'y trouve : il prend tous les "
     "carreaux de cette couleur. Les autres carreaux de la fabrique sont poussés au centre "
     "de la table, et la fabrique reste vide jusqu'à la manche suivante."),
    ("T3", False, "Taking from the centre", "Prendre au centre",
     "A player may instead take every tile of one colour from the centre of the table. The "
     "first player to take from the centre in a round also picks up the starting player "
     "marker and puts it on the leftmost free space of their floor line (F3).",
     "Un joueur peut aussi prendre tous les carreaux d'une couleur au centre de la table. "
     "Le premier qui prend au centre dans la manche ramasse en plus le marqueur premier "
     "joueur et le pose sur la place libre la plus à gauche de son plancher (F3)."),
    ("T4", False, "One colour from one place", "Une couleur, un seul endroit",
     "A turn takes a single colour from a single factory or from the centre. The starting "
     "player marker is not a colour: it cannot be taken by itself, and it never counts as "
     "a tile lying in the centre (neither for T1 nor for P7).",
     "Un tour prend une seule couleur, sur une seule fabrique ou au centre. Le marqueur "
     "premier joueur n'est pas une couleur : on ne peut pas le prendre seul, et il ne "
     "compte jamais comme un carreau du centre (ni pour T1 ni pour P7)."),
    ("P1", False, "The lot goes to one place", "Le lot va à un seul endroit",
     "All the tiles taken in a turn, the lot, go either into one single pattern line or, "
     "all of them, onto the floor line. A lot is never shared between two pattern lines.",
     "Tous les carreaux pris pendant un tour, le lot, vont soit dans une seule ligne de "
     "préparation, soit tous au plancher. Un lot n'est jamais partagé entre deux lignes "
     "de préparation."),
    ("P2", False, "One colour per pattern line", "Une couleur par ligne de préparation",
     "A pattern line only ever holds tiles of one colour. An empty line may receive any "
     "colour that P3 allows; a line that already holds tiles only receives more of its own "
     "colour.",
     "Une ligne de préparation ne contient jamais qu'une couleur. Une ligne vide peut "
     "recevoir toute couleur que P3 autorise ; une ligne déjà commencée ne reçoit que des "
     "carreaux de sa propre couleur."),
    ("P3", False, "No colour twice beside a wall row", "Pas deux fois une couleur par rangée",
     "No colour may go into a pattern line whose wall row, on the same level, already "
     "holds a tile of that colour.",
     "On ne peut pas mettre une couleur dans une ligne de préparation dont la rangée du mur, "
     "à la même hauteur, contient déjà un carreau de cette couleur."),
    ("P4", False, "A full line takes nothing", "Une ligne pleine ne reçoit plus rien",
     "Once all the spaces of a pattern line are filled, it takes no more tiles.",
     "Une fois toutes ses places occupées, une ligne de préparation ne reçoit plus aucun "
     "carreau."),
    ("P5", False, "The surplus falls to the floor", "L'excédent tombe au plancher",
     "Tiles fill a pattern line from right to left. If the lot has more tiles than the "
     "chosen line has free spaces, the line is filled and only the surplus goes to the "
     "floor line. Tiles may not be put on the floor while the chosen line still has a free "
     "space: the only way to choose the floor is to send it the whole lot (P1, P6).",
     "Les carreaux remplissent une ligne de préparation de droite à gauche. Si le lot "
     "compte plus de carreaux que la ligne choisie n'a de places libres, la ligne est "
     "remplie et seul l'excédent va au plancher. On ne peut pas mettre de carreaux au "
     "plancher tant que la ligne choisie a encore une place libre : la seule façon de "
     "choisir le plancher est d'y envoyer tout le lot (P1, P6)."),
    ("P6", False, "The floor always accepts", "Le plancher accepte toujours",
     "A player may always send the whole lot to the floor line, even when a pattern line "
     "could receive it.",
     "Un joueur peut toujours envoyer tout le lot au plancher, même si une ligne de "
     "préparation pouvait le recevoir."),
    ("P7", False, "End of the factory offer", "Fin de l'offre des fabriques",
     "The factory offer is over as soon as no tile is left on any factory or in the "
     "centre of the table.",
     "L'offre des fabriques se termine dès qu'il ne reste aucun carreau sur les fabriques "
     "ni au centre de la table."),
    ("F1", False, "Floor penalties", "Les pénalités du plancher",
     "The floor line fills from the left. Its seven spaces cost, from left to right, 1, 1, "
     "2, 2, 2, 3 and 3 points: a full floor line costs 14 points.",
     "Le plancher se remplit à partir de la gauche. Ses sept places coûtent, de gauche à "
     "droite, 1, 1, 2, 2, 2, 3 et 3 points : un plancher plein coûte 14 points."),
    ("F2", False, "A full floor line", "Un plancher plein",
     "Tiles due on a floor line whose seven spaces are all taken go straight into the box "
     "lid instead, and cost nothing.",
     "Les carreaux destinés à un plancher dont les sept places sont prises vont directement "
     "dans le couvercle de la boîte, sans pénalité."),
    ("F3", False, "The marker on the floor", "Le marqueur au plancher",
     "The starting player marker takes a floor space just like a tile and costs that "
     "space's penalty (not a flat 1 point). When one take from the centre sends both the "
     "marker and surplus tiles to the floor, the marker goes down first and the tiles "
     "after it.",
     "Le marqueur premier joueur occupe une place du plancher comme un carreau et coûte la "
     "pénalité de cette place (et non 1 point forfaitaire). Quand une même prise au centre "
     "envoie au plancher le marqueur et des carreaux en excédent, le marqueur est posé "
     "d'abord, les carreaux ensuite."),
    ("F4", True, "The marker and a full floor", "Le marqueur et un plancher plein",
     "Ruling: a player whose floor line is already full when they take from the centre "
     "still takes the marker, and so starts the next round; it costs nothing, as no space "
     "is left for it (F2). No tile already on the floor is moved.",
     "Décision : un joueur dont le plancher est déjà plein quand il prend au centre prend "
     "quand même le marqueur, et commencera donc la manche suivante ; le marqueur ne coûte "
     "rien, faute de place (F2). Aucun carreau déjà au plancher n'est déplacé."),
    ("W1", False, "Complete lines go to the wall", "Les lignes complètes passent au mur",
     "When the factory offer is over, each player goes through their pattern lines from "
     "line 1 at the top to line 5 at the bottom. From each complete line, one tile moves "
     "to the space of its colour in the wall row on the same level and scores at once "
     "(W3); the line's other tiles go into the box lid.",
     "Une fois l'offre des fabriques terminée, chaque joueur parcourt ses lignes de "
     "préparation de la ligne 1, en haut, à la ligne 5, en bas. De chaque ligne complète, "
     "un carreau passe sur la case de sa couleur dans la rangée du mur à la même hauteur "
     "et marque aussitôt ses points (W3) ; les autres carreaux de la ligne vont dans le "
     "couvercle."),
    ("W2", False, "Incomplete lines stay", "Les lignes incomplètes restent",
     "A pattern line that is not complete sends nothing to the wall. Its tiles stay where "
     "they are, with the line's colour, for the next round: an incomplete line is never "
     "emptied at the end of a round.",
     "Une ligne de préparation incomplète n'envoie rien au mur. Ses carreaux restent en "
     "place, avec la couleur de la ligne, pour la manche suivante : on ne vide jamais une "
     "ligne incomplète en fin de manche."),
    ("W3", False, "Scoring a wall tile", "Les points d'un carreau posé",
     "A tile just placed that touches no other tile horizontally or vertically is worth 1 "
     "point. Otherwise, count the unbroken horizontal run of tiles it belongs to, if that "
     "run has at least two tiles, and add the unbroken vertical run it belongs to, if that "
     "one has at least two. The new tile counts in both runs. Diagonal neighbours never "
     "count, and an empty space ends a run.",
     "Un carreau qui vient d'être posé et ne touche aucun autre carreau ni horizontalement "
     "ni verticalement vaut 1 point. Sinon, on compte la suite continue horizontale dont il "
     "fait partie, si elle a au moins deux carreaux, et on ajoute la suite continue "
     "verticale dont il fait partie, si elle en a au moins deux. Le nouveau carreau compte "
     "dans les deux suites. Les voisins en diagonale ne comptent jamais, et une case vide "
     "interrompt une suite."),
    ("W4", False, "Paying the floor", "Payer le plancher",
     "Then each player loses the penalties of all the occupied spaces of their floor line "
     "(F1), the marker's space included. The total is taken off in one go, and a score "
     "that would go below 0 stays at 0.",
     "Ensuite, chaque joueur perd les pénalités de toutes les places occupées de son "
     "plancher (F1), y compris celle du marqueur. Le total est retranché en une fois, et un "
     "score qui passerait sous 0 reste à 0."),
    ("W5", False, "Clearing the floor", "Vider le plancher",
     "The tiles of the floor line go into the box lid. The starting player marker goes to "
     "the player whose floor it lay on: that player starts the next round.",
     "Les carreaux du plancher vont dans le couvercle. Le marqueur premier joueur revient "
     "au joueur sur le plancher duquel il se trouvait : c'est lui qui commencera la manche "
     "suivante."),
    ("R1", False, "Another round, or the end", "Nouvelle manche, ou la fin",
     "If, once the tiling (W1 to W5) is done, no player has a complete horizontal row on "
     "their wall, a new round begins; otherwise the game ends (E1).",
     "Si, la décoration terminée (W1 à W5), aucun joueur n'a de rangée horizontale "
     "complète sur son mur, une nouvelle manche commence ; sinon la partie se termine (E1)."),
    ("R2", False, "Refilling the factories", "Remplir les fabriques",
     "The starting player fills every factory with four tiles drawn from the bag. If the "
     "bag runs empty while filling, all the tiles of the box lid are poured into the bag "
     "and the filling goes on. If both are empty, the factories not yet filled stay short "
     "or empty, and the round is played with what they hold.",
     "Le premier joueur remplit chaque fabrique de quatre carreaux tirés du sac. Si le sac "
     "se vide pendant le remplissage, on y verse tous les carreaux du couvercle et on "
     "continue. Si les deux sont vides, les fabriques pas encore remplies restent "
     "incomplètes ou vides, et la manche se joue avec ce qu'elles contiennent."),
    ("R3", False, "Pattern-line tiles stay out of the bag", "Les lignes ne retournent pas au sac",
     "Tiles waiting in pattern lines never go back to the bag or to the lid.",
     "Les carreaux qui attendent dans les lignes de préparation ne retournent jamais au sac "
     "ni au couvercle."),
    ("R4", False, "The marker back in the centre", "Le marqueur revient au centre",
     "The starting player marker is put back in the centre of the table, and the player "
     "who held it plays first.",
     "Le marqueur premier joueur est reposé au centre de la table, et le joueur qui le "
     "détenait joue en premier."),
    ("R5", True, "Nobody took from the centre", "Personne n'a pris au centre",
     "Ruling: if nobody took tiles from the centre during a round (which happens when "
     "every take emptied a factory holding a single colour), the marker never left the "
     "centre, and the player who started that round starts the next one as well.",
     "Décision : si personne n'a pris de carreaux au centre pendant une manche (ce qui "
     "arrive quand chaque prise a vidé une fabrique d'une seule couleur), le marqueur n'a "
     "jamais quitté le centre, et le joueur qui a commencé cette manche commence aussi la "
     "suivante."),
    ("R6", True, "Nothing left to deal", "Plus rien à distribuer",
     "Ruling: if, after the filling (R2), not one factory holds a tile (possible with four "
     "players when nearly every tile is on the walls or in pattern lines), play cannot go "
     "on. The game ends there, as an end by E1 would: end bonuses (E2) are added and the "
     "winner is found as usual (E4).",
     "Décision : si, après le remplissage (R2), aucune fabrique ne contient de carreau "
     "(possible à quatre joueurs quand presque tous les carreaux sont sur les murs ou dans "
     "les lignes de préparation), le jeu ne peut pas continuer. La partie s'arrête là, "
     "comme une fin par E1 : on ajoute les bonus de fin (E2) et le gagnant se détermine "
     "comme d'habitude (E4)."),
    ("R7", True, "No row can be finished any more", "Plus aucune rangée ne peut être finie",
     "Ruling (grey wall): if, after a wall tiling and its floor penalties, no row of any "
     "player's wall can ever be completed (for each row, the colours it still lacks cannot "
     "be given one to each of its empty spaces without some column holding a colour twice, "
     "V2), E1 can never happen, so the game ends there, as an end by E1 would: end bonuses "
     "(E2) and the usual winner (E4). The coloured wall never gets there: each of its rows "
     "always keeps a space for every colour it lacks.",
     "Décision (mur gris) : si, après une décoration du mur et ses pénalités de plancher, "
     "plus aucune rangée du mur d'aucun joueur ne peut jamais être complétée (pour chaque "
     "rangée, les couleurs qui lui manquent ne peuvent pas être réparties une par case vide "
     "sans qu'une colonne contienne deux fois une couleur, V2), E1 ne peut plus arriver : "
     "la partie s'arrête là, comme une fin par E1, avec les bonus de fin (E2) et le gagnant "
     "habituel (E4). Le mur coloré n'en arrive jamais là : chacune de ses rangées garde "
     "toujours une case pour chaque couleur qui lui manque."),
    ("E1", False, "When the game ends", "Quand la partie se termine",
     "The game ends after the wall tiling, floor penalties included (W4), of the round in "
     "which at least one player completed a horizontal row of their wall. Every player "
     "finishes that round's tiling, and no further round is dealt.",
     "La partie se termine après la décoration du mur, pénalités du plancher comprises "
     "(W4), de la manche où au moins un joueur a complété une rangée horizontale de son "
     "mur. Chaque joueur termine la décoration de cette manche, et aucune autre manche "
     "n'est distribuée."),
    ("E2", False, "End bonuses", "Les bonus de fin",
     "Each player then scores 2 points per complete horizontal row, 7 points per complete "
     "vertical column, and 10 points per colour whose five tiles are all on their wall. "
     "One tile may count towards several bonuses.",
     "Chaque joueur marque alors 2 points par rangée horizontale complète, 7 points par "
     "colonne verticale complète et 10 points par couleur dont les cinq carreaux sont sur "
     "son mur. Un même carreau peut compter pour plusieurs bonus."),
    ("E3", False, "Unfinished lines at the end", "Les lignes inachevées à la fin",
     "Tiles still in pattern lines when the game ends neither score nor cost anything.",
     "Les carreaux encore dans les lignes de préparation à la fin de la partie ne "
     "rapportent ni ne coûtent rien."),
    ("E4", False, "The winner", "Le gagnant",
     "The player with the highest score, end bonuses included, wins. Among tied players, "
     "the one with more complete horizontal rows wins; if they are still tied, they share "
     "the victory.",
     "Le joueur qui a le plus de points, bonus de fin compris, gagne. Entre joueurs à "
     "égalité, celui qui a le plus de rangées horizontales complètes l'emporte ; si "
     "l'égalité persiste, ils partagent la victoire."),
    ("V1", False, "Choosing the column", "Choisir la colonne",
     "On the grey wall every rule above still holds except this one: the tile moved from a "
     "complete pattern line may go on any empty space of the wall row on the same level, "
     "and the player chooses that column while tiling.",
     "Sur le mur gris, toutes les règles ci-dessus s'appliquent, sauf celle-ci : le "
     "carreau déplacé d'une ligne de préparation complète peut aller sur n'importe quelle "
     "case vide de la rangée du mur à la même hauteur, et le joueur choisit cette colonne "
     "au moment de la décoration."),
    ("V2", False, "One colour per column", "Une couleur par colonne",
     "No wall column may hold the same colour twice (and, by P3, no wall row either).",
     "Aucune colonne du mur ne peut contenir deux fois la même couleur (ni, par P3, "
     "aucune rangée)."),
    ("V3", False, "Tiling order on the grey wall", "L'ordre de décoration sur le mur gris",
     "Players still tile line by line from the top down, as in W1, deciding as they go, "
     "and each tile scores as soon as it is placed (W3): what is chosen for the upper "
     "lines shapes what the lower lines can do.",
     "Les joueurs décorent toujours ligne par ligne, de haut en bas, comme en W1, en "
     "décidant au fur et à mesure, et chaque carreau marque dès qu'il est posé (W3) : les "
     "choix faits pour les lignes du haut conditionnent ce que pourront faire celles du "
     "bas."),
    ("V4", False, "No legal space for a line", "Aucune case possible pour une ligne",
     "If the colour of a complete line fits no empty space of its row, because every such "
     "space's column already holds that colour, all the tiles of that line go to the "
     "floor line at once, filling it from the left (any surplus to the lid, F2). Nothing "
     "from that line reaches the wall.",
     "Si la couleur d'une ligne complète ne peut aller sur aucune case vide de sa rangée, "
     "parce que la colonne de chacune de ces cases contient déjà cette couleur, tous les "
     "carreaux de la ligne vont au plancher d'un coup, en le remplissant depuis la gauche "
     "(l'excédent au couvercle, F2). Rien de cette ligne n'arrive au mur."),
    ("V5", True, "Taking tiles on the grey wall", "Prendre des carreaux sur le mur gris",
     "Ruling: P3 holds unchanged (a colour already in a wall row cannot be started in the "
     "pattern line beside it), and the grey wall puts no other limit on taking tiles.",
     "Décision : P3 s'applique telle quelle (une couleur déjà présente dans une rangée du "
     "mur ne peut pas être commencée dans la ligne de préparation voisine), et le mur gris "
     "n'ajoute aucune autre limite à la prise de carreaux."),
)  # fmt: skip

RULES: Final[Mapping[str, Rule]] = {
    rule_id: Rule(rule_id, ruling, {"en": title_en, "fr": title_fr}, {"en": en, "fr": fr})
    for rule_id, ruling, title_en, title_fr, en, fr in _BOOK
}
"""Every rule of the book, by id, in the book's order."""


def rule(rule_id: str) -> Rule:
    """The rule or ruling ``rule_id`` (``"P3"``, case-insensitive).

    :raises ValueError: for an unknown id (naming the ids that exist).
    :raises TypeError: for an id that is not a string.
    """
    if not isinstance(rule_id, str):
        raise TypeError(f"a rule id is a string such as 'P3', not {shown(rule_id)}")
    found = RULES.get(rule_id.strip().upper())
    if found is None:
        raise ValueError(f"no rule {shown(rule_id)} in the rule book: the ids are {id_ranges()}")
    return found


def rules(section: str | None = None) -> tuple[Rule, ...]:
    """Every rule of the book in order, or those of one ``section`` letter."""
    return tuple(r for r in RULES.values() if section is None or r.section == section.upper())


def id_ranges() -> str:
    """The ids of the book, section by section: ``G1-G2, S1-S7, ...``."""
    parts = []
    for letter in SECTIONS:
        ids = [r.id for r in rules(letter)]
        parts.append(f"{ids[0]}-{ids[-1]}")
    return ", ".join(parts)


# -- which rules each error code cites -----------------------------------------------------

# ErrorCode value -> the rule ids its table row cites, and a short description.
CODE_RULES: Final[Mapping[str, tuple[tuple[str, ...], str, str]]] = {
    "PARTIAL_TAKE": (("T2", "T3"), "taking only some of a colour's tiles from a source",
                     "ne prendre qu'une partie des carreaux d'une couleur"),
    "SPLIT_LOT": (("P1",), "spreading one lot over several pattern lines",
                  "répartir un lot sur plusieurs lignes de préparation"),
    "WALL_COLOR_CONFLICT": (("P3", "V5"), "a colour where its wall row already holds it",
                            "une couleur là où sa rangée du mur la contient déjà"),
    "INCOMPLETE_LINE_CLEARED": (("W2",), "emptying or tiling an incomplete pattern line",
                                "vider ou poser au mur une ligne de préparation incomplète"),
    "DIAGONAL_COUNTED": (("W3",), "counting diagonal neighbours when scoring a tile",
                         "compter les voisins en diagonale d'un carreau posé"),
    "GAP_COUNTED": (("W3",), "counting tiles across an empty space",
                    "compter des carreaux au-delà d'une case vide"),
    "MARKER_PENALTY_FORGOTTEN": (("F3",), "not penalising the marker's floor space",
                                 "oublier la pénalité de la place du marqueur"),
    "GAME_ENDED_EARLY": (("E1",), "ending the game before every player's tiling and floor",
                         "arrêter la partie avant la décoration et le plancher de chacun"),
    "GAME_OVER": (("E1",), "a move after the end of the game",
                  "un coup après la fin de la partie"),
    "WRONG_PHASE": (("G1", "W1", "W2", "V3", "V4"),
                    "a move, or a tiling step, out of its phase or order",
                    "un coup, ou une étape de la décoration, hors de sa phase ou de son ordre"),
    "NOT_YOUR_TURN": (("T1",), "a move naming a player who is not to move",
                      "un coup au nom d'un joueur dont ce n'est pas le tour"),
    "NO_SUCH_SOURCE": (("S2",), "a factory number outside the table",
                       "un numéro de fabrique hors de la table"),
    "EMPTY_SOURCE": (("T2", "T3"), "taking from an empty factory or centre",
                     "prendre sur une fabrique ou un centre vide"),
    "COLOR_NOT_IN_SOURCE": (("T2", "T3"), "taking a colour the source does not hold",
                            "prendre une couleur absente de la source"),
    "TOO_MANY_TAKEN": (("T2", "T3"), "claiming more tiles than the source holds",
                       "annoncer plus de carreaux que la source n'en contient"),
    "TWO_COLORS": (("T4",), "taking two colours in one turn",
                   "prendre deux couleurs en un tour"),
    "MARKER_ALONE": (("T4",), "taking the starting player marker alone",
                     "prendre le marqueur premier joueur seul"),
    "NO_SUCH_LINE": (("S4",), "a pattern line (or wall column) that does not exist",
                     "une ligne de préparation (ou colonne du mur) qui n'existe pas"),
    "LINE_COLOR_MISMATCH": (("P2",), "adding a colour to a line of another colour",
                            "ajouter une couleur à une ligne d'une autre couleur"),
    "LINE_FULL": (("P4", "P5"), "adding tiles to a full pattern line",
                  "ajouter des carreaux à une ligne pleine"),
    "FLOOR_WHILE_ROOM": (("P5",), "tiles on the floor while the chosen line has room",
                         "des carreaux au plancher alors que la ligne a de la place"),
    "TILE_COUNT_MISMATCH": (("P1", "S3", "W1", "W5"),
                            "tiles that do not add up: taken and placed, or after the tiling",
                            "des carreaux qui ne tombent pas juste : pris et posés, ou après "
                            "la décoration"),
    "COLUMN_COLOR_CONFLICT": (("V2", "V4"), "grey wall: a colour already in that column",
                              "mur gris : une couleur déjà présente dans la colonne"),
    "SPACE_OCCUPIED": (("V1", "V4"), "grey wall: a tile on a space already taken",
                       "mur gris : un carreau sur une case déjà occupée"),
    "NOT_WALL_COLOR_SPACE": (("S5", "W1", "V1"),
                             "a wall tile on a space it cannot go to (colour or row)",
                             "un carreau du mur sur une case qui ne peut pas le recevoir "
                             "(couleur ou rangée)"),
    "FILL_IMPOSSIBLE": (("R2",), "factory contents the bag and lid could not give",
                        "un contenu de fabriques que le sac et le couvercle ne pouvaient "
                        "pas donner"),
    "EMPTY_DIRECTION_COUNTED": (("W3",), "a point for a direction with no neighbour",
                                "un point pour une direction sans voisin"),
    "CROSS_COUNTED_ONCE": (("W3",), "counting the new tile once where two runs cross",
                           "compter une seule fois le carreau au croisement de deux suites"),
    "SCORE_MISCOUNT": (("W3", "W4", "E2"), "a wrong score no named mistake explains",
                       "un score faux qu'aucune erreur répertoriée n'explique"),
    "FLOOR_OVERFLOW_PENALIZED": (("F2",), "penalising tiles beyond the 7 floor spaces",
                                 "pénaliser des carreaux au-delà des 7 places du plancher"),
    "SCORE_BELOW_ZERO": (("W4",), "letting a score drop below 0",
                         "laisser un score descendre sous 0"),
    "BONUS_MISCOUNT": (("E2",), "wrong end bonuses", "des bonus de fin faux"),
    "WRONG_WINNER": (("E4",), "a winner the scores and the tie-break do not give",
                     "un gagnant que les scores et le départage ne donnent pas"),
}  # fmt: skip


# -- the generated pages -------------------------------------------------------------------

_PAGE: Final = {
    "en": {
        "title": "# The rules of Azul, as `azul_rules` enforces them",
        "intro": "Every rule and ruling the referee enforces, with the id that violations, "
        "error codes and tests cite. Scope: classic Azul for 2 to 4 players, on the "
        "coloured wall, and the grey-wall variant (V1 to V5) as an option; no expansion. "
        "A *ruling* settles a case the printed rules leave open. In French: "
        "[`regles.md`](regles.md).",
        "generated": "This page is generated from `azul_rules/core/rulebook.py` by "
        "`python -m azul_rules.cli.make_docs`; edit the texts there. In a program: "
        "`azul_rules.rule(\"P3\").text(\"en\")`; on the command line: "
        "`azul-rules rules P3`.",
        "codes": "## Error codes and the rules they cite",
        "codes_intro": "Every `ErrorCode` a verdict can carry; each violation names one of "
        "these rules.",
        "head": "| code | what is wrong | rules |",
    },
    "fr": {
        "title": "# Les règles d'Azul, telles qu'`azul_rules` les applique",
        "intro": "Chaque règle et chaque décision que l'arbitre applique, avec l'identifiant "
        "que citent les violations, les codes d'erreur et les tests. Champ : Azul classique "
        "de 2 à 4 joueurs, face au mur coloré, et la variante du mur gris (V1 à V5) en "
        "option ; aucune extension. Une *décision* tranche un cas que la règle imprimée "
        "laisse ouvert. En anglais : [`rules.md`](rules.md).",
        "generated": "Cette page est produite à partir de `azul_rules/core/rulebook.py` par "
        "`python -m azul_rules.cli.make_docs` ; c'est là qu'on modifie les textes. Dans un "
        "programme : `azul_rules.rule(\"P3\").text(\"fr\")` ; en ligne de commande : "
        "`azul-rules rules P3 --lang fr`.",
        "codes": "## Les codes d'erreur et les règles qu'ils citent",
        "codes_intro": "Chaque `ErrorCode` qu'un verdict peut porter ; chaque violation "
        "cite l'une de ces règles.",
        "head": "| code | ce qui ne va pas | règles |",
    },
}


def markdown(lang: str = "en") -> str:
    """The whole rule book as a Markdown page in ``lang`` (``docs/rules.md`` for English,
    ``docs/regles.md`` for French)."""
    words = _PAGE[_lang(lang)]
    out = [words["title"], "", *_wrap(words["intro"]), "", *_wrap(words["generated"])]
    for letter, titles in SECTIONS.items():
        out += ["", f"## {titles[0] if lang == 'en' else titles[1]}", ""]
        for entry in rules(letter):
            head = f"- **{entry.id}** *{entry.title_in(lang)}*. "
            out += _wrap(head + entry.text(lang), indent="  ")
    out += ["", words["codes"], "", *_wrap(words["codes_intro"]), "", words["head"],
            "| --- | --- | --- |"]  # fmt: skip
    for code, (ids, en, fr) in CODE_RULES.items():
        out.append(f"| `{code}` | {en if lang == 'en' else fr} | {', '.join(ids)} |")
    return "\n".join(out) + "\n"


def _wrap(text: str, indent: str = "") -> list[str]:
    return textwrap.wrap(
        text, width=92, subsequent_indent=indent, break_on_hyphens=False, break_long_words=False
    )
