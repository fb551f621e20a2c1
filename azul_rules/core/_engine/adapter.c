/*
 * azul_rules.core._compiled: the engine behind the referee's Python objects.
 *
 * ``state.py`` defines ``GameState.legal_moves``, ``apply`` and ``is_over`` as twins
 * (``Twin(name, reference)``): the Python function, the reference, and the engine in
 * front of it.  A twin reads the frozen attrs position into the engine's struct, runs
 * the engine, and builds the very same frozen objects the reference builds (through
 * their slots, as azul_rules.core._slots does), sharing every part that does not
 * change.  Anything it does not expect -- a part replaced through object.__setattr__, a
 * score past 60 bits, a bag past 65,535 tiles, an illegal move (whose verdict Python
 * words) -- goes to the reference with the call's own arguments, so both give the same
 * games, verdicts and exceptions.  The classes and tables are read from the Python
 * modules when this one is executed; the twin learns its class from the class body
 * (__set_name__).  doors.c adds the AI doors' twins.
 */
#include "adapter.h"

#include <limits.h>
#include <structmember.h>
#include <string.h>

/* The doors' twins (doors.c). */
PyObject *az_legal_actions_call(az_module *m, PyObject *const *args, Py_ssize_t nargs);
PyObject *az_observe_into_call(az_module *m, PyObject *const *args, Py_ssize_t nargs);
PyObject *az_deal_outcomes_call(az_module *m, PyObject *const *args, Py_ssize_t nargs);

#define NOT_MINE ((PyObject *)1)  /* a twin's answer: the reference decides */

az_module *
az_module_of(PyObject *module)
{
    return (az_module *)PyModule_GetState(module);
}

/* -- reading ------------------------------------------------------------------------- */

/* An int of more than one digit as a long long (0), or -1 (no exception) past its range. */
int
az_int_slow(PyObject *obj, long long *out)
{
    int overflow = 0;
    long long value = PyLong_AsLongLongAndOverflow(obj, &overflow);
    if (overflow || (value == -1 && PyErr_Occurred())) {
        PyErr_Clear();
        return -1;
    }
    *out = value;
    return 0;
}

int
az_color_index(const az_module *m, PyObject *tile)
{
    for (int c = 0; c < AZ_COLORS; c++) {
        if (tile == m->color[c]) {
            return c;
        }
    }
    return -1;
}

/* A sorted tuple of Colors as counts; -1 for anything else (a multiset built by hand
 * out of order, a marker, a pool past AZ_MAX_POOL tiles). */
int
az_read_tiles(const az_module *m, PyObject *tiles, uint32_t counts[AZ_COLORS])
{
    if (tiles == NULL || !PyTuple_CheckExact(tiles) || PyTuple_GET_SIZE(tiles) > AZ_MAX_POOL) {
        return -1;
    }
    Py_ssize_t size = PyTuple_GET_SIZE(tiles);
    size_t slot = ((uintptr_t)tiles >> 5) % AZ_MEMO;
    if (size > 4 && m->memo != NULL && m->memo->pool[slot] == tiles) {
        memcpy(counts, m->memo->counts[slot], AZ_COLORS * sizeof(uint32_t));
        return 0;
    }
    memset(counts, 0, AZ_COLORS * sizeof(uint32_t));
    int c = 0;
    for (Py_ssize_t i = 0; i < size; i++) {
        PyObject *tile = PyTuple_GET_ITEM(tiles, i);
        while (tile != m->color[c]) {  /* sorted: the colours only go up */
            if (++c == AZ_COLORS) {
                return -1;
            }
        }
        counts[c]++;
    }
    if (size > 4 && m->memo != NULL) {  /* a bag, a lid, a centre: kept */
        Py_XSETREF(m->memo->pool[slot], Py_NewRef(tiles));
        memcpy(m->memo->counts[slot], counts, AZ_COLORS * sizeof(uint32_t));
    }
    return 0;
}

/* A wall (5 rows of 5 colours or None) into ``b``'s cells and masks (b's wall empty
 * before); -1 when it is not as the constructors make it. */
static int
read_wall(const az_module *m, PyObject *wall, az_board *b)
{
    size_t slot = ((uintptr_t)wall >> 5) % AZ_MEMO;
    if (m->memo != NULL && m->memo->wall[slot] == wall) {
        memcpy(b->cell, m->memo->walls[slot].cell, sizeof(b->cell));
        memcpy(b->row_cells, m->memo->walls[slot].row_cells, sizeof(b->row_cells));
        memcpy(b->row_colors, m->memo->walls[slot].row_colors, sizeof(b->row_colors));
        memcpy(b->column_colors, m->memo->walls[slot].column_colors, sizeof(b->column_colors));
        return 0;
    }
    for (int row = 0; row < 5; row++) {
        PyObject *cells = PyTuple_GET_ITEM(wall, row);
        if (!PyTuple_CheckExact(cells) || PyTuple_GET_SIZE(cells) != 5) {
            return -1;
        }
        for (int column = 0; column < 5; column++) {
            PyObject *tile = PyTuple_GET_ITEM(cells, column);
            if (tile == Py_None) {
                continue;
            }
            int c = az_color_index(m, tile);
            if (c < 0) {
                return -1;
            }
            az_board_set_wall(b, row, column, c);
        }
    }
    if (m->memo != NULL) {  /* a wall is shared by a board's positions for a round */
        Py_XSETREF(m->memo->wall[slot], Py_NewRef(wall));
        memcpy(m->memo->walls[slot].cell, b->cell, sizeof(b->cell));
        memcpy(m->memo->walls[slot].row_cells, b->row_cells, sizeof(b->row_cells));
        memcpy(m->memo->walls[slot].row_colors, b->row_colors, sizeof(b->row_colors));
        memcpy(m->memo->walls[slot].column_colors, b->column_colors, sizeof(b->column_colors));
    }
    return 0;
}

/* A PlayerBoard as the engine keeps it; -1 when a part is not as the constructors make
 * it.  Without ``with_wall`` the wall is not read (a take never looks at it: its lines
 * accept what the board's ``accepting`` says); the struct's wall is then left empty. */
int
az_read_board(const az_module *m, PyObject *obj, az_board *b, int with_wall)
{
    const az_slots *s = &m->s;
    long long value;
    if (Py_TYPE(obj) != m->board_type
        || az_int_in(SLOT(obj, s->score), -AZ_SCORE_LIMIT, AZ_SCORE_LIMIT, &value) < 0) {
        return -1;
    }
    b->score = value;
    if (az_int_in(SLOT(obj, s->accepting), 0, ((long long)1 << 25) - 1, &value) < 0) {
        return -1;
    }
    b->accepting = (uint32_t)value;
    PyObject *lines = SLOT(obj, s->lines), *wall = SLOT(obj, s->wall), *floor = SLOT(obj, s->floor);
    if (lines == NULL || !PyTuple_CheckExact(lines) || PyTuple_GET_SIZE(lines) != AZ_LINES
        || wall == NULL || !PyTuple_CheckExact(wall) || PyTuple_GET_SIZE(wall) != 5
        || floor == NULL || !PyTuple_CheckExact(floor) || PyTuple_GET_SIZE(floor) > AZ_FLOOR) {
        return -1;
    }
    for (int i = 0; i < AZ_LINES; i++) {
        PyObject *line = PyTuple_GET_ITEM(lines, i);
        long long count, capacity;
        if (Py_TYPE(line) != m->line_type || az_int_in(SLOT(line, s->line_count), 0, i + 1, &count) < 0
            || az_int_in(SLOT(line, s->line_capacity), i + 1, i + 1, &capacity) < 0) {
            return -1;
        }
        PyObject *color = SLOT(line, s->line_color);
        int c = color == Py_None ? -1 : az_color_index(m, color);
        if (color == NULL || (color != Py_None && c < 0) || (c < 0) != (count == 0)) {
            return -1;
        }
        b->line_color[i] = (int8_t)c;
        b->line_count[i] = (uint8_t)count;
    }
    memset(b->cell, -1, sizeof(b->cell));
    memset(b->row_cells, 0, sizeof(b->row_cells));
    memset(b->row_colors, 0, sizeof(b->row_colors));
    memset(b->column_colors, 0, sizeof(b->column_colors));
    if (with_wall && read_wall(m, wall, b) < 0) {
        return -1;
    }
    b->floor_len = (uint8_t)PyTuple_GET_SIZE(floor);
    for (int i = 0; i < b->floor_len; i++) {
        PyObject *item = PyTuple_GET_ITEM(floor, i);
        int c = item == m->marker ? AZ_MARKER : az_color_index(m, item);
        if (c < 0) {
            return -1;
        }
        b->floor[i] = (uint8_t)c;
    }
    return 0;
}

/* The index of a phase object, or -1. */
static int
phase_index(const az_module *m, PyObject *phase)
{
    for (int i = 0; i < 4; i++) {
        if (phase == m->phase[i]) {
            return i;
        }
    }
    return -1;
}

/* The objects of ``state`` a successor may share (read after a full read: their types
 * are known). */
static void
parts_of(const az_module *m, PyObject *state, az_parts *parts)
{
    const az_slots *s = &m->s;
    PyObject *context = SLOT(state, s->context);
    parts->state = state;
    parts->context = context;
    parts->players = SLOT(state, s->players);
    parts->factories = SLOT(state, s->factories);
    parts->center = SLOT(state, s->center);
    parts->bag = SLOT(context, s->bag);
    parts->lid = SLOT(context, s->lid);
    parts->outcome = SLOT(context, s->outcome);
    parts->scoring = SLOT(context, s->scoring);
    parts->variant = SLOT(context, s->variant);
    parts->round = SLOT(context, s->round);
}

/* A whole GameState as the engine's position, with the objects a successor may share;
 * -1 when a part is not as the referee builds it. */
int
az_read_game(const az_module *m, PyObject *state, az_game *g, az_parts *parts)
{
    const az_slots *s = &m->s;
    PyObject *context = SLOT(state, s->context);
    PyObject *players = SLOT(state, s->players);
    PyObject *factories = SLOT(state, s->factories);
    if (context == NULL || Py_TYPE(context) != m->context_type || players == NULL
        || !PyTuple_CheckExact(players) || PyTuple_GET_SIZE(players) < 1
        || PyTuple_GET_SIZE(players) > AZ_MAX_PLAYERS || factories == NULL
        || !PyTuple_CheckExact(factories) || PyTuple_GET_SIZE(factories) > AZ_MAX_FACTORIES) {
        return -1;
    }
    memset(g, 0, sizeof(*g));
    int n = (int)PyTuple_GET_SIZE(players);
    g->players = (uint8_t)n;
    g->factories = (uint8_t)PyTuple_GET_SIZE(factories);
    int phase = phase_index(m, SLOT(context, s->phase));
    PyObject *variant = SLOT(context, s->variant);
    long long value;
    if (phase < 0 || (variant != m->colored && variant != m->grey)
        || az_int_in(SLOT(context, s->round), 1, (long long)1 << 62, &value) < 0) {
        return -1;
    }
    g->phase = (uint8_t)phase;
    g->grey = variant == m->grey;
    g->round = value;
    PyObject *rng = SLOT(context, s->rng);
    if (rng == NULL) {
        return -1;
    }
    if (rng != Py_None) {
        if (!PyLong_CheckExact(rng)) {
            return -1;
        }
        unsigned long long bits = PyLong_AsUnsignedLongLong(rng);
        if (bits == (unsigned long long)-1 && PyErr_Occurred()) {
            PyErr_Clear();
            return -1;
        }
        g->seeded = 1;
        g->rng = bits;
    }
    if (az_int_in(SLOT(context, s->start), 0, n - 1, &value) < 0) {
        return -1;
    }
    g->start = (int8_t)value;
    if (az_int_in(SLOT(state, s->current), 0, n - 1, &value) < 0) {
        return -1;
    }
    g->current = (int8_t)value;
    PyObject *holder = SLOT(state, s->holder);
    if (holder == Py_None) {
        g->holder = AZ_NOBODY;
    } else if (az_int_in(holder, 0, n - 1, &value) == 0) {
        g->holder = (int8_t)value;
    } else {
        return -1;
    }
    for (int p = 0; p < n; p++) {
        if (az_read_board(m, PyTuple_GET_ITEM(players, p), &g->board[p], 1) < 0) {
            return -1;
        }
    }
    for (int f = 0; f < g->factories; f++) {
        if (az_read_tiles(m, PyTuple_GET_ITEM(factories, f), g->factory[f]) < 0) {
            return -1;
        }
    }
    PyObject *center = SLOT(state, s->center);
    PyObject *bag = SLOT(context, s->bag), *lid = SLOT(context, s->lid);
    PyObject *outcome = SLOT(context, s->outcome), *scoring = SLOT(context, s->scoring);
    if (az_read_tiles(m, center, g->center) < 0 || az_read_tiles(m, bag, g->bag) < 0
        || az_read_tiles(m, lid, g->lid) < 0 || outcome == NULL || scoring == NULL) {
        return -1;
    }
    az_sync_holders(g);
    if (parts != NULL) {
        parts_of(m, state, parts);
    }
    return 0;
}

/* -- the known position -------------------------------------------------------------- */

/* The values of the slots that make ``state``, in a fixed order (az_known.seen):
 * how many, or -1 when the players are not a tuple of 1-4 boards. */
static int
seen_of(const az_module *m, PyObject *state, PyObject **seen)
{
    const Py_ssize_t *offsets = m->seen_offsets;
    for (int i = 0; i < 6; i++) {
        seen[i] = SLOT(state, offsets[i]);
    }
    PyObject *context = seen[5], *players = seen[0];
    if (context == NULL || Py_TYPE(context) != m->context_type || players == NULL
        || !PyTuple_CheckExact(players) || PyTuple_GET_SIZE(players) < 1
        || PyTuple_GET_SIZE(players) > AZ_MAX_PLAYERS) {
        return -1;
    }
    for (int i = 6; i < 15; i++) {
        seen[i] = SLOT(context, offsets[i]);
    }
    int count = 15;
    for (Py_ssize_t p = 0; p < PyTuple_GET_SIZE(players); p++) {
        PyObject *board = PyTuple_GET_ITEM(players, p);
        if (Py_TYPE(board) != m->board_type) {
            return -1;
        }
        for (int i = 15; i < 20; i++) {
            seen[count++] = SLOT(board, offsets[i]);
        }
    }
    return count;
}

/* Whether ``state`` is the position ``k`` knows, with every slot as it was (the values
 * held since: an object in a slot now is the one seen then). */
static int
still_known(const az_module *m, const az_known *k, PyObject *state)
{
    PyObject *const *seen = k->seen;
    const Py_ssize_t *offsets = m->seen_offsets;
    if (state != k->state) {
        return 0;
    }
    for (int i = 0; i < 6; i++) {
        if (SLOT(state, offsets[i]) != seen[i]) {
            return 0;
        }
    }
    PyObject *context = seen[5], *players = seen[0];
    for (int i = 6; i < 15; i++) {
        if (SLOT(context, offsets[i]) != seen[i]) {
            return 0;
        }
    }
    seen += 15;
    for (Py_ssize_t p = 0; p < PyTuple_GET_SIZE(players); p++, seen += 5) {
        PyObject *board = PyTuple_GET_ITEM(players, p);
        for (int i = 0; i < 5; i++) {
            if (SLOT(board, offsets[15 + i]) != seen[i]) {
                return 0;
            }
        }
    }
    return 1;
}

/* Whether pattern line ``i`` of board ``p`` of a known position still holds what the
 * struct says (the shared lines of board.LINES can be changed behind their constructor). */
static inline int
line_intact(const az_module *m, const az_known *k, int p, int i)
{
    const az_slots *s = &m->s;
    PyObject *board = PyTuple_GET_ITEM(k->seen[0], p);
    PyObject *line = PyTuple_GET_ITEM(SLOT(board, s->lines), i);
    int c = k->game.board[p].line_color[i];
    return Py_TYPE(line) == m->line_type
           && SLOT(line, s->line_color) == (c < 0 ? Py_None : m->color[c])
           && SLOT(line, s->line_count) == m->small_int[k->game.board[p].line_count[i]]
           && SLOT(line, s->line_capacity) == m->small_int[i + 1];
}

/* Whether a known position's pattern lines ``lines`` (az_game_of's) are intact. */
static int
lines_intact(const az_module *m, const az_known *k, int lines)
{
    if (lines >= 0) {
        return line_intact(m, k, k->game.current, lines);
    }
    for (int p = 0; lines == AZ_ALL_LINES && p < k->game.players; p++) {
        for (int i = 0; i < AZ_LINES; i++) {
            if (!line_intact(m, k, p, i)) {
                return 0;
            }
        }
    }
    return 1;
}

/* The known entry whose struct ``g`` is, or NULL (a struct read into a scratch). */
static const az_known *
entry_of(const az_module *m, const az_game *g)
{
    for (int i = 0; i < 2; i++) {
        if (g == &m->known[i].game) {
            return &m->known[i];
        }
    }
    return NULL;
}

/* Forgets the known positions (the references dropped last: freeing may run code). */
void
az_forget(az_module *m)
{
    for (int e = 0; e < 2; e++) {
        az_known *k = &m->known[e];
        PyObject *state = k->state;
        PyObject *seen[AZ_SEEN_MAX];
        int count = k->count;
        memcpy(seen, k->seen, (size_t)count * sizeof(PyObject *));
        k->state = NULL;
        k->count = 0;
        for (int i = 0; i < count; i++) {
            Py_XDECREF(seen[i]);
        }
        Py_XDECREF(state);
    }
}

/* Keeps ``g`` as the struct of ``state`` (a position read, or a successor built), in
 * place of the entry used longer ago.  A value in the same place as in the position it
 * replaces keeps its reference; only the others change hands (the old dropped last:
 * freeing may run code). */
void
az_know(az_module *m, PyObject *state, const az_game *g)
{
    az_known *k = m->known[0].used <= m->known[1].used ? &m->known[0] : &m->known[1];
    PyObject *seen[AZ_SEEN_MAX], *dropped[AZ_SEEN_MAX + 1];
    int count = seen_of(m, state, seen), old_count = k->count, drops = 0;
    if (count < 0) {
        count = 0;
    }
    for (int i = 0; i < count || i < old_count; i++) {
        PyObject *old = i < old_count ? k->seen[i] : NULL;
        PyObject *new = i < count ? seen[i] : NULL;
        if (old != new) {
            Py_XINCREF(new);
            dropped[drops++] = old;
            k->seen[i] = new;
        }
    }
    dropped[drops++] = k->state;
    k->count = count;
    k->state = count > 0 ? Py_NewRef(state) : NULL;
    k->used = ++m->tick;
    if (count > 0) {
        k->game = *g;
    }
    for (int i = 0; i < drops; i++) {
        Py_XDECREF(dropped[i]);
    }
}

/* The struct of ``state`` when it is a known position and none of its slots changed
 * since, nor the pattern lines ``lines`` (those the caller reads: AZ_ALL_LINES,
 * AZ_NO_LINE, or a line of the player to move); NULL otherwise. */
static const az_game *
known_game(az_module *m, PyObject *state, az_parts *parts, int lines)
{
    for (int e = 0; e < 2; e++) {
        az_known *k = &m->known[e];
        if (still_known(m, k, state) && lines_intact(m, k, lines)) {
            if (parts != NULL) {
                parts_of(m, state, parts);
            }
            k->used = ++m->tick;
            return &k->game;
        }
    }
    return NULL;
}

/* The whole position of ``state``: its known struct (known_game), else ``scratch``
 * read from the objects (and then known); NULL when a part is not as the referee
 * builds it. */
const az_game *
az_game_of(az_module *m, PyObject *state, az_game *scratch, az_parts *parts, int lines)
{
    const az_game *known = known_game(m, state, parts, lines);
    if (known != NULL) {
        return known;
    }
    if (az_read_game(m, state, scratch, parts) < 0) {
        return NULL;
    }
    az_know(m, state, scratch);
    return scratch;
}

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
static PyObject *
blank(PyTypeObject *type)
{
    return type->tp_alloc(type, 0);
}

/* The tuple ``items`` (``n`` new references, stolen), or NULL (the references dropped). */
static PyObject *
tuple_of(PyObject **items, Py_ssize_t n)
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
static PyObject *
int_of(long long value)
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
    return tuple_of(items, 5);
}

/* ``old`` (a new reference) when it is an exact int of ``value``, else a new int. */
static PyObject *
int_like(PyObject *old, long long value)
{
    long long was;
    if (old != NULL && az_int_in(old, value, value, &was) == 0) {
        return Py_NewRef(old);
    }
    return int_of(value);
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
    return tuple_of(items, b->floor_len);
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
    return tuple_of(items, AZ_LINES);
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
        return tuple_of(rows, 5);
    }
    for (int row = 0; row < 5; row++) {
        Py_XDECREF(rows[row]);
    }
    return Py_NewRef(old);
}

/* The PlayerBoard of ``b``, sharing the parts of ``old`` (a PlayerBoard read into the
 * engine) that did not change; ``keep_wall``: the wall is ``old``'s (a take: the
 * struct's wall was not read). */
static PyObject *
build_board(const az_module *m, const az_board *b, PyObject *old, int keep_wall)
{
    const az_slots *s = &m->s;
    PyObject *old_wall = old != NULL ? SLOT(old, s->wall) : NULL;
    PyObject *wall = keep_wall ? Py_NewRef(old_wall) : wall_of(m, b, old_wall);
    PyObject *floor = floor_of(m, b, old != NULL ? SLOT(old, s->floor) : NULL);
    PyObject *lines = lines_of(m, b, old != NULL ? SLOT(old, s->lines) : NULL);
    PyObject *score = int_like(old != NULL ? SLOT(old, s->score) : NULL, b->score);
    PyObject *accepting = int_like(old != NULL ? SLOT(old, s->accepting) : NULL, b->accepting);
    PyObject *board = blank(m->board_type);
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
static PyObject *
build_context(const az_module *m, PyObject *bag, PyObject *lid, PyObject *start,
              PyObject *phase, PyObject *round, PyObject *variant, PyObject *rng,
              PyObject *outcome, PyObject *scoring)
{
    const az_slots *s = &m->s;
    PyObject *parts[9] = {bag, lid, start, phase, round, variant, rng, outcome, scoring};
    const Py_ssize_t offsets[9] = {s->bag, s->lid, s->start, s->phase, s->round, s->variant,
                                   s->rng, s->outcome, s->scoring};
    PyObject *context = blank(m->context_type);
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
static PyObject *
build_state(const az_module *m, PyTypeObject *type, PyObject *players, PyObject *factories,
            PyObject *center, PyObject *current, PyObject *holder, PyObject *context)
{
    const az_slots *s = &m->s;
    PyObject *parts[6] = {players, factories, center, current, holder, context};
    const Py_ssize_t offsets[6] = {s->players, s->factories, s->center, s->current, s->holder,
                                   s->context};
    PyObject *state = blank(type);
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
static PyObject *
tuple_plus(PyObject *head, PyObject **more, Py_ssize_t count)
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

/* A WallPlacement (a named tuple). */
static PyObject *
build_placement(const az_module *m, const az_placement *p)
{
    PyObject *out = m->placement_type->tp_alloc(m->placement_type, 6);
    if (out == NULL) {
        return NULL;
    }
    PyObject *items[6] = {int_of(p->row), int_of(p->column), Py_NewRef(m->color[p->color]),
                          int_of(p->horizontal), int_of(p->vertical), int_of(p->points)};
    int ok = 1;
    for (int i = 0; i < 6; i++) {
        ok = ok && items[i] != NULL;
        PyTuple_SET_ITEM(out, i, items[i] != NULL ? items[i] : Py_NewRef(Py_None));
    }
    if (!ok) {
        Py_DECREF(out);
        return NULL;
    }
    return out;
}

/* A PlayerTiling from its seven parts (new references, stolen). */
static PyObject *
build_tiling(const az_module *m, PyObject *parts[7])
{
    const az_slots *s = &m->s;
    const Py_ssize_t offsets[7] = {s->t_player, s->t_before, s->t_placements, s->t_penalty,
                                   s->t_after, s->t_bonuses, s->t_floor_lines};
    PyObject *tiling = blank(m->tiling_type);
    int ok = tiling != NULL;
    for (int i = 0; i < 7; i++) {
        ok = ok && parts[i] != NULL;
    }
    if (!ok) {
        Py_XDECREF(tiling);
        for (int i = 0; i < 7; i++) {
            Py_XDECREF(parts[i]);
        }
        return NULL;
    }
    for (int i = 0; i < 7; i++) {
        SLOT(tiling, offsets[i]) = parts[i];
    }
    return tiling;
}

/* A player's record that starts with this tiling (tilings_so_far, merged_tiling). */
#define FRESH ((PyObject *)2)

/* A fresh record of a tiling: nothing placed yet, the score as it stands
 * (state._no_tilings). */
static PyObject *
fresh_tiling(const az_module *m, int player, PyObject *board)
{
    PyObject *score = SLOT(board, m->s.score);
    PyObject *parts[7] = {int_of(player), Py_NewRef(score), Py_NewRef(m->empty_tuple),
                          int_of(0), Py_NewRef(score), Py_NewRef(Py_None),
                          Py_NewRef(m->empty_tuple)};
    return build_tiling(m, parts);
}

/* GameState._tilings_so_far: this round's grey tiling record, carried on when it
 * agrees with the boards; NULL (no exception) when the record is not as the referee
 * builds it (the reference then decides).  ``out`` gets new references, or FRESH. */
static int
tilings_so_far(const az_module *m, const az_parts *parts, const az_game *g, PyObject **out)
{
    const az_slots *s = &m->s;
    PyObject *record = parts->scoring;
    int n = g->players;
    int fresh = record == Py_None;
    if (!fresh) {
        if (Py_TYPE(record) != m->scoring_type) {
            return -1;
        }
        PyObject *over = SLOT(record, s->s_game_over);
        PyObject *round = SLOT(record, s->s_round);
        PyObject *tilings = SLOT(record, s->s_players);
        long long value;
        if (over == NULL || round == NULL || tilings == NULL || (over != Py_True && over != Py_False)) {
            return -1;
        }
        if (az_int_in(round, LLONG_MIN, LLONG_MAX, &value) < 0) {
            return -1;
        }
        fresh = value != g->round || over == Py_True;
        if (!fresh) {
            if (!PyTuple_CheckExact(tilings)) {
                return -1;
            }
            fresh = PyTuple_GET_SIZE(tilings) != n;
            for (int p = 0; !fresh && p < n; p++) {
                PyObject *tiling = PyTuple_GET_ITEM(tilings, p);
                long long player, after;
                if (Py_TYPE(tiling) != m->tiling_type
                    || az_int_in(SLOT(tiling, s->t_player), LLONG_MIN, LLONG_MAX, &player) < 0
                    || az_int_in(SLOT(tiling, s->t_after), LLONG_MIN, LLONG_MAX, &after) < 0) {
                    return -1;
                }
                fresh = player != p || after != g->board[p].score;
            }
            if (!fresh) {
                for (int p = 0; p < n; p++) {
                    PyObject *tiling = PyTuple_GET_ITEM(tilings, p);
                    const Py_ssize_t needed[5] = {s->t_before, s->t_placements, s->t_penalty,
                                                  s->t_bonuses, s->t_floor_lines};
                    for (int k = 0; k < 5; k++) {
                        if (SLOT(tiling, needed[k]) == NULL) {
                            return -1;
                        }
                    }
                    if (!PyTuple_CheckExact(SLOT(tiling, s->t_placements))
                        || !PyTuple_CheckExact(SLOT(tiling, s->t_floor_lines))) {
                        return -1;
                    }
                }
                for (int p = 0; p < n; p++) {
                    out[p] = Py_NewRef(PyTuple_GET_ITEM(tilings, p));
                }
                return 0;
            }
        }
    }
    for (int p = 0; p < n; p++) {
        out[p] = FRESH;
    }
    return 0;
}

/* One player's record after the engine's tiling: ``prior`` (a new reference, stolen;
 * FRESH: a fresh record of ``board``'s player ``player``) with what the tiling did
 * added (scoring.new_tiling as the reference calls it). */
static PyObject *
merged_tiling(const az_module *m, PyObject *prior, int player, PyObject *board,
              const az_tiling *t)
{
    if (prior == NULL) {
        return NULL;
    }
    if (!t->placed_count && !t->floor_line_count && !t->settled && !t->has_bonuses) {
        return prior == FRESH ? fresh_tiling(m, player, board) : prior;
    }
    const az_slots *s = &m->s;
    PyObject *placed[AZ_LINES], *lines[AZ_LINES];
    for (int i = 0; i < t->placed_count; i++) {
        placed[i] = build_placement(m, &t->placed[i]);
    }
    for (int i = 0; i < t->floor_line_count; i++) {
        lines[i] = int_of(t->floor_lines[i]);
    }
    PyObject *parts[7];
    if (prior == FRESH) {  /* state._no_tilings: nothing yet, the score as it stands */
        PyObject *score = SLOT(board, s->score);
        parts[0] = int_of(player);
        parts[1] = Py_NewRef(score);
        parts[2] = tuple_plus(m->empty_tuple, placed, t->placed_count);
        parts[3] = int_of(0);
        parts[4] = Py_NewRef(score);
        parts[5] = Py_NewRef(Py_None);
        parts[6] = tuple_plus(m->empty_tuple, lines, t->floor_line_count);
    } else {
        parts[0] = Py_NewRef(SLOT(prior, s->t_player));
        parts[1] = Py_NewRef(SLOT(prior, s->t_before));
        parts[2] = tuple_plus(SLOT(prior, s->t_placements), placed, t->placed_count);
        parts[3] = Py_NewRef(SLOT(prior, s->t_penalty));
        parts[4] = Py_NewRef(SLOT(prior, s->t_after));
        parts[5] = Py_NewRef(SLOT(prior, s->t_bonuses));
        parts[6] = tuple_plus(SLOT(prior, s->t_floor_lines), lines, t->floor_line_count);
        Py_DECREF(prior);
    }
    if (t->placed_count) {  /* GameState._place: the score after the placement */
        Py_XSETREF(parts[3], int_of(0));
        Py_XSETREF(parts[4], int_of(t->placed_score));
        Py_XSETREF(parts[5], Py_NewRef(Py_None));
    }
    if (t->settled) {  /* the floor (W4) */
        Py_XSETREF(parts[3], int_of(t->penalty));
        Py_XSETREF(parts[4], int_of(t->settled_score));
    }
    if (t->has_bonuses) {  /* the end bonuses (E2) */
        PyObject *bonuses = blank(m->bonuses_type);
        if (bonuses != NULL) {
            SLOT(bonuses, s->b_rows) = int_of(t->rows);
            SLOT(bonuses, s->b_columns) = int_of(t->columns);
            SLOT(bonuses, s->b_colors) = int_of(t->colors);
            if (SLOT(bonuses, s->b_rows) == NULL || SLOT(bonuses, s->b_columns) == NULL
                || SLOT(bonuses, s->b_colors) == NULL) {
                Py_CLEAR(bonuses);
            }
        }
        Py_XSETREF(parts[5], bonuses);
        Py_XSETREF(parts[4], int_of(t->final_score));
    }
    return build_tiling(m, parts);
}

/* The successor of a move that ran a tiling (the end of a factory offer, a grey
 * placement): every part from the engine's ``after``, sharing what ``before`` had. */
static PyObject *
build_after_tiling(const az_module *m, PyTypeObject *type, const az_parts *parts,
                   const az_game *before, const az_game *after, const az_report *report)
{
    const az_slots *s = &m->s;
    int n = after->players;
    PyObject *prior[AZ_MAX_PLAYERS];
    if (report->fresh_records) {
        for (int p = 0; p < n; p++) {
            prior[p] = FRESH;
        }
    } else if (tilings_so_far(m, parts, before, prior) < 0) {
        return NOT_MINE;
    }
    PyObject *records[AZ_MAX_PLAYERS], *boards[AZ_MAX_PLAYERS];
    for (int p = 0; p < n; p++) {
        PyObject *old = PyTuple_GET_ITEM(parts->players, p);
        records[p] = merged_tiling(m, prior[p], p, old, &report->tiling[p]);
        boards[p] = (report->board_changed >> p & 1) ? build_board(m, &after->board[p], old, 0)
                                                     : Py_NewRef(old);
    }
    PyObject *tilings = tuple_of(records, n);
    PyObject *scoring = NULL;
    if (tilings != NULL && (scoring = blank(m->scoring_type)) != NULL) {
        SLOT(scoring, s->s_round) = Py_NewRef(parts->round);
        SLOT(scoring, s->s_players) = Py_NewRef(tilings);
        SLOT(scoring, s->s_game_over) = Py_NewRef(after->phase == AZ_OVER ? Py_True : Py_False);
    }
    Py_XDECREF(tilings);
    PyObject *players = tuple_of(boards, n);
    PyObject *factory_items[AZ_MAX_FACTORIES];
    for (int f = 0; f < after->factories; f++) {
        factory_items[f] = az_tiles(m, after->factory[f]);
    }
    PyObject *factories = tuple_of(factory_items, after->factories);
    PyObject *outcome = Py_NewRef(Py_None);
    if (after->phase == AZ_OVER) {
        PyObject *winners[AZ_MAX_PLAYERS], *scores[AZ_MAX_PLAYERS];
        int count = 0;
        for (int p = 0; p < n; p++) {
            if (report->winners >> p & 1) {
                winners[count++] = int_of(p);
            }
            scores[p] = int_of(after->board[p].score);
        }
        PyObject *won = tuple_of(winners, count), *scored = tuple_of(scores, n);
        Py_SETREF(outcome, blank(m->outcome_type));
        if (outcome == NULL || won == NULL || scored == NULL) {
            Py_XDECREF(won);
            Py_XDECREF(scored);
            Py_CLEAR(outcome);
        } else {
            SLOT(outcome, s->o_winners) = won;
            SLOT(outcome, s->o_scores) = scored;
        }
    }
    int bag_same = memcmp(before->bag, after->bag, sizeof(after->bag)) == 0;
    int lid_same = memcmp(before->lid, after->lid, sizeof(after->lid)) == 0;
    PyObject *rng = Py_None;
    int rng_new = after->seeded && after->rng != before->rng;
    PyObject *context = build_context(
        m, bag_same ? Py_NewRef(parts->bag) : az_tiles(m, after->bag),
        lid_same ? Py_NewRef(parts->lid) : az_tiles(m, after->lid), int_of(after->start),
        Py_NewRef(m->phase[after->phase]),
        after->round == before->round ? Py_NewRef(parts->round) : int_of(after->round),
        Py_NewRef(parts->variant),
        !after->seeded ? Py_NewRef(rng) : rng_new ? PyLong_FromUnsignedLongLong(after->rng)
                                                  : Py_NewRef(SLOT(parts->context, s->rng)),
        outcome, scoring);
    PyObject *holder = after->holder == AZ_NOBODY ? Py_NewRef(Py_None) : int_of(after->holder);
    return build_state(m, type, players, factories, Py_NewRef(m->empty_tuple),
                       int_of(after->current), holder, context);
}

/* -- the twins of GameState ------------------------------------------------------- */

/* GameState.legal_moves: the takes (TAKE_OPTIONS by the accepting lines), or the grey
 * wall's placements (PLACE_TILES of the legal columns). */
static PyObject *
legal_moves(az_module *m, PyObject *self)
{
    az_game scratch;
    const az_game *g = az_game_of(m, self, &scratch, NULL, AZ_NO_LINE);
    if (g == NULL) {
        return NOT_MINE;
    }
    if (g->phase == AZ_TILING) {  /* the next full line: the lines are read */
        if (entry_of(m, g) != NULL && !lines_intact(m, entry_of(m, g), AZ_ALL_LINES)) {
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
        PyObject *out = PyTuple_New(__builtin_popcount(columns));
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
        boards[p] = p == mover ? build_board(m, &after->board[p], old, 1) : Py_NewRef(old);
    }
    PyObject *factories = parts->factories;
    if (source != AZ_CENTER) {
        PyObject *items[AZ_MAX_FACTORIES];
        for (int f = 0; f < after->factories; f++) {
            items[f] = Py_NewRef(f == source ? m->empty_tuple : PyTuple_GET_ITEM(factories, f));
        }
        factories = tuple_of(items, after->factories);
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
        context = build_context(m, context_parts[0], context_parts[1], context_parts[2],
                                context_parts[3], context_parts[4], context_parts[5],
                                context_parts[6], context_parts[7], context_parts[8]);
    } else {
        Py_INCREF(context);
    }
    PyObject *holder = after->holder == AZ_NOBODY ? Py_NewRef(Py_None) : int_of(after->holder);
    return build_state(m, type, tuple_of(boards, n), factories, az_tiles(m, after->center),
                       int_of(after->current), holder, context);
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
    parts_of(m, self, &parts);
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
    const az_game *before = known_game(m, self, &parts, lines);
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
            if (entry_of(m, before) != NULL
                && !lines_intact(m, entry_of(m, before), AZ_ALL_LINES)) {
                return NOT_MINE;  /* a line changed behind its constructor: the reference */
            }
            memset(report.tiling, 0, sizeof(report.tiling));
            az_end_offer(&after, &report);
            scratch = *before;  /* a copy: building may run code that reads another position */
            out = build_after_tiling(m, type, &parts, &scratch, &after, &report);
        } else {
            out = build_after_take(m, type, &parts, a, &after, &report);
        }
    } else {
        memset(report.tiling, 0, sizeof(report.tiling));
        if (!az_place_tile(&after, a, b, &report)) {
            return NOT_MINE;
        }
        scratch = *before;
        out = build_after_tiling(m, type, &parts, &scratch, &after, &report);
    }
    if (out != NULL && out != NOT_MINE) {
        az_know(m, out, &after);
    }
    return out;
}

/* GameState.apply: a Take or a PlaceTile (the exact classes) in C; every other move,
 * and every illegal one, by the reference. */
static PyObject *
apply(az_module *m, PyTypeObject *type, PyObject *self, PyObject *move)
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
static PyObject *
is_over(az_module *m, PyObject *self)
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
static PyObject *
new_game(az_module *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
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
        m->new_board = build_board(m, &g.board[0], NULL, 0);
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
    PyObject *context = build_context(
        m, az_tiles(m, g.bag), Py_NewRef(m->empty_tuple), int_of(g.start),
        Py_NewRef(m->phase[AZ_OFFER]), int_of(1), Py_NewRef(variant),
        PyLong_FromUnsignedLongLong(g.rng), Py_NewRef(Py_None), Py_NewRef(Py_None));
    PyObject *state = build_state(m, m->state_type, tuple_of(boards, g.players),
                                  tuple_of(factories, g.factories), Py_NewRef(m->empty_tuple),
                                  int_of(g.current), Py_NewRef(Py_None), context);
    if (state != NULL) {
        az_know(m, state, &g);
    }
    return state;
}

/* -- twins ------------------------------------------------------------------------- */

enum { TWIN_LEGAL_MOVES, TWIN_APPLY, TWIN_IS_OVER, TWIN_LEGAL_ACTIONS, TWIN_OBSERVE_INTO,
       TWIN_DEAL_OUTCOMES, TWIN_NEW_GAME };

static const struct {
    const char *name;
    int method;     /* bound to an instance (0: a function, or a property below) */
    int property;
    Py_ssize_t args;  /* positional arguments, the instance included (-1: the twin checks) */
} TWINS[] = {
    {"legal_moves", 1, 0, 1},   {"apply", 1, 0, 2},          {"is_over", 0, 1, 1},
    {"legal_actions", 0, 0, 1}, {"observe_into", 0, 0, -1}, {"deal_outcomes", 0, 0, 2},
    {"new_game", 0, 0, -1},
};

typedef struct {
    PyObject_HEAD
    int which;
    PyObject *reference;
    PyObject *module;
    PyTypeObject *owner;
    vectorcallfunc vectorcall;
} az_twin;

static PyObject *
twin_vectorcall(PyObject *callable, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    az_twin *twin = (az_twin *)callable;
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    az_module *m = az_module_of(twin->module);
    PyObject *out = NOT_MINE;
    if (twin->which == TWIN_NEW_GAME) {
        out = new_game(m, args, nargs, kwnames);
    } else if (kwnames == NULL
               && (TWINS[twin->which].args < 0 || nargs == TWINS[twin->which].args)) {
        switch (twin->which) {
        case TWIN_LEGAL_MOVES:
            out = twin->owner != NULL && Py_TYPE(args[0]) == twin->owner ? legal_moves(m, args[0])
                                                                         : NOT_MINE;
            break;
        case TWIN_APPLY:
            out = twin->owner != NULL && Py_TYPE(args[0]) == twin->owner
                      ? apply(m, twin->owner, args[0], args[1]) : NOT_MINE;
            break;
        case TWIN_LEGAL_ACTIONS:
            out = az_legal_actions_call(m, args, nargs);
            break;
        case TWIN_OBSERVE_INTO:
            out = az_observe_into_call(m, args, nargs);
            break;
        case TWIN_DEAL_OUTCOMES:
            out = az_deal_outcomes_call(m, args, nargs);
            break;
        default:
            break;
        }
    }
    if (out != NOT_MINE) {
        return out;
    }
    return PyObject_Vectorcall(twin->reference, args, nargsf, kwnames);
}

static PyObject *
twin_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    const char *name;
    PyObject *reference;
    if (kwargs != NULL || !PyArg_ParseTuple(args, "sO:Twin", &name, &reference)) {
        if (kwargs != NULL) {
            PyErr_SetString(PyExc_TypeError, "Twin(name, reference) takes no keywords");
        }
        return NULL;
    }
    int which = -1;
    for (size_t i = 0; i < sizeof(TWINS) / sizeof(TWINS[0]); i++) {
        if (strcmp(TWINS[i].name, name) == 0) {
            which = (int)i;
        }
    }
    if (which < 0 || !PyCallable_Check(reference)) {
        PyErr_Format(PyExc_ValueError, "Twin(name, reference): no compiled twin named %s, or "
                     "a reference that cannot be called", name);
        return NULL;
    }
    PyObject *module = PyType_GetModule(type);
    if (module == NULL) {
        return NULL;
    }
    az_twin *twin = (az_twin *)type->tp_alloc(type, 0);
    if (twin == NULL) {
        return NULL;
    }
    twin->which = which;
    twin->reference = Py_NewRef(reference);
    twin->module = Py_NewRef(module);
    twin->owner = NULL;
    twin->vectorcall = twin_vectorcall;
    return (PyObject *)twin;
}

static int
twin_traverse(az_twin *twin, visitproc visit, void *arg)
{
    Py_VISIT(Py_TYPE(twin));
    Py_VISIT(twin->reference);
    Py_VISIT(twin->module);
    Py_VISIT(twin->owner);
    return 0;
}

static int
twin_clear(az_twin *twin)
{
    Py_CLEAR(twin->reference);
    Py_CLEAR(twin->module);
    Py_CLEAR(twin->owner);
    return 0;
}

static void
twin_dealloc(az_twin *twin)
{
    PyTypeObject *type = Py_TYPE(twin);
    PyObject_GC_UnTrack(twin);
    twin_clear(twin);
    type->tp_free(twin);
    Py_DECREF(type);
}

/* A method binds to the instance; a property computes its value; a function is itself. */
static PyObject *
twin_get(PyObject *self, PyObject *obj, PyObject *type)
{
    (void)type;
    az_twin *twin = (az_twin *)self;
    if (obj == NULL || obj == Py_None) {
        return Py_NewRef(self);
    }
    if (TWINS[twin->which].property) {
        PyObject *out = NOT_MINE;
        if (twin->owner != NULL && Py_TYPE(obj) == twin->owner) {
            out = is_over(az_module_of(twin->module), obj);
        }
        return out != NOT_MINE ? out : PyObject_CallOneArg(twin->reference, obj);
    }
    if (TWINS[twin->which].method) {
        return PyMethod_New(self, obj);
    }
    return Py_NewRef(self);
}

static int
twin_set(PyObject *self, PyObject *obj, PyObject *value)
{
    (void)self;
    (void)obj;
    (void)value;
    PyErr_SetString(PyExc_AttributeError, "a compiled twin property cannot be set or deleted");
    return -1;
}

/* The class body names the twin's class: the successors it builds are of that class. */
static PyObject *
twin_set_name(PyObject *self, PyObject *args)
{
    PyObject *owner, *name;
    if (!PyArg_ParseTuple(args, "OO:__set_name__", &owner, &name)) {
        return NULL;
    }
    az_twin *twin = (az_twin *)self;
    az_module *m = az_module_of(twin->module);
    if (PyType_Check(owner) && PyType_IsSubtype((PyTypeObject *)owner, m->position_type)) {
        Py_XSETREF(twin->owner, (PyTypeObject *)Py_NewRef(owner));
        Py_XSETREF(m->state_type, (PyTypeObject *)Py_NewRef(owner));
    }
    Py_RETURN_NONE;
}

static PyObject *
twin_attribute(PyObject *self, void *name)
{
    return PyObject_GetAttrString(((az_twin *)self)->reference, (const char *)name);
}

static PyObject *
twin_repr(PyObject *self)
{
    az_twin *twin = (az_twin *)self;
    return PyUnicode_FromFormat("<compiled twin of %R>", twin->reference);
}

static PyMethodDef twin_methods[] = {
    {"__set_name__", twin_set_name, METH_VARARGS, "Learns the class the twin is defined in."},
    {NULL, NULL, 0, NULL},
};

static PyMemberDef twin_members[] = {
    {"__wrapped__", T_OBJECT, offsetof(az_twin, reference), READONLY,
     "The Python reference, which the twin gives every call it does not make."},
    {"__vectorcalloffset__", T_PYSSIZET, offsetof(az_twin, vectorcall), READONLY, NULL},
    {NULL, 0, 0, 0, NULL},
};

static PyGetSetDef twin_getset[] = {
    {"__doc__", twin_attribute, NULL, NULL, "__doc__"},
    {"__name__", twin_attribute, NULL, NULL, "__name__"},
    {"__qualname__", twin_attribute, NULL, NULL, "__qualname__"},
    {"__module__", twin_attribute, NULL, NULL, "__module__"},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyType_Slot twin_slots[] = {
    {Py_tp_new, twin_new}, {Py_tp_dealloc, twin_dealloc}, {Py_tp_traverse, twin_traverse},
    {Py_tp_clear, twin_clear}, {Py_tp_descr_get, twin_get}, {Py_tp_call, PyVectorcall_Call},
    {Py_tp_methods, twin_methods}, {Py_tp_members, twin_members},
    {Py_tp_getset, twin_getset}, {Py_tp_repr, twin_repr}, {0, NULL},
};
static PyType_Slot twin_property_slots[] = {
    {Py_tp_new, twin_new}, {Py_tp_dealloc, twin_dealloc}, {Py_tp_traverse, twin_traverse},
    {Py_tp_clear, twin_clear}, {Py_tp_descr_get, twin_get}, {Py_tp_descr_set, twin_set},
    {Py_tp_methods, twin_methods}, {Py_tp_members, twin_members},
    {Py_tp_getset, twin_getset}, {Py_tp_repr, twin_repr}, {0, NULL},
};

static PyType_Spec twin_spec = {
    "azul_rules.core._compiled.Twin", sizeof(az_twin), 0,
    Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_HAVE_VECTORCALL
        | Py_TPFLAGS_METHOD_DESCRIPTOR, twin_slots,
};
static PyType_Spec twin_property_spec = {
    "azul_rules.core._compiled.TwinProperty", sizeof(az_twin), 0,
    Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC, twin_property_slots,
};

/* -- the module: its state read from the Python definitions ------------------------- */

/* module.name, or NULL with an exception. */
static PyObject *
attribute(const char *module, const char *name)
{
    PyObject *found = PyImport_ImportModule(module);
    if (found == NULL) {
        return NULL;
    }
    PyObject *value = PyObject_GetAttrString(found, name);
    Py_DECREF(found);
    return value;
}

/* The offset of slot ``name`` in instances of ``type`` (from its member descriptor). */
static int
slot_offset(PyTypeObject *type, const char *name, Py_ssize_t *out)
{
    PyObject *descriptor = PyObject_GetAttrString((PyObject *)type, name);
    if (descriptor == NULL) {
        return -1;
    }
    int ok = Py_IS_TYPE(descriptor, &PyMemberDescr_Type)
             && ((PyMemberDescrObject *)descriptor)->d_member->type == T_OBJECT_EX;
    if (ok) {
        *out = ((PyMemberDescrObject *)descriptor)->d_member->offset;
    }
    Py_DECREF(descriptor);
    if (!ok) {
        PyErr_Format(PyExc_TypeError, "%s.%s is not a slot", type->tp_name, name);
        return -1;
    }
    return 0;
}

/* A class of the core, kept in ``*out``. */
static int
read_type(const char *module, const char *name, PyTypeObject **out)
{
    PyObject *type = attribute(module, name);
    if (type == NULL) {
        return -1;
    }
    if (!PyType_Check(type)) {
        Py_DECREF(type);
        PyErr_Format(PyExc_TypeError, "%s.%s is not a class", module, name);
        return -1;
    }
    *out = (PyTypeObject *)type;
    return 0;
}

static int
read_slots(az_module *m)
{
    az_slots *s = &m->s;
    struct {
        PyTypeObject *type;
        const char *name;
        Py_ssize_t *out;
    } wanted[] = {
        {m->position_type, "players", &s->players}, {m->position_type, "factories", &s->factories},
        {m->position_type, "center", &s->center}, {m->position_type, "current_player", &s->current},
        {m->position_type, "marker_holder", &s->holder}, {m->position_type, "context", &s->context},
        {m->context_type, "bag", &s->bag}, {m->context_type, "lid", &s->lid},
        {m->context_type, "start_player", &s->start}, {m->context_type, "phase", &s->phase},
        {m->context_type, "round", &s->round}, {m->context_type, "variant", &s->variant},
        {m->context_type, "rng_state", &s->rng}, {m->context_type, "outcome", &s->outcome},
        {m->context_type, "last_scoring", &s->scoring},
        {m->board_type, "score", &s->score}, {m->board_type, "pattern_lines", &s->lines},
        {m->board_type, "wall", &s->wall}, {m->board_type, "floor", &s->floor},
        {m->board_type, "accepting", &s->accepting},
        {m->line_type, "color", &s->line_color}, {m->line_type, "count", &s->line_count},
        {m->line_type, "capacity", &s->line_capacity},
        {m->tiling_type, "player", &s->t_player}, {m->tiling_type, "score_before", &s->t_before},
        {m->tiling_type, "placements", &s->t_placements},
        {m->tiling_type, "floor_penalty", &s->t_penalty},
        {m->tiling_type, "score_after", &s->t_after}, {m->tiling_type, "bonuses", &s->t_bonuses},
        {m->tiling_type, "floor_lines", &s->t_floor_lines},
        {m->scoring_type, "round", &s->s_round}, {m->scoring_type, "players", &s->s_players},
        {m->scoring_type, "game_over", &s->s_game_over},
        {m->bonuses_type, "rows", &s->b_rows}, {m->bonuses_type, "columns", &s->b_columns},
        {m->bonuses_type, "colors", &s->b_colors},
        {m->outcome_type, "winners", &s->o_winners}, {m->outcome_type, "scores", &s->o_scores},
        {m->take_type, "source", &s->m_source}, {m->take_type, "color", &s->m_color},
        {m->take_type, "line", &s->m_line}, {m->take_type, "player", &s->m_player},
        {m->place_type, "line", &s->p_line}, {m->place_type, "column", &s->p_column},
        {m->place_type, "player", &s->p_player},
    };
    for (size_t i = 0; i < sizeof(wanted) / sizeof(wanted[0]); i++) {
        if (slot_offset(wanted[i].type, wanted[i].name, wanted[i].out) < 0) {
            return -1;
        }
    }
    const Py_ssize_t seen[6 + 9 + 5] = {
        s->players, s->factories, s->center, s->current, s->holder, s->context,
        s->bag, s->lid, s->start, s->phase, s->round, s->variant, s->rng, s->outcome, s->scoring,
        s->score, s->lines, s->wall, s->floor, s->accepting,
    };
    memcpy(m->seen_offsets, seen, sizeof(seen));
    return 0;
}

/* An int attribute of a module, within [low, high]. */
static int
read_int(const char *module, const char *name, long long low, long long high, long long *out)
{
    PyObject *value = attribute(module, name);
    if (value == NULL) {
        return -1;
    }
    int overflow = 0;
    *out = PyLong_Check(value) ? PyLong_AsLongLongAndOverflow(value, &overflow) : low - 1;
    Py_DECREF(value);
    if (PyErr_Occurred()) {
        return -1;
    }
    if (overflow || *out < low || *out > high) {
        PyErr_Format(PyExc_ValueError, "%s.%s is not a number the engine takes", module, name);
        return -1;
    }
    return 0;
}

/* colors.FLOOR_TOTALS, colors.wall_color, scoring's bonuses and rng's constants. */
static int
read_tables(az_module *m)
{
    int totals[AZ_FLOOR + 1], bonuses[3];
    int8_t wall[5][5];
    uint64_t split_mix[3];
    PyObject *floor_totals = attribute("azul_rules.core.colors", "FLOOR_TOTALS");
    if (floor_totals == NULL) {
        return -1;
    }
    int ok = PyTuple_CheckExact(floor_totals) && PyTuple_GET_SIZE(floor_totals) == AZ_FLOOR + 1;
    for (int i = 0; ok && i <= AZ_FLOOR; i++) {
        long long value = 0;
        ok = az_int_in(PyTuple_GET_ITEM(floor_totals, i), 0, 1000, &value) == 0;
        totals[i] = (int)value;
    }
    Py_DECREF(floor_totals);
    PyObject *wall_color = attribute("azul_rules.core.colors", "wall_color");
    for (int row = 0; ok && wall_color != NULL && row < 5; row++) {
        for (int column = 0; ok && column < 5; column++) {
            PyObject *color = PyObject_CallFunction(wall_color, "ii", row, column);
            int c = color == NULL ? -1 : az_color_index(m, color);
            Py_XDECREF(color);
            ok = c >= 0;
            wall[row][column] = (int8_t)c;
        }
    }
    Py_XDECREF(wall_color);
    const char *bonus_names[3] = {"ROW_BONUS", "COLUMN_BONUS", "COLOR_BONUS"};
    for (int i = 0; ok && i < 3; i++) {
        long long value = 0;
        ok = read_int("azul_rules.core.scoring", bonus_names[i], 0, 1000, &value) == 0;
        bonuses[i] = (int)value;
    }
    const char *mix_names[3] = {"GAMMA", "MIX_1", "MIX_2"};
    for (int i = 0; ok && i < 3; i++) {
        PyObject *value = attribute("azul_rules.core.rng", mix_names[i]);
        ok = value != NULL && PyLong_CheckExact(value);
        if (ok) {
            split_mix[i] = PyLong_AsUnsignedLongLong(value);
            ok = !PyErr_Occurred();
        }
        Py_XDECREF(value);
    }
    if (!ok) {
        if (!PyErr_Occurred()) {
            PyErr_SetString(PyExc_ValueError, "the engine's tables cannot be read");
        }
        return -1;
    }
    az_tables_read(totals, wall, bonuses, split_mix);
    return 0;
}

/* board.LINES, moves.TAKE_OPTIONS and grey.PLACE_TILES: the shared objects the
 * successors and legal_moves hand out. */
static int
read_shared(az_module *m)
{
    PyObject *lines = attribute("azul_rules.core.board", "LINES");
    PyObject *options = attribute("azul_rules.core.moves", "TAKE_OPTIONS");
    PyObject *places = attribute("azul_rules.core.grey", "PLACE_TILES");
    int ok = lines != NULL && options != NULL && places != NULL;
    for (int i = 0; ok && i < AZ_LINES; i++) {
        for (int c = 0; ok && c < AZ_COLORS; c++) {
            for (int k = 0; ok && k <= i + 1; k++) {
                PyObject *line = PySequence_GetItem(lines, i);
                PyObject *by_color = line == NULL ? NULL : PySequence_GetItem(line, c);
                PyObject *item = by_color == NULL ? NULL : PySequence_GetItem(by_color, k);
                Py_XDECREF(line);
                Py_XDECREF(by_color);
                ok = item != NULL && Py_TYPE(item) == m->line_type;
                m->lines[i][c][k] = item;
            }
        }
    }
    for (int s = 0; ok && s <= AZ_MAX_FACTORIES; s++) {
        PyObject *key = PyLong_FromLong(s == AZ_MAX_FACTORIES ? AZ_CENTER : s);
        PyObject *by_source = key == NULL ? NULL : PyObject_GetItem(options, key);
        Py_XDECREF(key);
        for (int c = 0; by_source != NULL && ok && c < AZ_COLORS; c++) {
            PyObject *by_color = PySequence_GetItem(by_source, c);
            for (int mask = 0; by_color != NULL && ok && mask < 32; mask++) {
                PyObject *takes = PySequence_GetItem(by_color, mask);
                ok = takes != NULL && PyTuple_CheckExact(takes);
                m->take_options[s][c][mask] = takes;
            }
            ok = ok && by_color != NULL;
            Py_XDECREF(by_color);
        }
        ok = ok && by_source != NULL;
        Py_XDECREF(by_source);
    }
    for (int line = 0; ok && line < AZ_LINES; line++) {
        PyObject *row = PySequence_GetItem(places, line);
        for (int column = 0; row != NULL && ok && column < 5; column++) {
            PyObject *move = PySequence_GetItem(row, column);
            ok = move != NULL && Py_TYPE(move) == m->place_type;
            m->place_tiles[line][column] = move;
        }
        ok = ok && row != NULL;
        Py_XDECREF(row);
    }
    Py_XDECREF(lines);
    Py_XDECREF(options);
    Py_XDECREF(places);
    if (!ok && !PyErr_Occurred()) {
        PyErr_SetString(PyExc_TypeError, "the core's shared lines and moves cannot be read");
    }
    return ok ? 0 : -1;
}

static int
compiled_exec(PyObject *module)
{
    az_module *m = az_module_of(module);
    PyObject *colors = attribute("azul_rules.core.colors", "COLORS");
    if (colors == NULL) {
        return -1;
    }
    if (!PyTuple_CheckExact(colors) || PyTuple_GET_SIZE(colors) != AZ_COLORS) {
        Py_DECREF(colors);
        PyErr_SetString(PyExc_TypeError, "colors.COLORS is not five colours");
        return -1;
    }
    for (int c = 0; c < AZ_COLORS; c++) {
        m->color[c] = Py_NewRef(PyTuple_GET_ITEM(colors, c));
    }
    Py_DECREF(colors);
    const char *phases[4] = {"FACTORY_OFFER", "WALL_TILING", "REFILL", "GAME_OVER"};
    for (int i = 0; i < 4; i++) {
        if ((m->phase[i] = attribute("azul_rules.core.phases", phases[i])) == NULL) {
            return -1;
        }
    }
    PyObject *variant = attribute("azul_rules.core.phases", "Variant");
    if (variant == NULL || (m->marker = attribute("azul_rules.core.colors", "MARKER")) == NULL) {
        Py_XDECREF(variant);
        return -1;
    }
    m->colored = PyObject_GetAttrString(variant, "COLORED");
    m->grey = PyObject_GetAttrString(variant, "GREY");
    Py_DECREF(variant);
    m->empty_tuple = PyTuple_New(0);
    m->pools = PyMem_Calloc(AZ_POOLS, sizeof(PyObject *));
    m->memo = PyMem_Calloc(1, sizeof(az_memo));
    if (m->pools == NULL || m->memo == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    if (m->colored == NULL || m->grey == NULL || m->empty_tuple == NULL
        || read_type("azul_rules.core.position", "Position", &m->position_type) < 0
        || read_type("azul_rules.core.position", "RoundContext", &m->context_type) < 0
        || read_type("azul_rules.core.board", "PlayerBoard", &m->board_type) < 0
        || read_type("azul_rules.core.board", "PatternLine", &m->line_type) < 0
        || read_type("azul_rules.core.scoring", "PlayerTiling", &m->tiling_type) < 0
        || read_type("azul_rules.core.scoring", "WallPlacement", &m->placement_type) < 0
        || read_type("azul_rules.core.scoring", "RoundScoring", &m->scoring_type) < 0
        || read_type("azul_rules.core.scoring", "Bonuses", &m->bonuses_type) < 0
        || read_type("azul_rules.core.scoring", "Outcome", &m->outcome_type) < 0
        || read_type("azul_rules.core.moves", "Take", &m->take_type) < 0
        || read_type("azul_rules.core.moves", "PlaceTile", &m->place_type) < 0
        || read_slots(m) < 0 || read_tables(m) < 0 || read_shared(m) < 0) {
        return -1;
    }
    if (!PyType_IsSubtype(m->placement_type, &PyTuple_Type)) {
        PyErr_SetString(PyExc_TypeError, "scoring.WallPlacement is not a named tuple");
        return -1;
    }
    for (int i = 0; i < AZ_MAX_ACTIONS; i++) {
        if ((m->small_int[i] = PyLong_FromLong(i)) == NULL) {
            return -1;
        }
    }
    PyObject *twin = PyType_FromModuleAndSpec(module, &twin_spec, NULL);
    PyObject *property = PyType_FromModuleAndSpec(module, &twin_property_spec, NULL);
    if (twin == NULL || property == NULL || PyModule_AddObjectRef(module, "Twin", twin) < 0
        || PyModule_AddObjectRef(module, "TwinProperty", property) < 0) {
        Py_XDECREF(twin);
        Py_XDECREF(property);
        return -1;
    }
    m->twin_type = twin;
    Py_DECREF(property);
#ifndef AZUL_SOURCE_DIGEST
#define AZUL_SOURCE_DIGEST ""
#endif
    return PyModule_AddStringConstant(module, "SOURCE_DIGEST", AZUL_SOURCE_DIGEST);
}

static int
compiled_traverse(PyObject *module, visitproc visit, void *arg)
{
    az_module *m = az_module_of(module);
    if (m == NULL) {
        return 0;
    }
    Py_VISIT(m->twin_type);
    Py_VISIT(m->position_type);
    Py_VISIT(m->context_type);
    Py_VISIT(m->board_type);
    for (int e = 0; e < 2; e++) {
        Py_VISIT(m->known[e].state);
        for (int i = 0; i < m->known[e].count; i++) {
            Py_VISIT(m->known[e].seen[i]);
        }
    }
    Py_VISIT(m->new_board);
    return 0;
}

static int
compiled_clear(PyObject *module)
{
    az_module *m = az_module_of(module);
    if (m == NULL) {
        return 0;
    }
    az_forget(m);
    Py_CLEAR(m->new_board);
    if (m->memo != NULL) {
        for (int i = 0; i < AZ_MEMO; i++) {
            Py_CLEAR(m->memo->pool[i]);
            Py_CLEAR(m->memo->wall[i]);
        }
        PyMem_Free(m->memo);
        m->memo = NULL;
    }
    if (m->pools != NULL) {
        for (int i = 0; i < AZ_POOLS; i++) {
            Py_CLEAR(m->pools[i]);
        }
        PyMem_Free(m->pools);
        m->pools = NULL;
    }
    for (int c = 0; c < AZ_COLORS; c++) {
        Py_CLEAR(m->color[c]);
    }
    for (int i = 0; i < 4; i++) {
        Py_CLEAR(m->phase[i]);
    }
    Py_CLEAR(m->marker);
    Py_CLEAR(m->colored);
    Py_CLEAR(m->grey);
    Py_CLEAR(m->empty_tuple);
    PyTypeObject **types[] = {&m->position_type, &m->context_type, &m->board_type, &m->line_type,
                              &m->tiling_type, &m->placement_type, &m->scoring_type,
                              &m->bonuses_type, &m->outcome_type, &m->take_type, &m->place_type};
    for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
        Py_CLEAR(*types[i]);
    }
    for (int i = 0; i < AZ_LINES; i++) {
        for (int c = 0; c < AZ_COLORS; c++) {
            for (int k = 0; k <= AZ_LINES; k++) {
                Py_CLEAR(m->lines[i][c][k]);
            }
        }
    }
    for (int s = 0; s <= AZ_MAX_FACTORIES; s++) {
        for (int c = 0; c < AZ_COLORS; c++) {
            for (int mask = 0; mask < 32; mask++) {
                Py_CLEAR(m->take_options[s][c][mask]);
            }
        }
    }
    for (int line = 0; line < AZ_LINES; line++) {
        for (int column = 0; column < 5; column++) {
            Py_CLEAR(m->place_tiles[line][column]);
        }
    }
    for (int i = 0; i < AZ_MAX_ACTIONS; i++) {
        Py_CLEAR(m->small_int[i]);
    }
    Py_CLEAR(m->twin_type);
    Py_CLEAR(m->state_type);
    return 0;
}

static void
compiled_free(void *module)
{
    compiled_clear((PyObject *)module);
}

static PyModuleDef_Slot compiled_slots[] = {
    {Py_mod_exec, compiled_exec},
    {0, NULL},
};

static struct PyModuleDef compiled_def = {
    PyModuleDef_HEAD_INIT,
    "azul_rules.core._compiled",
    "The rules engine behind the referee's objects (azul_rules/core/_engine/).",
    sizeof(az_module),
    NULL,
    compiled_slots,
    compiled_traverse,
    compiled_clear,
    compiled_free,
};

PyMODINIT_FUNC
PyInit__compiled(void)
{
    return PyModuleDef_Init(&compiled_def);
}
