/*
 * The wall and the score: a tile placed and its points (W1, W3: scoring.runs,
 * rounds.place_on_wall), a board's coloured tiling with its floor (W1-W5:
 * rounds.tile_colored, rounds.settle_floor), the end bonuses and the winners (E2, E4:
 * scoring.count_bonuses, scoring.decide_outcome).
 */
#include "engine.h"

/* W3 for the tile at (row, column): the horizontal run, the vertical run (through
 * filled spaces only) and the points. */
int
az_runs(const az_board *b, int row, int column, int *horizontal, int *vertical)
{
    int left = column, right = column, top = row, bottom = row;
    while (left > 0 && b->cell[row][left - 1] >= 0) {
        left--;
    }
    while (right < 4 && b->cell[row][right + 1] >= 0) {
        right++;
    }
    while (top > 0 && b->cell[top - 1][column] >= 0) {
        top--;
    }
    while (bottom < 4 && b->cell[bottom + 1][column] >= 0) {
        bottom++;
    }
    *horizontal = right - left + 1;
    *vertical = bottom - top + 1;
    int points = (*horizontal > 1 ? *horizontal : 0) + (*vertical > 1 ? *vertical : 0);
    return points ? points : 1;
}

/* W1, W3: one tile of complete pattern line ``row`` to (row, column), scored at once;
 * the line's other tiles to the lid; the emptied line accepts again (P2, P3). */
void
az_place_on_wall(az_board *b, int row, int column, uint32_t lid[AZ_COLORS],
                 az_placement *placed)
{
    int color = b->line_color[row];
    int covered = b->cell[row][column];
    b->cell[row][column] = (int8_t)color;
    b->row_cells[row] |= (uint8_t)(1 << column);
    b->row_colors[row] |= (uint8_t)(1 << color);
    b->column_colors[column] |= (uint8_t)(1 << color);
    if (covered >= 0 && covered != color) {  /* a tile of another colour covered: a wall
                                                * built by hand, whose masks are read anew */
        b->row_colors[row] = 0;
        b->column_colors[column] = 0;
        for (int k = 0; k < 5; k++) {
            if (b->cell[row][k] >= 0) {
                b->row_colors[row] |= (uint8_t)(1 << b->cell[row][k]);
            }
            if (b->cell[k][column] >= 0) {
                b->column_colors[column] |= (uint8_t)(1 << b->cell[k][column]);
            }
        }
    }
    int horizontal, vertical;
    int points = az_runs(b, row, column, &horizontal, &vertical);
    b->score += points;
    lid[color] += (uint32_t)row;  /* a line of row + 1 tiles keeps one for the wall */
    b->line_color[row] = -1;
    b->line_count[row] = 0;
    b->accepting |= az_accept_empty(row, b->row_colors[row]);
    placed->row = (int8_t)row;
    placed->column = (int8_t)column;
    placed->color = (int8_t)color;
    placed->horizontal = (int8_t)horizontal;
    placed->vertical = (int8_t)vertical;
    placed->points = (int8_t)points;
}

/* W4, W5: the floor's penalties (marker included, F3) taken off at once, the score
 * stopping at 0; its tiles to the lid, the marker back to its holder.  Returns the
 * penalty (0 for an empty floor, which changes nothing). */
int
az_settle_floor(az_board *b, uint32_t lid[AZ_COLORS])
{
    if (!b->floor_len) {
        return 0;
    }
    int penalty = AZ.floor_totals[b->floor_len < AZ_FLOOR ? b->floor_len : AZ_FLOOR];
    b->score = b->score > penalty ? b->score - penalty : 0;
    for (int i = 0; i < b->floor_len; i++) {
        if (b->floor[i] != AZ_MARKER) {
            lid[b->floor[i]]++;
        }
    }
    b->floor_len = 0;
    return penalty;
}

/* W1-W5 on the coloured wall for one board: complete lines, top to bottom, to the space
 * of their colour (S5), each scored at once; incomplete lines keep their tiles (W2);
 * then the floor. */
void
az_tile_colored(az_board *b, uint32_t lid[AZ_COLORS], az_tiling *tiling)
{
    az_placement scratch;
    int placed = 0;
    for (int row = 0; row < AZ_LINES; row++) {
        if (b->line_count[row] > row) {  /* full: line ``row`` holds row + 1 tiles */
            az_placement *out = tiling != 0 ? &tiling->placed[placed] : &scratch;
            az_place_on_wall(b, row, AZ.wall_column[row][b->line_color[row]], lid, out);
            placed++;
        }
    }
    int penalty = az_settle_floor(b, lid);
    if (tiling != 0) {
        tiling->placed_count = (uint8_t)placed;
        tiling->settled = 1;
        tiling->penalty = penalty;
        tiling->settled_score = b->score;
    }
}

/* The complete wall rows (E1, E4). */
int
az_complete_rows(const az_board *b)
{
    int rows = 0;
    for (int row = 0; row < 5; row++) {
        rows += b->row_cells[row] == 31;
    }
    return rows;
}

/* E2: complete rows, complete columns, and colours with all 5 of their tiles. */
void
az_bonuses(const az_board *b, int *rows, int *columns, int *colors)
{
    int per_color[AZ_COLORS] = {0, 0, 0, 0, 0};
    uint8_t every_row = 31;
    for (int row = 0; row < 5; row++) {
        every_row &= b->row_cells[row];
        for (int column = 0; column < 5; column++) {
            int8_t tile = b->cell[row][column];
            if (tile >= 0) {
                per_color[tile]++;
            }
        }
    }
    int full_columns = 0;
    for (; every_row; every_row &= (uint8_t)(every_row - 1)) {
        full_columns++;
    }
    int complete = 0;
    for (int c = 0; c < AZ_COLORS; c++) {
        complete += per_color[c] == 5;
    }
    *rows = az_complete_rows(b);
    *columns = full_columns;
    *colors = complete;
}

/* E4: the highest score wins; a tie goes to the tied players with the most complete
 * rows, and a tie on both is shared.  Bit p: player p wins. */
uint8_t
az_winners(const az_game *g)
{
    int64_t best = g->board[0].score;
    for (int p = 1; p < g->players; p++) {
        if (g->board[p].score > best) {
            best = g->board[p].score;
        }
    }
    int most = -1;
    for (int p = 0; p < g->players; p++) {
        if (g->board[p].score == best) {
            int rows = az_complete_rows(&g->board[p]);
            most = rows > most ? rows : most;
        }
    }
    uint8_t tied = 0;
    int count = 0;
    for (int p = 0; p < g->players; p++) {
        if (g->board[p].score == best) {
            tied |= (uint8_t)(1 << p);
            count++;
        }
    }
    if (count == 1) {
        return tied;
    }
    uint8_t winners = 0;
    for (int p = 0; p < g->players; p++) {
        if ((tied >> p & 1) && az_complete_rows(&g->board[p]) == most) {
            winners |= (uint8_t)(1 << p);
        }
    }
    return winners;
}
