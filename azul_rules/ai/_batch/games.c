/*
 * The games of a batch (``Games``): dealt from their seeds, stepped with one action
 * each in pgx's conventions, their outputs written into numpy's arrays through the
 * buffer protocol, never an object per game.
 */
#include <string.h>
#include <unistd.h>

#include "batch.h"

static void
deal(Games *self, Py_ssize_t i)
{
    az_new_game(&self->games[i], self->players, self->grey, az_split_mix(&self->deals[i]), -1);
    self->ended[i] = PLAYING;
}

static PyObject *
games_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    Py_ssize_t count;
    int players, grey;
    unsigned long long seed;
    long long max_rounds;
    int threads, listed;
    if (kwargs != NULL || !PyArg_ParseTuple(args, "nipKLip:Games", &count, &players, &grey, &seed,
                                            &max_rounds, &threads, &listed)) {
        if (kwargs != NULL) {
            PyErr_SetString(PyExc_TypeError,
                            "Games(count, players, grey, seed, max_rounds, threads, listed)");
        }
        return NULL;
    }
    if (vb_tables_ready() < 0) {
        return NULL;
    }
    if (count < 1 || count > ((Py_ssize_t)1 << 26) || players < 2 || players > 4
        || max_rounds < 1 || threads < 1 || threads > 256) {
        PyErr_SetString(PyExc_ValueError, "Games: 1 to 2**26 games of 2-4 players, a round cap "
                        "of 1 or more, 1-256 threads");
        return NULL;
    }
    Games *self = (Games *)type->tp_alloc(type, 0);
    if (self == NULL) {
        return NULL;
    }
    self->count = count;
    self->players = players;
    self->grey = grey;
    self->actions = az_num_actions(players, grey);
    self->observation = az_observation_size(players);
    self->max_rounds = max_rounds;
    self->threads = threads;
    self->listed = listed;
    self->busy = 0;
    self->pool = NULL;
    self->games = PyMem_Calloc((size_t)count, sizeof(az_game));
    self->deals = PyMem_Calloc((size_t)count, sizeof(uint64_t));
    self->ended = PyMem_Calloc((size_t)count, 1);
    if (self->games == NULL || self->deals == NULL || self->ended == NULL) {
        Py_DECREF(self);
        return PyErr_NoMemory();
    }
    for (Py_ssize_t i = 0; i < count; i++) {
        self->deals[i] = vb_stream(seed, (uint64_t)i, 1);
        deal(self, i);
    }
    return (PyObject *)self;
}

static void
games_dealloc(Games *self)
{
    vb_pool_stop(self->pool);
    PyMem_Free(self->games);
    PyMem_Free(self->deals);
    PyMem_Free(self->ended);
    PyTypeObject *type = Py_TYPE(self);
    type->tp_free(self);
    Py_DECREF(type);
}

/* A writable C-contiguous buffer of ``count`` items of ``itemsize`` bytes in one of
 * ``formats`` (0), or -1 with a TypeError naming ``what``. */
static int
buffer(PyObject *obj, Py_buffer *view, const char *what, Py_ssize_t itemsize,
       const char *formats, Py_ssize_t count, int writable)
{
    int flags = PyBUF_FORMAT | PyBUF_C_CONTIGUOUS | (writable ? PyBUF_WRITABLE : 0);
    if (PyObject_GetBuffer(obj, view, flags) < 0) {
        return -1;
    }
    if (view->format == NULL || strlen(view->format) != 1 || !strchr(formats, view->format[0])
        || view->itemsize != itemsize || view->len != count * itemsize) {
        PyBuffer_Release(view);
        PyErr_Format(PyExc_TypeError, "%s: a C-contiguous buffer of %zd items of %zd bytes "
                     "(format %s)", what, count, itemsize, formats);
        return -1;
    }
    return 0;
}


static void
release(Outputs *out)
{
    Py_buffer *views[6] = {&out->legal, &out->count, &out->current, &out->rewards,
                           &out->terminated, &out->truncated};
    for (int i = 0; i < out->held; i++) {
        PyBuffer_Release(views[i]);
    }
}

/* The legal actions' buffers: a mask of bytes or ids of int16, a row a game; the counts. */
static int
legal_outputs(Games *self, PyObject *const *args, int listed, Outputs *out)
{
    Py_ssize_t n = self->count;
    out->held = 0;
    out->listed = listed;
    out->padded = 0;
    if ((listed ? buffer(args[0], &out->legal, "legal_action_ids", 2, "h", n * self->actions, 1)
                : buffer(args[0], &out->legal, "mask", 1, "?bB", n * self->actions, 1)) < 0) {
        return -1;
    }
    out->held = 1;
    if (buffer(args[1], &out->count, "legal_action_count", 4, "i", n, 1) < 0) {
        return -1;
    }
    out->held = 2;
    return 0;
}

/* Every output: legal, count, current_player, rewards, terminated, truncated. */
static int
outputs(Games *self, PyObject *const *args, Outputs *out)
{
    Py_ssize_t n = self->count;
    if (legal_outputs(self, args, self->listed, out) < 0) {
        return -1;
    }
    if (buffer(args[2], &out->current, "current_player", 4, "i", n, 1) < 0) {
        return -1;
    }
    out->held = 3;
    if (buffer(args[3], &out->rewards, "rewards", 4, "f", n * self->players, 1) < 0) {
        return -1;
    }
    out->held = 4;
    if (buffer(args[4], &out->terminated, "terminated", 1, "?bB", n, 1) < 0) {
        return -1;
    }
    out->held = 5;
    if (buffer(args[5], &out->truncated, "truncated", 1, "?bB", n, 1) < 0) {
        return -1;
    }
    out->held = 6;
    return 0;
}

/* actions.utilities: each loser pays 1 / (players - 1), the winners split the pot. */
static void
utilities(const az_game *g, uint8_t winners, float *rewards)
{
    int n = g->players, won = 0;
    for (int p = 0; p < n; p++) {
        won += winners >> p & 1;
    }
    double share = (double)(n - won) / (double)(n - 1) / (double)won;
    double lose = -1.0 / (double)(n - 1);
    for (int p = 0; p < n; p++) {
        rewards[p] = (float)((winners >> p & 1) ? share : lose);
    }
}

/* Game i's legal actions and their count: every id once the game is over (pgx's
 * convention), as a mask or listed in order, -1 after the last. */
static void
write_legal(Games *self, Py_ssize_t i, const Outputs *out)
{
    const az_game *g = &self->games[i];
    int actions = self->actions, n;
    int all = self->ended[i] == ENDED;
    if (out->listed) {
        int16_t *ids = (int16_t *)out->legal.buf + i * actions;
        if (all) {
            for (n = 0; n < actions; n++) {
                ids[n] = (int16_t)n;
            }
        } else {
            n = az_legal_actions(g, (uint16_t *)ids);
            /* -1 after the ids: past the row's last count, they are -1 already */
            int stale = out->padded ? ((const int32_t *)out->count.buf)[i] : actions;
            if (stale > actions || stale < 0) {
                stale = actions;  /* the count was written over: the whole row */
            }
            if (stale > n) {
                memset(ids + n, 0xFF, (size_t)(stale - n) * sizeof *ids);
            }
        }
    } else {
        uint8_t *mask = (uint8_t *)out->legal.buf + i * actions;
        if (all) {
            memset(mask, 1, (size_t)actions);
            n = actions;
        } else {
            n = az_legal_mask(g, mask);
        }
    }
    ((int32_t *)out->count.buf)[i] = n;
}

/* One game's step (pgx's conventions): a game that ended at the last step is dealt
 * afresh (its action ignored); an illegal action ends the game, the mover losing as
 * pgx penalises it, the position kept; a legal one is played, the rewards given at the
 * game's end, the game truncated past the round cap. */
static void
step_one(Games *self, Py_ssize_t i, long long action, const Outputs *out)
{
    az_game *g = &self->games[i];
    float *rewards = (float *)out->rewards.buf + i * self->players;
    uint8_t *terminated = (uint8_t *)out->terminated.buf + i;
    uint8_t *truncated = (uint8_t *)out->truncated.buf + i;
    for (int p = 0; p < self->players; p++) {
        rewards[p] = 0.0f;
    }
    *terminated = *truncated = 0;
    if (self->ended[i] != PLAYING) {
        deal(self, i);
    } else {
        int mover = g->current;
        if (action < 0 || action >= self->actions || !az_apply_action(g, (int)action, NULL)) {
            for (int p = 0; p < self->players; p++) {  /* pgx: -1 for the mover, n - 1 others */
                rewards[p] = (float)(self->players - 1);
            }
            rewards[mover] = -1.0f;  /* an illegal action changes nothing: the position kept */
            *terminated = 1;
            self->ended[i] = ENDED;
        } else if (g->phase == AZ_OVER) {
            utilities(g, az_winners(g), rewards);
            *terminated = 1;
            self->ended[i] = ENDED;
        } else if (g->round > self->max_rounds) {
            *truncated = 1;
            self->ended[i] = CUT;
        }
    }
    write_legal(self, i, out);
    ((int32_t *)out->current.buf)[i] = g->current;
}


void *
vb_run_slice(void *arg)
{
    Slice *slice = arg;
    Games *self = slice->games;
    const Outputs *out = slice->out;
    for (Py_ssize_t i = slice->first; i < slice->last; i++) {
        if (slice->job == STEP) {
            long long action = slice->wide ? ((const int64_t *)slice->actions)[i]
                                           : ((const int32_t *)slice->actions)[i];
            step_one(self, i, action, out);
        } else {
            write_legal(self, i, out);
            if (slice->job == OUTPUTS) {
                ((int32_t *)out->current.buf)[i] = self->games[i].current;
            }
        }
    }
    return NULL;
}

/* Whether the games can be touched now: not while a step runs in another thread. */
static int
available(Games *self)
{
    if (self->busy && self->busy_pid == getpid()) {
        PyErr_SetString(PyExc_RuntimeError, "the games are in use by another thread (a step, "
                        "or the reading of an array made when read): one thread at a time");
        return -1;
    }
    return 0;
}

/* step(actions, legal, count, current_player, rewards, terminated, truncated): every
 * game one action (int32 or int64 ids), the outputs written in place (legal: the mask,
 * or the ids listed for Games made listed). */
static PyObject *
games_step(Games *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 7) {
        PyErr_SetString(PyExc_TypeError, "step(actions, legal, count, current, rewards, "
                        "terminated, truncated)");
        return NULL;
    }
    if (available(self) < 0) {
        return NULL;
    }
    Py_buffer actions;
    if (PyObject_GetBuffer(args[0], &actions, PyBUF_FORMAT | PyBUF_C_CONTIGUOUS) < 0) {
        return NULL;
    }
    int wide = actions.itemsize == 8;
    if (actions.format == NULL || strlen(actions.format) != 1
        || !strchr(wide ? "lq" : "i", actions.format[0])
        || actions.len != self->count * actions.itemsize) {
        PyBuffer_Release(&actions);
        PyErr_Format(PyExc_ValueError, "actions: %zd int32 or int64 action ids, one a game",
                     self->count);
        return NULL;
    }
    Outputs out;
    if (outputs(self, args + 1, &out) < 0) {
        release(&out);
        PyBuffer_Release(&actions);
        return NULL;
    }
    out.padded = 1;  /* the outputs of the last write or step, rewritten */
    vb_run_job(self, STEP, actions.buf, wide, &out);
    release(&out);
    PyBuffer_Release(&actions);
    Py_RETURN_NONE;
}

/* write(legal, count, current_player, rewards, terminated, truncated): the outputs of
 * the games as they stand (after make: no reward, no flag). */
static PyObject *
games_write(Games *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 6) {
        PyErr_SetString(PyExc_TypeError, "write(legal, count, current, rewards, terminated, "
                        "truncated)");
        return NULL;
    }
    if (available(self) < 0) {
        return NULL;
    }
    Outputs out;
    if (outputs(self, args, &out) < 0) {
        release(&out);
        return NULL;
    }
    memset(out.rewards.buf, 0, (size_t)out.rewards.len);
    memset(out.terminated.buf, 0, (size_t)out.terminated.len);
    memset(out.truncated.buf, 0, (size_t)out.truncated.len);
    vb_run_job(self, OUTPUTS, NULL, 0, &out);
    release(&out);
    Py_RETURN_NONE;
}

/* legal(out, count, listed): the games' legal actions as they stand, in the form the
 * steps do not write (listed: the ids, else the mask), and their counts. */
static PyObject *
games_legal(Games *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "legal(out, count, listed)");
        return NULL;
    }
    int listed = PyObject_IsTrue(args[2]);
    if (listed < 0 || available(self) < 0) {
        return NULL;
    }
    Outputs out;
    if (legal_outputs(self, args, listed, &out) < 0) {
        release(&out);
        return NULL;
    }
    vb_run_job(self, LEGAL, NULL, 0, &out);
    release(&out);
    Py_RETURN_NONE;
}

/* observe(out): each game's observation from its player to move's seat (float32,
 * games x observation size). */
static PyObject *
games_observe(Games *self, PyObject *out_obj)
{
    if (available(self) < 0) {
        return NULL;
    }
    Py_buffer out;
    if (buffer(out_obj, &out, "observation", 4, "f", self->count * self->observation, 1) < 0) {
        return NULL;
    }
    float *values = out.buf;
    for (Py_ssize_t i = 0; i < self->count; i++) {
        const az_game *g = &self->games[i];
        az_observe(g, g->current, values + i * self->observation);
    }
    PyBuffer_Release(&out);
    Py_RETURN_NONE;
}

/* Game ``index`` of the batch, or NULL with an IndexError (or the busy error). */
static const az_game *
game_at(Games *self, PyObject *index)
{
    if (available(self) < 0) {
        return NULL;
    }
    Py_ssize_t i = PyNumber_AsSsize_t(index, PyExc_IndexError);
    if (i == -1 && PyErr_Occurred()) {
        return NULL;
    }
    if (i < 0 || i >= self->count) {
        PyErr_Format(PyExc_IndexError, "game %zd of %zd", i, self->count);
        return NULL;
    }
    return &self->games[i];
}

static void
free_game(PyObject *capsule)
{
    PyMem_Free(PyCapsule_GetPointer(capsule, AZ_GAME_CAPSULE));
}

/* game(i): a copy of game i's struct in a capsule, for the referee's compiled core
 * (azul_rules.core._compiled.state_of_game). */
static PyObject *
games_game(Games *self, PyObject *index)
{
    const az_game *g = game_at(self, index);
    if (g == NULL) {
        return NULL;
    }
    az_game *copy = PyMem_Malloc(sizeof(az_game));
    if (copy == NULL) {
        return PyErr_NoMemory();
    }
    *copy = *g;
    PyObject *capsule = PyCapsule_New(copy, AZ_GAME_CAPSULE, free_game);
    if (capsule == NULL) {
        PyMem_Free(copy);
    }
    return capsule;
}

static PyObject *
counts_of(const uint32_t counts[AZ_COLORS])
{
    return Py_BuildValue("(IIIII)", counts[0], counts[1], counts[2], counts[3], counts[4]);
}

/* position(i): game i as plain data, for vector.to_state: (phase, round, current, start,
 * holder, factories, centre, bag, lid, boards), counts by colour, a board (score, line
 * colours, line counts, wall by row, floor), -1 an empty line or space, 5 the marker. */
static PyObject *
games_position(Games *self, PyObject *index)
{
    const az_game *g = game_at(self, index);
    if (g == NULL) {
        return NULL;
    }
    PyObject *factories = PyTuple_New(g->factories);
    PyObject *boards = PyTuple_New(g->players);
    if (factories == NULL || boards == NULL) {
        Py_XDECREF(factories);
        Py_XDECREF(boards);
        return NULL;
    }
    for (int f = 0; f < g->factories; f++) {
        PyTuple_SET_ITEM(factories, f, counts_of(g->factory[f]));
    }
    for (int p = 0; p < g->players; p++) {
        const az_board *b = &g->board[p];
        PyObject *wall = PyTuple_New(5);
        for (int row = 0; wall != NULL && row < 5; row++) {
            PyTuple_SET_ITEM(wall, row, Py_BuildValue("(iiiii)", b->cell[row][0], b->cell[row][1],
                                                      b->cell[row][2], b->cell[row][3],
                                                      b->cell[row][4]));
        }
        PyObject *floor = PyTuple_New(b->floor_len);
        for (int k = 0; floor != NULL && k < b->floor_len; k++) {
            PyTuple_SET_ITEM(floor, k, PyLong_FromLong(b->floor[k]));
        }
        PyObject *board = Py_BuildValue(
            "(L(iiiii)(iiiii)NN)", (long long)b->score, b->line_color[0], b->line_color[1],
            b->line_color[2], b->line_color[3], b->line_color[4], b->line_count[0],
            b->line_count[1], b->line_count[2], b->line_count[3], b->line_count[4], wall, floor);
        PyTuple_SET_ITEM(boards, p, board);
    }
    return Py_BuildValue("(iLiiiNNNNN)", g->phase, (long long)g->round, g->current, g->start,
                         g->holder, factories, counts_of(g->center), counts_of(g->bag),
                         counts_of(g->lid), boards);
}

static PyMethodDef games_methods[] = {
    {"step", (PyCFunction)(void (*)(void))games_step, METH_FASTCALL,
     "step(actions, legal, count, current, rewards, terminated, truncated): one action a "
     "game."},
    {"write", (PyCFunction)(void (*)(void))games_write, METH_FASTCALL,
     "write(legal, count, current, rewards, terminated, truncated): the outputs as they "
     "stand."},
    {"legal", (PyCFunction)(void (*)(void))games_legal, METH_FASTCALL,
     "legal(out, count, listed): the legal actions in the form the steps do not write."},
    {"observe", (PyCFunction)games_observe, METH_O, "observe(out): every game's observation."},
    {"position", (PyCFunction)games_position, METH_O, "position(i): game i as plain data."},
    {"game", (PyCFunction)games_game, METH_O, "game(i): a copy of game i's struct, a capsule."},
    {NULL, NULL, 0, NULL},
};

static PyType_Slot games_slots[] = {
    {Py_tp_new, games_new},
    {Py_tp_dealloc, games_dealloc},
    {Py_tp_methods, games_methods},
    {Py_tp_doc, "Games(count, players, grey, seed, max_rounds, threads, listed): many games in C."},
    {0, NULL},
};

PyType_Spec vb_games_spec = {
    "azul_rules.ai._vector.Games", sizeof(Games), 0, Py_TPFLAGS_DEFAULT, games_slots,
};
