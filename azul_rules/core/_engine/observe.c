/*
 * The action ids and the observation vector of azul_rules.ai.actions: a take is
 * ``source * 30 + colour * 6 + destination`` (the centre after the factories, the
 * floor destination 5), a grey placement ``(factories + 1) * 30 + line * 5 + column``;
 * the observation is ``actions.observation(state, player)``, float for float.
 */
#include <string.h>

#include "engine.h"

static const int FACTORY_COUNTS[5] = {0, 0, 5, 7, 9};

/* actions.num_actions. */
int
az_num_actions(int players, int grey)
{
    return (FACTORY_COUNTS[players] + 1) * AZ_TAKES_PER_SOURCE + (grey ? AZ_PLACEMENTS : 0);
}

/* actions.observation_size: a board is 157 floats, then the table. */
int
az_observation_size(int players)
{
    return players * 157 + FACTORY_COUNTS[players] * 5 + 5 + 1 + 5 + 5 + 1 + 4 + 2 * players;
}

/* The ids of the legal moves, sorted (actions.legal_actions); how many. */
int
az_legal_actions(const az_game *g, uint16_t *ids)
{
    if (g->phase == AZ_OFFER) {
        return az_legal_takes(g, ids);
    }
    if (g->phase != AZ_TILING) {
        return 0;
    }
    const az_board *b = &g->board[g->current];
    int row = az_next_line(b);
    if (row < 0) {
        return 0;
    }
    int base = (g->factories + 1) * AZ_TAKES_PER_SOURCE + row * 5;
    uint8_t columns = az_legal_columns(b, row);
    int n = 0;
    for (int c = 0; c < 5; c++) {
        if (columns >> c & 1) {
            ids[n++] = (uint16_t)(base + c);
        }
    }
    return n;
}

/* EXPAND[p][d]: bit d of p (a take's six destinations as mask bytes). */
static const uint8_t EXPAND[64][6] = {
#define B(p) {(p) & 1, (p) >> 1 & 1, (p) >> 2 & 1, (p) >> 3 & 1, (p) >> 4 & 1, (p) >> 5 & 1}
#define B4(p) B(p), B(p + 1), B(p + 2), B(p + 3)
#define B16(p) B4(p), B4(p + 4), B4(p + 8), B4(p + 12)
    B16(0), B16(16), B16(32), B16(48),
#undef B16
#undef B4
#undef B
};

/* The legal action mask (actions.legal_action_mask): ``mask[id]`` 1 for each legal id,
 * 0 for the others, ``az_num_actions`` bytes; what az_legal_actions lists.  Returns how
 * many ids are legal. */
int
az_legal_mask(const az_game *g, uint8_t *mask)
{
    int actions = az_num_actions(g->players, g->grey);
    memset(mask, 0, (size_t)actions);
    if (g->phase != AZ_OFFER) {
        uint16_t ids[AZ_PLACEMENTS];
        int n = az_legal_actions(g, ids);
        for (int i = 0; i < n; i++) {
            mask[ids[i]] = 1;
        }
        return n;
    }
    const az_board *b = &g->board[g->current];
    int n = 0;
    for (int c = 0; c < AZ_COLORS; c++) {
        uint32_t to = az_destinations(b, c);
        const uint8_t *bytes = EXPAND[to];
        int options = AZ_BITS[to];
        for (uint32_t sources = g->holders[c]; sources; sources &= sources - 1) {
            int bit = __builtin_ctz(sources);
            int s = bit == AZ_CENTER_BIT ? g->factories : bit;
            memcpy(mask + s * AZ_TAKES_PER_SOURCE + c * 6, bytes, 6);
            n += options;
        }
    }
    return n;
}

static float *
counts(float *out, const uint32_t tiles[AZ_COLORS])
{
    for (int c = 0; c < AZ_COLORS; c++) {
        *out++ = (float)tiles[c];
    }
    return out;
}

/* One board's 157 floats: the score, the pattern lines by colour, the wall one-hot by
 * colour, the floor's tiles by colour and whether the marker lies there. */
static float *
board_vector(float *out, const az_board *b)
{
    *out++ = (float)(double)b->score;
    for (int line = 0; line < AZ_LINES; line++) {
        for (int c = 0; c < AZ_COLORS; c++) {
            out[c] = 0.0f;
        }
        if (b->line_color[line] >= 0) {
            out[b->line_color[line]] = (float)b->line_count[line];
        }
        out += AZ_COLORS;
    }
    for (int row = 0; row < 5; row++) {
        for (int column = 0; column < 5; column++) {
            for (int c = 0; c < AZ_COLORS; c++) {
                out[c] = 0.0f;
            }
            if (b->cell[row][column] >= 0) {
                out[b->cell[row][column]] = 1.0f;
            }
            out += AZ_COLORS;
        }
    }
    uint32_t floor[AZ_COLORS] = {0, 0, 0, 0, 0};
    float marker = 0.0f;
    for (int i = 0; i < b->floor_len; i++) {
        if (b->floor[i] == AZ_MARKER) {
            marker = 1.0f;
        } else {
            floor[b->floor[i]]++;
        }
    }
    out = counts(out, floor);
    *out++ = marker;
    return out;
}

/* actions.observation(state, player): the boards from ``player``'s seat on, then the
 * table (factories, centre, marker, bag, lid, round, phase, who moves, who started). */
void
az_observe(const az_game *g, int player, float *out)
{
    int n = g->players;
    for (int seat = 0; seat < n; seat++) {
        out = board_vector(out, &g->board[(player + seat) % n]);
    }
    for (int f = 0; f < g->factories; f++) {
        out = counts(out, g->factory[f]);
    }
    out = counts(out, g->center);
    *out++ = g->holder == AZ_NOBODY && g->phase == AZ_OFFER ? 1.0f : 0.0f;
    out = counts(out, g->bag);
    out = counts(out, g->lid);
    *out++ = (float)(double)g->round;
    for (int phase = 0; phase < 4; phase++) {
        *out++ = g->phase == phase ? 1.0f : 0.0f;
    }
    for (int seat = 0; seat < n; seat++) {
        out[seat] = 0.0f;
    }
    if (g->phase != AZ_OVER) {
        out[((g->current - player) % n + n) % n] = 1.0f;
    }
    out += n;
    for (int seat = 0; seat < n; seat++) {
        out[seat] = 0.0f;
    }
    out[((g->start - player) % n + n) % n] = 1.0f;
}
