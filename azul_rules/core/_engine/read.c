/*
 * The CPython face, reading: the referee's frozen attrs objects into the engine's
 * struct (a pool of tiles as counts, a board, a whole position), each part checked to
 * be as the constructors make it (-1 otherwise: the compiled version gives the call to its Python
 * reference).  The memos of recently read pools and walls make a shared part a copy.
 */
#include "adapter.h"

#include <string.h>

/* -- reading ------------------------------------------------------------------------- */

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
int
az_phase_index(const az_module *m, PyObject *phase)
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
void
az_parts_of(const az_module *m, PyObject *state, az_parts *parts)
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
    int phase = az_phase_index(m, SLOT(context, s->phase));
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
        az_parts_of(m, state, parts);
    }
    return 0;
}
