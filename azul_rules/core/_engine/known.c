/*
 * The CPython face, the known positions: the last two positions read or built, kept as
 * the engine's structs with the values of the slots they were read from (held), so
 * that a call on one of them, none of its slots changed since, starts from its struct.
 */
#include "adapter.h"

#include <string.h>

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
int
az_lines_intact(const az_module *m, const az_known *k, int lines)
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
const az_known *
az_entry_of(const az_module *m, const az_game *g)
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
const az_game *
az_known_game(az_module *m, PyObject *state, az_parts *parts, int lines)
{
    for (int e = 0; e < 2; e++) {
        az_known *k = &m->known[e];
        if (still_known(m, k, state) && az_lines_intact(m, k, lines)) {
            if (parts != NULL) {
                az_parts_of(m, state, parts);
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
    const az_game *known = az_known_game(m, state, parts, lines);
    if (known != NULL) {
        return known;
    }
    if (az_read_game(m, state, scratch, parts) < 0) {
        return NULL;
    }
    az_know(m, state, scratch);
    return scratch;
}
