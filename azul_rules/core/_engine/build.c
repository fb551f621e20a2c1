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

/* The referee's GameState of a position of the batch engine (azul_rules.ai.vector's
 * to_state), with the table's draws (no generator: between rounds the engine has drawn
 * already) and, at the end, the outcome of E4; the engine keeps it as a known
 * position, so that apply on it reads nothing. */
PyObject *
az_state_of_game(PyObject *module, PyObject *capsule)
{
    az_module *m = az_module_of(module);
    const az_game *given = PyCapsule_GetPointer(capsule, AZ_GAME_CAPSULE);
    if (given == NULL) {
        return NULL;
    }
    if (m->state_type == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "the compiled core is not in use");
        return NULL;
    }
    if (!plausible(given)) {
        PyErr_SetString(PyExc_ValueError, "not a position of the engine");
        return NULL;
    }
    az_game g = *given;
    g.seeded = 0;  /* the table's draws: rng None */
    g.rng = 0;
    int n = g.players;
    PyObject *boards[AZ_MAX_PLAYERS], *factories[AZ_MAX_FACTORIES];
    for (int p = 0; p < n; p++) {
        boards[p] = az_build_board(m, &g.board[p], NULL, 0);
    }
    for (int f = 0; f < g.factories; f++) {
        factories[f] = az_tiles(m, g.factory[f]);
    }
    PyObject *outcome = Py_NewRef(Py_None);
    if (g.phase == AZ_OVER) {
        uint8_t winners = az_winners(&g);
        PyObject *won[AZ_MAX_PLAYERS], *scores[AZ_MAX_PLAYERS];
        int count = 0;
        for (int p = 0; p < n; p++) {
            if (winners >> p & 1) {
                won[count++] = az_int_of(p);
            }
            scores[p] = az_int_of(g.board[p].score);
        }
        PyObject *winners_tuple = az_tuple_of(won, count), *scores_tuple = az_tuple_of(scores, n);
        Py_SETREF(outcome, az_blank(m->outcome_type));
        if (outcome == NULL || winners_tuple == NULL || scores_tuple == NULL) {
            Py_XDECREF(winners_tuple);
            Py_XDECREF(scores_tuple);
            Py_CLEAR(outcome);
        } else {
            SLOT(outcome, m->s.o_winners) = winners_tuple;
            SLOT(outcome, m->s.o_scores) = scores_tuple;
        }
    }
    PyObject *context = az_build_context(
        m, az_tiles(m, g.bag), az_tiles(m, g.lid), az_int_of(g.start),
        Py_NewRef(m->phase[g.phase]), az_int_of(g.round), Py_NewRef(g.grey ? m->grey : m->colored),
        Py_NewRef(Py_None), outcome, Py_NewRef(Py_None));
    PyObject *holder = g.holder == AZ_NOBODY ? Py_NewRef(Py_None) : az_int_of(g.holder);
    PyObject *state = az_build_state(m, m->state_type, az_tuple_of(boards, n),
                                     az_tuple_of(factories, g.factories), az_tiles(m, g.center),
                                     az_int_of(g.current), holder, context);
    if (state != NULL) {
        az_know(m, state, &g);
    }
    return state;
}
