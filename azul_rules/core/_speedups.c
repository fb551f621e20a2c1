/*
 * azul_rules.core._speedups: the compiled twin of the referee's innermost hot functions.
 *
 * The Python code is the reference and the fallback.  Each function here mirrors one
 * Python function, step for step, and builds the very same frozen attrs objects
 * through their slots (as azul_rules.core._slots does from Python).  The table of twins,
 * and how a rule change is made in both, is azul_rules/core/_accelerate.py's docstring:
 *
 *   GameState.legal_moves, _take, _end_offer, _close_round (seeded draws),
 *   _place_tile, _grey_tiling, _tilings_so_far, _settle_grey_round;
 *   rounds.draw_factories, tile_colored, place_on_wall, settle_floor;
 *   grey.walls_can_end.
 *
 * The C code owns no rule of its own and checks nothing the Python code does not:
 * whenever it meets a part it does not expect (a slot replaced through
 * object.__setattr__, a score past 60 bits, an oversized bag, a floor past 7
 * spaces...), it hands the whole call to the Python function, so that odd but
 * accepted input gets exactly the Python verdict or exception.  A rule changes in the
 * Python code first, then here; tests/test_compiled_core.py holds the two together.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>
#include <stdint.h>
#include <string.h>

#define NCOLORS 5
#define NLINES 5
#define FLOOR_SIZE 7
#define MAX_FACTORIES 9
#define CENTER (-1)
#define FLOOR_LINE (-1)
/* Scores are kept in C while they stay well inside 64 bits. */
#define SCORE_LIMIT ((int64_t)1 << 60)
/* The seeded draws multiply four bag sizes in 64 bits: at most 65,535 tiles. */
#define MAX_BAG 65535
/* The compiled round's glue handles up to 8 seats (the game has 2-4). */
#define MAX_SEATS 8

/* ------------------------------------------------------------------------------- */
/* What setup() is given: the Python objects the twins read and build.              */

static int ready = 0;
static PyObject *COLOR[NCOLORS];
static PyObject *MARKER;
static PyObject *FACTORY_OFFER, *WALL_TILING, *GREY;
static PyObject *EMPTY_TUPLE;
static PyTypeObject *GameState_T, *PlayerBoard_T, *RoundContext_T, *PatternLine_T;
static PyTypeObject *PlayerTiling_T, *WallPlacement_T, *Take_T, *PlaceTile_T, *RoundScoring_T;
/* TAKE_OPTIONS[source][colour][mask of accepting lines]; source MAX_FACTORIES is the
 * centre. */
static PyObject *TAKE_OPTIONS[MAX_FACTORIES + 1][NCOLORS][32];
/* LINES[line][colour][count]: the shared PatternLine objects (count 0: empty line). */
static PyObject *LINES[NLINES][NCOLORS][NLINES + 1];
static PyObject *PY_LEGAL_MOVES, *PY_TAKE, *PY_DRAW, *PY_TILE, *PY_PLACE, *PY_PLACE_TILE,
    *PY_GREY_TILING, *PY_TILINGS_SO_FAR, *PY_SETTLE, *PY_END_OFFER, *PY_CLOSE_ROUND,
    *PY_SETTLE_GREY, *PY_WALLS_CAN_END;
static PyObject *END_OFFER_NAME, *SETTLE_NAME, *CLOSE_ROUND_NAME, *GAME_OVER_NAME;
/* PLACE_TILES[line][column]: the shared PlaceTile moves. */
static PyObject *PLACE_TILES[NLINES][5];

/* Slot offsets, by class. */
static Py_ssize_t S_PLAYERS, S_FACTORIES, S_CENTER, S_CURRENT, S_MARKER, S_CONTEXT;
static Py_ssize_t S_BAG, S_LID, S_START, S_PHASE, S_ROUND, S_VARIANT, S_RNG, S_OUTCOME,
    S_SCORING;
static Py_ssize_t S_SCORE, S_LINES, S_WALL, S_FLOOR, S_ACCEPTING;
static Py_ssize_t S_LCOLOR, S_LCOUNT, S_LCAPACITY;
static Py_ssize_t S_TPLAYER, S_TBEFORE, S_TPLACEMENTS, S_TPENALTY, S_TAFTER, S_TBONUSES,
    S_TFLOOR_LINES;
static Py_ssize_t S_SOURCE, S_COLOR, S_LINE, S_MOVE_PLAYER;
static Py_ssize_t S_PLINE, S_PCOLUMN, S_PPLAYER;
static Py_ssize_t S_SROUND, S_SPLAYERS, S_SGAME_OVER;

static const int FLOOR_TOTALS[FLOOR_SIZE + 1] = {0, 1, 2, 4, 6, 8, 11, 14};

#define SLOT(obj, offset) (*(PyObject **)((char *)(obj) + (offset)))

/* A new reference to an instance of ``type`` whose slots are all unset, as
 * object.__new__(type) makes it. */
static PyObject *
new_instance(PyTypeObject *type)
{
    return type->tp_alloc(type, 0);
}

/* Stores a new reference to ``value`` in an unset slot (steals nothing). */
static inline void
set_slot(PyObject *obj, Py_ssize_t offset, PyObject *value)
{
    Py_INCREF(value);
    SLOT(obj, offset) = value;
}

/* Stores ``value`` (a new reference, stolen) in an unset slot. */
static inline void
put_slot(PyObject *obj, Py_ssize_t offset, PyObject *value)
{
    SLOT(obj, offset) = value;
}

/* The colour index of a tile, or -1 for anything that is not one of the five Colors. */
static inline int
color_index(PyObject *tile)
{
    for (int c = 0; c < NCOLORS; c++) {
        if (tile == COLOR[c]) {
            return c;
        }
    }
    return -1;
}

/* 0 and the value in *out when ``obj`` is an exact int within ``[low, high]``; -1 (no
 * exception) otherwise. */
static int
int_in(PyObject *obj, long long low, long long high, long long *out)
{
    if (obj == NULL || !PyLong_CheckExact(obj)) {
        return -1;
    }
    int overflow = 0;
    long long value = PyLong_AsLongLongAndOverflow(obj, &overflow);
    if (overflow || (value == -1 && PyErr_Occurred())) {
        PyErr_Clear();
        return -1;
    }
    if (value < low || value > high) {
        return -1;
    }
    *out = value;
    return 0;
}

/* An exact tuple read from a slot, or NULL. */
static inline PyObject *
tuple_slot(PyObject *obj, Py_ssize_t offset)
{
    PyObject *value = SLOT(obj, offset);
    return (value != NULL && PyTuple_CheckExact(value)) ? value : NULL;
}

/* A new tuple holding ``count`` references to ``item`` after the items of ``head``. */
static PyObject *
tuple_plus(PyObject *head, PyObject *item, Py_ssize_t count)
{
    Py_ssize_t size = PyTuple_GET_SIZE(head);
    PyObject *out = PyTuple_New(size + count);
    if (out == NULL) {
        return NULL;
    }
    for (Py_ssize_t i = 0; i < size; i++) {
        PyObject *old = PyTuple_GET_ITEM(head, i);
        Py_INCREF(old);
        PyTuple_SET_ITEM(out, i, old);
    }
    for (Py_ssize_t i = 0; i < count; i++) {
        Py_INCREF(item);
        PyTuple_SET_ITEM(out, size + i, item);
    }
    return out;
}

/* A sorted tuple of tiles from counts by colour. */
static PyObject *
tiles_from_counts(const Py_ssize_t counts[NCOLORS])
{
    Py_ssize_t size = 0;
    for (int c = 0; c < NCOLORS; c++) {
        size += counts[c];
    }
    if (size == 0) {
        Py_INCREF(EMPTY_TUPLE);
        return EMPTY_TUPLE;
    }
    PyObject *out = PyTuple_New(size);
    if (out == NULL) {
        return NULL;
    }
    Py_ssize_t at = 0;
    for (int c = 0; c < NCOLORS; c++) {
        for (Py_ssize_t k = 0; k < counts[c]; k++) {
            Py_INCREF(COLOR[c]);
            PyTuple_SET_ITEM(out, at++, COLOR[c]);
        }
    }
    return out;
}

/* Adds the tiles of ``tiles`` to ``counts``; -1 when one is not a Color. */
static int
count_tiles(PyObject *tiles, Py_ssize_t counts[NCOLORS])
{
    Py_ssize_t size = PyTuple_GET_SIZE(tiles);
    for (Py_ssize_t i = 0; i < size; i++) {
        int c = color_index(PyTuple_GET_ITEM(tiles, i));
        if (c < 0) {
            return -1;
        }
        counts[c]++;
    }
    return 0;
}

/* ------------------------------------------------------------------------------- */
/* legal_moves: GameState.legal_moves (the grey wall's placements further down).     */

static PyObject *placements_of(PyObject *board);

/* Adds, for each colour present in ``tiles`` (in colour order), the legal takes of
 * ``source`` (an index of TAKE_OPTIONS) to ``found``; -1 when a tile is not a Color. */
static int
collect_takes(PyObject *tiles, int source, long long packed, PyObject **found, Py_ssize_t *n)
{
    int present = 0;
    Py_ssize_t size = PyTuple_GET_SIZE(tiles);
    for (Py_ssize_t i = 0; i < size; i++) {
        int c = color_index(PyTuple_GET_ITEM(tiles, i));
        if (c < 0) {
            return -1;
        }
        present |= 1 << c;
    }
    for (int c = 0; c < NCOLORS; c++) {
        if (present >> c & 1) {
            found[(*n)++] = TAKE_OPTIONS[source][c][packed >> (5 * c) & 31];
        }
    }
    return 0;
}

static PyObject *
legal_moves(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    PyObject *context = SLOT(self, S_CONTEXT);
    PyObject *players = tuple_slot(self, S_PLAYERS);
    PyObject *factories = tuple_slot(self, S_FACTORIES);
    PyObject *center = tuple_slot(self, S_CENTER);
    long long current;
    if (context != NULL && Py_TYPE(context) == RoundContext_T
        && SLOT(context, S_PHASE) == WALL_TILING && players != NULL
        && int_in(SLOT(self, S_CURRENT), 0, PyTuple_GET_SIZE(players) - 1, &current) == 0) {
        PyObject *found = placements_of(PyTuple_GET_ITEM(players, current));
        if (found != NULL) {
            return found;
        }
    }
    if (context == NULL || Py_TYPE(context) != RoundContext_T
        || SLOT(context, S_PHASE) != FACTORY_OFFER || players == NULL || factories == NULL
        || center == NULL || PyTuple_GET_SIZE(factories) > MAX_FACTORIES
        || int_in(SLOT(self, S_CURRENT), 0, PyTuple_GET_SIZE(players) - 1, &current) < 0) {
        return PyObject_CallOneArg(PY_LEGAL_MOVES, self);
    }
    PyObject *board = PyTuple_GET_ITEM(players, current);
    long long packed;
    if (Py_TYPE(board) != PlayerBoard_T
        || int_in(SLOT(board, S_ACCEPTING), 0, ((long long)1 << 25) - 1, &packed) < 0) {
        return PyObject_CallOneArg(PY_LEGAL_MOVES, self);
    }
    /* Each source adds at most 5 colours' tuples of takes. */
    PyObject *lots[(MAX_FACTORIES + 1) * NCOLORS];
    Py_ssize_t nlots = 0;
    Py_ssize_t nfactories = PyTuple_GET_SIZE(factories);
    for (Py_ssize_t s = 0; s < nfactories; s++) {
        PyObject *tiles = PyTuple_GET_ITEM(factories, s);
        if (!PyTuple_CheckExact(tiles) || collect_takes(tiles, (int)s, packed, lots, &nlots) < 0) {
            return PyObject_CallOneArg(PY_LEGAL_MOVES, self);
        }
    }
    if (collect_takes(center, MAX_FACTORIES, packed, lots, &nlots) < 0) {
        return PyObject_CallOneArg(PY_LEGAL_MOVES, self);
    }
    Py_ssize_t total = 0;
    for (Py_ssize_t i = 0; i < nlots; i++) {
        total += PyTuple_GET_SIZE(lots[i]);
    }
    PyObject *moves = PyTuple_New(total);
    if (moves == NULL) {
        return NULL;
    }
    Py_ssize_t at = 0;
    for (Py_ssize_t i = 0; i < nlots; i++) {
        Py_ssize_t size = PyTuple_GET_SIZE(lots[i]);
        for (Py_ssize_t k = 0; k < size; k++) {
            PyObject *move = PyTuple_GET_ITEM(lots[i], k);
            Py_INCREF(move);
            PyTuple_SET_ITEM(moves, at++, move);
        }
    }
    return moves;
}

/* ------------------------------------------------------------------------------- */
/* take: GameState._take.                                                            */

/* F1-F4 (state._fill_floor): the marker first, then ``count`` tiles of colour ``c``;
 * sets *to_lid to the tiles that find no space.  A new reference. */
static PyObject *
fill_floor(PyObject *floor, int c, Py_ssize_t count, int marker, Py_ssize_t *to_lid)
{
    Py_ssize_t room = FLOOR_SIZE - PyTuple_GET_SIZE(floor);
    PyObject *head = floor;
    Py_INCREF(head);
    if (marker) {
        if (room == 0) {
            *to_lid = count;
            return head;
        }
        Py_SETREF(head, tuple_plus(head, MARKER, 1));
        if (head == NULL) {
            return NULL;
        }
        room -= 1;
    }
    Py_ssize_t placed = count <= room ? count : room;
    *to_lid = count - placed;
    if (placed == 0) {
        return head;
    }
    PyObject *out = tuple_plus(head, COLOR[c], placed);
    Py_DECREF(head);
    return out;
}

/* The centre after a factory's rest goes to it (colors.merge): sorted, or the rest
 * itself when the centre is empty.  -1 in *bad when a tile is not a Color. */
static PyObject *
center_with(PyObject *center, PyObject *rest, int *bad)
{
    if (PyTuple_GET_SIZE(center) == 0) {
        Py_INCREF(rest);
        return rest;
    }
    Py_ssize_t counts[NCOLORS] = {0};
    if (count_tiles(center, counts) < 0 || count_tiles(rest, counts) < 0) {
        *bad = 1;
        return NULL;
    }
    return tiles_from_counts(counts);
}

/* A new RoundContext equal to ``context`` but for its lid. */
static PyObject *
context_with_lid(PyObject *context, PyObject *lid)
{
    PyObject *out = new_instance(RoundContext_T);
    if (out == NULL) {
        return NULL;
    }
    const Py_ssize_t slots[] = {S_BAG, S_START, S_PHASE, S_ROUND, S_VARIANT, S_RNG,
                                S_OUTCOME, S_SCORING};
    for (size_t i = 0; i < sizeof(slots) / sizeof(slots[0]); i++) {
        PyObject *value = SLOT(context, slots[i]);
        if (value == NULL) {
            Py_DECREF(out);
            return NULL;
        }
        set_slot(out, slots[i], value);
    }
    set_slot(out, S_LID, lid);
    return out;
}

/* Calls the Python reference: the whole take is handed over. */
#define FALL_BACK() PyObject_CallFunctionObjArgs(PY_TAKE, self, move, NULL)

static PyObject *
take(PyObject *self, PyObject *move)
{
    PyObject *context = SLOT(self, S_CONTEXT);
    if (context == NULL || Py_TYPE(context) != RoundContext_T) {
        return FALL_BACK();
    }
    if (SLOT(context, S_PHASE) != FACTORY_OFFER) {
        Py_RETURN_NONE;
    }
    PyObject *players = tuple_slot(self, S_PLAYERS);
    PyObject *factories = tuple_slot(self, S_FACTORIES);
    PyObject *center = tuple_slot(self, S_CENTER);
    PyObject *holder = SLOT(self, S_MARKER);
    PyObject *named = SLOT(move, S_MOVE_PLAYER);
    long long player, source, line, holder_value = -1, named_value = -1;
    if (players == NULL || factories == NULL || center == NULL || holder == NULL
        || Py_TYPE(move) != Take_T || named == NULL
        || int_in(SLOT(self, S_CURRENT), 0, PyTuple_GET_SIZE(players) - 1, &player) < 0
        || (holder != Py_None && int_in(holder, LLONG_MIN, LLONG_MAX, &holder_value) < 0)
        || (named != Py_None && int_in(named, LLONG_MIN, LLONG_MAX, &named_value) < 0)
        || int_in(SLOT(move, S_SOURCE), LLONG_MIN, LLONG_MAX, &source) < 0
        || int_in(SLOT(move, S_LINE), LLONG_MIN, LLONG_MAX, &line) < 0) {
        return FALL_BACK();
    }
    if (named != Py_None && named_value != player) {
        Py_RETURN_NONE;
    }
    PyObject *color_obj = SLOT(move, S_COLOR);
    int c = color_index(color_obj);
    if (c < 0 && color_obj != MARKER) {
        return FALL_BACK();
    }
    PyObject *board = PyTuple_GET_ITEM(players, player);
    PyObject *lines = Py_TYPE(board) == PlayerBoard_T ? tuple_slot(board, S_LINES) : NULL;
    PyObject *floor = lines != NULL ? tuple_slot(board, S_FLOOR) : NULL;
    long long packed;
    if (floor == NULL || PyTuple_GET_SIZE(lines) != NLINES
        || PyTuple_GET_SIZE(floor) > FLOOR_SIZE || SLOT(board, S_SCORE) == NULL
        || SLOT(board, S_WALL) == NULL
        || int_in(SLOT(board, S_ACCEPTING), 0, ((long long)1 << 25) - 1, &packed) < 0) {
        return FALL_BACK();
    }

    /* T2, T3: the lot, and what goes to the centre. */
    Py_ssize_t taken = 0;
    int takes_marker = 0;
    PyObject *new_center = NULL, *new_factories = NULL;
    Py_ssize_t nfactories = PyTuple_GET_SIZE(factories);
    if (source == CENTER) {
        Py_ssize_t size = PyTuple_GET_SIZE(center), first = -1;
        for (Py_ssize_t i = 0; i < size; i++) {
            PyObject *tile = PyTuple_GET_ITEM(center, i);
            if (color_index(tile) < 0) {
                return FALL_BACK();
            }
            if (tile == color_obj) {
                if (first < 0) {
                    first = i;
                }
                taken++;
            }
        }
        if (taken == 0) {
            Py_RETURN_NONE;
        }
        /* center[:first] + center[first + taken:], as the Python code slices it. */
        new_center = PyTuple_New(size - taken);
        if (new_center == NULL) {
            return NULL;
        }
        Py_ssize_t at = 0;
        for (Py_ssize_t i = 0; i < size; i++) {
            if (i >= first && i < first + taken) {
                continue;
            }
            PyObject *tile = PyTuple_GET_ITEM(center, i);
            Py_INCREF(tile);
            PyTuple_SET_ITEM(new_center, at++, tile);
        }
        if (holder == Py_None) {
            takes_marker = 1;
        }
        Py_INCREF(factories);
        new_factories = factories;
    }
    else if (source >= 0 && source < nfactories && c >= 0) {
        PyObject *tiles = PyTuple_GET_ITEM(factories, source);
        if (!PyTuple_CheckExact(tiles) || nfactories > MAX_FACTORIES) {
            return FALL_BACK();
        }
        Py_ssize_t size = PyTuple_GET_SIZE(tiles);
        for (Py_ssize_t i = 0; i < size; i++) {
            PyObject *tile = PyTuple_GET_ITEM(tiles, i);
            if (color_index(tile) < 0) {
                return FALL_BACK();
            }
            taken += tile == color_obj;
        }
        if (taken == 0) {
            Py_RETURN_NONE;
        }
        PyObject *rest = PyTuple_New(size - taken);
        if (rest == NULL) {
            return NULL;
        }
        Py_ssize_t at = 0;
        for (Py_ssize_t i = 0; i < size; i++) {
            PyObject *tile = PyTuple_GET_ITEM(tiles, i);
            if (tile != color_obj) {
                Py_INCREF(tile);
                PyTuple_SET_ITEM(rest, at++, tile);
            }
        }
        if (at == 0) {
            Py_INCREF(center);
            new_center = center;
        }
        else {
            int bad = 0;
            new_center = center_with(center, rest, &bad);
            if (bad) {
                Py_DECREF(rest);
                return FALL_BACK();
            }
        }
        Py_DECREF(rest);
        if (new_center == NULL) {
            return NULL;
        }
        new_factories = PyTuple_New(nfactories);
        if (new_factories == NULL) {
            Py_DECREF(new_center);
            return NULL;
        }
        for (Py_ssize_t i = 0; i < nfactories; i++) {
            PyObject *item = i == source ? EMPTY_TUPLE : PyTuple_GET_ITEM(factories, i);
            Py_INCREF(item);
            PyTuple_SET_ITEM(new_factories, i, item);
        }
    }
    else {
        Py_RETURN_NONE;
    }

    /* P1-P6, F1-F4: the lot into the line or onto the floor. */
    PyObject *new_floor = NULL, *new_lines = NULL;
    Py_ssize_t to_lid = 0;
    if (line == FLOOR_LINE) {
        new_floor = fill_floor(floor, c, taken, takes_marker, &to_lid);
        Py_INCREF(lines);
        new_lines = lines;
    }
    else if (line >= 0 && line < NLINES && (packed >> (5 * c + line) & 1)) {
        PyObject *current = PyTuple_GET_ITEM(lines, line);
        long long count, capacity;
        if (Py_TYPE(current) != PatternLine_T
            || int_in(SLOT(current, S_LCOUNT), 0, line + 1, &count) < 0
            || int_in(SLOT(current, S_LCAPACITY), line + 1, line + 1, &capacity) < 0) {
            Py_DECREF(new_center);
            Py_DECREF(new_factories);
            return FALL_BACK();
        }
        Py_ssize_t room = (Py_ssize_t)(capacity - count);
        if (taken > room) {
            new_floor = fill_floor(floor, c, taken - room, takes_marker, &to_lid);
            count += room;
        }
        else {
            if (takes_marker) {
                new_floor = fill_floor(floor, c, 0, 1, &to_lid);
            }
            else {
                Py_INCREF(floor);
                new_floor = floor;
            }
            count += taken;
        }
        new_lines = PyTuple_New(NLINES);
        if (new_lines != NULL) {
            for (int i = 0; i < NLINES; i++) {
                PyObject *item = i == line ? LINES[line][c][count] : PyTuple_GET_ITEM(lines, i);
                Py_INCREF(item);
                PyTuple_SET_ITEM(new_lines, i, item);
            }
        }
        /* board.NOT_LINE and board.ROOM_BIT: line ``line`` accepts colour ``c`` while
         * it has room, and nothing else (P2, P4). */
        long long not_line = 0;
        for (int k = 0; k < NCOLORS; k++) {
            not_line |= (long long)1 << (5 * k + line);
        }
        packed &= ~not_line;
        if (count <= line) {
            packed |= (long long)1 << (5 * c + line);
        }
    }
    else {
        Py_DECREF(new_center);
        Py_DECREF(new_factories);
        Py_RETURN_NONE;
    }
    if (new_floor == NULL || new_lines == NULL) {
        Py_XDECREF(new_floor);
        Py_XDECREF(new_lines);
        Py_DECREF(new_center);
        Py_DECREF(new_factories);
        return NULL;
    }

    /* board.new_board, then the successor (position.build). */
    PyObject *moved = new_instance(PlayerBoard_T);
    PyObject *accepting = PyLong_FromLongLong(packed);
    PyObject *new_players = PyTuple_New(PyTuple_GET_SIZE(players));
    PyObject *new_context = context;
    Py_INCREF(new_context);
    if (to_lid > 0 && moved != NULL) {
        PyObject *lid = tuple_slot(context, S_LID);
        Py_ssize_t counts[NCOLORS] = {0};
        if (lid == NULL || count_tiles(lid, counts) < 0) {
            Py_XDECREF(accepting);
            Py_XDECREF(new_players);
            Py_DECREF(moved);
            Py_DECREF(new_context);
            Py_DECREF(new_floor);
            Py_DECREF(new_lines);
            Py_DECREF(new_center);
            Py_DECREF(new_factories);
            return FALL_BACK();
        }
        counts[c] += to_lid;
        PyObject *merged = tiles_from_counts(counts);
        Py_SETREF(new_context, merged == NULL ? NULL : context_with_lid(context, merged));
        Py_XDECREF(merged);
    }
    if (moved == NULL || accepting == NULL || new_players == NULL || new_context == NULL) {
        Py_XDECREF(moved);
        Py_XDECREF(accepting);
        Py_XDECREF(new_players);
        Py_XDECREF(new_context);
        Py_DECREF(new_floor);
        Py_DECREF(new_lines);
        Py_DECREF(new_center);
        Py_DECREF(new_factories);
        return NULL;
    }
    set_slot(moved, S_SCORE, SLOT(board, S_SCORE));
    put_slot(moved, S_LINES, new_lines);
    set_slot(moved, S_WALL, SLOT(board, S_WALL));
    put_slot(moved, S_FLOOR, new_floor);
    put_slot(moved, S_ACCEPTING, accepting);
    Py_ssize_t nplayers = PyTuple_GET_SIZE(players);
    for (Py_ssize_t i = 0; i < nplayers; i++) {
        PyObject *item = i == player ? moved : PyTuple_GET_ITEM(players, i);
        Py_INCREF(item);
        PyTuple_SET_ITEM(new_players, i, item);
    }
    Py_DECREF(moved);
    int anything_left = PyTuple_GET_SIZE(new_center) > 0;
    for (Py_ssize_t i = 0; !anything_left && i < nfactories; i++) {
        PyObject *tiles = PyTuple_GET_ITEM(new_factories, i);
        anything_left = !PyTuple_CheckExact(tiles) || PyTuple_GET_SIZE(tiles) > 0;
    }
    /* T3: the first take from the centre takes the marker. */
    PyObject *holder_obj = holder;
    if (takes_marker) {
        holder_obj = PyLong_FromLongLong(player);
    }
    else {
        Py_INCREF(holder_obj);
    }
    if (holder_obj == NULL) {
        Py_DECREF(new_players);
        Py_DECREF(new_context);
        Py_DECREF(new_center);
        Py_DECREF(new_factories);
        return NULL;
    }
    PyObject *result;
    if (anything_left) {
        result = new_instance(GameState_T);
        PyObject *next = PyLong_FromLongLong((player + 1) % nplayers);
        if (result == NULL || next == NULL) {
            Py_XDECREF(result);
            Py_XDECREF(next);
            result = NULL;
        }
        else {
            set_slot(result, S_PLAYERS, new_players);
            set_slot(result, S_FACTORIES, new_factories);
            set_slot(result, S_CENTER, new_center);
            put_slot(result, S_CURRENT, next);
            set_slot(result, S_MARKER, holder_obj);
            set_slot(result, S_CONTEXT, new_context);
        }
    }
    else {
        PyObject *lid = SLOT(new_context, S_LID);
        result = lid == NULL ? FALL_BACK()
                             : PyObject_CallMethodObjArgs(self, END_OFFER_NAME, new_players,
                                                          lid, holder_obj, NULL);
    }
    Py_DECREF(holder_obj);
    Py_DECREF(new_players);
    Py_DECREF(new_context);
    Py_DECREF(new_center);
    Py_DECREF(new_factories);
    return result;
}

#undef FALL_BACK

/* ------------------------------------------------------------------------------- */
/* draw_factories: rounds.draw_factories (R2), the SplitMix64 draws.                 */

#define GAMMA 0x9E3779B97F4A7C15ULL
#define MIX_1 0xBF58476D1CE4E5B9ULL
#define MIX_2 0x94D049BB133111EBULL

/* rng.step: the next state in *state, and the 64-bit output. */
static inline uint64_t
split_mix(uint64_t *state)
{
    *state += GAMMA;
    uint64_t z = *state;
    z = (z ^ (z >> 30)) * MIX_1;
    z = (z ^ (z >> 27)) * MIX_2;
    return z ^ (z >> 31);
}

/* list.pop(index) on an array of colour indices. */
static inline int
pop_at(int *pool, Py_ssize_t *size, Py_ssize_t index)
{
    int tile = pool[index];
    memmove(pool + index, pool + index + 1, (size_t)(*size - index - 1) * sizeof(int));
    (*size)--;
    return tile;
}

/* A sorted tuple of Colors from ``n`` colour indices. */
static PyObject *
tiles_of(const int *drawn, int n)
{
    Py_ssize_t counts[NCOLORS] = {0};
    for (int i = 0; i < n; i++) {
        counts[drawn[i]]++;
    }
    return tiles_from_counts(counts);
}

/* Reads the colour indices of ``tiles`` into ``out``; -1 when one is not a Color. */
static int
read_tiles(PyObject *tiles, int *out)
{
    Py_ssize_t size = PyTuple_GET_SIZE(tiles);
    for (Py_ssize_t i = 0; i < size; i++) {
        int c = color_index(PyTuple_GET_ITEM(tiles, i));
        if (c < 0) {
            return -1;
        }
        out[i] = c;
    }
    return 0;
}

static PyObject *
draw_factories(PyObject *Py_UNUSED(module), PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 4) {
        PyErr_SetString(PyExc_TypeError, "draw_factories(count, bag, lid, rng)");
        return NULL;
    }
    PyObject *bag = args[1], *lid = args[2];
    long long count;
    Py_ssize_t unused[NCOLORS] = {0};
    if (int_in(args[0], 0, 64, &count) < 0 || !PyTuple_CheckExact(bag) || !PyTuple_CheckExact(lid)
        || !PyLong_CheckExact(args[3]) || PyTuple_GET_SIZE(bag) > MAX_BAG
        || PyTuple_GET_SIZE(lid) > MAX_BAG || count_tiles(lid, unused) < 0) {
        return PyObject_Vectorcall(PY_DRAW, args, nargs, NULL);
    }
    uint64_t rng = PyLong_AsUnsignedLongLong(args[3]);
    if (rng == (uint64_t)-1 && PyErr_Occurred()) {
        PyErr_Clear();
        return PyObject_Vectorcall(PY_DRAW, args, nargs, NULL);
    }
    Py_ssize_t size = PyTuple_GET_SIZE(bag);
    Py_ssize_t lid_size = PyTuple_GET_SIZE(lid);
    Py_ssize_t most = size > lid_size ? size : lid_size;
    int small[128];
    int *pool = most <= 128 ? small : PyMem_Malloc((size_t)most * sizeof(int));
    if (pool == NULL) {
        return PyErr_NoMemory();
    }
    PyObject *result = NULL, *factories = NULL;
    if (read_tiles(bag, pool) < 0) {
        if (pool != small) {
            PyMem_Free(pool);
        }
        return PyObject_Vectorcall(PY_DRAW, args, nargs, NULL);
    }
    PyObject *spare = lid;
    factories = PyTuple_New(count);
    if (factories == NULL) {
        goto done;
    }
    for (Py_ssize_t f = 0; f < count; f++) {
        int drawn[4];
        int n = 0;
        if (size >= 4) {
            uint64_t z = split_mix(&rng);
            uint64_t below_3 = (uint64_t)size - 3, below_2 = (uint64_t)size - 2,
                     below_1 = (uint64_t)size - 1;
            uint64_t product = (uint64_t)size * below_1 * below_2 * below_3;
            uint64_t k = (uint64_t)(((unsigned __int128)z * product) >> 64);
            uint64_t d = k % below_3;
            k /= below_3;
            uint64_t cc = k % below_2;
            k /= below_2;
            drawn[0] = pop_at(pool, &size, (Py_ssize_t)(k / below_1));
            drawn[1] = pop_at(pool, &size, (Py_ssize_t)(k % below_1));
            drawn[2] = pop_at(pool, &size, (Py_ssize_t)cc);
            drawn[3] = pop_at(pool, &size, (Py_ssize_t)d);
            n = 4;
        }
        else {
            if (PyTuple_GET_SIZE(spare) > 0) {
                for (Py_ssize_t i = 0; i < size; i++) {
                    drawn[n++] = pool[i];
                }
                size = PyTuple_GET_SIZE(spare);
                read_tiles(spare, pool);
                spare = EMPTY_TUPLE;
            }
            Py_ssize_t want = 4 - n < size ? 4 - n : size;
            if (want > 0) {
                uint64_t z = split_mix(&rng);
                for (Py_ssize_t i = 0; i < want; i++) {
                    unsigned __int128 wide = (unsigned __int128)z * (uint64_t)size;
                    drawn[n++] = pop_at(pool, &size, (Py_ssize_t)(wide >> 64));
                    z = (uint64_t)wide;
                }
            }
        }
        PyObject *tiles = tiles_of(drawn, n);
        if (tiles == NULL) {
            goto done;
        }
        PyTuple_SET_ITEM(factories, f, tiles);
    }
    PyObject *rest = PyTuple_New(size);
    if (rest == NULL) {
        goto done;
    }
    for (Py_ssize_t i = 0; i < size; i++) {
        Py_INCREF(COLOR[pool[i]]);
        PyTuple_SET_ITEM(rest, i, COLOR[pool[i]]);
    }
    PyObject *state = PyLong_FromUnsignedLongLong(rng);
    if (state == NULL) {
        Py_DECREF(rest);
        goto done;
    }
    result = PyTuple_Pack(4, factories, rest, spare, state);
    Py_DECREF(rest);
    Py_DECREF(state);
done:
    Py_XDECREF(factories);
    if (pool != small) {
        PyMem_Free(pool);
    }
    return result;
}

/* ------------------------------------------------------------------------------- */
/* The wall: scoring.runs (W3), rounds.tile_colored (W1-W5), rounds.place_on_wall.    */

/* scoring.runs on a wall of 25 cells (a colour index where a tile lies, -1 where none). */
static void
runs(const int wall[5][5], int row, int column, int *horizontal, int *vertical, int *points)
{
    int left = column, right = column, top = row, bottom = row;
    while (left > 0 && wall[row][left - 1] >= 0) {
        left--;
    }
    while (right < 4 && wall[row][right + 1] >= 0) {
        right++;
    }
    while (top > 0 && wall[top - 1][column] >= 0) {
        top--;
    }
    while (bottom < 4 && wall[bottom + 1][column] >= 0) {
        bottom++;
    }
    *horizontal = right - left + 1;
    *vertical = bottom - top + 1;
    int found = (*horizontal > 1 ? *horizontal : 0) + (*vertical > 1 ? *vertical : 0);
    *points = found ? found : 1;
}

/* Reads a wall tuple: in ``cells`` the colour index of each space's tile, -1 where there
 * is none.  -1 when it is not 5 tuples of 5 spaces, each a Color or None. */
static int
read_wall(PyObject *wall, int cells[5][5])
{
    if (wall == NULL || !PyTuple_CheckExact(wall) || PyTuple_GET_SIZE(wall) != 5) {
        return -1;
    }
    for (int r = 0; r < 5; r++) {
        PyObject *row = PyTuple_GET_ITEM(wall, r);
        if (!PyTuple_CheckExact(row) || PyTuple_GET_SIZE(row) != 5) {
            return -1;
        }
        for (int k = 0; k < 5; k++) {
            PyObject *space = PyTuple_GET_ITEM(row, k);
            cells[r][k] = space == Py_None ? -1 : color_index(space);
            if (space != Py_None && cells[r][k] < 0) {
                return -1;
            }
        }
    }
    return 0;
}

/* ``row`` with ``tile`` at ``column`` (a new tuple). */
static PyObject *
row_with(PyObject *row, int column, PyObject *tile)
{
    PyObject *out = PyTuple_New(5);
    if (out == NULL) {
        return NULL;
    }
    for (int k = 0; k < 5; k++) {
        PyObject *item = k == column ? tile : PyTuple_GET_ITEM(row, k);
        Py_INCREF(item);
        PyTuple_SET_ITEM(out, k, item);
    }
    return out;
}

/* board.ACCEPT_EMPTY[line][row]: the accepting bits of empty pattern line ``line``
 * beside wall row ``row`` (P2, P3). */
static long long
accept_empty(int line, PyObject *row)
{
    long long bits = 0;
    for (int c = 0; c < NCOLORS; c++) {
        int found = 0;
        for (int k = 0; k < 5; k++) {
            found |= PyTuple_GET_ITEM(row, k) == COLOR[c];
        }
        if (!found) {
            bits |= (long long)1 << (5 * c + line);
        }
    }
    return bits;
}

/* A WallPlacement named tuple. */
static PyObject *
wall_placement(int row, int column, int color, int horizontal, int vertical, int points)
{
    PyObject *out = WallPlacement_T->tp_alloc(WallPlacement_T, 6);
    if (out == NULL) {
        return NULL;
    }
    const long values[] = {row, column, 0, horizontal, vertical, points};
    for (int i = 0; i < 6; i++) {
        PyObject *item;
        if (i == 2) {
            item = COLOR[color];
            Py_INCREF(item);
        }
        else {
            item = PyLong_FromLong(values[i]);
            if (item == NULL) {
                Py_DECREF(out);
                return NULL;
            }
        }
        PyTuple_SET_ITEM(out, i, item);
    }
    return out;
}

/* A new PlayerBoard from its parts (new references stolen, or NULL: then every part is
 * released and NULL returned). */
static PyObject *
new_board(PyObject *score, PyObject *lines, PyObject *wall, PyObject *floor, PyObject *accepting)
{
    PyObject *board = NULL;
    if (score != NULL && lines != NULL && wall != NULL && floor != NULL && accepting != NULL) {
        board = new_instance(PlayerBoard_T);
    }
    if (board == NULL) {
        Py_XDECREF(score);
        Py_XDECREF(lines);
        Py_XDECREF(wall);
        Py_XDECREF(floor);
        Py_XDECREF(accepting);
        return NULL;
    }
    put_slot(board, S_SCORE, score);
    put_slot(board, S_LINES, lines);
    put_slot(board, S_WALL, wall);
    put_slot(board, S_FLOOR, floor);
    put_slot(board, S_ACCEPTING, accepting);
    return board;
}

/* scoring.new_tiling (new references stolen; NULL when one is NULL, every part then
 * released). */
static PyObject *
new_tiling_of(PyObject *player, PyObject *before, PyObject *placements, PyObject *penalty,
              PyObject *after, PyObject *bonuses, PyObject *floor_lines)
{
    PyObject *parts[] = {player, before, placements, penalty, after, bonuses, floor_lines};
    const Py_ssize_t slots[] = {S_TPLAYER, S_TBEFORE, S_TPLACEMENTS, S_TPENALTY, S_TAFTER,
                                S_TBONUSES, S_TFLOOR_LINES};
    PyObject *tiling = NULL;
    int complete = 1;
    for (int i = 0; i < 7; i++) {
        complete &= parts[i] != NULL;
    }
    if (complete) {
        tiling = new_instance(PlayerTiling_T);
    }
    for (int i = 0; i < 7; i++) {
        if (tiling != NULL) {
            put_slot(tiling, slots[i], parts[i]);
        }
        else {
            Py_XDECREF(parts[i]);
        }
    }
    return tiling;
}

/* scoring.new_tiling with no bonuses and no floor lines. */
static PyObject *
new_tiling(PyObject *player, PyObject *before, PyObject *placements, PyObject *penalty,
           PyObject *after)
{
    Py_INCREF(Py_None);
    Py_INCREF(EMPTY_TUPLE);
    return new_tiling_of(player, before, placements, penalty, after, Py_None, EMPTY_TUPLE);
}

/* Adds ``count`` tiles of colour ``c`` to a list; -1 on error. */
static int
extend_lid(PyObject *lid, int c, Py_ssize_t count)
{
    for (Py_ssize_t i = 0; i < count; i++) {
        if (PyList_Append(lid, COLOR[c]) < 0) {
            return -1;
        }
    }
    return 0;
}

/* A board as tile_colored reads it. */
typedef struct {
    PyObject *lines, *wall, *floor;
    int cells[5][5];
    int full_color[NLINES]; /* the colour of each full line, -1 for the others */
    int any_full;
    long long score, packed;
} Colored;

/* Reads ``board`` for the coloured tiling: -1 when a part is not as the referee builds
 * it (the Python function then does the work). */
static int
read_colored(PyObject *board, Colored *b)
{
    if (Py_TYPE(board) != PlayerBoard_T) {
        return -1;
    }
    b->lines = tuple_slot(board, S_LINES);
    b->wall = tuple_slot(board, S_WALL);
    b->floor = tuple_slot(board, S_FLOOR);
    if (b->lines == NULL || b->wall == NULL || b->floor == NULL
        || PyTuple_GET_SIZE(b->lines) != NLINES || PyTuple_GET_SIZE(b->floor) > FLOOR_SIZE
        || read_wall(b->wall, b->cells) < 0
        || int_in(SLOT(board, S_SCORE), -SCORE_LIMIT, SCORE_LIMIT, &b->score) < 0
        || int_in(SLOT(board, S_ACCEPTING), 0, ((long long)1 << 25) - 1, &b->packed) < 0) {
        return -1;
    }
    b->any_full = 0;
    for (int i = 0; i < NLINES; i++) {
        PyObject *line = PyTuple_GET_ITEM(b->lines, i);
        long long count;
        if (Py_TYPE(line) != PatternLine_T || int_in(SLOT(line, S_LCOUNT), 0, 5, &count) < 0) {
            return -1;
        }
        b->full_color[i] = -1;
        if (count > i) {
            b->full_color[i] = color_index(SLOT(line, S_LCOLOR));
            if (b->full_color[i] < 0) {
                return -1;
            }
            b->any_full = 1;
        }
    }
    Py_ssize_t floor_size = PyTuple_GET_SIZE(b->floor);
    for (Py_ssize_t i = 0; i < floor_size; i++) {
        PyObject *item = PyTuple_GET_ITEM(b->floor, i);
        if (item != MARKER && color_index(item) < 0) {
            return -1;
        }
    }
    return 0;
}

static PyObject *
tile_colored(PyObject *Py_UNUSED(module), PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "tile_colored(player, board, lid)");
        return NULL;
    }
    PyObject *player = args[0], *lid = args[2];
    Colored b;
    if (!PyList_CheckExact(lid) || !PyLong_CheckExact(player) || read_colored(args[1], &b) < 0) {
        return PyObject_Vectorcall(PY_TILE, args, nargs, NULL);
    }
    PyObject *lines = b.lines, *wall = b.wall, *floor = b.floor;
    int (*cells)[5] = b.cells;
    int *full_color = b.full_color;
    int any_full = b.any_full;
    long long score = b.score, packed = b.packed;
    Py_ssize_t floor_size = PyTuple_GET_SIZE(floor);

    long long before = score;
    PyObject *rows[NLINES], *new_lines_items[NLINES];
    for (int i = 0; i < NLINES; i++) {
        rows[i] = PyTuple_GET_ITEM(wall, i);
        new_lines_items[i] = PyTuple_GET_ITEM(lines, i);
        Py_INCREF(rows[i]);
        Py_INCREF(new_lines_items[i]);
    }
    PyObject *placed[NLINES];
    int nplaced = 0;
    PyObject *result = NULL;
    for (int i = 0; i < NLINES; i++) {
        int c = full_color[i];
        if (c < 0) {
            continue;
        }
        int column = (c + i) % 5;
        Py_SETREF(rows[i], row_with(rows[i], column, COLOR[c]));
        if (rows[i] == NULL) {
            goto fail;
        }
        cells[i][column] = c;
        int horizontal, vertical, points;
        runs(cells, i, column, &horizontal, &vertical, &points);
        placed[nplaced] = wall_placement(i, column, c, horizontal, vertical, points);
        if (placed[nplaced] == NULL) {
            goto fail;
        }
        nplaced++;
        score += points;
        if (extend_lid(lid, c, i) < 0) {
            goto fail;
        }
        Py_SETREF(new_lines_items[i], LINES[i][c][0]);
        Py_INCREF(new_lines_items[i]);
        packed |= accept_empty(i, rows[i]);
    }
    long long penalty = 0;
    if (floor_size > 0) {
        penalty = FLOOR_TOTALS[floor_size];
        score = score > penalty ? score - penalty : 0;
        for (Py_ssize_t k = 0; k < floor_size; k++) {
            PyObject *item = PyTuple_GET_ITEM(floor, k);
            if (item != MARKER && PyList_Append(lid, item) < 0) {
                goto fail;
            }
        }
    }
    {
        PyObject *placements = PyTuple_New(nplaced);
        if (placements == NULL) {
            goto fail;
        }
        for (int k = 0; k < nplaced; k++) {
            PyTuple_SET_ITEM(placements, k, placed[k]);
        }
        nplaced = 0;
        Py_INCREF(player);
        PyObject *tiling = new_tiling(player, PyLong_FromLongLong(before), placements,
                                      PyLong_FromLongLong(penalty), PyLong_FromLongLong(score));
        PyObject *new_wall, *new_lines;
        if (any_full) {
            new_wall = PyTuple_New(5);
            new_lines = PyTuple_New(5);
            if (new_wall != NULL && new_lines != NULL) {
                for (int i = 0; i < NLINES; i++) {
                    Py_INCREF(rows[i]);
                    PyTuple_SET_ITEM(new_wall, i, rows[i]);
                    Py_INCREF(new_lines_items[i]);
                    PyTuple_SET_ITEM(new_lines, i, new_lines_items[i]);
                }
            }
        }
        else {
            Py_INCREF(wall);
            Py_INCREF(lines);
            new_wall = wall;
            new_lines = lines;
        }
        Py_INCREF(EMPTY_TUPLE);
        PyObject *settled = new_board(PyLong_FromLongLong(score), new_lines, new_wall,
                                      EMPTY_TUPLE, PyLong_FromLongLong(packed));
        if (tiling != NULL && settled != NULL) {
            result = PyTuple_Pack(2, settled, tiling);
        }
        Py_XDECREF(tiling);
        Py_XDECREF(settled);
    }
fail:
    for (int k = 0; k < nplaced; k++) {
        Py_DECREF(placed[k]);
    }
    for (int i = 0; i < NLINES; i++) {
        Py_XDECREF(rows[i]);
        Py_DECREF(new_lines_items[i]);
    }
    return result;
}

static PyObject *
place_on_wall(PyObject *Py_UNUSED(module), PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 4) {
        PyErr_SetString(PyExc_TypeError, "place_on_wall(board, row, column, lid)");
        return NULL;
    }
    PyObject *board = args[0], *lid = args[3];
    long long row, column, score, packed, count;
    int cells[5][5];
    PyObject *lines = NULL, *wall = NULL, *floor = NULL, *line = NULL;
    if (Py_TYPE(board) == PlayerBoard_T) {
        lines = tuple_slot(board, S_LINES);
        wall = tuple_slot(board, S_WALL);
        floor = SLOT(board, S_FLOOR);
    }
    if (lines == NULL || wall == NULL || floor == NULL || !PyList_CheckExact(lid)
        || PyTuple_GET_SIZE(lines) != NLINES || read_wall(wall, cells) < 0
        || int_in(args[1], 0, 4, &row) < 0 || int_in(args[2], 0, 4, &column) < 0
        || int_in(SLOT(board, S_SCORE), -SCORE_LIMIT, SCORE_LIMIT, &score) < 0
        || int_in(SLOT(board, S_ACCEPTING), 0, ((long long)1 << 25) - 1, &packed) < 0) {
        return PyObject_Vectorcall(PY_PLACE, args, nargs, NULL);
    }
    line = PyTuple_GET_ITEM(lines, row);
    int c = Py_TYPE(line) == PatternLine_T ? color_index(SLOT(line, S_LCOLOR)) : -1;
    if (c < 0 || int_in(SLOT(line, S_LCOUNT), row + 1, row + 1, &count) < 0) {
        return PyObject_Vectorcall(PY_PLACE, args, nargs, NULL);
    }
    PyObject *new_row = row_with(PyTuple_GET_ITEM(wall, row), (int)column, COLOR[c]);
    if (new_row == NULL) {
        return NULL;
    }
    cells[row][column] = c;
    int horizontal, vertical, points;
    runs(cells, (int)row, (int)column, &horizontal, &vertical, &points);
    if (extend_lid(lid, c, (Py_ssize_t)row) < 0) {
        Py_DECREF(new_row);
        return NULL;
    }
    PyObject *new_wall = PyTuple_New(5);
    PyObject *new_lines = PyTuple_New(5);
    if (new_wall == NULL || new_lines == NULL) {
        Py_XDECREF(new_wall);
        Py_XDECREF(new_lines);
        Py_DECREF(new_row);
        return NULL;
    }
    for (int i = 0; i < NLINES; i++) {
        PyObject *item = i == row ? new_row : PyTuple_GET_ITEM(wall, i);
        Py_INCREF(item);
        PyTuple_SET_ITEM(new_wall, i, item);
        item = i == row ? LINES[i][c][0] : PyTuple_GET_ITEM(lines, i);
        Py_INCREF(item);
        PyTuple_SET_ITEM(new_lines, i, item);
    }
    packed |= accept_empty((int)row, new_row);
    Py_DECREF(new_row);
    Py_INCREF(floor);
    PyObject *placed_board = new_board(PyLong_FromLongLong(score + points), new_lines, new_wall,
                                       floor, PyLong_FromLongLong(packed));
    PyObject *placement = wall_placement((int)row, (int)column, c, horizontal, vertical, points);
    PyObject *result = NULL;
    if (placed_board != NULL && placement != NULL) {
        result = PyTuple_Pack(2, placed_board, placement);
    }
    Py_XDECREF(placed_board);
    Py_XDECREF(placement);
    return result;
}



/* ------------------------------------------------------------------------------- */
/* end_offer: GameState._end_offer on the coloured wall (W1-W5 for every board), then */
/* _close_round and _next_round with seeded draws (R1-R5); the end of the game, the   */
/* table's draws and the grey wall are left to the Python methods.                    */

static int
has_complete_row(const int cells[5][5])
{
    for (int r = 0; r < 5; r++) {
        int full = 1;
        for (int c = 0; c < 5; c++) {
            full &= cells[r][c] >= 0;
        }
        if (full) {
            return 1;
        }
    }
    return 0;
}

static PyObject *grey_tiling(PyObject *self, PyObject *const *args, Py_ssize_t nargs);
static PyObject *fresh_tilings(PyObject *players);

/* GameState._close_round: the round is tiled and the floors settled; with seeded draws
 * and no end, the next round (_next_round: R1-R5).  The end of the game (E1, R6), the
 * table's draws and anything unexpected are the Python function's. */
static PyObject *
close_round(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 5) {
        PyErr_SetString(PyExc_TypeError, "_close_round(boards, tilings, lid, holder, ends)");
        return NULL;
    }
    PyObject *boards = args[0], *tilings = args[1], *lid = args[2], *holder = args[3];
    PyObject *context = SLOT(self, S_CONTEXT);
    PyObject *factories = tuple_slot(self, S_FACTORIES);
    long long round;
    int fine = args[4] == Py_False && context != NULL && Py_TYPE(context) == RoundContext_T
               && factories != NULL && PyTuple_CheckExact(boards) && PyTuple_CheckExact(tilings)
               && PyList_CheckExact(lid) && PyList_GET_SIZE(lid) <= MAX_BAG
               && SLOT(context, S_START) != NULL && SLOT(context, S_BAG) != NULL
               && SLOT(context, S_VARIANT) != NULL && PyLong_CheckExact(SLOT(context, S_RNG))
               && int_in(SLOT(context, S_ROUND), 1, LLONG_MAX - 1, &round) == 0;
    Py_ssize_t counts[NCOLORS] = {0};
    Py_ssize_t size = fine ? PyList_GET_SIZE(lid) : 0;
    for (Py_ssize_t i = 0; fine && i < size; i++) {
        int c = color_index(PyList_GET_ITEM(lid, i));
        fine = c >= 0;
        counts[fine ? c : 0]++;
    }
    if (!fine) {
        PyObject *call[] = {self, args[0], args[1], args[2], args[3], args[4]};
        return PyObject_Vectorcall(PY_CLOSE_ROUND, call, 6, NULL);
    }
    PyObject *starter = holder == Py_None ? SLOT(context, S_START) : holder;
    PyObject *new_lid = tiles_from_counts(counts);
    PyObject *count = PyLong_FromSsize_t(PyTuple_GET_SIZE(factories));
    PyObject *drawn = NULL;
    if (new_lid != NULL && count != NULL) {
        PyObject *call[] = {count, SLOT(context, S_BAG), new_lid, SLOT(context, S_RNG)};
        drawn = draw_factories(NULL, call, 4);
    }
    Py_XDECREF(new_lid);
    Py_XDECREF(count);
    if (drawn == NULL) {
        return NULL;
    }
    PyObject *dealt = PyTuple_GET_ITEM(drawn, 0);
    int any = 0;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(dealt); i++) {
        any |= PyTuple_GET_SIZE(PyTuple_GET_ITEM(dealt, i)) > 0;
    }
    if (!any) {  /* R6: nothing could be dealt */
        PyObject *result = PyObject_CallMethodObjArgs(
            self, GAME_OVER_NAME, boards, tilings, PyTuple_GET_ITEM(drawn, 1),
            PyTuple_GET_ITEM(drawn, 2), starter, PyTuple_GET_ITEM(drawn, 3), NULL);
        Py_DECREF(drawn);
        return result;
    }
    PyObject *scoring = new_instance(RoundScoring_T);
    PyObject *next = new_instance(RoundContext_T);
    PyObject *state = new_instance(GameState_T);
    PyObject *next_round = PyLong_FromLongLong(round + 1);
    if (scoring == NULL || next == NULL || state == NULL || next_round == NULL) {
        Py_XDECREF(scoring);
        Py_XDECREF(next);
        Py_XDECREF(state);
        Py_XDECREF(next_round);
        Py_DECREF(drawn);
        return NULL;
    }
    set_slot(scoring, S_SROUND, SLOT(context, S_ROUND));
    set_slot(scoring, S_SPLAYERS, tilings);
    set_slot(scoring, S_SGAME_OVER, Py_False);
    set_slot(next, S_BAG, PyTuple_GET_ITEM(drawn, 1));
    set_slot(next, S_LID, PyTuple_GET_ITEM(drawn, 2));
    set_slot(next, S_START, starter);
    set_slot(next, S_PHASE, FACTORY_OFFER);
    put_slot(next, S_ROUND, next_round);
    set_slot(next, S_VARIANT, SLOT(context, S_VARIANT));
    set_slot(next, S_RNG, PyTuple_GET_ITEM(drawn, 3));
    set_slot(next, S_OUTCOME, Py_None);
    put_slot(next, S_SCORING, scoring);
    set_slot(state, S_PLAYERS, boards);
    set_slot(state, S_FACTORIES, dealt);
    set_slot(state, S_CENTER, EMPTY_TUPLE);
    set_slot(state, S_CURRENT, starter);
    set_slot(state, S_MARKER, Py_None);
    put_slot(state, S_CONTEXT, next);
    Py_DECREF(drawn);
    return state;
}

/* GameState._end_offer: the grey wall waits for the players' choices (V1-V4); the
 * coloured wall tiles every board (W1-W5), then the round closes. */
static PyObject *
end_offer(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "_end_offer(players, lid, marker_holder)");
        return NULL;
    }
    PyObject *players = args[0], *lid_tiles = args[1], *holder = args[2];
    PyObject *context = SLOT(self, S_CONTEXT);
    Colored seats[MAX_SEATS];
    int fine = context != NULL && Py_TYPE(context) == RoundContext_T
               && PyTuple_CheckExact(players) && PyTuple_GET_SIZE(players) >= 1
               && PyTuple_GET_SIZE(players) <= MAX_SEATS && PyTuple_CheckExact(lid_tiles)
               && PyTuple_GET_SIZE(lid_tiles) <= MAX_BAG && SLOT(context, S_START) != NULL;
    Py_ssize_t n = fine ? PyTuple_GET_SIZE(players) : 0;
    int grey = fine && SLOT(context, S_VARIANT) == GREY;
    for (Py_ssize_t i = 0; fine && i < n; i++) {
        PyObject *board = PyTuple_GET_ITEM(players, i);
        fine = grey ? Py_TYPE(board) == PlayerBoard_T && SLOT(board, S_SCORE) != NULL
                    : read_colored(board, &seats[i]) == 0;
    }
    Py_ssize_t unused[NCOLORS] = {0};
    if (!fine || count_tiles(lid_tiles, unused) < 0) {
        PyObject *call[] = {self, players, lid_tiles, holder};
        return PyObject_Vectorcall(PY_END_OFFER, call, 4, NULL);
    }
    PyObject *lid = PySequence_List(lid_tiles);
    if (lid == NULL) {
        return NULL;
    }
    PyObject *result = NULL;
    if (grey) {
        PyObject *records = fresh_tilings(players);
        if (records != NULL) {
            PyObject *call[] = {players, records, lid, SLOT(context, S_START), holder};
            result = grey_tiling(self, call, 5);
            Py_DECREF(records);
        }
        Py_DECREF(lid);
        return result;
    }
    PyObject *boards = PyTuple_New(n), *tilings = PyTuple_New(n);
    int ends = 0;
    if (boards == NULL || tilings == NULL) {
        goto done;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *index = PyLong_FromSsize_t(i);
        if (index == NULL) {
            goto done;
        }
        PyObject *call[] = {index, PyTuple_GET_ITEM(players, i), lid};
        PyObject *pair = tile_colored(NULL, call, 3);
        Py_DECREF(index);
        if (pair == NULL) {
            goto done;
        }
        PyObject *board = PyTuple_GET_ITEM(pair, 0), *tiling = PyTuple_GET_ITEM(pair, 1);
        Py_INCREF(board);
        Py_INCREF(tiling);
        PyTuple_SET_ITEM(boards, i, board);
        PyTuple_SET_ITEM(tilings, i, tiling);
        Py_DECREF(pair);
        int cells[5][5];
        read_wall(SLOT(board, S_WALL), cells);  /* built here: 5 tuples of 5 */
        ends |= has_complete_row(cells);
    }
    result = PyObject_CallMethodObjArgs(self, CLOSE_ROUND_NAME, boards, tilings, lid, holder,
                                        ends ? Py_True : Py_False, NULL);
done:
    Py_DECREF(lid);
    Py_XDECREF(boards);
    Py_XDECREF(tilings);
    return result;
}

/* ------------------------------------------------------------------------------- */
/* The grey wall: GameState._place_tile and GameState._grey_tiling (V1-V4, W1, W3),  */
/* and the placements of GameState.legal_moves.                                      */

/* A board as the grey twins read it, checked before anything is changed. */
typedef struct {
    PyObject *obj, *lines, *wall, *floor;
    int cells[5][5];
    int color[NLINES]; /* each pattern line's colour index, -1 when empty */
    int count[NLINES];
    long long packed;
} Board;

/* Reads ``obj`` into ``b``: -1 when a part is not as the referee builds it. */
static int
read_board(PyObject *obj, Board *b)
{
    if (Py_TYPE(obj) != PlayerBoard_T || SLOT(obj, S_SCORE) == NULL) {
        return -1;
    }
    b->obj = obj;
    b->lines = tuple_slot(obj, S_LINES);
    b->wall = tuple_slot(obj, S_WALL);
    b->floor = tuple_slot(obj, S_FLOOR);
    if (b->lines == NULL || b->wall == NULL || b->floor == NULL
        || PyTuple_GET_SIZE(b->lines) != NLINES || PyTuple_GET_SIZE(b->floor) > FLOOR_SIZE
        || read_wall(b->wall, b->cells) < 0
        || int_in(SLOT(obj, S_ACCEPTING), 0, ((long long)1 << 25) - 1, &b->packed) < 0) {
        return -1;
    }
    Py_ssize_t floor_size = PyTuple_GET_SIZE(b->floor);
    for (Py_ssize_t i = 0; i < floor_size; i++) {
        PyObject *item = PyTuple_GET_ITEM(b->floor, i);
        if (item != MARKER && color_index(item) < 0) {
            return -1;
        }
    }
    for (int i = 0; i < NLINES; i++) {
        PyObject *line = PyTuple_GET_ITEM(b->lines, i);
        long long count, capacity;
        if (Py_TYPE(line) != PatternLine_T || int_in(SLOT(line, S_LCOUNT), 0, i + 1, &count) < 0
            || int_in(SLOT(line, S_LCAPACITY), i + 1, i + 1, &capacity) < 0) {
            return -1;
        }
        PyObject *color = SLOT(line, S_LCOLOR);
        b->color[i] = color == Py_None ? -1 : color_index(color);
        b->count[i] = (int)count;
        if (color == NULL || (color != Py_None && b->color[i] < 0)
            || (b->color[i] < 0) != (count == 0)) {
            return -1;
        }
    }
    return 0;
}

/* grey.next_line: the top complete pattern line (V3), or -1. */
static int
next_line(const Board *b)
{
    for (int i = 0; i < NLINES; i++) {
        if (b->color[i] >= 0 && b->count[i] == i + 1) {
            return i;
        }
    }
    return -1;
}

/* grey.legal_columns, as a bit mask: the empty spaces of row ``row`` whose column lacks
 * the colour of its complete line (V1, V2). */
static int
legal_columns(const Board *b, int row)
{
    int color = b->color[row], found = 0;
    for (int c = 0; c < 5; c++) {
        int free = b->cells[row][c] < 0;
        for (int r = 0; r < 5 && free; r++) {
            free = b->cells[r][c] != color;
        }
        found |= free << c;
    }
    return found;
}

/* grey.line_to_floor (V4, F2): complete line ``row``'s tiles to the floor, the rest to
 * ``lid``; ``b`` then reads the new board (a new reference in b->obj).  -1 on error. */
static int
line_to_floor(Board *b, int row, PyObject *lid)
{
    int color = b->color[row], count = b->count[row];
    Py_ssize_t room = FLOOR_SIZE - PyTuple_GET_SIZE(b->floor);
    Py_ssize_t kept = room < count ? room : count;
    if (extend_lid(lid, color, count - kept) < 0) {
        return -1;
    }
    PyObject *lines = PyTuple_New(NLINES);
    if (lines == NULL) {
        return -1;
    }
    for (int i = 0; i < NLINES; i++) {
        PyObject *item = i == row ? LINES[row][0][0] : PyTuple_GET_ITEM(b->lines, i);
        Py_INCREF(item);
        PyTuple_SET_ITEM(lines, i, item);
    }
    PyObject *floor = tuple_plus(b->floor, COLOR[color], kept);
    long long packed = b->packed | accept_empty(row, PyTuple_GET_ITEM(b->wall, row));
    PyObject *score = SLOT(b->obj, S_SCORE);
    Py_INCREF(score);
    Py_INCREF(b->wall);
    PyObject *board = new_board(score, lines, b->wall, floor, PyLong_FromLongLong(packed));
    if (board == NULL) {
        return -1;
    }
    b->obj = board;
    b->lines = lines;
    b->floor = floor;
    b->packed = packed;
    b->color[row] = -1;
    b->count[row] = 0;
    return 0;
}

/* A tuple of ``n`` references from an array (new references taken). */
static PyObject *
tuple_of(PyObject *const *items, Py_ssize_t n)
{
    PyObject *out = PyTuple_New(n);
    for (Py_ssize_t i = 0; out != NULL && i < n; i++) {
        Py_INCREF(items[i]);
        PyTuple_SET_ITEM(out, i, items[i]);
    }
    return out;
}

/* The position waiting for ``player``'s placement (the end of GameState._grey_tiling). */
static PyObject *
waiting_position(PyObject *self, PyObject *context, PyObject *players, PyObject *records,
                 PyObject *lid, long long player, PyObject *holder)
{
    Py_ssize_t counts[NCOLORS] = {0};
    Py_ssize_t size = PyList_GET_SIZE(lid);
    for (Py_ssize_t i = 0; i < size; i++) {
        counts[color_index(PyList_GET_ITEM(lid, i))]++;  /* checked: Colors only */
    }
    PyObject *factories = tuple_slot(self, S_FACTORIES);
    Py_ssize_t nfactories = PyTuple_GET_SIZE(factories);
    PyObject *empty[MAX_FACTORIES * 8];
    for (Py_ssize_t i = 0; i < nfactories; i++) {
        empty[i] = EMPTY_TUPLE;
    }
    PyObject *scoring = new_instance(RoundScoring_T);
    PyObject *waiting = new_instance(RoundContext_T);
    PyObject *result = new_instance(GameState_T);
    PyObject *sorted_lid = tiles_from_counts(counts);
    PyObject *empties = tuple_of(empty, nfactories);
    PyObject *current = PyLong_FromLongLong(player);
    if (scoring == NULL || waiting == NULL || result == NULL || sorted_lid == NULL
        || empties == NULL || current == NULL) {
        Py_XDECREF(scoring);
        Py_XDECREF(waiting);
        Py_XDECREF(result);
        Py_XDECREF(sorted_lid);
        Py_XDECREF(empties);
        Py_XDECREF(current);
        return NULL;
    }
    set_slot(scoring, S_SROUND, SLOT(context, S_ROUND));
    set_slot(scoring, S_SPLAYERS, records);
    set_slot(scoring, S_SGAME_OVER, Py_False);
    set_slot(waiting, S_BAG, SLOT(context, S_BAG));
    put_slot(waiting, S_LID, sorted_lid);
    set_slot(waiting, S_START, SLOT(context, S_START));
    set_slot(waiting, S_PHASE, WALL_TILING);
    set_slot(waiting, S_ROUND, SLOT(context, S_ROUND));
    set_slot(waiting, S_VARIANT, SLOT(context, S_VARIANT));
    set_slot(waiting, S_RNG, SLOT(context, S_RNG));
    set_slot(waiting, S_OUTCOME, Py_None);
    put_slot(waiting, S_SCORING, scoring);
    set_slot(result, S_PLAYERS, players);
    put_slot(result, S_FACTORIES, empties);
    set_slot(result, S_CENTER, EMPTY_TUPLE);
    put_slot(result, S_CURRENT, current);
    set_slot(result, S_MARKER, holder);
    put_slot(result, S_CONTEXT, waiting);
    return result;
}

/* Whether the arguments of _grey_tiling are as the referee builds them; reads the
 * boards into ``seats``. */
static int
grey_arguments_read(PyObject *self, PyObject *boards, PyObject *tilings, PyObject *lid,
                    PyObject *player, long long *first, long long *start, Board *seats)
{
    PyObject *context = SLOT(self, S_CONTEXT);
    PyObject *factories = tuple_slot(self, S_FACTORIES);
    if (context == NULL || Py_TYPE(context) != RoundContext_T || factories == NULL
        || PyTuple_GET_SIZE(factories) > MAX_FACTORIES * 8 || !PyTuple_CheckExact(boards)
        || !PyTuple_CheckExact(tilings) || !PyList_CheckExact(lid)
        || PyTuple_GET_SIZE(boards) < 1 || PyTuple_GET_SIZE(boards) > MAX_SEATS
        || PyTuple_GET_SIZE(tilings) != PyTuple_GET_SIZE(boards)) {
        return -1;
    }
    Py_ssize_t n = PyTuple_GET_SIZE(boards);
    const Py_ssize_t needed[] = {S_BAG, S_ROUND, S_VARIANT, S_RNG};
    for (size_t i = 0; i < sizeof(needed) / sizeof(needed[0]); i++) {
        if (SLOT(context, needed[i]) == NULL) {
            return -1;
        }
    }
    if (int_in(SLOT(context, S_START), 0, n - 1, start) < 0 || int_in(player, 0, n - 1, first) < 0) {
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *tiling = PyTuple_GET_ITEM(tilings, i);
        if (read_board(PyTuple_GET_ITEM(boards, i), &seats[i]) < 0
            || Py_TYPE(tiling) != PlayerTiling_T) {
            return -1;
        }
        const Py_ssize_t parts[] = {S_TBEFORE, S_TPLACEMENTS, S_TPENALTY, S_TAFTER, S_TBONUSES};
        for (size_t k = 0; k < sizeof(parts) / sizeof(parts[0]); k++) {
            if (SLOT(tiling, parts[k]) == NULL) {
                return -1;
            }
        }
        if (tuple_slot(tiling, S_TFLOOR_LINES) == NULL) {
            return -1;
        }
    }
    Py_ssize_t size = PyList_GET_SIZE(lid);
    for (Py_ssize_t i = 0; i < size; i++) {
        if (color_index(PyList_GET_ITEM(lid, i)) < 0) {
            return -1;
        }
    }
    return 0;
}

/* The record of ``done`` with ``row`` added to the lines sent to the floor (V4). */
static PyObject *
with_floor_line(PyObject *done, long long player, int row)
{
    PyObject *floor_lines = SLOT(done, S_TFLOOR_LINES);
    PyObject *index = PyLong_FromLong(row);
    PyObject *lines = index == NULL ? NULL : tuple_plus(floor_lines, index, 1);
    Py_XDECREF(index);
    PyObject *parts[] = {SLOT(done, S_TBEFORE), SLOT(done, S_TPLACEMENTS),
                         SLOT(done, S_TPENALTY), SLOT(done, S_TAFTER), SLOT(done, S_TBONUSES)};
    for (int i = 0; i < 5; i++) {
        Py_INCREF(parts[i]);
    }
    return new_tiling_of(PyLong_FromLongLong(player), parts[0], parts[1], parts[2], parts[3],
                         parts[4], lines);
}

static PyObject *
grey_tiling(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 5) {
        PyErr_SetString(PyExc_TypeError, "_grey_tiling(boards, tilings, lid, player, holder)");
        return NULL;
    }
    PyObject *boards = args[0], *tilings = args[1], *lid = args[2], *holder = args[4];
    Board seats[MAX_SEATS];
    long long player, start;
    if (grey_arguments_read(self, boards, tilings, lid, args[3], &player, &start, seats) < 0) {
        PyObject *call[] = {self, args[0], args[1], args[2], args[3], args[4]};
        return PyObject_Vectorcall(PY_GREY_TILING, call, 6, NULL);
    }
    Py_ssize_t n = PyTuple_GET_SIZE(boards);
    PyObject *players[MAX_SEATS], *records[MAX_SEATS];
    for (Py_ssize_t i = 0; i < n; i++) {
        players[i] = PyTuple_GET_ITEM(boards, i);
        records[i] = PyTuple_GET_ITEM(tilings, i);
        Py_INCREF(players[i]);
        Py_INCREF(records[i]);
    }
    PyObject *result = NULL;
    for (;;) {
        Board *b = &seats[player];
        int row = next_line(b);
        while (row >= 0 && legal_columns(b, row) == 0) {
            if (line_to_floor(b, row, lid) < 0) {
                goto done;
            }
            Py_SETREF(players[player], b->obj);  /* line_to_floor made a new board */
            Py_SETREF(records[player], with_floor_line(records[player], player, row));
            if (records[player] == NULL) {
                goto done;
            }
            row = next_line(b);
        }
        if (row >= 0) {
            PyObject *tuple_players = tuple_of(players, n);
            PyObject *tuple_records = tuple_of(records, n);
            if (tuple_players != NULL && tuple_records != NULL) {
                result = waiting_position(self, SLOT(self, S_CONTEXT), tuple_players,
                                          tuple_records, lid, player, holder);
            }
            Py_XDECREF(tuple_players);
            Py_XDECREF(tuple_records);
            goto done;
        }
        player = (player + 1) % n;
        if (player == start) {
            PyObject *tuple_players = tuple_of(players, n);
            PyObject *tuple_records = tuple_of(records, n);
            if (tuple_players != NULL && tuple_records != NULL) {
                result = PyObject_CallMethodObjArgs(self, SETTLE_NAME, tuple_players,
                                                    tuple_records, lid, holder, NULL);
            }
            Py_XDECREF(tuple_players);
            Py_XDECREF(tuple_records);
            goto done;
        }
    }
done:
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_XDECREF(players[i]);
        Py_XDECREF(records[i]);
    }
    return result;
}


/* GameState._tilings_so_far: this round's grey tiling record so far, carried on when it
 * agrees with the boards, started afresh from them otherwise. */
static PyObject *
fresh_tilings(PyObject *players)
{
    Py_ssize_t n = PyTuple_GET_SIZE(players);
    PyObject *out = PyTuple_New(n);
    for (Py_ssize_t i = 0; out != NULL && i < n; i++) {
        PyObject *score = SLOT(PyTuple_GET_ITEM(players, i), S_SCORE);
        Py_INCREF(score);
        Py_INCREF(score);
        Py_INCREF(EMPTY_TUPLE);
        PyObject *tiling = new_tiling(PyLong_FromSsize_t(i), score, EMPTY_TUPLE,
                                      PyLong_FromLong(0), score);
        if (tiling == NULL) {
            Py_CLEAR(out);
            break;
        }
        PyTuple_SET_ITEM(out, i, tiling);
    }
    return out;
}

static PyObject *
tilings_so_far(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    PyObject *context = SLOT(self, S_CONTEXT);
    PyObject *players = tuple_slot(self, S_PLAYERS);
    if (context == NULL || Py_TYPE(context) != RoundContext_T || players == NULL) {
        return PyObject_CallOneArg(PY_TILINGS_SO_FAR, self);
    }
    Py_ssize_t n = PyTuple_GET_SIZE(players);
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *board = PyTuple_GET_ITEM(players, i);
        if (Py_TYPE(board) != PlayerBoard_T || !PyLong_CheckExact(SLOT(board, S_SCORE))) {
            return PyObject_CallOneArg(PY_TILINGS_SO_FAR, self);
        }
    }
    PyObject *record = SLOT(context, S_SCORING);
    if (record == Py_None) {
        return fresh_tilings(players);
    }
    long long round, recorded;
    PyObject *tilings = record != NULL && Py_TYPE(record) == RoundScoring_T
                            ? tuple_slot(record, S_SPLAYERS) : NULL;
    PyObject *game_over = tilings != NULL ? SLOT(record, S_SGAME_OVER) : NULL;
    if (tilings == NULL || (game_over != Py_True && game_over != Py_False)
        || int_in(SLOT(context, S_ROUND), LLONG_MIN, LLONG_MAX, &round) < 0
        || int_in(SLOT(record, S_SROUND), LLONG_MIN, LLONG_MAX, &recorded) < 0) {
        return PyObject_CallOneArg(PY_TILINGS_SO_FAR, self);
    }
    if (recorded != round || game_over == Py_True || PyTuple_GET_SIZE(tilings) != n) {
        return fresh_tilings(players);
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *tiling = PyTuple_GET_ITEM(tilings, i);
        long long player;
        PyObject *after = Py_TYPE(tiling) == PlayerTiling_T ? SLOT(tiling, S_TAFTER) : NULL;
        if (after == NULL || !PyLong_CheckExact(after)
            || int_in(SLOT(tiling, S_TPLAYER), LLONG_MIN, LLONG_MAX, &player) < 0) {
            return PyObject_CallOneArg(PY_TILINGS_SO_FAR, self);
        }
        int same = PyObject_RichCompareBool(after, SLOT(PyTuple_GET_ITEM(players, i), S_SCORE), Py_EQ);
        if (same < 0) {
            return NULL;
        }
        if (player != i || !same) {
            return fresh_tilings(players);
        }
    }
    Py_INCREF(tilings);
    return tilings;
}

/* rounds.settle_floor (W4, W5): the floor's penalties, the score clamped at 0 once, the
 * floor's tiles to the lid and the marker back to its holder. */
static PyObject *
settle_floor(PyObject *Py_UNUSED(module), PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "settle_floor(board, tiling, lid)");
        return NULL;
    }
    PyObject *board = args[0], *tiling = args[1], *lid = args[2];
    PyObject *floor = Py_TYPE(board) == PlayerBoard_T ? tuple_slot(board, S_FLOOR) : NULL;
    long long score;
    if (floor == NULL || Py_TYPE(tiling) != PlayerTiling_T || !PyList_CheckExact(lid)
        || PyTuple_GET_SIZE(floor) > FLOOR_SIZE
        || int_in(SLOT(board, S_SCORE), -SCORE_LIMIT, SCORE_LIMIT, &score) < 0
        || SLOT(board, S_LINES) == NULL || SLOT(board, S_WALL) == NULL
        || SLOT(board, S_ACCEPTING) == NULL) {
        return PyObject_Vectorcall(PY_SETTLE, args, nargs, NULL);
    }
    const Py_ssize_t parts[] = {S_TPLAYER, S_TBEFORE, S_TPLACEMENTS, S_TBONUSES, S_TFLOOR_LINES};
    for (int i = 0; i < 5; i++) {
        if (SLOT(tiling, parts[i]) == NULL) {
            return PyObject_Vectorcall(PY_SETTLE, args, nargs, NULL);
        }
    }
    Py_ssize_t size = PyTuple_GET_SIZE(floor);
    for (Py_ssize_t i = 0; i < size; i++) {
        PyObject *item = PyTuple_GET_ITEM(floor, i);
        if (item != MARKER && color_index(item) < 0) {
            return PyObject_Vectorcall(PY_SETTLE, args, nargs, NULL);
        }
    }
    if (size == 0) {
        return PyTuple_Pack(2, board, tiling);
    }
    for (Py_ssize_t i = 0; i < size; i++) {
        PyObject *item = PyTuple_GET_ITEM(floor, i);
        if (item != MARKER && PyList_Append(lid, item) < 0) {
            return NULL;
        }
    }
    long long penalty = FLOOR_TOTALS[size];
    score = score > penalty ? score - penalty : 0;
    PyObject *lines = SLOT(board, S_LINES), *wall = SLOT(board, S_WALL);
    PyObject *accepting = SLOT(board, S_ACCEPTING);
    Py_INCREF(lines);
    Py_INCREF(wall);
    Py_INCREF(EMPTY_TUPLE);
    Py_INCREF(accepting);
    PyObject *settled = new_board(PyLong_FromLongLong(score), lines, wall, EMPTY_TUPLE, accepting);
    PyObject *values[5];
    for (int i = 0; i < 5; i++) {
        values[i] = SLOT(tiling, parts[i]);
        Py_INCREF(values[i]);
    }
    PyObject *record = new_tiling_of(values[0], values[1], values[2], PyLong_FromLongLong(penalty),
                                     PyLong_FromLongLong(score), values[3], values[4]);
    PyObject *result = NULL;
    if (settled != NULL && record != NULL) {
        result = PyTuple_Pack(2, settled, record);
    }
    Py_XDECREF(settled);
    Py_XDECREF(record);
    return result;
}


/* grey.row_can_be_completed (R7, V1, V2): whether the empty spaces ``columns`` (a list
 * of ``count``) can each get a distinct colour of its ``allowed`` mask. */
static int
match_columns(const int *columns, int count, const int allowed[5], int used)
{
    if (count == 0) {
        return 1;
    }
    int column = columns[0];
    for (int color = 0; color < NCOLORS; color++) {
        int bit = 1 << color;
        if ((allowed[column] & bit) && !(used & bit)
            && match_columns(columns + 1, count - 1, allowed, used | bit)) {
            return 1;
        }
    }
    return 0;
}

/* grey.row_can_be_completed: the colours row ``row`` lacks can go one each to its empty
 * spaces, with no colour twice in a column. */
static int
row_can_be_completed(const int cells[5][5], int row)
{
    int in_row = 0;
    for (int c = 0; c < 5; c++) {
        if (cells[row][c] >= 0) {
            in_row |= 1 << cells[row][c];
        }
    }
    int empty[5], allowed[5] = {0}, n = 0;
    for (int c = 0; c < 5; c++) {
        if (cells[row][c] >= 0) {
            continue;
        }
        int in_column = 0;
        for (int r = 0; r < 5; r++) {
            if (cells[r][c] >= 0) {
                in_column |= 1 << cells[r][c];
            }
        }
        allowed[c] = 31 & ~in_row & ~in_column;
        empty[n++] = c;
    }
    return match_columns(empty, n, allowed, 0);
}

/* grey.walls_can_end (R7): whether some wall row of some board can still be completed. */
static int
some_row_can_end(const Board *seats, Py_ssize_t n)
{
    for (Py_ssize_t i = 0; i < n; i++) {
        for (int row = 0; row < 5; row++) {
            if (row_can_be_completed(seats[i].cells, row)) {
                return 1;
            }
        }
    }
    return 0;
}

static PyObject *
walls_can_end(PyObject *Py_UNUSED(module), PyObject *boards)
{
    Board seats[MAX_SEATS];
    int fine = PyTuple_CheckExact(boards) && PyTuple_GET_SIZE(boards) <= MAX_SEATS;
    Py_ssize_t n = fine ? PyTuple_GET_SIZE(boards) : 0;
    for (Py_ssize_t i = 0; fine && i < n; i++) {
        PyObject *wall = Py_TYPE(PyTuple_GET_ITEM(boards, i)) == PlayerBoard_T
                             ? SLOT(PyTuple_GET_ITEM(boards, i), S_WALL) : NULL;
        fine = read_wall(wall, seats[i].cells) == 0;
    }
    if (!fine) {
        return PyObject_CallOneArg(PY_WALLS_CAN_END, boards);
    }
    return PyBool_FromLong(some_row_can_end(seats, n));
}

/* GameState._settle_grey_round: after every placement of a grey round, the floors (W4,
 * W5), then the end of the game (E1, or R7 when no wall row can be completed) or the
 * next round (_close_round). */
static PyObject *
settle_grey_round(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 4) {
        PyErr_SetString(PyExc_TypeError, "_settle_grey_round(boards, tilings, lid, holder)");
        return NULL;
    }
    PyObject *boards = args[0], *tilings = args[1], *lid = args[2];
    Board seats[MAX_SEATS];
    int fine = PyTuple_CheckExact(boards) && PyTuple_CheckExact(tilings)
               && PyList_CheckExact(lid) && PyTuple_GET_SIZE(boards) <= MAX_SEATS
               && PyTuple_GET_SIZE(tilings) == PyTuple_GET_SIZE(boards);
    Py_ssize_t n = fine ? PyTuple_GET_SIZE(boards) : 0;
    for (Py_ssize_t i = 0; fine && i < n; i++) {
        long long score;
        PyObject *board = PyTuple_GET_ITEM(boards, i), *tiling = PyTuple_GET_ITEM(tilings, i);
        fine = read_board(board, &seats[i]) == 0
               && int_in(SLOT(board, S_SCORE), -SCORE_LIMIT, SCORE_LIMIT, &score) == 0
               && Py_TYPE(tiling) == PlayerTiling_T;
        const Py_ssize_t parts[] = {S_TPLAYER, S_TBEFORE, S_TPLACEMENTS, S_TBONUSES,
                                    S_TFLOOR_LINES};
        for (int k = 0; fine && k < 5; k++) {
            fine = SLOT(tiling, parts[k]) != NULL;
        }
    }
    Py_ssize_t size = fine ? PyList_GET_SIZE(lid) : 0;
    for (Py_ssize_t i = 0; fine && i < size; i++) {
        fine = color_index(PyList_GET_ITEM(lid, i)) >= 0;
    }
    if (!fine) {
        PyObject *call[] = {self, args[0], args[1], args[2], args[3]};
        return PyObject_Vectorcall(PY_SETTLE_GREY, call, 5, NULL);
    }
    PyObject *settled = PyTuple_New(n), *records = PyTuple_New(n);
    PyObject *result = NULL;
    int ends = 0;
    for (Py_ssize_t i = 0; settled != NULL && records != NULL && i < n; i++) {
        PyObject *call[] = {PyTuple_GET_ITEM(boards, i), PyTuple_GET_ITEM(tilings, i), lid};
        PyObject *pair = settle_floor(NULL, call, 3);
        if (pair == NULL) {
            goto done;
        }
        for (int k = 0; k < 2; k++) {
            Py_INCREF(PyTuple_GET_ITEM(pair, k));
        }
        PyTuple_SET_ITEM(settled, i, PyTuple_GET_ITEM(pair, 0));
        PyTuple_SET_ITEM(records, i, PyTuple_GET_ITEM(pair, 1));
        Py_DECREF(pair);
        ends |= has_complete_row(seats[i].cells);  /* the floor leaves the wall as it is */
    }
    if (settled != NULL && records != NULL) {
        ends = ends || !some_row_can_end(seats, n);
        result = PyObject_CallMethodObjArgs(self, CLOSE_ROUND_NAME, settled, records, lid,
                                            args[3], ends ? Py_True : Py_False, NULL);
    }
done:
    Py_XDECREF(settled);
    Py_XDECREF(records);
    return result;
}

/* GameState._place_tile: the checks of a placement (G1, T1, V1-V3), then _place. */
static PyObject *
place_tile(PyObject *self, PyObject *move)
{
#define FALL_BACK() PyObject_CallFunctionObjArgs(PY_PLACE_TILE, self, move, NULL)
    PyObject *context = SLOT(self, S_CONTEXT);
    if (context == NULL || Py_TYPE(context) != RoundContext_T) {
        return FALL_BACK();
    }
    if (SLOT(context, S_PHASE) != WALL_TILING) {
        Py_RETURN_NONE;
    }
    PyObject *players = tuple_slot(self, S_PLAYERS);
    PyObject *named = Py_TYPE(move) == PlaceTile_T ? SLOT(move, S_PPLAYER) : NULL;
    PyObject *lid_tiles = tuple_slot(context, S_LID);
    PyObject *holder = SLOT(self, S_MARKER);
    long long player, named_value, line, column;
    Board b;
    if (players == NULL || named == NULL || lid_tiles == NULL || holder == NULL
        || int_in(SLOT(self, S_CURRENT), 0, PyTuple_GET_SIZE(players) - 1, &player) < 0
        || (named != Py_None && int_in(named, LLONG_MIN, LLONG_MAX, &named_value) < 0)
        || int_in(SLOT(move, S_PLINE), LLONG_MIN, LLONG_MAX, &line) < 0
        || int_in(SLOT(move, S_PCOLUMN), LLONG_MIN, LLONG_MAX, &column) < 0
        || read_board(PyTuple_GET_ITEM(players, player), &b) < 0) {
        return FALL_BACK();
    }
    if (named != Py_None && named_value != player) {
        Py_RETURN_NONE;
    }
    int next = next_line(&b);
    if (next < 0 || line != next || column < 0 || column > 4 || b.cells[line][column] >= 0) {
        Py_RETURN_NONE;  /* V3, V1 */
    }
    for (int r = 0; r < 5; r++) {
        if (b.cells[r][column] == b.color[line]) {
            Py_RETURN_NONE;  /* V2 */
        }
    }
    /* GameState._place: the tile to the wall, the record, then the tiling goes on. */
    PyObject *lid = PySequence_List(lid_tiles);
    PyObject *tilings = lid == NULL ? NULL : tilings_so_far(self, NULL);
    if (tilings == NULL) {
        Py_XDECREF(lid);
        return NULL;
    }
    PyObject *done = NULL;
    if (PyTuple_CheckExact(tilings) && PyTuple_GET_SIZE(tilings) == PyTuple_GET_SIZE(players)) {
        done = PyTuple_GET_ITEM(tilings, player);
    }
    if (done == NULL || Py_TYPE(done) != PlayerTiling_T || tuple_slot(done, S_TPLACEMENTS) == NULL
        || SLOT(done, S_TBEFORE) == NULL || SLOT(done, S_TFLOOR_LINES) == NULL) {
        Py_DECREF(lid);
        Py_DECREF(tilings);
        return FALL_BACK();
    }
    PyObject *call[] = {b.obj, SLOT(move, S_PLINE), SLOT(move, S_PCOLUMN), lid};
    PyObject *placed = place_on_wall(NULL, call, 4);
    PyObject *result = NULL;
    if (placed != NULL) {
        PyObject *board = PyTuple_GET_ITEM(placed, 0);
        PyObject *placements = tuple_plus(SLOT(done, S_TPLACEMENTS), PyTuple_GET_ITEM(placed, 1), 1);
        PyObject *before = SLOT(done, S_TBEFORE), *floor_lines = SLOT(done, S_TFLOOR_LINES);
        PyObject *score = SLOT(board, S_SCORE);
        Py_INCREF(before);
        Py_INCREF(score);
        Py_INCREF(Py_None);
        Py_INCREF(floor_lines);
        PyObject *record = new_tiling_of(PyLong_FromLongLong(player), before, placements,
                                         PyLong_FromLong(0), score, Py_None, floor_lines);
        Py_ssize_t n = PyTuple_GET_SIZE(players);
        PyObject *boards = PyTuple_New(n), *records = PyTuple_New(n);
        PyObject *seat = PyLong_FromLongLong(player);
        if (record != NULL && boards != NULL && records != NULL && seat != NULL) {
            for (Py_ssize_t i = 0; i < n; i++) {
                PyObject *item = i == player ? board : PyTuple_GET_ITEM(players, i);
                Py_INCREF(item);
                PyTuple_SET_ITEM(boards, i, item);
                item = i == player ? record : PyTuple_GET_ITEM(tilings, i);
                Py_INCREF(item);
                PyTuple_SET_ITEM(records, i, item);
            }
            PyObject *next_args[] = {boards, records, lid, seat, holder};
            result = grey_tiling(self, next_args, 5);
        }
        Py_XDECREF(record);
        Py_XDECREF(boards);
        Py_XDECREF(records);
        Py_XDECREF(seat);
        Py_DECREF(placed);
    }
    Py_DECREF(lid);
    Py_DECREF(tilings);
    return result;
#undef FALL_BACK
}

/* GameState.legal_moves in the grey wall tiling: grey.placements_of the board to
 * decide.  NULL without an exception when the board is not as expected. */
static PyObject *
placements_of(PyObject *board)
{
    Board b;
    if (read_board(board, &b) < 0) {
        return NULL;
    }
    int row = next_line(&b);
    PyObject *found[5];
    int n = 0;
    int columns = row >= 0 ? legal_columns(&b, row) : 0;
    for (int c = 0; c < 5; c++) {
        if (columns >> c & 1) {
            found[n++] = PLACE_TILES[row][c];
        }
    }
    PyObject *out = tuple_of(found, n);
    if (out == NULL) {
        PyErr_Clear();  /* out of memory: the Python code will say so */
    }
    return out;
}

/* ------------------------------------------------------------------------------- */
/* setup: the Python objects, read once.                                             */

/* The offset of attrs field ``name``'s slot in ``type``; -1 with an exception set. */
static Py_ssize_t
slot_offset(PyTypeObject *type, const char *name)
{
    PyObject *descr = PyObject_GetAttrString((PyObject *)type, name);
    if (descr == NULL) {
        return -1;
    }
    if (!Py_IS_TYPE(descr, &PyMemberDescr_Type)) {
        PyErr_Format(PyExc_TypeError, "%s.%s is not a slot", type->tp_name, name);
        Py_DECREF(descr);
        return -1;
    }
    PyMemberDef *member = ((PyMemberDescrObject *)descr)->d_member;
    Py_ssize_t offset = member->type == T_OBJECT_EX ? member->offset : -1;
    Py_DECREF(descr);
    if (offset < 0) {
        PyErr_Format(PyExc_TypeError, "%s.%s is not an object slot", type->tp_name, name);
    }
    return offset;
}

/* A new reference to ``namespace[name]`` (a borrowed-then-kept object). */
static PyObject *
entry(PyObject *namespace, const char *name)
{
    PyObject *value = PyDict_GetItemString(namespace, name);
    if (value == NULL) {
        PyErr_Format(PyExc_KeyError, "setup needs %s", name);
        return NULL;
    }
    Py_INCREF(value);
    return value;
}

static PyTypeObject *
type_entry(PyObject *namespace, const char *name)
{
    PyObject *value = entry(namespace, name);
    if (value != NULL && !PyType_Check(value)) {
        PyErr_Format(PyExc_TypeError, "setup: %s is not a class", name);
        Py_CLEAR(value);
    }
    return (PyTypeObject *)value;
}

/* An item of a sequence by index path, a new reference. */
static PyObject *
item_at(PyObject *seq, Py_ssize_t index)
{
    PyObject *key = PyLong_FromSsize_t(index);
    if (key == NULL) {
        return NULL;
    }
    PyObject *value = PyObject_GetItem(seq, key);
    Py_DECREF(key);
    return value;
}

static int
read_tables(PyObject *namespace)
{
    PyObject *options = entry(namespace, "TAKE_OPTIONS");
    PyObject *lines = entry(namespace, "LINES");
    if (options == NULL || lines == NULL) {
        Py_XDECREF(options);
        Py_XDECREF(lines);
        return -1;
    }
    int status = 0;
    for (int s = 0; s <= MAX_FACTORIES && status == 0; s++) {
        PyObject *by_color = item_at(options, s == MAX_FACTORIES ? CENTER : s);
        for (int c = 0; c < NCOLORS && by_color != NULL; c++) {
            PyObject *by_mask = item_at(by_color, c);
            for (int m = 0; m < 32 && by_mask != NULL; m++) {
                TAKE_OPTIONS[s][c][m] = item_at(by_mask, m);
                if (TAKE_OPTIONS[s][c][m] == NULL || !PyTuple_CheckExact(TAKE_OPTIONS[s][c][m])) {
                    status = -1;
                    break;
                }
            }
            status = by_mask == NULL ? -1 : status;
            Py_XDECREF(by_mask);
        }
        status = by_color == NULL ? -1 : status;
        Py_XDECREF(by_color);
    }
    for (int i = 0; i < NLINES && status == 0; i++) {
        PyObject *by_color = item_at(lines, i);
        for (int c = 0; c < NCOLORS && by_color != NULL && status == 0; c++) {
            PyObject *by_count = item_at(by_color, c);
            for (int n = 0; n <= i + 1 && by_count != NULL; n++) {
                LINES[i][c][n] = item_at(by_count, n);
                if (LINES[i][c][n] == NULL) {
                    status = -1;
                    break;
                }
            }
            status = by_count == NULL ? -1 : status;
            Py_XDECREF(by_count);
        }
        status = by_color == NULL ? -1 : status;
        Py_XDECREF(by_color);
    }
    PyObject *places = status == 0 ? entry(namespace, "PLACE_TILES") : NULL;
    for (int i = 0; i < NLINES && places != NULL && status == 0; i++) {
        PyObject *by_column = item_at(places, i);
        for (int c = 0; c < 5 && by_column != NULL; c++) {
            PLACE_TILES[i][c] = item_at(by_column, c);
            if (PLACE_TILES[i][c] == NULL || Py_TYPE(PLACE_TILES[i][c]) != PlaceTile_T) {
                status = -1;
                break;
            }
        }
        status = by_column == NULL ? -1 : status;
        Py_XDECREF(by_column);
    }
    status = places == NULL ? -1 : status;
    Py_XDECREF(places);
    Py_DECREF(options);
    Py_DECREF(lines);
    if (status < 0 && !PyErr_Occurred()) {
        PyErr_SetString(PyExc_TypeError, "setup: TAKE_OPTIONS holds tuples of takes");
    }
    return status;
}

#define OFFSET(var, type, name)                  \
    if ((var = slot_offset(type, name)) < 0) {   \
        return NULL;                             \
    }

static PyObject *
setup(PyObject *Py_UNUSED(module), PyObject *namespace)
{
    if (ready) {
        PyErr_SetString(PyExc_RuntimeError, "azul_rules.core._speedups is set up once");
        return NULL;
    }
    if (!PyDict_Check(namespace)) {
        PyErr_SetString(PyExc_TypeError, "setup(namespace: dict)");
        return NULL;
    }
    PyObject *colors = entry(namespace, "COLORS");
    if (colors == NULL) {
        return NULL;
    }
    for (int c = 0; c < NCOLORS; c++) {
        COLOR[c] = item_at(colors, c);
        if (COLOR[c] == NULL) {
            Py_DECREF(colors);
            return NULL;
        }
    }
    Py_DECREF(colors);
    if ((MARKER = entry(namespace, "MARKER")) == NULL
        || (FACTORY_OFFER = entry(namespace, "FACTORY_OFFER")) == NULL
        || (WALL_TILING = entry(namespace, "WALL_TILING")) == NULL
        || (PlaceTile_T = type_entry(namespace, "PlaceTile")) == NULL
        || (RoundScoring_T = type_entry(namespace, "RoundScoring")) == NULL
        || (PY_PLACE_TILE = entry(namespace, "place_tile")) == NULL
        || (PY_GREY_TILING = entry(namespace, "grey_tiling")) == NULL
        || (PY_TILINGS_SO_FAR = entry(namespace, "tilings_so_far")) == NULL
        || (PY_SETTLE = entry(namespace, "settle_floor")) == NULL
        || (PY_END_OFFER = entry(namespace, "end_offer")) == NULL
        || (PY_CLOSE_ROUND = entry(namespace, "close_round")) == NULL
        || (PY_SETTLE_GREY = entry(namespace, "settle_grey_round")) == NULL
        || (PY_WALLS_CAN_END = entry(namespace, "walls_can_end")) == NULL
        || (GREY = entry(namespace, "GREY")) == NULL
        || (GameState_T = type_entry(namespace, "GameState")) == NULL
        || (PlayerBoard_T = type_entry(namespace, "PlayerBoard")) == NULL
        || (RoundContext_T = type_entry(namespace, "RoundContext")) == NULL
        || (PatternLine_T = type_entry(namespace, "PatternLine")) == NULL
        || (PlayerTiling_T = type_entry(namespace, "PlayerTiling")) == NULL
        || (WallPlacement_T = type_entry(namespace, "WallPlacement")) == NULL
        || (Take_T = type_entry(namespace, "Take")) == NULL
        || (PY_LEGAL_MOVES = entry(namespace, "legal_moves")) == NULL
        || (PY_TAKE = entry(namespace, "take")) == NULL
        || (PY_DRAW = entry(namespace, "draw_factories")) == NULL
        || (PY_TILE = entry(namespace, "tile_colored")) == NULL
        || (PY_PLACE = entry(namespace, "place_on_wall")) == NULL
        || read_tables(namespace) < 0) {
        return NULL;
    }
    if (!PyType_IsSubtype(WallPlacement_T, &PyTuple_Type)) {
        PyErr_SetString(PyExc_TypeError, "setup: WallPlacement is a named tuple");
        return NULL;
    }
    OFFSET(S_PLAYERS, GameState_T, "players");
    OFFSET(S_FACTORIES, GameState_T, "factories");
    OFFSET(S_CENTER, GameState_T, "center");
    OFFSET(S_CURRENT, GameState_T, "current_player");
    OFFSET(S_MARKER, GameState_T, "marker_holder");
    OFFSET(S_CONTEXT, GameState_T, "context");
    OFFSET(S_BAG, RoundContext_T, "bag");
    OFFSET(S_LID, RoundContext_T, "lid");
    OFFSET(S_START, RoundContext_T, "start_player");
    OFFSET(S_PHASE, RoundContext_T, "phase");
    OFFSET(S_ROUND, RoundContext_T, "round");
    OFFSET(S_VARIANT, RoundContext_T, "variant");
    OFFSET(S_RNG, RoundContext_T, "rng_state");
    OFFSET(S_OUTCOME, RoundContext_T, "outcome");
    OFFSET(S_SCORING, RoundContext_T, "last_scoring");
    OFFSET(S_SCORE, PlayerBoard_T, "score");
    OFFSET(S_LINES, PlayerBoard_T, "pattern_lines");
    OFFSET(S_WALL, PlayerBoard_T, "wall");
    OFFSET(S_FLOOR, PlayerBoard_T, "floor");
    OFFSET(S_ACCEPTING, PlayerBoard_T, "accepting");
    OFFSET(S_LCOLOR, PatternLine_T, "color");
    OFFSET(S_LCOUNT, PatternLine_T, "count");
    OFFSET(S_LCAPACITY, PatternLine_T, "capacity");
    OFFSET(S_TPLAYER, PlayerTiling_T, "player");
    OFFSET(S_TBEFORE, PlayerTiling_T, "score_before");
    OFFSET(S_TPLACEMENTS, PlayerTiling_T, "placements");
    OFFSET(S_TPENALTY, PlayerTiling_T, "floor_penalty");
    OFFSET(S_TAFTER, PlayerTiling_T, "score_after");
    OFFSET(S_TBONUSES, PlayerTiling_T, "bonuses");
    OFFSET(S_TFLOOR_LINES, PlayerTiling_T, "floor_lines");
    OFFSET(S_SOURCE, Take_T, "source");
    OFFSET(S_COLOR, Take_T, "color");
    OFFSET(S_LINE, Take_T, "line");
    OFFSET(S_MOVE_PLAYER, Take_T, "player");
    OFFSET(S_PLINE, PlaceTile_T, "line");
    OFFSET(S_PCOLUMN, PlaceTile_T, "column");
    OFFSET(S_PPLAYER, PlaceTile_T, "player");
    OFFSET(S_SROUND, RoundScoring_T, "round");
    OFFSET(S_SPLAYERS, RoundScoring_T, "players");
    OFFSET(S_SGAME_OVER, RoundScoring_T, "game_over");
    END_OFFER_NAME = PyUnicode_InternFromString("_end_offer");
    SETTLE_NAME = PyUnicode_InternFromString("_settle_grey_round");
    CLOSE_ROUND_NAME = PyUnicode_InternFromString("_close_round");
    GAME_OVER_NAME = PyUnicode_InternFromString("_game_over");
    EMPTY_TUPLE = PyTuple_New(0);
    if (END_OFFER_NAME == NULL || SETTLE_NAME == NULL || CLOSE_ROUND_NAME == NULL
        || GAME_OVER_NAME == NULL || EMPTY_TUPLE == NULL) {
        return NULL;
    }
    ready = 1;
    Py_RETURN_NONE;
}

#undef OFFSET

/* The methods GameState takes from here, as method descriptors of GameState. */
static PyMethodDef state_methods[] = {
    {"legal_moves", legal_moves, METH_NOARGS,
     "Every legal compact move, in a fixed order (the compiled twin of "
     "GameState.legal_moves)."},
    {"_take", take, METH_O,
     "The state after a compact take, or None when it is illegal (the compiled twin of "
     "GameState._take)."},
    {"_place_tile", place_tile, METH_O,
     "The state after a grey wall placement, or None when it is illegal (the compiled "
     "twin of GameState._place_tile)."},
    {"_end_offer", (PyCFunction)(void (*)(void))end_offer, METH_FASTCALL,
     "The wall tiling and the next round once the offer is over (the compiled twin of "
     "GameState._end_offer)."},
    {"_close_round", (PyCFunction)(void (*)(void))close_round, METH_FASTCALL,
     "The round closed: the next round with seeded draws (the compiled twin of "
     "GameState._close_round)."},
    {"_settle_grey_round", (PyCFunction)(void (*)(void))settle_grey_round, METH_FASTCALL,
     "The floors and the end check after a grey round (the compiled twin of "
     "GameState._settle_grey_round)."},
    {"_tilings_so_far", tilings_so_far, METH_NOARGS,
     "This round's grey tiling record so far (the compiled twin of "
     "GameState._tilings_so_far)."},
    {"_grey_tiling", (PyCFunction)(void (*)(void))grey_tiling, METH_FASTCALL,
     "The grey wall tiling from a player on (the compiled twin of "
     "GameState._grey_tiling)."},
    {NULL, NULL, 0, NULL},
};

static PyObject *
method(PyObject *Py_UNUSED(module), PyObject *name)
{
    if (!ready) {
        PyErr_SetString(PyExc_RuntimeError, "azul_rules.core._speedups.setup() first");
        return NULL;
    }
    for (PyMethodDef *def = state_methods; def->ml_name != NULL; def++) {
        if (PyUnicode_Check(name) && PyUnicode_CompareWithASCIIString(name, def->ml_name) == 0) {
            return PyDescr_NewMethod(GameState_T, def);
        }
    }
    PyErr_Format(PyExc_KeyError, "no compiled GameState method %R", name);
    return NULL;
}

static PyObject *
take_function(PyObject *Py_UNUSED(module), PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "take(state, move)");
        return NULL;
    }
    if (!ready || !PyObject_TypeCheck(args[0], GameState_T)) {
        PyErr_SetString(PyExc_TypeError, "take(state, move): state is a GameState");
        return NULL;
    }
    return take(args[0], args[1]);
}

static PyObject *
legal_moves_function(PyObject *Py_UNUSED(module), PyObject *state)
{
    if (!ready || !PyObject_TypeCheck(state, GameState_T)) {
        PyErr_SetString(PyExc_TypeError, "legal_moves(state): state is a GameState");
        return NULL;
    }
    return legal_moves(state, NULL);
}

#define NEEDS_SETUP(function)                                                        \
    static PyObject *function##_checked(PyObject *module, PyObject *const *args,     \
                                        Py_ssize_t nargs)                            \
    {                                                                                \
        if (!ready) {                                                                \
            PyErr_SetString(PyExc_RuntimeError, "azul_rules.core._speedups.setup() first"); \
            return NULL;                                                             \
        }                                                                            \
        return function(module, args, nargs);                                        \
    }
NEEDS_SETUP(draw_factories)
NEEDS_SETUP(tile_colored)
NEEDS_SETUP(place_on_wall)
NEEDS_SETUP(settle_floor)

static PyObject *
walls_can_end_checked(PyObject *module, PyObject *boards)
{
    if (!ready) {
        PyErr_SetString(PyExc_RuntimeError, "azul_rules.core._speedups.setup() first");
        return NULL;
    }
    return walls_can_end(module, boards);
}

/* =============================================================================== */
/* The AI doors (issue 25, "doors"): what azul_rules.actions and azul_rules.core.deals   */
/* compute for the OpenSpiel game and the PettingZoo environment at every step.     */
/*                                                                                   */
/*   legal_actions(state)                  actions.legal_actions (sorted action ids) */
/*   observe_into(state, player, vector, mask=None)                                  */
/*                                         actions.observe_into (the observation and */
/*                                         the legal-action mask, into buffers)      */
/*   deal_outcomes(bag, lid)               deals.deal_outcomes (a factory's fill as  */
/*                                         one chance outcome, R2)                   */
/*   spiel_step(position, action)          spiel._step (python_azul's hot paths: a   */
/*                                         legal move, a deal)                       */
/*                                                                                   */
/* Each reads the referee's objects as the twins above do (through their slots) and  */
/* hands the whole call to its Python reference, given to doors_setup(), for         */
/* anything it does not expect: another type, a slot set to something odd, a buffer  */
/* of another kind (whose error the Python function raises), a count too large for   */
/* exact arithmetic.  tests/test_compiled_core.py holds each to its reference.       */

#define DOOR_TAKES 30                                    /* 5 colours x 6 lines  */
#define DOOR_MAX_ACTIONS ((MAX_FACTORIES + 1) * DOOR_TAKES + 25)   /* 325        */
#define DOOR_BOARD 157                                   /* floats per board     */
#define DOOR_MAX_OBSERVATION (4 * DOOR_BOARD + 5 * MAX_FACTORIES + 21 + 2 * 4)
#define DOOR_DEALS 125                                   /* deals of 1-4 tiles   */
#define DOOR_FULL_DEALS 70                               /* deals of 4 tiles     */
#define DOOR_MOST_TILES 1000                             /* deals.py's _MOST     */
/* A float32 holds every integer up to 2**24 exactly; beyond, the Python code's
 * float() then float32 rounding is left to it. */
#define DOOR_EXACT_FLOAT ((long long)1 << 24)

static PyObject *PY_LEGAL_ACTIONS, *PY_OBSERVE_INTO, *PY_DEAL_OUTCOMES;
static PyObject *REFILL_PHASE, *GAME_OVER_PHASE, *COLORED_VARIANT;
static PyObject *LEGAL_MOVES_NAME;
/* The ints 0 .. DOOR_MAX_ACTIONS - 1 (action ids and deal ids), made once. */
static PyObject *DOOR_INTS[DOOR_MAX_ACTIONS];
/* DEAL_COUNT[id][colour]; DEAL_BY_COUNTS[base-5 number of the five counts]: the id, or -1. */
static int DEAL_COUNT[DOOR_DEALS][NCOLORS];
static int DEAL_SIZE[DOOR_DEALS];
/* DEAL_NUMBER[id]: the base-5 number of its counts; the deals of ``size`` tiles are the
 * ids DEAL_FIRST[size] .. DEAL_FIRST[size] + DEAL_SPAN[size] - 1 (checked at setup). */
static int DEAL_NUMBER[DOOR_DEALS];
static int DEAL_FIRST[NLINES], DEAL_SPAN[NLINES];
/* DOOR_DESTS[colour][mask]: the destinations (0-4 a line, 5 the floor) of the takes in
 * TAKE_OPTIONS[source][colour][mask], in order, the same for every source (read from
 * the table at setup; door_fast is 0 when it is not so: the slow path then reads each
 * take). */
static signed char DOOR_DESTS[NCOLORS][32][NLINES + 2];
static int door_fast = 0;
static int DEAL_BY_COUNTS[3125];

/* Calls ``function`` with the call's own arguments: the Python reference decides. */
static PyObject *
door_fall_back(PyObject *function, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    if (function == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "azul_rules.core._speedups.doors_setup() first");
        return NULL;
    }
    return PyObject_Vectorcall(function, args, (size_t)nargs, kwnames);
}

/* The takes of ``source`` (its action ids from ``base``) for each colour present in
 * ``tiles``, as collect_takes finds them; -1 when a tile is not a Color. */
static int
door_takes(PyObject *tiles, int base, long long packed, unsigned char seen[DOOR_MAX_ACTIONS],
           short order[DOOR_MAX_ACTIONS], Py_ssize_t *total)
{
    int present = 0;
    Py_ssize_t size = PyTuple_GET_SIZE(tiles);
    for (Py_ssize_t i = 0; i < size; i++) {
        int c = color_index(PyTuple_GET_ITEM(tiles, i));
        if (c < 0) {
            return -1;
        }
        present |= 1 << c;
    }
    for (int c = 0; c < NCOLORS; c++) {
        if (present >> c & 1) {
            const signed char *dests = DOOR_DESTS[c][packed >> (5 * c) & 31];
            for (int k = 0; dests[k] >= 0; k++) {
                seen[base + c * 6 + dests[k]] = 1;
                order[(*total)++] = (short)(base + c * 6 + dests[k]);
            }
        }
    }
    return 0;
}

/* legal_ids in the factory offer, without building the moves: the takes
 * GameState.legal_moves lists (the compiled one's tables, read the same way), in
 * ``order`` too, ascending (sources, colours and destinations come in id order); 1 when
 * the state is not as legal_moves reads it there (legal_ids then asks it). */
static int
door_offer_ids(PyObject *state, int factories, unsigned char seen[DOOR_MAX_ACTIONS],
               short order[DOOR_MAX_ACTIONS], Py_ssize_t *total)
{
    PyObject *context = SLOT(state, S_CONTEXT);
    PyObject *players = tuple_slot(state, S_PLAYERS);
    PyObject *shown = tuple_slot(state, S_FACTORIES);
    PyObject *center = tuple_slot(state, S_CENTER);
    long long current, packed;
    if (!door_fast || context == NULL || Py_TYPE(context) != RoundContext_T
        || SLOT(context, S_PHASE) != FACTORY_OFFER || players == NULL || shown == NULL
        || center == NULL || PyTuple_GET_SIZE(shown) != factories
        || int_in(SLOT(state, S_CURRENT), 0, PyTuple_GET_SIZE(players) - 1, &current) < 0) {
        return 1;
    }
    PyObject *board = PyTuple_GET_ITEM(players, current);
    if (Py_TYPE(board) != PlayerBoard_T
        || int_in(SLOT(board, S_ACCEPTING), 0, ((long long)1 << 25) - 1, &packed) < 0) {
        return 1;
    }
    memset(seen, 0, DOOR_MAX_ACTIONS);
    *total = 0;
    for (int f = 0; f < factories; f++) {
        PyObject *tiles = PyTuple_GET_ITEM(shown, f);
        if (!PyTuple_CheckExact(tiles)
            || door_takes(tiles, f * DOOR_TAKES, packed, seen, order, total) < 0) {
            return 1;
        }
    }
    return door_takes(center, factories * DOOR_TAKES, packed, seen, order, total) < 0 ? 1 : 0;
}

/* The action ids of ``state.legal_moves()``, counted in ``seen`` (``*total`` of them):
 * 0 when read, 1 when a move or the state is not as expected (the Python reference
 * then answers), -1 with an exception from legal_moves itself. */
static int
legal_ids(PyObject *state, int factories, unsigned char seen[DOOR_MAX_ACTIONS],
          Py_ssize_t *total, short order[DOOR_MAX_ACTIONS], int *ordered)
{
    if (door_offer_ids(state, factories, seen, order, total) == 0) {
        *ordered = 1;
        return 0;
    }
    *ordered = 0;
    PyObject *moves = PyObject_CallMethodNoArgs(state, LEGAL_MOVES_NAME);
    if (moves == NULL) {
        return -1;
    }
    if (!PyTuple_CheckExact(moves)) {
        Py_DECREF(moves);
        return 1;
    }
    Py_ssize_t size = PyTuple_GET_SIZE(moves);
    memset(seen, 0, DOOR_MAX_ACTIONS);
    for (Py_ssize_t i = 0; i < size; i++) {
        PyObject *move = PyTuple_GET_ITEM(moves, i);
        long long id;
        if (Py_TYPE(move) == Take_T) {
            long long source, line;
            int c = color_index(SLOT(move, S_COLOR));
            if (int_in(SLOT(move, S_SOURCE), CENTER, factories - 1, &source) < 0 || c < 0
                || int_in(SLOT(move, S_LINE), FLOOR_LINE, NLINES - 1, &line) < 0) {
                Py_DECREF(moves);
                return 1;
            }
            id = (source == CENTER ? factories : source) * DOOR_TAKES + c * 6
                 + (line == FLOOR_LINE ? 5 : line);
        }
        else if (Py_TYPE(move) == PlaceTile_T) {
            long long line, column;
            if (int_in(SLOT(move, S_PLINE), 0, NLINES - 1, &line) < 0
                || int_in(SLOT(move, S_PCOLUMN), 0, 4, &column) < 0) {
                Py_DECREF(moves);
                return 1;
            }
            id = (factories + 1) * DOOR_TAKES + line * 5 + column;
        }
        else {
            Py_DECREF(moves);
            return 1;
        }
        if (seen[id] == 255) {
            Py_DECREF(moves);
            return 1;
        }
        seen[id]++;
    }
    Py_DECREF(moves);
    *total = size;
    return 0;
}

/* The player count of a GameState whose players slot is a tuple of 2-4, or 0. */
static int
door_players(PyObject *state)
{
    PyObject *players = tuple_slot(state, S_PLAYERS);
    if (players == NULL) {
        return 0;
    }
    Py_ssize_t count = PyTuple_GET_SIZE(players);
    return (count >= 2 && count <= 4) ? (int)count : 0;
}

static PyObject *
door_legal_actions(PyObject *Py_UNUSED(module), PyObject *const *args, Py_ssize_t nargs,
                   PyObject *kwnames)
{
    if (PY_LEGAL_ACTIONS == NULL || nargs != 1 || kwnames != NULL
        || Py_TYPE(args[0]) != GameState_T) {
        return door_fall_back(PY_LEGAL_ACTIONS, args, nargs, kwnames);
    }
    int players = door_players(args[0]);
    if (players == 0) {
        return door_fall_back(PY_LEGAL_ACTIONS, args, nargs, kwnames);
    }
    unsigned char seen[DOOR_MAX_ACTIONS];
    short order[DOOR_MAX_ACTIONS];
    Py_ssize_t total = 0;
    int ordered;
    int status = legal_ids(args[0], 2 * players + 1, seen, &total, order, &ordered);
    if (status != 0) {
        return status < 0 ? NULL : door_fall_back(PY_LEGAL_ACTIONS, args, nargs, kwnames);
    }
    PyObject *out = PyList_New(total);
    if (out == NULL) {
        return NULL;
    }
    if (ordered) {  /* the ids in order, each once */
        for (Py_ssize_t i = 0; i < total; i++) {
            Py_INCREF(DOOR_INTS[order[i]]);
            PyList_SET_ITEM(out, i, DOOR_INTS[order[i]]);
        }
        return out;
    }
    Py_ssize_t at = 0;
    for (int id = 0; id < DOOR_MAX_ACTIONS && at < total; id++) {
        for (int k = 0; k < seen[id]; k++) {
            Py_INCREF(DOOR_INTS[id]);
            PyList_SET_ITEM(out, at++, DOOR_INTS[id]);
        }
    }
    return out;
}

/* Counts tiles (a tuple of Colors) into ``out`` as floats; -1 when one is not a Color. */
static int
door_count(PyObject *tiles, float *out)
{
    if (tiles == NULL || !PyTuple_CheckExact(tiles)) {
        return -1;
    }
    Py_ssize_t size = PyTuple_GET_SIZE(tiles);
    for (Py_ssize_t i = 0; i < size; i++) {
        int c = color_index(PyTuple_GET_ITEM(tiles, i));
        if (c < 0) {
            return -1;
        }
        out[c] += 1.0f;
    }
    return 0;
}

/* actions._board_vector: 157 floats from a board; -1 when it is not as expected. */
static int
door_board(PyObject *board, float *out)
{
    long long score;
    if (Py_TYPE(board) != PlayerBoard_T
        || int_in(SLOT(board, S_SCORE), -DOOR_EXACT_FLOAT, DOOR_EXACT_FLOAT, &score) < 0) {
        return -1;
    }
    out[0] = (float)score;
    PyObject *lines = tuple_slot(board, S_LINES);
    if (lines == NULL || PyTuple_GET_SIZE(lines) != NLINES) {
        return -1;
    }
    for (int i = 0; i < NLINES; i++) {
        PyObject *line = PyTuple_GET_ITEM(lines, i);
        if (Py_TYPE(line) != PatternLine_T) {
            return -1;
        }
        PyObject *color = SLOT(line, S_LCOLOR);
        if (color == NULL) {
            return -1;
        }
        if (color != Py_None) {
            long long count;
            int c = color_index(color);
            if (c < 0 || int_in(SLOT(line, S_LCOUNT), 0, DOOR_EXACT_FLOAT, &count) < 0) {
                return -1;
            }
            out[1 + i * NCOLORS + c] = (float)count;
        }
    }
    PyObject *wall = tuple_slot(board, S_WALL);
    if (wall == NULL || PyTuple_GET_SIZE(wall) != 5) {
        return -1;
    }
    for (int row = 0; row < 5; row++) {
        PyObject *cells = PyTuple_GET_ITEM(wall, row);
        if (!PyTuple_CheckExact(cells) || PyTuple_GET_SIZE(cells) != 5) {
            return -1;
        }
        for (int column = 0; column < 5; column++) {
            PyObject *tile = PyTuple_GET_ITEM(cells, column);
            if (tile != Py_None) {
                int c = color_index(tile);
                if (c < 0) {
                    return -1;
                }
                out[26 + (row * 5 + column) * NCOLORS + c] = 1.0f;
            }
        }
    }
    PyObject *floor = tuple_slot(board, S_FLOOR);
    if (floor == NULL) {
        return -1;
    }
    Py_ssize_t size = PyTuple_GET_SIZE(floor);
    for (Py_ssize_t i = 0; i < size; i++) {
        PyObject *item = PyTuple_GET_ITEM(floor, i);
        if (item == MARKER) {
            out[156] = 1.0f;
            continue;
        }
        int c = color_index(item);
        if (c < 0) {
            return -1;
        }
        out[151 + c] += 1.0f;
    }
    return 0;
}

/* actions.observation into ``out`` (zeroed, ``door_observation_size(players)`` floats);
 * -1 when a part of the state is not as expected. */
static int
door_observation(PyObject *state, int players, int player, float *out)
{
    PyObject *boards = SLOT(state, S_PLAYERS);
    for (int seat = 0; seat < players; seat++) {
        if (door_board(PyTuple_GET_ITEM(boards, (player + seat) % players),
                       out + seat * DOOR_BOARD) < 0) {
            return -1;
        }
    }
    int factories = 2 * players + 1;
    float *at = out + players * DOOR_BOARD;
    PyObject *shown = tuple_slot(state, S_FACTORIES);
    if (shown == NULL || PyTuple_GET_SIZE(shown) != factories) {
        return -1;
    }
    for (int f = 0; f < factories; f++) {
        if (door_count(PyTuple_GET_ITEM(shown, f), at + f * NCOLORS) < 0) {
            return -1;
        }
    }
    at += factories * NCOLORS;
    if (door_count(SLOT(state, S_CENTER), at) < 0) {
        return -1;
    }
    at += NCOLORS;
    PyObject *context = SLOT(state, S_CONTEXT);
    PyObject *marker = SLOT(state, S_MARKER);
    if (context == NULL || Py_TYPE(context) != RoundContext_T || marker == NULL) {
        return -1;
    }
    PyObject *phase = SLOT(context, S_PHASE);
    PyObject *phases[4] = {FACTORY_OFFER, WALL_TILING, REFILL_PHASE, GAME_OVER_PHASE};
    int phase_index = -1;
    for (int p = 0; p < 4; p++) {
        if (phase == phases[p]) {
            phase_index = p;
        }
    }
    long long round, current, start;
    if (phase_index < 0 || door_count(SLOT(context, S_BAG), at + 1) < 0
        || door_count(SLOT(context, S_LID), at + 1 + NCOLORS) < 0
        || int_in(SLOT(context, S_ROUND), -DOOR_EXACT_FLOAT, DOOR_EXACT_FLOAT, &round) < 0
        || int_in(SLOT(state, S_CURRENT), 0, players - 1, &current) < 0
        || int_in(SLOT(context, S_START), 0, players - 1, &start) < 0) {
        return -1;
    }
    at[0] = (marker == Py_None && phase == FACTORY_OFFER) ? 1.0f : 0.0f;
    at += 1 + 2 * NCOLORS;
    at[0] = (float)round;
    at[1 + phase_index] = 1.0f;
    at += 5;
    if (phase != GAME_OVER_PHASE) {
        at[(current - player + players) % players] = 1.0f;
    }
    at[players + (start - player + players) % players] = 1.0f;
    return 0;
}

static Py_ssize_t
door_observation_size(int players)
{
    return players * DOOR_BOARD + 5 * (2 * players + 1) + 21 + 2 * players;
}

/* A writable C-contiguous buffer of ``count`` items of ``itemsize`` bytes whose format
 * is one of ``formats``: 0 with the view held, 1 (no exception) otherwise. */
static int
door_buffer(PyObject *obj, Py_buffer *view, Py_ssize_t itemsize, const char *const *formats,
            Py_ssize_t count)
{
    if (PyObject_GetBuffer(obj, view, PyBUF_WRITABLE | PyBUF_FORMAT | PyBUF_C_CONTIGUOUS)
        < 0) {
        PyErr_Clear();
        return 1;
    }
    int known = 0;
    for (const char *const *format = formats; *format != NULL; format++) {
        known |= view->format != NULL && strcmp(view->format, *format) == 0;
    }
    if (!known || view->itemsize != itemsize || view->len != count * itemsize) {
        PyBuffer_Release(view);
        return 1;
    }
    return 0;
}

static const char *const FLOAT_FORMATS[] = {"f", NULL};
static const char *const BYTE_FORMATS[] = {"b", "B", NULL};

static PyObject *
door_observe_into(PyObject *Py_UNUSED(module), PyObject *const *args, Py_ssize_t nargs,
                  PyObject *kwnames)
{
    if (PY_OBSERVE_INTO == NULL || nargs < 3 || nargs > 4 || kwnames != NULL
        || Py_TYPE(args[0]) != GameState_T || !PyLong_CheckExact(args[1])) {
        return door_fall_back(PY_OBSERVE_INTO, args, nargs, kwnames);
    }
    PyObject *state = args[0];
    PyObject *mask = nargs == 4 ? args[3] : Py_None;
    int players = door_players(state);
    long long player;
    if (players == 0 || int_in(args[1], 0, players - 1, &player) < 0) {
        return door_fall_back(PY_OBSERVE_INTO, args, nargs, kwnames);
    }
    float values[DOOR_MAX_OBSERVATION];
    Py_ssize_t size = door_observation_size(players);
    memset(values, 0, sizeof(values));
    if (door_observation(state, players, (int)player, values) < 0) {
        return door_fall_back(PY_OBSERVE_INTO, args, nargs, kwnames);
    }
    unsigned char seen[DOOR_MAX_ACTIONS];
    Py_ssize_t actions = 0;
    if (mask != Py_None) {
        PyObject *context = SLOT(state, S_CONTEXT);
        PyObject *variant = SLOT(context, S_VARIANT);
        int factories = 2 * players + 1;
        if (variant != GREY && variant != COLORED_VARIANT) {
            return door_fall_back(PY_OBSERVE_INTO, args, nargs, kwnames);
        }
        actions = (factories + 1) * DOOR_TAKES + (variant == GREY ? 25 : 0);
        Py_ssize_t total = 0;
        short order[DOOR_MAX_ACTIONS];
        int ordered;
        int status = legal_ids(state, factories, seen, &total, order, &ordered);
        if (status < 0) {
            return NULL;
        }
        for (Py_ssize_t id = actions; id < DOOR_MAX_ACTIONS && status == 0; id++) {
            status = seen[id] ? 1 : 0;  /* an id past the mask: the reference raises */
        }
        if (status != 0) {
            return door_fall_back(PY_OBSERVE_INTO, args, nargs, kwnames);
        }
    }
    Py_buffer vector_view, mask_view;
    if (door_buffer(args[2], &vector_view, 4, FLOAT_FORMATS, size) != 0) {
        return door_fall_back(PY_OBSERVE_INTO, args, nargs, kwnames);
    }
    if (mask != Py_None && door_buffer(mask, &mask_view, 1, BYTE_FORMATS, actions) != 0) {
        PyBuffer_Release(&vector_view);
        return door_fall_back(PY_OBSERVE_INTO, args, nargs, kwnames);
    }
    memcpy(vector_view.buf, values, (size_t)size * sizeof(float));
    PyBuffer_Release(&vector_view);
    if (mask != Py_None) {
        unsigned char *bytes = mask_view.buf;
        for (Py_ssize_t id = 0; id < actions; id++) {
            bytes[id] = seen[id] ? 1 : 0;
        }
        PyBuffer_Release(&mask_view);
    }
    Py_RETURN_NONE;
}

/* Five exact ints in 0 .. DOOR_MOST_TILES from a tuple; -1 otherwise. */
static int
door_counts(PyObject *obj, long long out[NCOLORS])
{
    if (!PyTuple_CheckExact(obj) || PyTuple_GET_SIZE(obj) != NCOLORS) {
        return -1;
    }
    for (int c = 0; c < NCOLORS; c++) {
        if (int_in(PyTuple_GET_ITEM(obj, c), 0, DOOR_MOST_TILES, &out[c]) < 0) {
            return -1;
        }
    }
    return 0;
}

/* math.comb(n, k) for k <= 4 and n <= 5,000 (exact in 64 bits). */
static long long
door_comb(long long n, int k)
{
    long long out = 1;
    for (int i = 0; i < k; i++) {
        out = out * (n - i) / (i + 1);
    }
    return k > n ? 0 : out;
}

/* Adds to ``probability``, by deal id, the deals of ``size`` tiles drawn from
 * ``supply`` (``total`` tiles), each on top of the ``kept`` tiles (deals._draws). */
static void
door_draws(const long long supply[NCOLORS], const long long kept[NCOLORS], int size,
           long long total, double probability[DOOR_DEALS], int found[DOOR_DEALS])
{
    long long ways[NCOLORS][NLINES];  /* ways[c][k]: math.comb(supply[c], k), k <= 4 */
    for (int c = 0; c < NCOLORS; c++) {
        for (int k = 0; k <= 4; k++) {
            ways[c][k] = door_comb(supply[c], k);
        }
    }
    int keep = 0;
    for (int c = 0; c < NCOLORS; c++) {
        keep = keep * 5 + (int)kept[c];
    }
    double all = (double)door_comb(total, size);
    for (int id = DEAL_FIRST[size]; id < DEAL_FIRST[size] + DEAL_SPAN[size]; id++) {
        const int *counts = DEAL_COUNT[id];
        long long number = ways[0][counts[0]] * ways[1][counts[1]] * ways[2][counts[2]]
                           * ways[3][counts[3]] * ways[4][counts[4]];
        if (number > 0) {
            int dealt = DEAL_BY_COUNTS[DEAL_NUMBER[id] + keep];
            found[dealt] = 1;
            probability[dealt] = (double)number / all;
        }
    }
}

static PyObject *
door_deal_outcomes(PyObject *Py_UNUSED(module), PyObject *const *args, Py_ssize_t nargs,
                   PyObject *kwnames)
{
    long long bag[NCOLORS], lid[NCOLORS];
    if (PY_DEAL_OUTCOMES == NULL || nargs != 2 || kwnames != NULL
        || door_counts(args[0], bag) < 0 || door_counts(args[1], lid) < 0) {
        return door_fall_back(PY_DEAL_OUTCOMES, args, nargs, kwnames);
    }
    double probability[DOOR_DEALS];
    int found[DOOR_DEALS] = {0};
    long long tiles = 0, left = 0;
    for (int c = 0; c < NCOLORS; c++) {
        tiles += bag[c];
        left += lid[c];
    }
    static const long long none[NCOLORS] = {0, 0, 0, 0, 0};
    if (tiles >= 4) {
        door_draws(bag, none, 4, tiles, probability, found);
    }
    else {
        long long want = 4 - tiles < left ? 4 - tiles : left;
        if (want == left) {  /* everything left goes to this factory */
            if (tiles + left > 0) {
                int index = 0;
                for (int c = 0; c < NCOLORS; c++) {
                    index = index * 5 + (int)(bag[c] + lid[c]);
                }
                found[DEAL_BY_COUNTS[index]] = 1;
                probability[DEAL_BY_COUNTS[index]] = 1.0;
            }
        }
        else {
            door_draws(lid, bag, (int)want, left, probability, found);
        }
    }
    Py_ssize_t count = 0;
    for (int id = 0; id < DOOR_DEALS; id++) {
        count += found[id];
    }
    PyObject *out = PyList_New(count);
    if (out == NULL) {
        return NULL;
    }
    Py_ssize_t at = 0;
    for (int id = 0; id < DOOR_DEALS; id++) {
        if (!found[id]) {
            continue;
        }
        PyObject *chance = PyFloat_FromDouble(probability[id]);
        PyObject *pair = chance == NULL ? NULL : PyTuple_New(2);
        if (pair == NULL) {
            Py_XDECREF(chance);
            Py_DECREF(out);
            return NULL;
        }
        Py_INCREF(DOOR_INTS[id]);
        PyTuple_SET_ITEM(pair, 0, DOOR_INTS[id]);
        PyTuple_SET_ITEM(pair, 1, chance);
        PyList_SET_ITEM(out, at++, pair);
    }
    return out;
}

/* azul_rules.spiel._step: python_azul's two hot paths (a legal move, a deal), or None
 * for the general path of AzulState._apply_action.  A position is spiel._Position, a
 * 9-tuple (referee, player, kit, started, capped, filling, dealt, bag, lid); the kit a
 * spiel._Kit.  Set up by spiel.py (doors_setup with "spiel_step" and its parts). */

static PyTypeObject *Position_T, *Kit_T;
static Py_ssize_t K_LIMIT, K_MOVES, K_STEPS, K_FACTORIES;
static PyObject *PY_SPIEL_STEP, *PY_SPIEL_SETTLE, *PY_SPIEL_FINISH, *NO_TILES;
static PyObject *DEAL_TILES[DOOR_DEALS];
#define POSITION_FIELDS 9

/* A new spiel._Position from its nine fields (references taken, none stolen). */
static PyObject *
door_position(PyObject *const fields[POSITION_FIELDS])
{
    PyObject *position = Position_T->tp_alloc(Position_T, POSITION_FIELDS);
    if (position == NULL) {
        return NULL;
    }
    for (int i = 0; i < POSITION_FIELDS; i++) {
        Py_INCREF(fields[i]);
        PyTuple_SET_ITEM(position, i, fields[i]);
    }
    return position;
}

/* A tuple of five ints from C values. */
static PyObject *
door_five(const long long counts[NCOLORS])
{
    PyObject *out = PyTuple_New(NCOLORS);
    for (int c = 0; out != NULL && c < NCOLORS; c++) {
        PyObject *n = PyLong_FromLongLong(counts[c]);
        if (n == NULL) {
            Py_CLEAR(out);
            break;
        }
        PyTuple_SET_ITEM(out, c, n);
    }
    return out;
}

/* The player's hot path of _step; NULL with an error, or a new reference (None: the
 * general path).  ``fall_back`` is set when the reference must answer instead. */
static PyObject *
door_spiel_move(PyObject *position, long long action, int *fall_back)
{
    PyObject *referee = PyTuple_GET_ITEM(position, 0);
    PyObject *kit = PyTuple_GET_ITEM(position, 2);
    long long limit;
    if (Py_TYPE(kit) != Kit_T || int_in(SLOT(kit, K_LIMIT), 0, DOOR_MAX_ACTIONS, &limit) < 0) {
        *fall_back = 1;
        return NULL;
    }
    if (action < 0 || action >= limit) {
        Py_RETURN_NONE;
    }
    PyObject *moves = SLOT(kit, K_MOVES), *steps = SLOT(kit, K_STEPS);
    if (moves == NULL || steps == NULL || !PyTuple_CheckExact(moves)
        || !PyTuple_CheckExact(steps) || PyTuple_GET_SIZE(moves) < limit
        || PyTuple_GET_SIZE(steps) < limit || Py_TYPE(referee) != GameState_T
        || SLOT(referee, S_CONTEXT) == NULL
        || Py_TYPE(SLOT(referee, S_CONTEXT)) != RoundContext_T) {
        *fall_back = 1;
        return NULL;
    }
    PyObject *call[] = {referee, PyTuple_GET_ITEM(moves, action)};
    PyObject *after = PyObject_Vectorcall(PyTuple_GET_ITEM(steps, action), call, 2, NULL);
    if (after == NULL || after == Py_None) {
        return after;
    }
    PyObject *context = Py_TYPE(after) == GameState_T ? SLOT(after, S_CONTEXT) : NULL;
    if (context == NULL || Py_TYPE(context) != RoundContext_T
        || SLOT(after, S_CURRENT) == NULL) {
        Py_DECREF(after);
        *fall_back = 1;
        return NULL;
    }
    PyObject *phase = SLOT(context, S_PHASE);
    PyObject *result;
    if (phase == FACTORY_OFFER || phase == WALL_TILING) {
        PyObject *fields[POSITION_FIELDS] = {
            after, SLOT(after, S_CURRENT), kit, Py_True, Py_False, Py_False, EMPTY_TUPLE,
            PyTuple_GET_ITEM(position, 7), NO_TILES,
        };
        result = door_position(fields);
    }
    else {
        int same = SLOT(context, S_BAG) == SLOT(SLOT(referee, S_CONTEXT), S_BAG);
        PyObject *args[] = {after, kit, same ? PyTuple_GET_ITEM(position, 7) : Py_None};
        result = PyObject_Vectorcall(PY_SPIEL_SETTLE, args, 3, NULL);
    }
    Py_DECREF(after);
    return result;
}

/* The deal's hot path of _step (deals.deal_counted, then the next position). */
static PyObject *
door_spiel_deal(PyObject *position, long long action, int *fall_back)
{
    long long bag[NCOLORS], lid[NCOLORS];
    long long factories;
    PyObject *kit = PyTuple_GET_ITEM(position, 2);
    PyObject *dealt = PyTuple_GET_ITEM(position, 6);
    if (door_counts(PyTuple_GET_ITEM(position, 7), bag) < 0
        || door_counts(PyTuple_GET_ITEM(position, 8), lid) < 0 || Py_TYPE(kit) != Kit_T
        || int_in(SLOT(kit, K_FACTORIES), 0, MAX_FACTORIES, &factories) < 0
        || !PyTuple_CheckExact(dealt)) {
        *fall_back = 1;
        return NULL;
    }
    const int *k = DEAL_COUNT[action];
    long long tiles = 0, left = 0, size = 0;
    long long after_bag[NCOLORS], after_lid[NCOLORS];
    int fits = 1, poured = 0;
    for (int c = 0; c < NCOLORS; c++) {
        tiles += bag[c];
        left += lid[c];
        size += k[c];
    }
    if (tiles >= 4) {  /* four tiles drawn from the bag */
        fits = action < DOOR_FULL_DEALS;
        for (int c = 0; c < NCOLORS; c++) {
            fits &= k[c] <= bag[c];
            after_bag[c] = bag[c] - k[c];
        }
    }
    else {  /* the bag runs out: its tiles, then the lid poured into it */
        long long want = 4 - tiles < left ? 4 - tiles : left;
        fits = size == tiles + want;
        for (int c = 0; c < NCOLORS; c++) {
            long long drawn = k[c] - bag[c];
            fits &= drawn >= 0 && drawn <= lid[c];
            after_bag[c] = lid[c] - drawn;
            after_lid[c] = 0;
        }
        poured = 1;
    }
    if (!fits) {
        Py_RETURN_NONE;
    }
    PyObject *new_bag = door_five(after_bag);
    PyObject *new_lid = poured ? door_five(after_lid) : PyTuple_GET_ITEM(position, 8);
    PyObject *new_dealt = new_bag != NULL && new_lid != NULL
                              ? tuple_plus(dealt, DEAL_TILES[action], 1) : NULL;
    if (!poured) {
        Py_INCREF(new_lid);
    }
    PyObject *result = NULL;
    if (new_dealt != NULL) {
        int any = 0;
        for (int c = 0; c < NCOLORS; c++) {
            any |= after_bag[c] != 0 || (poured ? 0 : lid[c] != 0);
        }
        if (PyTuple_GET_SIZE(new_dealt) < factories && any) {
            PyObject *fields[POSITION_FIELDS] = {
                PyTuple_GET_ITEM(position, 0), PyTuple_GET_ITEM(position, 1), kit, Py_True,
                Py_False, Py_True, new_dealt, new_bag, new_lid,
            };
            result = door_position(fields);
        }
        else {
            PyObject *args[] = {position, new_dealt, new_bag, new_lid};
            result = PyObject_Vectorcall(PY_SPIEL_FINISH, args, 4, NULL);
        }
    }
    Py_XDECREF(new_bag);
    Py_XDECREF(new_lid);
    Py_XDECREF(new_dealt);
    return result;
}

static PyObject *
door_spiel_step(PyObject *Py_UNUSED(module), PyObject *const *args, Py_ssize_t nargs,
                PyObject *kwnames)
{
    if (PY_SPIEL_STEP == NULL || nargs != 2 || kwnames != NULL
        || Py_TYPE(args[0]) != Position_T || PyTuple_GET_SIZE(args[0]) != POSITION_FIELDS) {
        return door_fall_back(PY_SPIEL_STEP, args, nargs, kwnames);
    }
    PyObject *position = args[0];
    long long action, player;
    if (!PyLong_CheckExact(args[1])) {
        return door_fall_back(PY_SPIEL_STEP, args, nargs, kwnames);
    }
    if (int_in(args[1], LLONG_MIN + 1, LLONG_MAX, &action) < 0
        || int_in(PyTuple_GET_ITEM(position, 1), -100, 100, &player) < 0) {
        return door_fall_back(PY_SPIEL_STEP, args, nargs, kwnames);
    }
    int fall_back = 0;
    PyObject *result;
    if (player >= 0) {
        result = door_spiel_move(position, action, &fall_back);
    }
    else if (player != -1 || PyTuple_GET_ITEM(position, 5) != Py_True || action < 0
             || action >= DOOR_DEALS) {
        if (player == -1 && PyTuple_GET_ITEM(position, 5) != Py_True
            && PyTuple_GET_ITEM(position, 5) != Py_False) {
            return door_fall_back(PY_SPIEL_STEP, args, nargs, kwnames);
        }
        Py_RETURN_NONE;
    }
    else {
        result = door_spiel_deal(position, action, &fall_back);
    }
    if (fall_back) {
        return door_fall_back(PY_SPIEL_STEP, args, nargs, kwnames);
    }
    return result;
}

/* Keeps ``namespace[name]`` in ``*slot`` when given (a module reloaded gives it again:
 * the new one replaces the old); always 0. */
static int
door_entry(PyObject *namespace, const char *name, PyObject **slot)
{
    PyObject *value = PyDict_GetItemString(namespace, name);
    if (value != NULL) {
        Py_INCREF(value);
        Py_XSETREF(*slot, value);
    }
    return 0;
}

/* The deal table: DEAL_COUNTS from deals.py, checked against its own rules. */
static int
door_deal_table(PyObject *table)
{
    if (!PyTuple_CheckExact(table) || PyTuple_GET_SIZE(table) != DOOR_DEALS) {
        PyErr_SetString(PyExc_TypeError, "doors_setup: DEAL_COUNTS is 125 tuples of counts");
        return -1;
    }
    for (int size = 0; size < NLINES; size++) {  /* a module reloaded sets it up again */
        DEAL_FIRST[size] = DEAL_SPAN[size] = 0;
    }
    for (int i = 0; i < 3125; i++) {
        DEAL_BY_COUNTS[i] = -1;
    }
    for (int id = 0; id < DOOR_DEALS; id++) {
        long long counts[NCOLORS];
        if (door_counts(PyTuple_GET_ITEM(table, id), counts) < 0) {
            PyErr_SetString(PyExc_TypeError, "doors_setup: DEAL_COUNTS holds five counts");
            return -1;
        }
        int size = 0, index = 0;
        for (int c = 0; c < NCOLORS; c++) {
            DEAL_COUNT[id][c] = (int)counts[c];
            size += (int)counts[c];
            index = index * 5 + (int)counts[c];
        }
        if (size < 1 || size > 4 || DEAL_BY_COUNTS[index] >= 0
            || (id < DOOR_FULL_DEALS) != (size == 4)) {
            PyErr_SetString(PyExc_ValueError, "doors_setup: DEAL_COUNTS is not the deal table");
            return -1;
        }
        DEAL_SIZE[id] = size;
        DEAL_NUMBER[id] = index;
        DEAL_BY_COUNTS[index] = id;
        if (DEAL_SPAN[size] == 0) {
            DEAL_FIRST[size] = id;
        }
        else if (DEAL_FIRST[size] + DEAL_SPAN[size] != id) {
            PyErr_SetString(PyExc_ValueError, "doors_setup: DEAL_COUNTS is not by size");
            return -1;
        }
        DEAL_SPAN[size]++;
    }
    return 0;
}

/* DOOR_DESTS from TAKE_OPTIONS; door_fast = 1 when every source's takes are the
 * source's own, of the colour, in the same destinations.  -1 with an error only for a
 * failure of Python itself. */
static int
door_read_dests(void)
{
    door_fast = 0;
    for (int s = 0; s <= MAX_FACTORIES; s++) {
        long long source = s == MAX_FACTORIES ? CENTER : s;
        for (int c = 0; c < NCOLORS; c++) {
            for (int m = 0; m < 32; m++) {
                PyObject *takes = TAKE_OPTIONS[s][c][m];
                Py_ssize_t size = PyTuple_GET_SIZE(takes);
                if (size > NLINES + 1) {
                    return 0;
                }
                for (Py_ssize_t k = 0; k < size; k++) {
                    PyObject *move = PyTuple_GET_ITEM(takes, k);
                    long long from, line;
                    if (Py_TYPE(move) != Take_T || SLOT(move, S_MOVE_PLAYER) != Py_None
                        || int_in(SLOT(move, S_SOURCE), CENTER, MAX_FACTORIES, &from) < 0
                        || from != source || color_index(SLOT(move, S_COLOR)) != c
                        || int_in(SLOT(move, S_LINE), FLOOR_LINE, NLINES - 1, &line) < 0) {
                        return 0;
                    }
                    signed char dest = (signed char)(line == FLOOR_LINE ? 5 : line);
                    if ((s > 0 && DOOR_DESTS[c][m][k] != dest)
                        || (k > 0 && DOOR_DESTS[c][m][k - 1] >= dest)) {
                        return 0;  /* not the same for every source, or not in id order */
                    }
                    DOOR_DESTS[c][m][k] = dest;
                }
                if (s > 0 && DOOR_DESTS[c][m][size] != -1) {
                    return 0;
                }
                DOOR_DESTS[c][m][size] = -1;
            }
        }
    }
    door_fast = 1;
    return 0;
}

/* python_azul's parts for door_spiel_step (spiel.py gives them, after the deal table). */
static int
door_spiel_setup(PyObject *namespace)
{
    PyObject *position = PyDict_GetItemString(namespace, "Position");
    PyObject *kit = PyDict_GetItemString(namespace, "Kit");
    PyObject *tiles = PyDict_GetItemString(namespace, "DEALS");
    if (position == NULL || kit == NULL || tiles == NULL || !PyType_Check(position)
        || !PyType_Check(kit) || !PyType_IsSubtype((PyTypeObject *)position, &PyTuple_Type)
        || !PyTuple_CheckExact(tiles) || PyTuple_GET_SIZE(tiles) != DOOR_DEALS
        || DEAL_SIZE[0] == 0) {
        PyErr_SetString(PyExc_TypeError,
                        "doors_setup: spiel_step needs Position, Kit, DEALS (deals first)");
        return -1;
    }
    Py_ssize_t offsets[4];
    const char *names[4] = {"limit", "moves", "steps", "factories"};
    for (int i = 0; i < 4; i++) {
        if ((offsets[i] = slot_offset((PyTypeObject *)kit, names[i])) < 0) {
            return -1;
        }
    }
    K_LIMIT = offsets[0];
    K_MOVES = offsets[1];
    K_STEPS = offsets[2];
    K_FACTORIES = offsets[3];
    for (int id = 0; id < DOOR_DEALS; id++) {
        Py_INCREF(PyTuple_GET_ITEM(tiles, id));
        Py_XSETREF(DEAL_TILES[id], PyTuple_GET_ITEM(tiles, id));
    }
    Py_INCREF(position);
    Py_XSETREF(Position_T, (PyTypeObject *)position);
    Py_INCREF(kit);
    Py_XSETREF(Kit_T, (PyTypeObject *)kit);
    if (door_entry(namespace, "settle", &PY_SPIEL_SETTLE) < 0
        || door_entry(namespace, "finish", &PY_SPIEL_FINISH) < 0
        || door_entry(namespace, "NO_TILES", &NO_TILES) < 0
        || door_entry(namespace, "spiel_step", &PY_SPIEL_STEP) < 0) {
        return -1;
    }
    if (PY_SPIEL_SETTLE == NULL || PY_SPIEL_FINISH == NULL || NO_TILES == NULL) {
        PyErr_SetString(PyExc_KeyError, "doors_setup: spiel_step needs settle, finish, NO_TILES");
        return -1;
    }
    return 0;
}

static PyObject *
doors_setup(PyObject *Py_UNUSED(module), PyObject *namespace)
{
    if (!ready) {
        PyErr_SetString(PyExc_RuntimeError, "azul_rules.core._speedups.setup() first");
        return NULL;
    }
    if (!PyDict_Check(namespace)) {
        PyErr_SetString(PyExc_TypeError, "doors_setup(namespace: dict)");
        return NULL;
    }
    if (DOOR_INTS[0] == NULL) {
        for (int i = 0; i < DOOR_MAX_ACTIONS; i++) {
            if ((DOOR_INTS[i] = PyLong_FromLong(i)) == NULL) {
                return NULL;
            }
        }
        if ((LEGAL_MOVES_NAME = PyUnicode_InternFromString("legal_moves")) == NULL) {
            return NULL;
        }
    }
    if (door_read_dests() < 0) {
        return NULL;
    }
    PyObject *deal_counts = PyDict_GetItemString(namespace, "DEAL_COUNTS");
    if (deal_counts != NULL && door_deal_table(deal_counts) < 0) {
        return NULL;
    }
    if (door_entry(namespace, "REFILL", &REFILL_PHASE) < 0
        || door_entry(namespace, "GAME_OVER", &GAME_OVER_PHASE) < 0
        || door_entry(namespace, "COLORED", &COLORED_VARIANT) < 0
        || door_entry(namespace, "legal_actions", &PY_LEGAL_ACTIONS) < 0
        || door_entry(namespace, "observe_into", &PY_OBSERVE_INTO) < 0
        || door_entry(namespace, "deal_outcomes", &PY_DEAL_OUTCOMES) < 0) {
        return NULL;
    }
    if (PyDict_GetItemString(namespace, "spiel_step") != NULL && door_spiel_setup(namespace) < 0) {
        return NULL;
    }
    if ((PY_LEGAL_ACTIONS != NULL || PY_OBSERVE_INTO != NULL)
        && (REFILL_PHASE == NULL || GAME_OVER_PHASE == NULL || COLORED_VARIANT == NULL)) {
        PyErr_SetString(PyExc_KeyError, "doors_setup needs REFILL, GAME_OVER and COLORED");
        return NULL;
    }
    if (PY_DEAL_OUTCOMES != NULL && DEAL_SIZE[0] == 0) {
        PyErr_SetString(PyExc_KeyError, "doors_setup needs DEAL_COUNTS with deal_outcomes");
        return NULL;
    }
    Py_RETURN_NONE;
}

/* ------------------------------------------------------------------------------- */

static PyMethodDef module_methods[] = {
    {"setup", setup, METH_O, "Reads the Python objects the twins use (once)."},
    {"method", method, METH_O, "A compiled GameState method, as a method descriptor."},
    {"legal_moves", legal_moves_function, METH_O, "GameState.legal_moves, compiled."},
    {"take", (PyCFunction)(void (*)(void))take_function, METH_FASTCALL,
     "GameState._take, compiled."},
    {"draw_factories", (PyCFunction)(void (*)(void))draw_factories_checked, METH_FASTCALL,
     "rounds.draw_factories, compiled."},
    {"tile_colored", (PyCFunction)(void (*)(void))tile_colored_checked, METH_FASTCALL,
     "rounds.tile_colored, compiled."},
    {"place_on_wall", (PyCFunction)(void (*)(void))place_on_wall_checked, METH_FASTCALL,
     "rounds.place_on_wall, compiled."},
    {"settle_floor", (PyCFunction)(void (*)(void))settle_floor_checked, METH_FASTCALL,
     "rounds.settle_floor, compiled."},
    {"walls_can_end", walls_can_end_checked, METH_O, "grey.walls_can_end, compiled."},
    /* The AI doors (see their section). */
    {"doors_setup", doors_setup, METH_O,
     "Reads the Python references and tables of the doors' twins."},
    {"legal_actions", (PyCFunction)(void (*)(void))door_legal_actions,
     METH_FASTCALL | METH_KEYWORDS, "actions.legal_actions, compiled."},
    {"observe_into", (PyCFunction)(void (*)(void))door_observe_into,
     METH_FASTCALL | METH_KEYWORDS, "actions.observe_into, compiled."},
    {"deal_outcomes", (PyCFunction)(void (*)(void))door_deal_outcomes,
     METH_FASTCALL | METH_KEYWORDS, "deals.deal_outcomes, compiled."},
    {"spiel_step", (PyCFunction)(void (*)(void))door_spiel_step,
     METH_FASTCALL | METH_KEYWORDS, "spiel._step, compiled."},
    {NULL, NULL, 0, NULL},
};

#ifndef AZUL_SOURCE_DIGEST
#define AZUL_SOURCE_DIGEST ""
#endif

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT,
    "azul_rules.core._speedups",
    "The compiled twin of the referee's hot functions (see azul_rules/core/_speedups.c).",
    -1,
    module_methods,
    NULL,
    NULL,
    NULL,
    NULL,
};

PyMODINIT_FUNC
PyInit__speedups(void)
{
    PyObject *module = PyModule_Create(&module_def);
    if (module != NULL
        && PyModule_AddStringConstant(module, "SOURCE_DIGEST", AZUL_SOURCE_DIGEST) < 0) {
        Py_DECREF(module);
        return NULL;
    }
    return module;
}
