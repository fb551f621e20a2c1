/*
 * The batch engine's C face (azul_rules.ai._vector), shared by its files: games.c (the
 * games and their steps), threads.c (the threads that step them), playouts.c (random
 * games played to their ends) and module.c (the module).  The rules are the engine's
 * (azul_rules/core/_engine/engine.h); azul_rules/ai/vector.py is the Python side.
 */
#ifndef AZUL_BATCH_H
#define AZUL_BATCH_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "engine.h"

/* A game's stream of 64-bit numbers from the batch's seed, its slot and a salt (a
 * SplitMix64 step of their mix: every slot and purpose its own stream). */
static inline uint64_t
vb_stream(uint64_t seed, uint64_t slot, uint64_t salt)
{
    uint64_t state = seed ^ (slot * 0xD1B54A32D192ED03ULL) ^ (salt * 0x9E3779B97F4A7C15ULL);
    return az_split_mix(&state);
}

/* 0 once azul_rules.ai.vector gave the engine its tables; -1 with a RuntimeError before. */
static inline int
vb_tables_ready(void)
{
    if (!AZ.ready) {
        PyErr_SetString(PyExc_RuntimeError, "azul_rules.ai._vector: the engine's tables are "
                        "not read (import azul_rules.ai.vector)");
        return -1;
    }
    return 0;
}

struct Pool;

/* Many games, stepped together (games.c). */
typedef struct {
    PyObject_HEAD
    Py_ssize_t count;
    int players, grey, actions, observation, threads;
    int listed;          /* each step lists the legal ids instead of writing the mask */
    int busy;            /* a job runs (the GIL released): the games are not to be touched */
    long busy_pid;       /* the process running it (a forked child's copy is not busy) */
    long long max_rounds;
    az_game *games;
    uint64_t *deals;     /* each slot's stream of game seeds */
    uint8_t *ended;      /* the last step ended the game (ENDED or CUT): dealt afresh next */
    struct Pool *pool;   /* the threads that step the games with this one (NULL: none yet) */
} Games;

enum { PLAYING, ENDED, CUT };  /* ended[i]: CUT a game truncated at the round cap */

/* What a step writes: the legal actions (the mask, or the ids listed), how many are
 * legal, the player to move, the rewards and the flags. */
typedef struct {
    Py_buffer legal, count, current, rewards, terminated, truncated;
    int held, listed;
    int padded;  /* each listed row is -1 past its count already (a step's own outputs) */
} Outputs;

/* One thread's share of a job over the games [first, last): a step, or the outputs of
 * the games as they stand (legal only: the form a step did not write). */
typedef enum { STEP, OUTPUTS, LEGAL } Job;

typedef struct {
    Games *games;
    Job job;
    const void *actions;
    int wide;
    const Outputs *out;
    Py_ssize_t first, last;
} Slice;

/* games.c */
extern PyType_Spec vb_games_spec;
void *vb_run_slice(void *arg);

/* threads.c */
void vb_run_job(Games *self, Job job, const void *actions, int wide, const Outputs *out);
void vb_pool_stop(struct Pool *pool);

/* playouts.c */
PyObject *vb_playouts(PyObject *module, PyObject *args);

#endif
