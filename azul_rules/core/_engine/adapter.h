/*
 * The CPython face of the engine (azul_rules.core._compiled), shared by its files:
 * module.c (the module and its state: the Python objects and tables it reads, once,
 * from the Python definitions), read.c and known.c (the referee's frozen attrs objects
 * into the engine's struct), build.c and records.c (the struct back into the same
 * objects), moves.c (GameState's compiled functions), accelerated.c (the Accelerated types) and frameworks.c (the AI
 * adapters' compiled functions).
 */
#ifndef AZUL_ADAPTER_H
#define AZUL_ADAPTER_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "engine.h"

/* The offset of each slot, by class (attrs' slotted classes, read from their member
 * descriptors). */
typedef struct {
    Py_ssize_t players, factories, center, current, holder, context;        /* Position */
    Py_ssize_t bag, lid, start, phase, round, variant, rng, outcome, scoring;  /* context */
    Py_ssize_t score, lines, wall, floor, accepting;                         /* PlayerBoard */
    Py_ssize_t line_color, line_count, line_capacity;                        /* PatternLine */
    Py_ssize_t t_player, t_before, t_placements, t_penalty, t_after, t_bonuses,
        t_floor_lines;                                                       /* PlayerTiling */
    Py_ssize_t s_round, s_players, s_game_over;                              /* RoundScoring */
    Py_ssize_t b_rows, b_columns, b_colors;                                  /* Bonuses */
    Py_ssize_t o_winners, o_scores;                                          /* Outcome */
    Py_ssize_t m_source, m_color, m_line, m_player;                          /* Take */
    Py_ssize_t p_line, p_column, p_player;                                   /* PlaceTile */
} az_slots;

/* The tuples of tiles az_tiles shares: up to AZ_POOL_SHARE - 1 tiles of each colour (a
 * factory, most centres), indexed by the counts in base AZ_POOL_SHARE. */
#define AZ_POOL_SHARE 6
#define AZ_POOLS (AZ_POOL_SHARE * AZ_POOL_SHARE * AZ_POOL_SHARE * AZ_POOL_SHARE * AZ_POOL_SHARE)

/* The values of the slots a known position is checked by: the state's, its context's and
 * each board's (adapter.c's az_game_of). */
#define AZ_SEEN_MAX (6 + 9 + 5 * AZ_MAX_PLAYERS)

/* A position the face read or built, kept as the engine's struct: a call on the same
 * object, none of whose slots changed since, starts from it instead of reading the
 * objects (a playout reads each position once).  The values of the slots are held, so
 * that none is freed and replaced by another at the same address. */
typedef struct {
    PyObject *state;
    PyObject *seen[AZ_SEEN_MAX];
    int count;
    uint64_t used;     /* the module's tick when last used: the older entry is replaced */
    az_game game;
} az_known;

/* Memos of the immutable parts read recently, by the tuple (held: never freed while it
 * is a key): a pool of tiles as counts, a wall as the engine's cells and masks.  A bag,
 * a lid, a factory or a wall is shared by many positions; reading it is then a copy. */
#define AZ_MEMO 64
typedef struct {
    PyObject *pool[AZ_MEMO];
    uint32_t counts[AZ_MEMO][AZ_COLORS];
    PyObject *wall[AZ_MEMO];
    struct {
        int8_t cell[5][5];
        uint8_t row_cells[5], row_colors[5], column_colors[5];
    } walls[AZ_MEMO];
} az_memo;

/* The module's state: every Python object the face reads or builds. */
typedef struct {
    PyObject *color[AZ_COLORS], *marker;
    PyObject *phase[4];               /* FACTORY_OFFER, WALL_TILING, REFILL, GAME_OVER */
    PyObject *colored, *grey;
    PyObject *empty_tuple;
    PyObject *small_int[AZ_MAX_ACTIONS];  /* 0 .. AZ_MAX_ACTIONS - 1 */
    PyTypeObject *position_type, *context_type, *board_type, *line_type, *tiling_type,
        *placement_type, *scoring_type, *bonuses_type, *outcome_type, *take_type,
        *place_type;
    PyObject *lines[AZ_LINES][AZ_COLORS][AZ_LINES + 1];  /* board.LINES */
    PyObject *take_options[AZ_MAX_FACTORIES + 1][AZ_COLORS][32];  /* moves.TAKE_OPTIONS */
    PyObject *place_tiles[AZ_LINES][5];  /* grey.PLACE_TILES */
    PyObject *accel_type;
    PyTypeObject *state_type;         /* GameState: the class of the compiled functions' class bodies */
    az_slots s;
    /* deals.DEAL_COUNTS, read on the first deal_outcomes (frameworks.c) */
    int deals_ready;
    int deal_count[125][AZ_COLORS];
    int deal_first[AZ_LINES], deal_span[AZ_LINES], deal_number[125];
    int deal_by_counts[3125];
    PyObject **pools;  /* AZ_POOLS shared tuples of tiles, made on first use (az_tiles) */
    az_memo *memo;     /* what the readers read recently (az_read_tiles, az_read_board) */
    PyObject *new_board;  /* an empty board, made on the first new_game */
    Py_ssize_t seen_offsets[6 + 9 + 5];  /* the state's, the context's, a board's slots */
    /* The last two positions read or built (a position and its successor, a search's
     * root and its children one by one), as the engine's structs: adapter.c's
     * az_game_of. */
    az_known known[2];
    uint64_t tick;
} az_module;

#define SLOT(obj, offset) (*(PyObject **)((char *)(obj) + (offset)))

/* What a full read of a GameState keeps besides the engine's position: the objects a
 * successor shares when they do not change. */
typedef struct {
    PyObject *state, *context, *players, *factories, *center;
    PyObject *bag, *lid, *outcome, *scoring, *variant;
    PyObject *round;
} az_parts;

az_module *az_module_of(PyObject *module);

/* A compiled version's answer for a call its engine side does not make: the reference decides. */
#define NOT_MINE ((PyObject *)1)

/* An int of more than one digit as a long long (0), or -1 (no exception) past its range. */
static inline int
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

/* 0 and the value when ``obj`` is an exact int within [low, high]; -1 (no exception)
 * otherwise.  One digit is read in place (most calls), more by az_int_slow. */
static inline int
az_int_in(PyObject *obj, long long low, long long high, long long *out)
{
    if (obj == NULL || !PyLong_CheckExact(obj)) {
        return -1;
    }
    long long value;
#if PY_VERSION_HEX >= 0x030C0000
    if (PyUnstable_Long_IsCompact((PyLongObject *)obj)) {
        value = (long long)PyUnstable_Long_CompactValue((PyLongObject *)obj);
    } else if (az_int_slow(obj, &value) < 0) {
        return -1;
    }
#else
    Py_ssize_t size = Py_SIZE(obj);
    if (size >= -1 && size <= 1) {
        value = size * (long long)((PyLongObject *)obj)->ob_digit[0];
    } else if (az_int_slow(obj, &value) < 0) {
        return -1;
    }
#endif
    if (value < low || value > high) {
        return -1;
    }
    *out = value;
    return 0;
}

/* az_game_of's ``lines``: which pattern lines of a known position are checked. */
#define AZ_ALL_LINES (-1)  /* every line of every board */
#define AZ_NO_LINE (-2)    /* none (the offer's legal takes read none) */
                           /* 0-4: that line of the player to move (a take onto it) */

/* read.c */
int az_color_index(const az_module *m, PyObject *tile);
int az_read_tiles(const az_module *m, PyObject *tiles, uint32_t counts[AZ_COLORS]);
int az_read_board(const az_module *m, PyObject *obj, az_board *b, int with_wall);
int az_phase_index(const az_module *m, PyObject *phase);
void az_parts_of(const az_module *m, PyObject *state, az_parts *parts);
int az_read_game(const az_module *m, PyObject *state, az_game *g, az_parts *parts);

/* known.c */
const az_game *az_game_of(az_module *m, PyObject *state, az_game *scratch, az_parts *parts,
                          int lines);
const az_game *az_known_game(az_module *m, PyObject *state, az_parts *parts, int lines);
const az_known *az_entry_of(const az_module *m, const az_game *g);
int az_lines_intact(const az_module *m, const az_known *k, int lines);
void az_know(az_module *m, PyObject *state, const az_game *g);
void az_forget(az_module *m);

/* build.c */
PyObject *az_tiles(const az_module *m, const uint32_t counts[AZ_COLORS]);
PyObject *az_blank(PyTypeObject *type);
PyObject *az_tuple_of(PyObject **items, Py_ssize_t n);
PyObject *az_int_of(long long value);
PyObject *az_tuple_plus(PyObject *head, PyObject **more, Py_ssize_t count);
PyObject *az_build_board(const az_module *m, const az_board *b, PyObject *old, int keep_wall);
PyObject *az_build_context(const az_module *m, PyObject *bag, PyObject *lid, PyObject *start,
                           PyObject *phase, PyObject *round, PyObject *variant, PyObject *rng,
                           PyObject *outcome, PyObject *scoring);
PyObject *az_build_state(const az_module *m, PyTypeObject *type, PyObject *players,
                         PyObject *factories, PyObject *center, PyObject *current,
                         PyObject *holder, PyObject *context);
PyObject *az_build_outcome(const az_module *m, const az_game *g, uint8_t winners);
PyObject *az_state_of_game(PyObject *module, PyObject *capsule);
PyObject *az_state_of_position(PyObject *module, PyObject *args);

/* records.c */
PyObject *az_build_after_tiling(const az_module *m, PyTypeObject *type, const az_parts *parts,
                                const az_game *before, const az_game *after,
                                const az_report *report);

/* moves.c */
PyObject *az_legal_moves_call(az_module *m, PyObject *self);
PyObject *az_apply_call(az_module *m, PyTypeObject *type, PyObject *self, PyObject *move);
PyObject *az_is_over_call(az_module *m, PyObject *self);
PyObject *az_new_game_call(az_module *m, PyObject *const *args, Py_ssize_t nargs,
                           PyObject *kwnames);

/* frameworks.c */
PyObject *az_legal_actions_call(az_module *m, PyObject *const *args, Py_ssize_t nargs);
PyObject *az_observe_into_call(az_module *m, PyObject *const *args, Py_ssize_t nargs);
PyObject *az_deal_outcomes_call(az_module *m, PyObject *reference, PyObject *const *args,
                                Py_ssize_t nargs);

/* accelerated.c */
extern PyType_Spec az_accel_spec, az_accel_property_spec;

#endif
