/*
 * The CPython face, the records of a tiling: scoring.PlayerTiling and RoundScoring as
 * the reference builds them (placements, floor lines, the floor's penalty, the end
 * bonuses), and the successor of a move that ran a tiling (a factory offer's end, a
 * grey placement), with the round's and the game's end.
 */
#include "adapter.h"

#include <limits.h>
#include <string.h>

/* A WallPlacement (a named tuple). */
static PyObject *
build_placement(const az_module *m, const az_placement *p)
{
    PyObject *out = m->placement_type->tp_alloc(m->placement_type, 6);
    if (out == NULL) {
        return NULL;
    }
    PyObject *items[6] = {az_int_of(p->row), az_int_of(p->column), Py_NewRef(m->color[p->color]),
                          az_int_of(p->horizontal), az_int_of(p->vertical), az_int_of(p->points)};
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
    PyObject *tiling = az_blank(m->tiling_type);
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
    PyObject *parts[7] = {az_int_of(player), Py_NewRef(score), Py_NewRef(m->empty_tuple),
                          az_int_of(0), Py_NewRef(score), Py_NewRef(Py_None),
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
        lines[i] = az_int_of(t->floor_lines[i]);
    }
    PyObject *parts[7];
    if (prior == FRESH) {  /* state._no_tilings: nothing yet, the score as it stands */
        PyObject *score = SLOT(board, s->score);
        parts[0] = az_int_of(player);
        parts[1] = Py_NewRef(score);
        parts[2] = az_tuple_plus(m->empty_tuple, placed, t->placed_count);
        parts[3] = az_int_of(0);
        parts[4] = Py_NewRef(score);
        parts[5] = Py_NewRef(Py_None);
        parts[6] = az_tuple_plus(m->empty_tuple, lines, t->floor_line_count);
    } else {
        parts[0] = Py_NewRef(SLOT(prior, s->t_player));
        parts[1] = Py_NewRef(SLOT(prior, s->t_before));
        parts[2] = az_tuple_plus(SLOT(prior, s->t_placements), placed, t->placed_count);
        parts[3] = Py_NewRef(SLOT(prior, s->t_penalty));
        parts[4] = Py_NewRef(SLOT(prior, s->t_after));
        parts[5] = Py_NewRef(SLOT(prior, s->t_bonuses));
        parts[6] = az_tuple_plus(SLOT(prior, s->t_floor_lines), lines, t->floor_line_count);
        Py_DECREF(prior);
    }
    if (t->placed_count) {  /* GameState._place: the score after the placement */
        Py_XSETREF(parts[3], az_int_of(0));
        Py_XSETREF(parts[4], az_int_of(t->placed_score));
        Py_XSETREF(parts[5], Py_NewRef(Py_None));
    }
    if (t->settled) {  /* the floor (W4) */
        Py_XSETREF(parts[3], az_int_of(t->penalty));
        Py_XSETREF(parts[4], az_int_of(t->settled_score));
    }
    if (t->has_bonuses) {  /* the end bonuses (E2) */
        PyObject *bonuses = az_blank(m->bonuses_type);
        if (bonuses != NULL) {
            SLOT(bonuses, s->b_rows) = az_int_of(t->rows);
            SLOT(bonuses, s->b_columns) = az_int_of(t->columns);
            SLOT(bonuses, s->b_colors) = az_int_of(t->colors);
            if (SLOT(bonuses, s->b_rows) == NULL || SLOT(bonuses, s->b_columns) == NULL
                || SLOT(bonuses, s->b_colors) == NULL) {
                Py_CLEAR(bonuses);
            }
        }
        Py_XSETREF(parts[5], bonuses);
        Py_XSETREF(parts[4], az_int_of(t->final_score));
    }
    return build_tiling(m, parts);
}

/* The successor of a move that ran a tiling (the end of a factory offer, a grey
 * placement): every part from the engine's ``after``, sharing what ``before`` had. */
PyObject *
az_build_after_tiling(const az_module *m, PyTypeObject *type, const az_parts *parts,
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
        boards[p] = (report->board_changed >> p & 1) ? az_build_board(m, &after->board[p], old, 0)
                                                     : Py_NewRef(old);
    }
    PyObject *tilings = az_tuple_of(records, n);
    PyObject *scoring = NULL;
    if (tilings != NULL && (scoring = az_blank(m->scoring_type)) != NULL) {
        SLOT(scoring, s->s_round) = Py_NewRef(parts->round);
        SLOT(scoring, s->s_players) = Py_NewRef(tilings);
        SLOT(scoring, s->s_game_over) = Py_NewRef(after->phase == AZ_OVER ? Py_True : Py_False);
    }
    Py_XDECREF(tilings);
    PyObject *players = az_tuple_of(boards, n);
    PyObject *factory_items[AZ_MAX_FACTORIES];
    for (int f = 0; f < after->factories; f++) {
        factory_items[f] = az_tiles(m, after->factory[f]);
    }
    PyObject *factories = az_tuple_of(factory_items, after->factories);
    PyObject *outcome = after->phase == AZ_OVER ? az_build_outcome(m, after, report->winners)
                                                : Py_NewRef(Py_None);
    int bag_same = memcmp(before->bag, after->bag, sizeof(after->bag)) == 0;
    int lid_same = memcmp(before->lid, after->lid, sizeof(after->lid)) == 0;
    PyObject *rng = Py_None;
    int rng_new = after->seeded && after->rng != before->rng;
    PyObject *context = az_build_context(
        m, bag_same ? Py_NewRef(parts->bag) : az_tiles(m, after->bag),
        lid_same ? Py_NewRef(parts->lid) : az_tiles(m, after->lid), az_int_of(after->start),
        Py_NewRef(m->phase[after->phase]),
        after->round == before->round ? Py_NewRef(parts->round) : az_int_of(after->round),
        Py_NewRef(parts->variant),
        !after->seeded ? Py_NewRef(rng) : rng_new ? PyLong_FromUnsignedLongLong(after->rng)
                                                  : Py_NewRef(SLOT(parts->context, s->rng)),
        outcome, scoring);
    PyObject *holder = after->holder == AZ_NOBODY ? Py_NewRef(Py_None) : az_int_of(after->holder);
    return az_build_state(m, type, players, factories, Py_NewRef(m->empty_tuple),
                       az_int_of(after->current), holder, context);
}
