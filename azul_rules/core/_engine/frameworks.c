/*
 * The AI adapters' compiled functions (azul_rules.ai.actions, azul_rules.ai.deals): the ids of the
 * legal moves and the observation vector from the engine's position, and the chance
 * outcomes of a factory's fill.  Each answers what it can and gives the rest to the
 * Python reference (adapter.c's Accelerated), which raises the documented errors.
 */
#include "adapter.h"

#include <string.h>

static const int FACTORY_COUNTS[5] = {0, 0, 5, 7, 9};

/* The whole position of a GameState with the standard factories for its players (the
 * action ids count them so); -1 otherwise. */
static const az_game *
read_framework_state(az_module *m, PyObject *state, az_game *scratch)
{
    if (m->state_type == NULL || Py_TYPE(state) != m->state_type) {
        return NULL;
    }
    const az_game *g = az_game_of(m, state, scratch, NULL, AZ_ALL_LINES);
    return g != NULL && g->players >= 2 && g->factories == FACTORY_COUNTS[g->players] ? g : NULL;
}

/* actions.legal_actions(state): the ids of the legal moves, sorted. */
PyObject *
az_legal_actions_call(az_module *m, PyObject *const *args, Py_ssize_t nargs)
{
    az_game scratch;
    const az_game *g = nargs == 1 ? read_framework_state(m, args[0], &scratch) : NULL;
    if (g == NULL) {
        return NOT_MINE;
    }
    uint16_t ids[AZ_MAX_ACTIONS];
    int count = az_legal_actions(g, ids);
    PyObject *out = PyList_New(count);
    for (int i = 0; out != NULL && i < count; i++) {
        PyList_SET_ITEM(out, i, Py_NewRef(m->small_int[ids[i]]));
    }
    return out;
}

/* A writable C-contiguous buffer of ``count`` items of ``itemsize`` bytes in one of
 * ``formats``: 0 with the view held, -1 (no exception) otherwise. */
static int
writable(PyObject *obj, Py_buffer *view, Py_ssize_t itemsize, const char *formats,
         Py_ssize_t count)
{
    if (PyObject_GetBuffer(obj, view, PyBUF_WRITABLE | PyBUF_FORMAT | PyBUF_C_CONTIGUOUS) < 0) {
        PyErr_Clear();
        return -1;
    }
    int known = view->format != NULL && strlen(view->format) == 1
                && strchr(formats, view->format[0]) != NULL;
    if (!known || view->itemsize != itemsize || view->len != count * itemsize) {
        PyBuffer_Release(view);
        return -1;
    }
    return 0;
}

/* actions.observe_into(state, player, vector, mask=None). */
PyObject *
az_observe_into_call(az_module *m, PyObject *const *args, Py_ssize_t nargs)
{
    az_game scratch, g;  /* a copy: a buffer's export may run code that reads another */
    const az_game *found = nargs >= 3 && nargs <= 4 ? read_framework_state(m, args[0], &scratch) : NULL;
    long long player;
    if (found == NULL || az_int_in(args[1], 0, found->players - 1, &player) < 0) {
        return NOT_MINE;
    }
    g = *found;
    PyObject *mask = nargs == 4 ? args[3] : Py_None;
    Py_ssize_t size = az_observation_size(g.players);
    Py_ssize_t actions = az_num_actions(g.players, g.grey);
    Py_buffer vector_view, mask_view;
    if (writable(args[2], &vector_view, 4, "f", size) < 0) {
        return NOT_MINE;
    }
    if (mask != Py_None && writable(mask, &mask_view, 1, "bB", actions) < 0) {
        PyBuffer_Release(&vector_view);
        return NOT_MINE;
    }
    az_observe(&g, (int)player, (float *)vector_view.buf);
    PyBuffer_Release(&vector_view);
    if (mask != Py_None) {
        az_legal_mask(&g, mask_view.buf);
        PyBuffer_Release(&mask_view);
    }
    Py_RETURN_NONE;
}

/* -- deals.deal_outcomes ----------------------------------------------------------- */

#define DEALS 125
#define MOST_TILES 1000  /* deals._MOST */

/* DEAL_COUNTS of the module that defines the compiled version's reference (deals.py, of the AI
 * adapters: the core imports nothing above it), read on the first call: the deal of
 * each id by colour. */
static int
read_deals(az_module *m, PyObject *reference)
{
    PyObject *globals = PyFunction_Check(reference) ? PyFunction_GetGlobals(reference) : NULL;
    PyObject *table = globals != NULL ? PyDict_GetItemString(globals, "DEAL_COUNTS") : NULL;
    if (table == NULL) {
        PyErr_SetString(PyExc_TypeError, "deal_outcomes' reference has no DEAL_COUNTS beside it");
        return -1;
    }
    Py_INCREF(table);
    int ok = PyTuple_CheckExact(table) && PyTuple_GET_SIZE(table) == DEALS;
    for (int size = 0; size < AZ_LINES; size++) {
        m->deal_first[size] = m->deal_span[size] = 0;
    }
    for (int i = 0; i < 3125; i++) {
        m->deal_by_counts[i] = -1;
    }
    for (int id = 0; ok && id < DEALS; id++) {
        PyObject *counts = PyTuple_GET_ITEM(table, id);
        ok = PyTuple_CheckExact(counts) && PyTuple_GET_SIZE(counts) == AZ_COLORS;
        int size = 0, index = 0;
        for (int c = 0; ok && c < AZ_COLORS; c++) {
            long long k = 0;
            ok = az_int_in(PyTuple_GET_ITEM(counts, c), 0, 4, &k) == 0;
            m->deal_count[id][c] = (int)k;
            size += (int)k;
            index = index * 5 + (int)k;
        }
        ok = ok && size >= 1 && size <= 4 && m->deal_by_counts[index] < 0;
        if (ok) {
            m->deal_number[id] = index;
            m->deal_by_counts[index] = id;
            if (m->deal_span[size] == 0) {
                m->deal_first[size] = id;
            }
            ok = m->deal_first[size] + m->deal_span[size] == id;
            m->deal_span[size]++;
        }
    }
    Py_DECREF(table);
    if (!ok) {
        PyErr_SetString(PyExc_ValueError, "deals.DEAL_COUNTS is not the deal table");
        return -1;
    }
    m->deals_ready = 1;
    return 0;
}

/* Five exact ints in 0 .. MOST_TILES from a tuple; -1 otherwise. */
static int
five_counts(PyObject *obj, long long out[AZ_COLORS])
{
    if (!PyTuple_CheckExact(obj) || PyTuple_GET_SIZE(obj) != AZ_COLORS) {
        return -1;
    }
    for (int c = 0; c < AZ_COLORS; c++) {
        if (az_int_in(PyTuple_GET_ITEM(obj, c), 0, MOST_TILES, &out[c]) < 0) {
            return -1;
        }
    }
    return 0;
}

/* math.comb(n, k) for k <= 4 and n <= 5,000 (exact in 64 bits). */
static long long
comb(long long n, int k)
{
    long long out = 1;
    for (int i = 0; i < k; i++) {
        out = out * (n - i) / (i + 1);
    }
    return k > n ? 0 : out;
}

/* The deals of ``size`` tiles drawn from ``supply`` (``total`` tiles), each with the
 * ``kept`` tiles, into ``chance`` by deal id (deals._draws). */
static void
draws(const az_module *m, const long long supply[AZ_COLORS], const long long kept[AZ_COLORS],
      int size, long long total, double chance[DEALS], int found[DEALS])
{
    long long ways[AZ_COLORS][5];
    for (int c = 0; c < AZ_COLORS; c++) {
        for (int k = 0; k <= 4; k++) {
            ways[c][k] = comb(supply[c], k);
        }
    }
    int keep = 0;
    for (int c = 0; c < AZ_COLORS; c++) {
        keep = keep * 5 + (int)kept[c];
    }
    double all = (double)comb(total, size);
    for (int id = m->deal_first[size]; id < m->deal_first[size] + m->deal_span[size]; id++) {
        const int *k = m->deal_count[id];
        long long number = ways[0][k[0]] * ways[1][k[1]] * ways[2][k[2]] * ways[3][k[3]]
                           * ways[4][k[4]];
        if (number > 0) {
            int dealt = m->deal_by_counts[m->deal_number[id] + keep];
            found[dealt] = 1;
            chance[dealt] = (double)number / all;
        }
    }
}

/* deals.deal_outcomes(bag, lid) (``reference``: its Python function): the deals the next factory can get, with their
 * probabilities, by id (R2). */
PyObject *
az_deal_outcomes_call(az_module *m, PyObject *reference, PyObject *const *args,
                      Py_ssize_t nargs)
{
    long long bag[AZ_COLORS], lid[AZ_COLORS];
    if (nargs != 2 || five_counts(args[0], bag) < 0 || five_counts(args[1], lid) < 0) {
        return NOT_MINE;
    }
    if (!m->deals_ready && read_deals(m, reference) < 0) {
        return NULL;
    }
    double chance[DEALS];
    int found[DEALS] = {0};
    long long tiles = 0, left = 0;
    for (int c = 0; c < AZ_COLORS; c++) {
        tiles += bag[c];
        left += lid[c];
    }
    static const long long none[AZ_COLORS] = {0, 0, 0, 0, 0};
    if (tiles >= 4) {
        draws(m, bag, none, 4, tiles, chance, found);
    } else {
        long long want = 4 - tiles < left ? 4 - tiles : left;
        if (want == left) {  /* everything left goes to this factory */
            if (tiles + left > 0) {
                int index = 0;
                for (int c = 0; c < AZ_COLORS; c++) {
                    index = index * 5 + (int)(bag[c] + lid[c]);
                }
                found[m->deal_by_counts[index]] = 1;
                chance[m->deal_by_counts[index]] = 1.0;
            }
        } else {
            draws(m, lid, bag, (int)want, left, chance, found);
        }
    }
    Py_ssize_t count = 0;
    for (int id = 0; id < DEALS; id++) {
        count += found[id];
    }
    PyObject *out = PyList_New(count);
    for (int id = 0, at = 0; out != NULL && id < DEALS; id++) {
        if (!found[id]) {
            continue;
        }
        PyObject *probability = PyFloat_FromDouble(chance[id]);
        PyObject *pair = probability == NULL ? NULL : PyTuple_New(2);
        if (pair == NULL) {
            Py_XDECREF(probability);
            Py_CLEAR(out);
            break;
        }
        PyTuple_SET_ITEM(pair, 0, Py_NewRef(m->small_int[id]));
        PyTuple_SET_ITEM(pair, 1, probability);
        PyList_SET_ITEM(out, at++, pair);
    }
    return out;
}
