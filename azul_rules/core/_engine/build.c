/*
 * The CPython face, building: the referee's frozen objects from the engine's struct,
 * through their slots (as azul_rules.core._slots does), each sharing every part of the
 * position before it that did not change.
 */
#include "adapter.h"

#include <string.h>

/* -- building ------------------------------------------------------------------------ */

/* A sorted tuple of tiles from counts: a shared one for a small pool (tuples are
 * immutable; a factory's four tiles and most centres are made once). */
PyObject *
az_tiles(const az_module *m, const uint32_t counts[AZ_COLORS])
{
    Py_ssize_t size = 0;
    int index = 0, shared = m->pools != NULL;
    for (int c = AZ_COLORS - 1; c >= 0; c--) {
        size += counts[c];
        shared = shared && counts[c] < AZ_POOL_SHARE;
        index = index * AZ_POOL_SHARE + (int)counts[c];
    }
    if (size == 0) {
        return Py_NewRef(m->empty_tuple);
    }
    if (shared && m->pools[index] != NULL) {
        return Py_NewRef(m->pools[index]);
    }
    PyObject *out = PyTuple_New(size);
    if (out == NULL) {
        return NULL;
    }
    Py_ssize_t at = 0;
    for (int c = 0; c < AZ_COLORS; c++) {
        for (uint32_t k = 0; k < counts[c]; k++) {
            PyTuple_SET_ITEM(out, at++, Py_NewRef(m->color[c]));
        }
    }
    if (shared) {
        m->pools[index] = Py_NewRef(out);
    }
    return out;
}

/* A new instance of an attrs class with every slot unset (object.__new__). */
PyObject *
az_blank(PyTypeObject *type)
{
    return type->tp_alloc(type, 0);
}

/* The tuple ``items`` (``n`` new references, stolen), or NULL (the references dropped). */
PyObject *
az_tuple_of(PyObject **items, Py_ssize_t n)
{
    PyObject *out = PyTuple_New(n);
    for (Py_ssize_t i = 0; i < n; i++) {
        if (out == NULL || items[i] == NULL) {
            Py_XDECREF(items[i]);
            continue;
        }
        PyTuple_SET_ITEM(out, i, items[i]);
    }
    for (Py_ssize_t i = 0; out != NULL && i < n; i++) {
        if (items[i] == NULL) {
            Py_CLEAR(out);
        }
    }
    return out;
}

/* An int, or NULL. */
PyObject *
az_int_of(long long value)
{
    return PyLong_FromLongLong(value);
}

/* The wall row ``row`` of ``b`` as a tuple: ``old`` when it holds the same tiles. */
static PyObject *
wall_row(const az_module *m, const az_board *b, int row, PyObject *old)
{
    if (old != NULL) {
        int same = 1;
        for (int c = 0; c < 5 && same; c++) {
            PyObject *tile = PyTuple_GET_ITEM(old, c);
            int8_t cell = b->cell[row][c];
            same = cell < 0 ? tile == Py_None : tile == m->color[cell];
        }
        if (same) {
            return Py_NewRef(old);
        }
    }
    PyObject *items[5];
    for (int c = 0; c < 5; c++) {
        int8_t cell = b->cell[row][c];
        items[c] = Py_NewRef(cell < 0 ? Py_None : m->color[cell]);
    }
    return az_tuple_of(items, 5);
}

/* ``old`` (a new reference) when it is an exact int of ``value``, else a new int. */
static PyObject *
int_like(PyObject *old, long long value)
{
    long long was;
    if (old != NULL && az_int_in(old, value, value, &was) == 0) {
        return Py_NewRef(old);
    }
    return az_int_of(value);
}

/* The floor of ``b`` as a tuple: ``old`` when it holds the same items. */
static PyObject *
floor_of(const az_module *m, const az_board *b, PyObject *old)
{
    PyObject *items[AZ_FLOOR];
    for (int i = 0; i < b->floor_len; i++) {
        items[i] = b->floor[i] == AZ_MARKER ? m->marker : m->color[b->floor[i]];
    }
    if (old != NULL && PyTuple_CheckExact(old) && PyTuple_GET_SIZE(old) == b->floor_len) {
        int same = 1;
        for (int i = 0; i < b->floor_len && same; i++) {
            same = PyTuple_GET_ITEM(old, i) == items[i];
        }
        if (same) {
            return Py_NewRef(old);
        }
    }
    if (b->floor_len == 0) {
        return Py_NewRef(m->empty_tuple);
    }
    for (int i = 0; i < b->floor_len; i++) {
        Py_INCREF(items[i]);
    }
    return az_tuple_of(items, b->floor_len);
}

/* The pattern lines of ``b`` (board.LINES' shared lines): ``old`` when the same. */
static PyObject *
lines_of(const az_module *m, const az_board *b, PyObject *old)
{
    PyObject *items[AZ_LINES];
    int same = old != NULL && PyTuple_CheckExact(old) && PyTuple_GET_SIZE(old) == AZ_LINES;
    for (int i = 0; i < AZ_LINES; i++) {
        int c = b->line_color[i];
        items[i] = c < 0 ? m->lines[i][0][0] : m->lines[i][c][b->line_count[i]];
        same = same && PyTuple_GET_ITEM(old, i) == items[i];
    }
    if (same) {
        return Py_NewRef(old);
    }
    for (int i = 0; i < AZ_LINES; i++) {
        Py_INCREF(items[i]);
    }
    return az_tuple_of(items, AZ_LINES);
}

/* The wall of ``b``: ``old`` when every row holds the same tiles. */
static PyObject *
wall_of(const az_module *m, const az_board *b, PyObject *old)
{
    PyObject *rows[5];
    int same = old != NULL;
    for (int row = 0; row < 5; row++) {
        rows[row] = wall_row(m, b, row, old != NULL ? PyTuple_GET_ITEM(old, row) : NULL);
        same = same && rows[row] == PyTuple_GET_ITEM(old, row);
    }
    if (!same) {
        return az_tuple_of(rows, 5);
    }
    for (int row = 0; row < 5; row++) {
        Py_XDECREF(rows[row]);
    }
    return Py_NewRef(old);
}

/* The PlayerBoard of ``b``, sharing the parts of ``old`` (a PlayerBoard read into the
 * engine) that did not change; ``keep_wall``: the wall is ``old``'s (a take: the
 * struct's wall was not read). */
PyObject *
az_build_board(const az_module *m, const az_board *b, PyObject *old, int keep_wall)
{
    const az_slots *s = &m->s;
    PyObject *old_wall = old != NULL ? SLOT(old, s->wall) : NULL;
    PyObject *wall = keep_wall ? Py_NewRef(old_wall) : wall_of(m, b, old_wall);
    PyObject *floor = floor_of(m, b, old != NULL ? SLOT(old, s->floor) : NULL);
    PyObject *lines = lines_of(m, b, old != NULL ? SLOT(old, s->lines) : NULL);
    PyObject *score = int_like(old != NULL ? SLOT(old, s->score) : NULL, b->score);
    PyObject *accepting = int_like(old != NULL ? SLOT(old, s->accepting) : NULL, b->accepting);
    PyObject *board = az_blank(m->board_type);
    if (board == NULL || lines == NULL || wall == NULL || floor == NULL || score == NULL
        || accepting == NULL) {
        Py_XDECREF(board);
        Py_XDECREF(lines);
        Py_XDECREF(wall);
        Py_XDECREF(floor);
        Py_XDECREF(score);
        Py_XDECREF(accepting);
        return NULL;
    }
    SLOT(board, s->score) = score;
    SLOT(board, s->lines) = lines;
    SLOT(board, s->wall) = wall;
    SLOT(board, s->floor) = floor;
    SLOT(board, s->accepting) = accepting;
    return board;
}

/* A RoundContext from its parts (new references, stolen; NULL: the others dropped). */
PyObject *
az_build_context(const az_module *m, PyObject *bag, PyObject *lid, PyObject *start,
              PyObject *phase, PyObject *round, PyObject *variant, PyObject *rng,
              PyObject *outcome, PyObject *scoring)
{
    const az_slots *s = &m->s;
    PyObject *parts[9] = {bag, lid, start, phase, round, variant, rng, outcome, scoring};
    const Py_ssize_t offsets[9] = {s->bag, s->lid, s->start, s->phase, s->round, s->variant,
                                   s->rng, s->outcome, s->scoring};
    PyObject *context = az_blank(m->context_type);
    int ok = context != NULL;
    for (int i = 0; i < 9; i++) {
        ok = ok && parts[i] != NULL;
    }
    if (!ok) {
        Py_XDECREF(context);
        for (int i = 0; i < 9; i++) {
            Py_XDECREF(parts[i]);
        }
        return NULL;
    }
    for (int i = 0; i < 9; i++) {
        SLOT(context, offsets[i]) = parts[i];
    }
    return context;
}

/* The Outcome of a game over: its winners (bit p, player p wins: E4) and every final
 * score; NULL with an exception. */
PyObject *
az_build_outcome(const az_module *m, const az_game *g, uint8_t winners)
{
    PyObject *won[AZ_MAX_PLAYERS], *scores[AZ_MAX_PLAYERS];
    int count = 0;
    for (int p = 0; p < g->players; p++) {
        if (winners >> p & 1) {
            won[count++] = az_int_of(p);
        }
        scores[p] = az_int_of(g->board[p].score);
    }
    PyObject *winners_tuple = az_tuple_of(won, count);
    PyObject *scores_tuple = az_tuple_of(scores, g->players);
    PyObject *outcome = az_blank(m->outcome_type);
    if (outcome == NULL || winners_tuple == NULL || scores_tuple == NULL) {
        Py_XDECREF(winners_tuple);
        Py_XDECREF(scores_tuple);
        Py_XDECREF(outcome);
        return NULL;
    }
    SLOT(outcome, m->s.o_winners) = winners_tuple;
    SLOT(outcome, m->s.o_scores) = scores_tuple;
    return outcome;
}

/* A GameState (of ``type``) from its parts (new references, stolen). */
PyObject *
az_build_state(const az_module *m, PyTypeObject *type, PyObject *players, PyObject *factories,
            PyObject *center, PyObject *current, PyObject *holder, PyObject *context)
{
    const az_slots *s = &m->s;
    PyObject *parts[6] = {players, factories, center, current, holder, context};
    const Py_ssize_t offsets[6] = {s->players, s->factories, s->center, s->current, s->holder,
                                   s->context};
    PyObject *state = az_blank(type);
    int ok = state != NULL;
    for (int i = 0; i < 6; i++) {
        ok = ok && parts[i] != NULL;
    }
    if (!ok) {
        Py_XDECREF(state);
        for (int i = 0; i < 6; i++) {
            Py_XDECREF(parts[i]);
        }
        return NULL;
    }
    for (int i = 0; i < 6; i++) {
        SLOT(state, offsets[i]) = parts[i];
    }
    return state;
}

/* ``head`` and ``count`` items more (new references, stolen), or ``head`` itself. */
PyObject *
az_tuple_plus(PyObject *head, PyObject **more, Py_ssize_t count)
{
    if (count == 0) {
        return Py_NewRef(head);
    }
    Py_ssize_t size = PyTuple_GET_SIZE(head);
    PyObject *out = PyTuple_New(size + count);
    if (out == NULL) {
        for (Py_ssize_t i = 0; i < count; i++) {
            Py_XDECREF(more[i]);
        }
        return NULL;
    }
    for (Py_ssize_t i = 0; i < size; i++) {
        PyTuple_SET_ITEM(out, i, Py_NewRef(PyTuple_GET_ITEM(head, i)));
    }
    int ok = 1;
    for (Py_ssize_t i = 0; i < count; i++) {
        ok = ok && more[i] != NULL;
        PyTuple_SET_ITEM(out, size + i, more[i] != NULL ? more[i] : Py_NewRef(Py_None));
    }
    if (!ok) {
        Py_DECREF(out);
        return NULL;
    }
    return out;
}

/* -- a position of the batch engine -------------------------------------------------- */

/* Whether ``g`` is a position the engine can have made: every count and index within
 * the ranges the builders index tables with (a capsule is made by the batch engine
 * only, but nothing out of range is built from). */
static int
plausible(const az_game *g)
{
    if (g->players < 2 || g->players > AZ_MAX_PLAYERS || g->factories != 2 * g->players + 1
        || g->phase > AZ_OVER || g->current < 0 || g->current >= g->players || g->start < 0
        || g->start >= g->players || g->holder < AZ_NOBODY || g->holder >= g->players
        || g->round < 1) {
        return 0;
    }
    const uint32_t *pools[AZ_MAX_FACTORIES + 3];
    int n = 0;
    for (int f = 0; f < g->factories; f++) {
        pools[n++] = g->factory[f];
    }
    pools[n++] = g->center;
    pools[n++] = g->bag;
    pools[n++] = g->lid;
    for (int i = 0; i < n; i++) {
        for (int c = 0; c < AZ_COLORS; c++) {
            if (pools[i][c] > AZ_MAX_POOL) {
                return 0;
            }
        }
    }
    for (int p = 0; p < g->players; p++) {
        const az_board *b = &g->board[p];
        if (b->floor_len > AZ_FLOOR) {
            return 0;
        }
        for (int k = 0; k < b->floor_len; k++) {
            if (b->floor[k] > AZ_MARKER) {
                return 0;
            }
        }
        for (int line = 0; line < AZ_LINES; line++) {
            if (b->line_color[line] < -1 || b->line_color[line] >= AZ_COLORS
                || b->line_count[line] > line + 1 || (b->line_color[line] < 0) != !b->line_count[line]) {
                return 0;
            }
            for (int column = 0; column < 5; column++) {
                if (b->cell[line][column] < -1 || b->cell[line][column] >= AZ_COLORS) {
                    return 0;
                }
            }
        }
    }
    return 1;
}

/* The fields the engine derives from the others (which sources hold which colour, the
 * walls' masks, the lines' accepting bits), worked out again from them: a position is
 * built from what it holds, whatever its copy said. */
static void
rederive(az_game *g)
{
    az_sync_holders(g);
    for (int p = 0; p < g->players; p++) {
        az_board *b = &g->board[p];
        memset(b->row_cells, 0, sizeof(b->row_cells));
        memset(b->row_colors, 0, sizeof(b->row_colors));
        memset(b->column_colors, 0, sizeof(b->column_colors));
        for (int row = 0; row < 5; row++) {
            for (int column = 0; column < 5; column++) {
                int color = b->cell[row][column];
                if (color >= 0) {
                    b->row_cells[row] |= (uint8_t)(1 << column);
                    b->row_colors[row] |= (uint8_t)(1 << color);
                    b->column_colors[column] |= (uint8_t)(1 << color);
                }
            }
        }
        b->accepting = az_accepting_of(b);
    }
}

/* The referee's GameState of engine position ``g`` (checked by plausible), with the
 * table's draws (no generator) and, at the end, the outcome of E4; kept as a known
 * position, so that apply on it reads nothing. */
static PyObject *
state_from(az_module *m, az_game *g)
{
    rederive(g);
    g->seeded = 0;  /* the table's draws: rng None */
    g->rng = 0;
    int n = g->players;
    PyObject *boards[AZ_MAX_PLAYERS], *factories[AZ_MAX_FACTORIES];
    for (int p = 0; p < n; p++) {
        boards[p] = az_build_board(m, &g->board[p], NULL, 0);
    }
    for (int f = 0; f < g->factories; f++) {
        factories[f] = az_tiles(m, g->factory[f]);
    }
    PyObject *outcome = g->phase == AZ_OVER ? az_build_outcome(m, g, az_winners(g))
                                            : Py_NewRef(Py_None);
    PyObject *context = az_build_context(
        m, az_tiles(m, g->bag), az_tiles(m, g->lid), az_int_of(g->start),
        Py_NewRef(m->phase[g->phase]), az_int_of(g->round),
        Py_NewRef(g->grey ? m->grey : m->colored), Py_NewRef(Py_None), outcome,
        Py_NewRef(Py_None));
    PyObject *holder = g->holder == AZ_NOBODY ? Py_NewRef(Py_None) : az_int_of(g->holder);
    PyObject *state = az_build_state(m, m->state_type, az_tuple_of(boards, n),
                                     az_tuple_of(factories, g->factories), az_tiles(m, g->center),
                                     az_int_of(g->current), holder, context);
    if (state != NULL) {
        az_know(m, state, g);
    }
    return state;
}

static int
core_in_use(const az_module *m)
{
    if (m->state_type == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "the compiled core is not in use");
        return 0;
    }
    return 1;
}

/* state_of_game(capsule): the GameState of a batch engine's position (a copy of its
 * struct, azul_rules.ai.vector's to_state). */
PyObject *
az_state_of_game(PyObject *module, PyObject *capsule)
{
    az_module *m = az_module_of(module);
    const az_game *given = PyCapsule_GetPointer(capsule, AZ_GAME_CAPSULE);
    if (given == NULL || !core_in_use(m)) {
        return NULL;
    }
    if (!plausible(given)) {
        PyErr_SetString(PyExc_ValueError, "not a position of the engine");
        return NULL;
    }
    az_game g = *given;
    return state_from(m, &g);
}

/* -- a position as plain data (pgx's to_state) --------------------------------------- */

/* ``obj`` as an int within [low, high] into ``out`` (0), or -1 with a ValueError naming
 * ``what``. */
static int
int_in(PyObject *obj, long long low, long long high, long long *out, const char *what)
{
    long long value;
    if (!PyLong_Check(obj)) {
        PyErr_Format(PyExc_ValueError, "position: %s is not an int", what);
        return -1;
    }
    int overflow = 0;
    value = PyLong_AsLongLongAndOverflow(obj, &overflow);
    if (value == -1 && PyErr_Occurred()) {
        return -1;
    }
    if (overflow || value < low || value > high) {
        PyErr_Format(PyExc_ValueError, "position: %s out of range", what);
        return -1;
    }
    *out = value;
    return 0;
}

/* A sequence of exactly ``n`` items (a new reference to a list or tuple), or NULL. */
static PyObject *
items_of(PyObject *obj, Py_ssize_t n, const char *what)
{
    PyObject *items = PySequence_Fast(obj, "position: a sequence was expected");
    if (items != NULL && n >= 0 && PySequence_Fast_GET_SIZE(items) != n) {
        Py_DECREF(items);
        PyErr_Format(PyExc_ValueError, "position: %s must have %zd items", what, n);
        return NULL;
    }
    return items;
}

/* ``n`` ints within [low, high] from the sequence ``obj``. */
static int
ints_of(PyObject *obj, Py_ssize_t n, long long low, long long high, long long *out,
        const char *what)
{
    PyObject *items = items_of(obj, n, what);
    if (items == NULL) {
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        if (int_in(PySequence_Fast_GET_ITEM(items, i), low, high, &out[i], what) < 0) {
            Py_DECREF(items);
            return -1;
        }
    }
    Py_DECREF(items);
    return 0;
}

static int
counts_of(PyObject *obj, uint32_t counts[AZ_COLORS], const char *what)
{
    long long values[AZ_COLORS];
    if (ints_of(obj, AZ_COLORS, 0, AZ_MAX_POOL, values, what) < 0) {
        return -1;
    }
    for (int c = 0; c < AZ_COLORS; c++) {
        counts[c] = (uint32_t)values[c];
    }
    return 0;
}

/* A board (score, line colours, line counts, wall rows, floor): -1 an empty line or
 * space, 5 the marker on the floor. */
static int
board_of(PyObject *obj, az_board *b)
{
    PyObject *parts = items_of(obj, 5, "a board");
    if (parts == NULL) {
        return -1;
    }
    az_board_clear(b);
    long long score, colors[AZ_LINES], counts[AZ_LINES], cells[5], floor[AZ_FLOOR];
    int ok = int_in(PySequence_Fast_GET_ITEM(parts, 0), -AZ_SCORE_LIMIT, AZ_SCORE_LIMIT,
                    &score, "a score") == 0
             && ints_of(PySequence_Fast_GET_ITEM(parts, 1), AZ_LINES, -1, AZ_COLORS - 1, colors,
                        "a board's line colours") == 0
             && ints_of(PySequence_Fast_GET_ITEM(parts, 2), AZ_LINES, 0, AZ_LINES, counts,
                        "a board's line counts") == 0;
    PyObject *rows = ok ? items_of(PySequence_Fast_GET_ITEM(parts, 3), 5, "a wall") : NULL;
    for (int row = 0; ok && rows != NULL && row < 5; row++) {
        ok = ints_of(PySequence_Fast_GET_ITEM(rows, row), 5, -1, AZ_COLORS - 1, cells,
                     "a wall row") == 0;
        for (int column = 0; ok && column < 5; column++) {
            if (cells[column] >= 0) {
                az_board_set_wall(b, row, column, (int)cells[column]);
            }
        }
    }
    ok = ok && rows != NULL;
    Py_XDECREF(rows);
    PyObject *items = ok ? items_of(PySequence_Fast_GET_ITEM(parts, 4), -1, "a floor") : NULL;
    Py_ssize_t length = items != NULL ? PySequence_Fast_GET_SIZE(items) : 0;
    if (items != NULL && length > AZ_FLOOR) {
        PyErr_SetString(PyExc_ValueError, "position: a floor of more than 7 spaces");
        ok = 0;
    }
    ok = ok && items != NULL
         && ints_of(items, length, 0, AZ_MARKER, floor, "a floor item") == 0;
    Py_XDECREF(items);
    Py_DECREF(parts);
    if (!ok) {
        return -1;
    }
    b->score = score;
    for (int line = 0; line < AZ_LINES; line++) {
        b->line_color[line] = (int8_t)colors[line];
        b->line_count[line] = (uint8_t)counts[line];
    }
    b->floor_len = (uint8_t)length;
    for (Py_ssize_t k = 0; k < length; k++) {
        b->floor[k] = (uint8_t)floor[k];
    }
    b->accepting = az_accepting_of(b);
    return 0;
}

/* state_of_position(grey, position): the GameState of a position given as plain data,
 * as the batch engine's Games.position gives it (phase, round, current, start, holder,
 * factories, centre, bag, lid, boards; counts by colour): pgx's to_state. */
PyObject *
az_state_of_position(PyObject *module, PyObject *args)
{
    az_module *m = az_module_of(module);
    int grey;
    PyObject *position;
    if (!PyArg_ParseTuple(args, "pO:state_of_position", &grey, &position) || !core_in_use(m)) {
        return NULL;
    }
    PyObject *parts = items_of(position, 10, "the position");
    if (parts == NULL) {
        return NULL;
    }
    az_game g;
    memset(&g, 0, sizeof(g));
    g.grey = (uint8_t)grey;
    long long head[5];
    PyObject *factories = NULL, *boards = NULL;
    int ok = int_in(PySequence_Fast_GET_ITEM(parts, 0), 0, AZ_OVER, &head[0], "the phase") == 0
             && int_in(PySequence_Fast_GET_ITEM(parts, 1), 1, (long long)1 << 62, &head[1],
                       "the round") == 0
             && (boards = items_of(PySequence_Fast_GET_ITEM(parts, 9), -1, "the boards")) != NULL;
    Py_ssize_t n = boards != NULL ? PySequence_Fast_GET_SIZE(boards) : 0;
    if (ok && (n < 2 || n > AZ_MAX_PLAYERS)) {
        PyErr_SetString(PyExc_ValueError, "position: 2 to 4 boards");
        ok = 0;
    }
    ok = ok && int_in(PySequence_Fast_GET_ITEM(parts, 2), 0, n - 1, &head[2], "the player "
                      "to move") == 0
         && int_in(PySequence_Fast_GET_ITEM(parts, 3), 0, n - 1, &head[3], "the start "
                   "player") == 0
         && int_in(PySequence_Fast_GET_ITEM(parts, 4), AZ_NOBODY, n - 1, &head[4], "the "
                   "marker's holder") == 0
         && (factories = items_of(PySequence_Fast_GET_ITEM(parts, 5), 2 * n + 1,
                                  "the factories")) != NULL;
    g.players = (uint8_t)n;
    g.factories = (uint8_t)(2 * n + 1);
    for (int f = 0; ok && f < g.factories; f++) {
        ok = counts_of(PySequence_Fast_GET_ITEM(factories, f), g.factory[f], "a factory") == 0;
    }
    ok = ok && counts_of(PySequence_Fast_GET_ITEM(parts, 6), g.center, "the centre") == 0
         && counts_of(PySequence_Fast_GET_ITEM(parts, 7), g.bag, "the bag") == 0
         && counts_of(PySequence_Fast_GET_ITEM(parts, 8), g.lid, "the lid") == 0;
    for (int p = 0; ok && p < n; p++) {
        ok = board_of(PySequence_Fast_GET_ITEM(boards, p), &g.board[p]) == 0;
    }
    Py_XDECREF(factories);
    Py_XDECREF(boards);
    Py_DECREF(parts);
    if (!ok) {
        return NULL;
    }
    g.phase = (uint8_t)head[0];
    g.round = head[1];
    g.current = (int8_t)head[2];
    g.start = (int8_t)head[3];
    g.holder = (int8_t)head[4];
    az_sync_holders(&g);
    if (!plausible(&g)) {
        PyErr_SetString(PyExc_ValueError, "position: a line's colour and count disagree");
        return NULL;
    }
    return state_from(m, &g);
}
