/*
 * Random games played to their ends in C, a uniform legal action a move, the games split
 * over threads with the GIL released (vector.playouts).
 */
#include <pthread.h>

#include "batch.h"

typedef struct {
    long long first, last;      /* games [first, last) */
    int players, grey;
    uint64_t seed;
    long long games, moves, capped, score;
    long long wins[AZ_MAX_PLAYERS];
} Share;

#define PLAYOUT_ROUND_CAP 100

/* A uniform random game to its end: a legal action drawn uniformly at each move. */
static void *
play_share(void *arg)
{
    Share *share = arg;
    uint16_t ids[AZ_MAX_ACTIONS];
    for (long long i = share->first; i < share->last; i++) {
        az_game g;
        az_new_game(&g, share->players, share->grey, vb_stream(share->seed, (uint64_t)i, 2), -1);
        uint64_t choices = vb_stream(share->seed, (uint64_t)i, 3);
        while (g.phase != AZ_OVER && g.round <= PLAYOUT_ROUND_CAP) {
            uint64_t z = az_split_mix(&choices);
            if (g.phase == AZ_OFFER) {
                az_random_take(&g, z, NULL);
                if (az_offer_over(&g)) {
                    az_end_offer(&g, NULL);
                }
            } else {
                int count = az_legal_actions(&g, ids);
                az_apply_action(&g, ids[(uint64_t)(((az_u128)z * (uint64_t)count) >> 64)], NULL);
            }
            share->moves++;
        }
        share->games++;
        if (g.phase != AZ_OVER) {
            share->capped++;
            continue;
        }
        uint8_t winners = az_winners(&g);
        for (int p = 0; p < g.players; p++) {
            share->score += g.board[p].score;
            share->wins[p] += winners >> p & 1;
        }
    }
    return NULL;
}

/* playouts(games, players, grey, seed, threads) -> (games, moves, capped, score, wins). */
PyObject *
vb_playouts(PyObject *module, PyObject *args)
{
    (void)module;
    long long games;
    int players, grey, threads;
    unsigned long long seed;
    if (!PyArg_ParseTuple(args, "LipKi:playouts", &games, &players, &grey, &seed, &threads)) {
        return NULL;
    }
    if (vb_tables_ready() < 0) {
        return NULL;
    }
    if (games < 0 || players < 2 || players > 4 || threads < 1 || threads > 256) {
        PyErr_SetString(PyExc_ValueError, "playouts: games >= 0, 2-4 players, 1-256 threads");
        return NULL;
    }
    if (threads > games) {
        threads = games > 0 ? (int)games : 1;
    }
    Share *shares = PyMem_Calloc((size_t)threads, sizeof(Share));
    pthread_t *ids = PyMem_Calloc((size_t)threads, sizeof(pthread_t));
    if (shares == NULL || ids == NULL) {
        PyMem_Free(shares);
        PyMem_Free(ids);
        return PyErr_NoMemory();
    }
    for (int t = 0; t < threads; t++) {
        shares[t].first = games * t / threads;
        shares[t].last = games * (t + 1) / threads;
        shares[t].players = players;
        shares[t].grey = grey;
        shares[t].seed = seed;
    }
    int failed = 0;
    Py_BEGIN_ALLOW_THREADS
    int started = 0;
    for (int t = 1; t < threads; t++) {
        if (pthread_create(&ids[t], NULL, play_share, &shares[t]) != 0) {
            failed = 1;
            break;
        }
        started = t;
    }
    play_share(&shares[0]);
    for (int t = 1; t <= started; t++) {
        pthread_join(ids[t], NULL);
    }
    Py_END_ALLOW_THREADS
    PyMem_Free(ids);
    if (failed) {
        PyMem_Free(shares);
        PyErr_SetString(PyExc_RuntimeError, "playouts: a thread could not be started");
        return NULL;
    }
    long long total[4 + AZ_MAX_PLAYERS] = {0};
    for (int t = 0; t < threads; t++) {
        total[0] += shares[t].games;
        total[1] += shares[t].moves;
        total[2] += shares[t].capped;
        total[3] += shares[t].score;
        for (int p = 0; p < players; p++) {
            total[4 + p] += shares[t].wins[p];
        }
    }
    PyMem_Free(shares);
    PyObject *wins = PyTuple_New(players);
    for (int p = 0; wins != NULL && p < players; p++) {
        PyTuple_SET_ITEM(wins, p, PyLong_FromLongLong(total[4 + p]));
    }
    return Py_BuildValue("(LLLLN)", total[0], total[1], total[2], total[3], wins);
}
