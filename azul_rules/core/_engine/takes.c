/*
 * A take (T1-T4, P1-P6, F1-F4): azul_rules.core.state's GameState._take, and the legal
 * takes in the order of GameState.legal_moves (factories in order, then the centre;
 * colours in order; pattern lines 0-4, then the floor), which is the order of their
 * action ids (source * 30 + colour * 6 + destination).
 */
#include <string.h>

#include "engine.h"

/* The bits set in a mask of 5 (pattern lines), 6 (destinations) or 10 (sources) bits. */
uint8_t AZ_BITS[1 << 10];
#define BITS AZ_BITS

static void places_ready(void);

/* Fills AZ_BITS and PLACES (az_tables_read calls it, once, before any game). */
void
az_takes_ready(void)
{
    for (int m = 1; m < (1 << 10); m++) {
        BITS[m] = (uint8_t)(BITS[m & (m - 1)] + 1);
    }
    places_ready();
}

/* Every accepting bit of pattern line ``line`` (board.NOT_LINE's complement). */
static uint32_t
line_bits(int line)
{
    return (uint32_t)0x108421 << line;
}

/* The source masks of every colour, from the counts. */
void
az_sync_holders(az_game *g)
{
    for (int c = 0; c < AZ_COLORS; c++) {
        uint16_t mask = (uint16_t)((g->center[c] != 0) << AZ_CENTER_BIT);
        for (int f = 0; f < g->factories; f++) {
            mask |= (uint16_t)((g->factory[f][c] != 0) << f);
        }
        g->holders[c] = mask;
    }
}

/* F1-F4: the marker first, then ``count`` tiles of ``color``, left to right; what finds
 * no space goes to the lid (tiles, F2) or is simply held (the marker, F4).  Returns the
 * tiles sent to the lid. */
static uint32_t
fill_floor(az_board *b, int color, uint32_t count, int marker)
{
    uint32_t room = AZ_FLOOR - b->floor_len;
    if (marker) {
        if (room == 0) {
            return count;
        }
        b->floor[b->floor_len++] = AZ_MARKER;
        room--;
    }
    uint32_t placed = count <= room ? count : room;
    for (uint32_t i = 0; i < placed; i++) {
        b->floor[b->floor_len++] = (uint8_t)color;
    }
    return count - placed;
}

/* The tiles of ``color`` at ``source`` (a factory, or AZ_CENTER); 0 for a source that is
 * not at the table. */
static uint32_t
lot(const az_game *g, int source, int color)
{
    if (source == AZ_CENTER) {
        return g->center[color];
    }
    if (source < 0 || source >= g->factories) {
        return 0;
    }
    return g->factory[source][color];
}

/* Whether the take is legal: the checks of rules.take_is_legal that the referee's
 * _take makes (G1, T2-T4, S2, S4, P2-P4); the player naming is the face's. */
int
az_take_legal(const az_game *g, int source, int color, int line)
{
    if (g->phase != AZ_OFFER || color < 0 || color >= AZ_COLORS || !lot(g, source, color)) {
        return 0;
    }
    if (line == AZ_FLOOR_LINE) {
        return 1;
    }
    const az_board *b = &g->board[g->current];
    return line >= 0 && line < AZ_LINES && (b->accepting >> (5 * color + line) & 1);
}

/* The take, known to be legal. */
static void
take(az_game *g, int source, int color, int line, az_report *report)
{
    int player = g->current;
    uint32_t taken;
    int takes_marker = 0;
    if (source == AZ_CENTER) {
        taken = g->center[color];
        g->center[color] = 0;
        g->holders[color] &= (uint16_t)~(1 << AZ_CENTER_BIT);
        if (g->holder == AZ_NOBODY) {
            takes_marker = 1;
            g->holder = (int8_t)player;
        }
    } else {
        uint32_t *tiles = g->factory[source];
        taken = tiles[color];
        uint16_t bit = (uint16_t)(1 << source);
        for (int c = 0; c < AZ_COLORS; c++) {
            if (tiles[c] && c != color) {
                g->center[c] += tiles[c];
                g->holders[c] |= 1 << AZ_CENTER_BIT;
            }
            tiles[c] = 0;
            g->holders[c] &= (uint16_t)~bit;
        }
    }
    az_board *b = &g->board[player];
    uint32_t to_lid;
    if (line == AZ_FLOOR_LINE) {
        to_lid = fill_floor(b, color, taken, takes_marker);
    } else {
        uint32_t count = b->line_count[line];
        uint32_t room = (uint32_t)line + 1 - count;
        if (taken > room) {
            to_lid = fill_floor(b, color, taken - room, takes_marker);
            count += room;
        } else {
            to_lid = takes_marker ? fill_floor(b, color, 0, 1) : 0;
            count += taken;
        }
        b->line_color[line] = (int8_t)color;
        b->line_count[line] = (uint8_t)count;
        b->accepting &= ~line_bits(line);
        if (count <= (uint32_t)line) {  /* room left: the line still accepts its colour */
            b->accepting |= (uint32_t)1 << (5 * color + line);
        }
    }
    g->lid[color] += to_lid;
    g->current = (int8_t)((player + 1) % g->players);
    if (report != 0) {
        report->took_marker = (uint8_t)takes_marker;
        report->to_lid = to_lid;
        report->board_changed |= (uint8_t)(1 << player);
    }
}

/* Makes the take when it is legal (1), else changes nothing (0).  The turn passes on;
 * the face or az_apply_action ends the offer when nothing is left (P7). */
int
az_take(az_game *g, int source, int color, int line, az_report *report)
{
    if (!az_take_legal(g, source, color, line)) {
        return 0;
    }
    take(g, source, color, line, report);
    return 1;
}

/* Whether every factory and the centre are empty (P7). */
int
az_offer_over(const az_game *g)
{
    const uint16_t *h = g->holders;
    return !(h[0] | h[1] | h[2] | h[3] | h[4]);
}

/* PLACES[m]: the bits set in a take's destinations m (6 bits), in order, padded. */
typedef uint16_t az_ids8 __attribute__((vector_size(16)));
static az_ids8 PLACES[64];

static void
places_ready(void)
{
    for (int m = 0; m < 64; m++) {
        uint16_t lanes[8] = {0};
        for (int d = 0, k = 0; d < 6; d++) {
            if (m >> d & 1) {
                lanes[k++] = (uint16_t)d;
            }
        }
        memcpy(&PLACES[m], lanes, sizeof lanes);
    }
}

/* The action ids of the legal takes, in order; returns how many (T1: at least one
 * while a tile is left).  For each source in order, each colour it holds in order: the
 * colour's destinations (P2-P4, F1) after the source's and colour's first id, eight
 * lanes at a time (the lanes past the destinations written over by the next). */
int
az_legal_takes(const az_game *g, uint16_t *ids)
{
    if (g->phase != AZ_OFFER) {
        return 0;
    }
    const az_board *b = &g->board[g->current];
    uint32_t to[AZ_COLORS];
    uint8_t colors_at[AZ_CENTER_BIT + 1] = {0};  /* by source bit: the colours it holds */
    for (int c = 0; c < AZ_COLORS; c++) {
        to[c] = az_destinations(b, c);
        for (uint32_t sources = g->holders[c]; sources; sources &= sources - 1) {
            colors_at[__builtin_ctz(sources)] |= (uint8_t)(1u << c);
        }
    }
    uint16_t listed[AZ_MAX_ACTIONS + 8];
    int n = 0;
    for (int s = 0; s <= g->factories; s++) {
        int base = s * AZ_TAKES_PER_SOURCE;
        for (uint32_t colors = colors_at[s == g->factories ? AZ_CENTER_BIT : s]; colors;
             colors &= colors - 1) {
            int c = __builtin_ctz(colors);
            az_ids8 lanes = PLACES[to[c]] + (uint16_t)(base + c * 6);
            memcpy(listed + n, &lanes, sizeof lanes);
            n += BITS[to[c]];
        }
    }
    memcpy(ids, listed, (size_t)n * sizeof *ids);
    return n;
}

/* A legal take chosen uniformly from 64 random bits ``z``, made (a random playout's
 * move); 0 when none is left.  The takes are counted colour by colour (the sources
 * holding a colour, times the lines accepting it and the floor), the one drawn found
 * by its colour, then its source and its line. */
int
az_random_take(az_game *g, uint64_t z, az_report *report)
{
    uint32_t accepting = g->board[g->current].accepting;
    uint32_t options[AZ_COLORS], weight[AZ_COLORS];
    uint32_t total = 0;
    for (int c = 0; c < AZ_COLORS; c++) {
        options[c] = BITS[accepting >> (5 * c) & 31] + 1u;
        weight[c] = options[c] * BITS[g->holders[c]];
        total += weight[c];
    }
    if (!total) {
        return 0;
    }
    uint32_t n = (uint32_t)(((az_u128)z * total) >> 64);
    int c = 0;
    while (n >= weight[c]) {
        n -= weight[c++];
    }
    uint32_t sources = g->holders[c];
    for (uint32_t k = n / options[c]; k; k--) {
        sources &= sources - 1;
    }
    int bit = __builtin_ctz(sources);
    uint32_t line = n % options[c];
    uint32_t lines = accepting >> (5 * c) & 31;
    for (; line; line--) {
        lines &= lines - 1;
    }
    take(g, bit == AZ_CENTER_BIT ? AZ_CENTER : bit, c,
         lines ? __builtin_ctz(lines) : AZ_FLOOR_LINE, report);
    return 1;
}
