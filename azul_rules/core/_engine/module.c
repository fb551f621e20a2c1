/*
 * azul_rules.core._compiled: the engine behind the referee's Python objects.
 *
 * ``state.py`` defines ``GameState.legal_moves``, ``apply``, ``is_over`` and
 * ``new_game`` as compiled functions (``Accelerated(name, reference)``, accelerated.c): the Python function, the
 * reference, and the engine in front of it.  A compiled version reads the frozen attrs position
 * into the engine's struct (read.c, known.c), runs the engine, and builds the very same
 * frozen objects the reference builds (build.c, records.c, moves.c), sharing every part
 * that does not change.  Anything it does not expect -- a part replaced through
 * object.__setattr__, a score past 60 bits, a bag past 65,535 tiles, an illegal move
 * (whose verdict Python words) -- goes to the reference with the call's own arguments,
 * so both give the same games, verdicts and exceptions.  frameworks.c adds the AI adapters'
 * compiled functions.  This file is the module: its state, read once from the Python definitions
 * (the classes, their slots, the tables, the shared lines and moves).
 */
#include "adapter.h"

#include <string.h>
#include <structmember.h>

az_module *
az_module_of(PyObject *module)
{
    return (az_module *)PyModule_GetState(module);
}


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
    PyObject *accelerated = PyType_FromModuleAndSpec(module, &az_accel_spec, NULL);
    PyObject *property = PyType_FromModuleAndSpec(module, &az_accel_property_spec, NULL);
    if (accelerated == NULL || property == NULL || PyModule_AddObjectRef(module, "Accelerated", accelerated) < 0
        || PyModule_AddObjectRef(module, "AcceleratedProperty", property) < 0) {
        Py_XDECREF(accelerated);
        Py_XDECREF(property);
        return -1;
    }
    m->accel_type = accelerated;
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
    Py_VISIT(m->accel_type);
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
    Py_CLEAR(m->accel_type);
    Py_CLEAR(m->state_type);
    return 0;
}

static void
compiled_free(void *module)
{
    compiled_clear((PyObject *)module);
}

static PyMethodDef compiled_methods[] = {
    {"state_of_game", az_state_of_game, METH_O,
     "state_of_game(capsule): the GameState of a batch engine's position "
     "(azul_rules.ai.vector's to_state)."},
    {"state_of_position", az_state_of_position, METH_VARARGS,
     "state_of_position(grey, position): the GameState of a position as plain data "
     "(azul_rules.ai.pgx's to_state)."},
    {NULL, NULL, 0, NULL},
};

static PyModuleDef_Slot compiled_slots[] = {
    {Py_mod_exec, compiled_exec},
    {0, NULL},
};

static struct PyModuleDef compiled_def = {
    PyModuleDef_HEAD_INIT,
    "azul_rules.core._compiled",
    "The rules engine behind the referee's objects (azul_rules/core/_engine/).",
    sizeof(az_module),
    compiled_methods,
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
