/*
 * The CPython face, GameState's compiled functions: legal_moves, apply (a take, a grey placement),
 * is_over, and state.new_game, each answering what the engine can and NOT_MINE for
 * the rest (the reference then decides).
 */
#include "adapter.h"

#include <string.h>

/* -- the compiled functions of GameState ------------------------------------------------------- */

/* GameState.legal_moves: the takes (TAKE_OPTIONS by the accepting lines), or the grey
 * wall's placements (PLACE_TILES of the legal columns). */
PyObject *
az_legal_moves_call(az_module *m, PyObject *self)
{
    az_game scratch;
    const az_game *g = az_game_of(m, self, &scratch, NULL, AZ_NO_LINE);
    if (g == NULL) {
        return NOT_MINE;
    }
    if (g->phase == AZ_TILING) {  /* the next full line: the lines are read */
        if (az_entry_of(m, g) != NULL && !az_lines_intact(m, az_entry_of(m, g), AZ_ALL_LINES)) {
            g = az_game_of(m, self, &scratch, NULL, AZ_ALL_LINES);
            if (g == NULL) {
                return NOT_MINE;
            }
        }
        const az_board *b = &g->board[g->current];
        int row = az_next_line(b);
        if (row < 0) {
            return Py_NewRef(m->empty_tuple);
        }
        uint8_t columns = az_legal_columns(b, row);
        PyObject *out = PyTuple_New(AZ_BITS[columns]);
        for (int c = 0, at = 0; out != NULL && c < 5; c++) {
            if (columns >> c & 1) {
                PyTuple_SET_ITEM(out, at++, Py_NewRef(m->place_tiles[row][c]));
            }
        }
        return out;
    }
    if (g->phase != AZ_OFFER) {
        return Py_NewRef(m->empty_tuple);
    }
    uint32_t accepting = g->board[g->current].accepting;
    PyObject *found[(AZ_MAX_FACTORIES + 1) * AZ_COLORS];
    Py_ssize_t pieces = 0, total = 0;
    for (int source = 0; source <= g->factories; source++) {
        int bit = source < g->factories ? source : AZ_CENTER_BIT;
        int row = source < g->factories ? source : AZ_MAX_FACTORIES;
        for (int c = 0; c < AZ_COLORS; c++) {
            if (g->holders[c] >> bit & 1) {
                PyObject *takes = m->take_options[row][c][accepting >> (5 * c) & 31];
                found[pieces++] = takes;
                total += PyTuple_GET_SIZE(takes);
            }
        }
    }
    PyObject *out = PyTuple_New(total);
    for (Py_ssize_t k = 0, at = 0; out != NULL && k < pieces; k++) {
        for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(found[k]); i++) {
            PyTuple_SET_ITEM(out, at++, Py_NewRef(PyTuple_GET_ITEM(found[k], i)));
        }
    }
    return out;
}

/* The player a move names, if any, must be the one to move (T1). */
static int
player_fits(PyObject *named, long long current)
{
    long long value;
    return named == Py_None || (az_int_in(named, 0, 3, &value) == 0 && value == current);
}

/* The successor of a take that leaves tiles on the table: the mover's board (not its
 * wall), the source, the centre and (when a floor spills, F2) the lid change;
 * everything else is shared. */
static PyObject *
build_after_take(const az_module *m, PyTypeObject *type, const az_parts *parts, int source,
                 const az_game *after, const az_report *report)
{
    const az_slots *s = &m->s;
    int n = after->players, mover = (after->current + n - 1) % n;
    PyObject *boards[AZ_MAX_PLAYERS];
    for (int p = 0; p < n; p++) {
        PyObject *old = PyTuple_GET_ITEM(parts->players, p);
        boards[p] = p == mover ? az_build_board(m, &after->board[p], old, 1) : Py_NewRef(old);
    }
    PyObject *factories = parts->factories;
    if (source != AZ_CENTER) {
        PyObject *items[AZ_MAX_FACTORIES];
        for (int f = 0; f < after->factories; f++) {
            items[f] = Py_NewRef(f == source ? m->empty_tuple : PyTuple_GET_ITEM(factories, f));
        }
        factories = az_tuple_of(items, after->factories);
    } else {
        Py_INCREF(factories);
    }
    PyObject *context = parts->context;
    if (report->to_lid) {  /* F2: the floor spilled into the lid */
        PyObject *context_parts[9];
        const Py_ssize_t offsets[9] = {s->bag, s->lid, s->start, s->phase, s->round,
                                       s->variant, s->rng, s->outcome, s->scoring};
        for (int i = 0; i < 9; i++) {
            context_parts[i] = i == 1 ? az_tiles(m, after->lid)
                                      : Py_NewRef(SLOT(context, offsets[i]));
        }
        context = az_build_context(m, context_parts[0], context_parts[1], context_parts[2],
                                context_parts[3], context_parts[4], context_parts[5],
                                context_parts[6], context_parts[7], context_parts[8]);
    } else {
        Py_INCREF(context);
    }
    PyObject *holder = after->holder == AZ_NOBODY ? Py_NewRef(Py_None) : az_int_of(after->holder);
    return az_build_state(m, type, az_tuple_of(boards, n), factories, az_tiles(m, after->center),
                       az_int_of(after->current), holder, context);
}

/* A take on a position no entry knows, reading only what a take reads: the mover's
 * board (not its wall), the source, the centre, the lid, whether another factory holds
 * tiles; the successor is not known (its struct is partial).  NULL with no exception
 * when the take ends the factory offer (the tiling reads everything). */
static PyObject *
take_unknown(az_module *m, PyTypeObject *type, PyObject *self, int source, int color, int line)
{
    const az_slots *s = &m->s;
    PyObject *players = SLOT(self, s->players), *factories = SLOT(self, s->factories);
    PyObject *context = SLOT(self, s->context), *holder = SLOT(self, s->holder);
    long long current, held;
    if (players == NULL || !PyTuple_CheckExact(players) || PyTuple_GET_SIZE(players) < 1
        || PyTuple_GET_SIZE(players) > AZ_MAX_PLAYERS || factories == NULL
        || !PyTuple_CheckExact(factories) || PyTuple_GET_SIZE(factories) > AZ_MAX_FACTORIES
        || context == NULL || Py_TYPE(context) != m->context_type || holder == NULL
        || az_int_in(SLOT(self, s->current), 0, PyTuple_GET_SIZE(players) - 1, &current) < 0
        || SLOT(context, s->bag) == NULL || SLOT(context, s->lid) == NULL) {
        return NOT_MINE;
    }
    az_game g;
    memset(&g, 0, sizeof(g));
    g.players = (uint8_t)PyTuple_GET_SIZE(players);
    g.factories = (uint8_t)PyTuple_GET_SIZE(factories);
    g.phase = AZ_OFFER;
    g.current = (int8_t)current;
    if (holder == Py_None) {
        g.holder = AZ_NOBODY;
    } else if (az_int_in(holder, 0, g.players - 1, &held) == 0) {
        g.holder = (int8_t)held;
    } else {
        return NOT_MINE;
    }
    int left = 0;  /* another factory holds tiles: the offer goes on */
    for (int f = 0; f < g.factories; f++) {
        PyObject *tiles = PyTuple_GET_ITEM(factories, f);
        if (!PyTuple_CheckExact(tiles)) {
            return NOT_MINE;
        }
        left |= f != source && PyTuple_GET_SIZE(tiles) > 0;
    }
    PyObject *mover = PyTuple_GET_ITEM(players, current);
    if (az_read_tiles(m, SLOT(self, s->center), g.center) < 0
        || (source >= 0 && source < g.factories
            && az_read_tiles(m, PyTuple_GET_ITEM(factories, source), g.factory[source]) < 0)
        || az_read_tiles(m, SLOT(context, s->lid), g.lid) < 0
        || az_read_board(m, mover, &g.board[current], 0) < 0) {
        return NOT_MINE;
    }
    az_sync_holders(&g);
    az_report report;
    memset(&report, 0, offsetof(az_report, tiling));
    if (!az_take(&g, source, color, line, &report)) {
        return NOT_MINE;  /* illegal: the reference words the verdict */
    }
    if (!left && az_offer_over(&g)) {
        return NULL;
    }
    az_parts parts;
    az_parts_of(m, self, &parts);
    return build_after_take(m, type, &parts, source, &g, &report);
}

/* GameState.apply's move made by the engine: a take (``is_take``; the factory offer's
 * end, the round's and the game's with it) or a grey placement; the successor is then
 * the known position.  NOT_MINE for a position or a move the engine does not take
 * (an illegal move: the reference words the verdict). */
static PyObject *
engine_move(az_module *m, PyTypeObject *type, PyObject *self, int is_take, int a, int b,
            int c)
{
    az_game scratch, after;
    az_parts parts;
    /* a take reads the line it fills (none for the floor), a tiling every line */
    int lines = !is_take ? AZ_ALL_LINES : c < AZ_LINES ? c : AZ_NO_LINE;
    const az_game *before = az_known_game(m, self, &parts, lines);
    if (before == NULL && is_take) {  /* a position seen for the first time */
        PyObject *out = take_unknown(m, type, self, a, b, c);
        if (out != NULL || PyErr_Occurred()) {
            return out;
        }
    }
    if (before == NULL && (before = az_game_of(m, self, &scratch, &parts, lines)) == NULL) {
        return NOT_MINE;
    }
    after = *before;
    az_report report;  /* the tilings' records zeroed only for a tiling */
    memset(&report, 0, offsetof(az_report, tiling));
    PyObject *out;
    if (is_take) {
        if (!az_take(&after, a, b, c, &report)) {
            return NOT_MINE;
        }
        if (az_offer_over(&after)) {
            if (az_entry_of(m, before) != NULL
                && !az_lines_intact(m, az_entry_of(m, before), AZ_ALL_LINES)) {
                return NOT_MINE;  /* a line changed behind its constructor: the reference */
            }
            memset(report.tiling, 0, sizeof(report.tiling));
            az_end_offer(&after, &report);
            scratch = *before;  /* a copy: building may run code that reads another position */
            out = az_build_after_tiling(m, type, &parts, &scratch, &after, &report);
        } else {
            out = build_after_take(m, type, &parts, a, &after, &report);
        }
    } else {
        memset(report.tiling, 0, sizeof(report.tiling));
        if (!az_place_tile(&after, a, b, &report)) {
            return NOT_MINE;
        }
        scratch = *before;
        out = az_build_after_tiling(m, type, &parts, &scratch, &after, &report);
    }
    if (out != NULL && out != NOT_MINE) {
        az_know(m, out, &after);
    }
    return out;
}

/* GameState.apply: a Take or a PlaceTile (the exact classes) in C; every other move,
 * and every illegal one, by the reference. */
PyObject *
az_apply_call(az_module *m, PyTypeObject *type, PyObject *self, PyObject *move)
{
    const az_slots *s = &m->s;
    PyObject *context = SLOT(self, s->context);
    long long current;
    if (context == NULL || Py_TYPE(context) != m->context_type
        || az_int_in(SLOT(self, s->current), 0, AZ_MAX_PLAYERS - 1, &current) < 0) {
        return NOT_MINE;
    }
    PyObject *phase = SLOT(context, s->phase);
    if (Py_TYPE(move) == m->take_type) {
        long long source, line;
        int c = az_color_index(m, SLOT(move, s->m_color));
        if (phase != m->phase[AZ_OFFER] || c < 0 || !player_fits(SLOT(move, s->m_player), current)
            || az_int_in(SLOT(move, s->m_source), AZ_CENTER, AZ_MAX_FACTORIES - 1, &source) < 0
            || az_int_in(SLOT(move, s->m_line), -1, AZ_LINES - 1, &line) < 0) {
            return NOT_MINE;
        }
        return engine_move(m, type, self, 1, (int)source, c, line < 0 ? AZ_FLOOR_LINE : (int)line);
    }
    if (Py_TYPE(move) == m->place_type) {
        long long line, column;
        if (phase != m->phase[AZ_TILING] || !player_fits(SLOT(move, s->p_player), current)
            || az_int_in(SLOT(move, s->p_line), 0, AZ_LINES - 1, &line) < 0
            || az_int_in(SLOT(move, s->p_column), 0, 4, &column) < 0) {
            return NOT_MINE;
        }
        return engine_move(m, type, self, 0, (int)line, (int)column, 0);
    }
    return NOT_MINE;
}

/* GameState.is_over: the phase is GAME_OVER (E1, R6, R7). */
PyObject *
az_is_over_call(az_module *m, PyObject *self)
{
    PyObject *context = SLOT(self, m->s.context);
    if (context == NULL || Py_TYPE(context) != m->context_type) {
        return NOT_MINE;
    }
    return Py_NewRef(SLOT(context, m->s.phase) == m->phase[AZ_OVER] ? Py_True : Py_False);
}

/* state.new_game(players=2, *, seed=0, variant=Variant.COLORED, first_player=None,
 * external_draws=False) with seeded draws (S1-S7, R2): the call's arguments as the
 * reference takes them, else NOT_MINE (a variant named by a string, external draws, a
 * wrong type: the reference raises). */
PyObject *
az_new_game_call(az_module *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    const char *names[5] = {"players", "seed", "variant", "first_player", "external_draws"};
    PyObject *given[5] = {nargs == 1 ? args[0] : NULL, NULL, NULL, NULL, NULL};
    Py_ssize_t keywords = kwnames == NULL ? 0 : PyTuple_GET_SIZE(kwnames);
    if (nargs > 1 || m->state_type == NULL) {
        return NOT_MINE;
    }
    for (Py_ssize_t k = 0; k < keywords; k++) {
        PyObject *name = PyTuple_GET_ITEM(kwnames, k);
        int which = -1;
        for (int i = 0; i < 5 && which < 0; i++) {
            if (PyUnicode_CompareWithASCIIString(name, names[i]) == 0) {
                which = i;
            }
        }
        if (which < 0 || given[which] != NULL) {
            return NOT_MINE;
        }
        given[which] = args[nargs + k];
    }
    long long players = 2, first = -1;
    if (given[0] != NULL && az_int_in(given[0], 2, AZ_MAX_PLAYERS, &players) < 0) {
        return NOT_MINE;
    }
    PyObject *seed = given[1], *variant = given[2] != NULL ? given[2] : m->colored;
    if ((seed != NULL && !PyLong_CheckExact(seed)) || (variant != m->colored && variant != m->grey)
        || (given[4] != NULL && given[4] != Py_False)) {
        return NOT_MINE;
    }
    if (given[3] != NULL && given[3] != Py_None
        && az_int_in(given[3], 0, players - 1, &first) < 0) {
        return NOT_MINE;
    }
    uint64_t bits = seed == NULL ? 0 : PyLong_AsUnsignedLongLongMask(seed);  /* rng.seed_state */
    if (bits == (uint64_t)-1 && PyErr_Occurred()) {
        return NULL;
    }
    az_game g;
    az_new_game(&g, (int)players, variant == m->grey, bits, (int)first);
    if (m->new_board == NULL) {
        m->new_board = az_build_board(m, &g.board[0], NULL, 0);
        if (m->new_board == NULL) {
            return NULL;
        }
    }
    PyObject *boards[AZ_MAX_PLAYERS], *factories[AZ_MAX_FACTORIES];
    for (int p = 0; p < g.players; p++) {
        boards[p] = Py_NewRef(m->new_board);
    }
    for (int f = 0; f < g.factories; f++) {
        factories[f] = az_tiles(m, g.factory[f]);
    }
    PyObject *context = az_build_context(
        m, az_tiles(m, g.bag), Py_NewRef(m->empty_tuple), az_int_of(g.start),
        Py_NewRef(m->phase[AZ_OFFER]), az_int_of(1), Py_NewRef(variant),
        PyLong_FromUnsignedLongLong(g.rng), Py_NewRef(Py_None), Py_NewRef(Py_None));
    PyObject *state = az_build_state(m, m->state_type, az_tuple_of(boards, g.players),
                                  az_tuple_of(factories, g.factories), Py_NewRef(m->empty_tuple),
                                  az_int_of(g.current), Py_NewRef(Py_None), context);
    if (state != NULL) {
        az_know(m, state, &g);
    }
    return state;
}
