/*
 * azul_rules.ai._vector: the engine's batch face.  ``Games`` holds many games in C
 * (azul_rules/core/_engine/), stepped with whole arrays once a step (games.c, on the
 * threads of threads.c); ``playouts`` plays random games to their ends in C
 * (playouts.c).  azul_rules/ai/vector.py is the Python side.
 */
#include "batch.h"

/* read_tables(floor_totals, wall_colors, bonuses, split_mix): the engine's tables, from
 * the Python definitions (azul_rules.ai.vector gives them). */
static PyObject *
read_tables(PyObject *module, PyObject *args)
{
    (void)module;
    PyObject *floor, *wall, *bonus, *mix;
    if (!PyArg_ParseTuple(args, "OOOO:read_tables", &floor, &wall, &bonus, &mix)) {
        return NULL;
    }
    int totals[AZ_FLOOR + 1], bonuses[3];
    int8_t colors[5][5];
    uint64_t split_mix[3];
    for (int i = 0; i <= AZ_FLOOR; i++) {
        PyObject *item = PySequence_GetItem(floor, i);
        totals[i] = item == NULL ? -1 : (int)PyLong_AsLong(item);
        Py_XDECREF(item);
    }
    for (int r = 0; r < 25; r++) {
        PyObject *item = PySequence_GetItem(wall, r);
        colors[r / 5][r % 5] = (int8_t)(item == NULL ? -1 : PyLong_AsLong(item));
        Py_XDECREF(item);
    }
    for (int i = 0; i < 3; i++) {
        PyObject *item = PySequence_GetItem(bonus, i);
        bonuses[i] = item == NULL ? -1 : (int)PyLong_AsLong(item);
        Py_XDECREF(item);
        item = PySequence_GetItem(mix, i);
        split_mix[i] = item == NULL ? 0 : PyLong_AsUnsignedLongLong(item);
        Py_XDECREF(item);
    }
    if (PyErr_Occurred()) {
        return NULL;
    }
    az_tables_read(totals, colors, bonuses, split_mix);
    Py_RETURN_NONE;
}

static int
vector_exec(PyObject *module)
{
    PyObject *games = PyType_FromModuleAndSpec(module, &vb_games_spec, NULL);
    if (games == NULL || PyModule_AddObjectRef(module, "Games", games) < 0) {
        Py_XDECREF(games);
        return -1;
    }
    Py_DECREF(games);
    if (PyModule_AddIntConstant(module, "GAME_SIZE", (long)sizeof(az_game)) < 0) {
        return -1;
    }
#ifndef AZUL_SOURCE_DIGEST
#define AZUL_SOURCE_DIGEST ""
#endif
    return PyModule_AddStringConstant(module, "SOURCE_DIGEST", AZUL_SOURCE_DIGEST);
}

static PyMethodDef vector_methods[] = {
    {"playouts", vb_playouts, METH_VARARGS,
     "playouts(games, players, grey, seed, threads): random games in C."},
    {"read_tables", read_tables, METH_VARARGS,
     "read_tables(floor_totals, wall_colors, bonuses, split_mix): the engine's tables."},
    {NULL, NULL, 0, NULL},
};

static PyModuleDef_Slot vector_slots[] = {
    {Py_mod_exec, vector_exec},
    {0, NULL},
};

static struct PyModuleDef vector_def = {
    PyModuleDef_HEAD_INIT, "azul_rules.ai._vector",
    "The rules engine's batch face (azul_rules/ai/vector.py).", 0, vector_methods,
    vector_slots, NULL, NULL, NULL,
};

PyMODINIT_FUNC
PyInit__vector(void)
{
    return PyModuleDef_Init(&vector_def);
}
