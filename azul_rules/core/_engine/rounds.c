/*
 * The round's cycle after the factory offer and the game's end: GameState's _end_offer
 * (the coloured tiling of every board, or the grey tiling's start), _close_round,
 * _next_round (R1-R6) and _game_over (E1-E4); a new game (S6, S7); a whole move by its
 * action id, as the batch engine plays it.
 */
#include "engine.h"

#include <string.h>

static const int FACTORY_COUNTS[5] = {0, 0, 5, 7, 9};

/* E2-E4: each player's end bonuses added, the winners decided, no further move.  The
 * round kept is the last one played. */
void
az_game_over(az_game *g, az_report *report)
{
    for (int p = 0; p < g->players; p++) {
        az_board *b = &g->board[p];
        int rows, columns, colors;
        az_bonuses(b, &rows, &columns, &colors);
        b->score += (int64_t)AZ.row_bonus * rows + (int64_t)AZ.column_bonus * columns
                    + (int64_t)AZ.color_bonus * colors;
        if (report != 0) {
            az_tiling *t = &report->tiling[p];
            t->has_bonuses = 1;
            t->rows = rows;
            t->columns = columns;
            t->colors = colors;
            t->final_score = b->score;
        }
    }
    if (report != 0) {
        report->winners = az_winners(g);
        report->board_changed = (uint8_t)((1 << g->players) - 1);
    }
    memset(g->factory, 0, sizeof(g->factory));
    memset(g->center, 0, sizeof(g->center));
    memset(g->holders, 0, sizeof(g->holders));
    g->phase = AZ_OVER;
    g->holder = AZ_NOBODY;
}

/* R1-R6 once the round is tiled and the floors settled: the game's end when a wall row
 * is complete (E1) or none can be (R7: ``ends``), else the next round, its factories
 * filled by the seeded bag (the game ending if nothing can be dealt, R6), or waiting
 * for the table's draws.  The marker's holder starts it (W5, R4); nobody took the
 * marker: the same starting player (R5). */
void
az_close_round(az_game *g, int ends, az_report *report)
{
    int starter = g->holder == AZ_NOBODY ? g->start : g->holder;
    g->current = g->start = (int8_t)starter;
    g->holder = AZ_NOBODY;
    if (report != 0) {
        report->round_closed = 1;
        report->factories_changed = 1;
    }
    if (ends) {
        az_game_over(g, report);
        return;
    }
    memset(g->center, 0, sizeof(g->center));
    memset(g->holders, 0, sizeof(g->holders));
    if (!g->seeded) {  /* the table's draws: wait for its Refill */
        memset(g->factory, 0, sizeof(g->factory));
        g->phase = AZ_REFILL;
        g->round++;
        return;
    }
    az_draw_factories(g);
    for (int f = 0; f < g->factories; f++) {
        for (int c = 0; c < AZ_COLORS; c++) {
            if (g->factory[f][c]) {
                g->phase = AZ_OFFER;
                g->round++;
                return;
            }
        }
    }
    az_game_over(g, report);  /* R6: nothing could be dealt */
}

/* The factory offer is over (P7): the wall tiling.  The coloured wall tiles every board
 * at once (the floors included); the grey wall waits for the players' choices. */
void
az_end_offer(az_game *g, az_report *report)
{
    if (report != 0) {
        report->tiled = 1;
        report->fresh_records = 1;
    }
    if (g->grey) {
        int ends = az_grey_tiling(g, g->start, report);
        if (ends != AZ_TILING_WAITS) {
            az_close_round(g, ends, report);
        }
        return;
    }
    int ends = 0;
    for (int p = 0; p < g->players; p++) {
        az_board *b = &g->board[p];
        az_tile_colored(b, g->lid, report != 0 ? &report->tiling[p] : 0);
        ends |= az_complete_rows(b) > 0;
    }
    if (report != 0) {
        report->board_changed = (uint8_t)((1 << g->players) - 1);
    }
    az_close_round(g, ends, report);
}

/* V2-V4: a grey placement, then the tiling goes on from the player who made it, and the
 * round closes when nobody has a decision left; 0 (nothing changed) when it is illegal. */
int
az_place_tile(az_game *g, int line, int column, az_report *report)
{
    int player = g->current;
    if (!az_grey_place(g, line, column, report)) {
        return 0;
    }
    int ends = az_grey_tiling(g, player, report);
    if (ends != AZ_TILING_WAITS) {
        az_close_round(g, ends, report);
    }
    return 1;
}

/* S1-S7: a new seeded game; ``first_player`` < 0 draws the starting player. */
void
az_new_game(az_game *g, int players, int grey, uint64_t seed, int first_player)
{
    memset(g, 0, sizeof(*g));
    g->players = (uint8_t)players;
    g->factories = (uint8_t)FACTORY_COUNTS[players];
    g->grey = (uint8_t)grey;
    g->seeded = 1;
    g->rng = az_seed_state(seed);
    if (first_player < 0) {
        uint64_t z = az_split_mix(&g->rng);
        first_player = (int)(((az_u128)z * (uint64_t)players) >> 64);
    }
    g->current = g->start = (int8_t)first_player;
    g->holder = AZ_NOBODY;
    g->round = 1;
    for (int c = 0; c < AZ_COLORS; c++) {
        g->bag[c] = 20;
    }
    for (int p = 0; p < players; p++) {
        az_board_clear(&g->board[p]);
    }
    az_sync_holders(g);
    az_draw_factories(g);
    g->phase = AZ_OFFER;
}

/* Whether the action id is legal (GameState.validate's verdict on its move). */
int
az_action_legal(const az_game *g, int action)
{
    int takes = (g->factories + 1) * AZ_TAKES_PER_SOURCE;
    if (action < 0) {
        return 0;
    }
    if (action < takes) {
        int source = action / AZ_TAKES_PER_SOURCE;
        int rest = action % AZ_TAKES_PER_SOURCE;
        return az_take_legal(g, source == g->factories ? AZ_CENTER : source, rest / 6, rest % 6);
    }
    action -= takes;
    return g->grey && action < AZ_PLACEMENTS && az_place_legal(g, action / 5, action % 5);
}

/* The move of an action id (a take, or a grey placement), with the round's end and the
 * game's when it comes to them; 0 (nothing changed) when it is illegal. */
int
az_apply_action(az_game *g, int action, az_report *report)
{
    int takes = (g->factories + 1) * AZ_TAKES_PER_SOURCE;
    if (action < 0) {
        return 0;
    }
    if (action < takes) {
        int source = action / AZ_TAKES_PER_SOURCE;
        int rest = action % AZ_TAKES_PER_SOURCE;
        if (!az_take(g, source == g->factories ? AZ_CENTER : source, rest / 6, rest % 6,
                     report)) {
            return 0;
        }
        if (az_offer_over(g)) {
            az_end_offer(g, report);
        }
        return 1;
    }
    action -= takes;
    if (!g->grey || action >= AZ_PLACEMENTS) {
        return 0;
    }
    return az_place_tile(g, action / 5, action % 5, report);
}
