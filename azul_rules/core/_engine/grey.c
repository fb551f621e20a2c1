/*
 * The grey wall's tiling (V1-V4) and R7: azul_rules.core.grey (next_line,
 * legal_columns, line_to_floor, walls_can_end) and the tiling of GameState
 * (_place_tile, _grey_tiling, _settle_grey_round).
 */
#include "engine.h"

#include <string.h>

/* V3: the top complete pattern line still to tile, or -1. */
int
az_next_line(const az_board *b)
{
    for (int line = 0; line < AZ_LINES; line++) {
        if (b->line_color[line] >= 0 && b->line_count[line] == line + 1) {
            return line;
        }
    }
    return -1;
}

/* V1, V2: bit c, the tile of complete line ``row`` may go to column c: an empty space
 * of its row in a column not holding its colour yet. */
uint8_t
az_legal_columns(const az_board *b, int row)
{
    int color = b->line_color[row];
    uint8_t columns = 0;
    for (int c = 0; c < 5; c++) {
        if (b->cell[row][c] < 0 && !(b->column_colors[c] >> color & 1)) {
            columns |= (uint8_t)(1 << c);
        }
    }
    return columns;
}

/* V4: every tile of complete line ``row`` to the floor, left to right; those finding no
 * space to the lid (F2). */
void
az_line_to_floor(az_board *b, int row, uint32_t lid[AZ_COLORS])
{
    int color = b->line_color[row];
    int count = b->line_count[row];
    int room = AZ_FLOOR - b->floor_len;
    int kept = room < count ? room : count;
    lid[color] += (uint32_t)(count - kept);
    for (int i = 0; i < kept; i++) {
        b->floor[b->floor_len++] = (uint8_t)color;
    }
    b->line_color[row] = -1;
    b->line_count[row] = 0;
    b->accepting |= az_accept_empty(row, b->row_colors[row]);
}

/* Whether each of the ``count`` columns can get one of its allowed colours, no colour
 * twice (a perfect matching; at most 5 x 5). */
static int
matching(const int *columns, int count, const uint8_t allowed[5], uint8_t used)
{
    if (count == 0) {
        return 1;
    }
    uint8_t options = (uint8_t)(allowed[columns[0]] & ~used);
    for (int color = 0; color < AZ_COLORS; color++) {
        if ((options >> color & 1)
            && matching(columns + 1, count - 1, allowed, (uint8_t)(used | 1 << color))) {
            return 1;
        }
    }
    return 0;
}

/* grey.row_can_be_completed: the row's missing colours can go to its empty spaces, one
 * each, with no colour twice in a column (V1, V2). */
static int
row_can_be_completed(const az_board *b, int row)
{
    uint8_t missing = (uint8_t)(~b->row_colors[row] & 31);
    int columns[5];
    uint8_t allowed[5] = {0, 0, 0, 0, 0};
    int empty = 0;
    for (int c = 0; c < 5; c++) {
        if (b->cell[row][c] < 0) {
            allowed[c] = (uint8_t)(missing & ~b->column_colors[c]);
            columns[empty++] = c;
        }
    }
    return matching(columns, empty, allowed, 0);
}

/* R7: whether some wall row of some player can still be completed. */
int
az_walls_can_end(const az_game *g)
{
    for (int p = 0; p < g->players; p++) {
        for (int row = 0; row < 5; row++) {
            if (row_can_be_completed(&g->board[p], row)) {
                return 1;
            }
        }
    }
    return 0;
}

/* Whether a placement is legal: the checks of rules.check_place_tile that the
 * referee's _place_tile makes (G1, V1-V3); the player naming is the face's. */
int
az_place_legal(const az_game *g, int line, int column)
{
    if (g->phase != AZ_TILING) {
        return 0;
    }
    const az_board *b = &g->board[g->current];
    if (line < 0 || line != az_next_line(b) || column < 0 || column >= 5) {
        return 0;
    }
    return az_legal_columns(b, line) >> column & 1;
}

/* After every placement of a grey round: the floors (W4, W5); whether the game ends (E1,
 * or R7 when no wall row can ever be completed), for the round's close (rounds.c). */
static int
settle_grey_round(az_game *g, az_report *report)
{
    int ends = 0;
    for (int p = 0; p < g->players; p++) {
        az_board *b = &g->board[p];
        int floor = b->floor_len;
        int penalty = az_settle_floor(b, g->lid);
        if (report != 0 && floor) {  /* an empty floor leaves the record as it is */
            report->tiling[p].settled = 1;
            report->tiling[p].penalty = penalty;
            report->tiling[p].settled_score = b->score;
        }
        ends |= az_complete_rows(b) > 0;
    }
    if (report != 0) {
        report->board_changed = (uint8_t)((1 << g->players) - 1);
    }
    return ends || !az_walls_can_end(g);
}

/* V3, V4: from ``player`` on, in turn order up to the round's starting player, each
 * line with no legal space goes to the floor, and the tiling waits for the first player
 * with a decision to make (AZ_TILING_WAITS); the round is settled when nobody has one,
 * and whether the game ends is returned (0 or 1) for the round's close. */
int
az_grey_tiling(az_game *g, int player, az_report *report)
{
    for (;;) {
        az_board *b = &g->board[player];
        int row = az_next_line(b);
        while (row >= 0 && !az_legal_columns(b, row)) {
            az_line_to_floor(b, row, g->lid);
            if (report != 0) {
                az_tiling *t = &report->tiling[player];
                t->floor_lines[t->floor_line_count++] = (int8_t)row;
                report->board_changed |= (uint8_t)(1 << player);
            }
            row = az_next_line(b);
        }
        if (row >= 0) {  /* the table waits for this player: nothing on the factories */
            g->phase = AZ_TILING;
            g->current = (int8_t)player;
            memset(g->factory, 0, sizeof(g->factory));
            memset(g->center, 0, sizeof(g->center));
            memset(g->holders, 0, sizeof(g->holders));
            return AZ_TILING_WAITS;
        }
        player = (player + 1) % g->players;
        if (player == g->start) {
            return settle_grey_round(g, report);
        }
    }
}

/* A legal placement (1: the tile to the wall, scored at once, the line's other tiles to
 * the lid), or nothing (0).  The tiling goes on in az_place_tile (rounds.c). */
int
az_grey_place(az_game *g, int line, int column, az_report *report)
{
    if (!az_place_legal(g, line, column)) {
        return 0;
    }
    int player = g->current;
    az_board *b = &g->board[player];
    az_placement scratch;
    az_placement *placed = &scratch;
    if (report != 0) {
        az_tiling *t = &report->tiling[player];
        placed = &t->placed[t->placed_count++];
        report->tiled = 1;
        report->board_changed |= (uint8_t)(1 << player);
    }
    az_place_on_wall(b, line, column, g->lid, placed);
    if (report != 0) {
        report->tiling[player].placed_score = b->score;
    }
    return 1;
}
