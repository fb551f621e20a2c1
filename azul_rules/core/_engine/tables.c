/*
 * The engine's tables, read from the Python definitions once (never retyped here), and
 * the accepting lines of a board (P2-P4): azul_rules.core.board's ``accepting``.
 */
#include "engine.h"

#include <string.h>

az_tables AZ;

/* ACCEPT_EMPTY[line][row colours]: the accepting bits of an empty line. */
static uint32_t ACCEPT_EMPTY[AZ_LINES][32];

/* Fills the tables: colors.FLOOR_TOTALS, colors.wall_color, scoring's end bonuses (a
 * row, a column, a colour) and rng's SplitMix64 constants (GAMMA, MIX_1, MIX_2). */
void
az_tables_read(const int floor_totals[AZ_FLOOR + 1], const int8_t wall_color[5][5],
               const int bonuses[3], const uint64_t split_mix[3])
{
    memcpy(AZ.floor_totals, floor_totals, sizeof(AZ.floor_totals));
    for (int row = 0; row < 5; row++) {
        for (int column = 0; column < 5; column++) {
            int8_t color = wall_color[row][column];
            AZ.wall_color[row][column] = color;
            AZ.wall_column[row][color] = (int8_t)column;
        }
    }
    AZ.row_bonus = bonuses[0];
    AZ.column_bonus = bonuses[1];
    AZ.color_bonus = bonuses[2];
    for (int line = 0; line < AZ_LINES; line++) {
        for (int colors = 0; colors < 32; colors++) {
            uint32_t bits = 0;
            for (int c = 0; c < AZ_COLORS; c++) {
                if (!(colors >> c & 1)) {
                    bits |= (uint32_t)1 << (5 * c + line);
                }
            }
            ACCEPT_EMPTY[line][colors] = bits;
        }
    }
    AZ.gamma = split_mix[0];
    AZ.mix_1 = split_mix[1];
    AZ.mix_2 = split_mix[2];
    az_takes_ready();
    AZ.ready = 1;
}

/* The accepting bits of empty pattern line ``line`` beside a wall row holding the
 * colours of ``row_colors`` (P2, P3): board.ACCEPT_EMPTY. */
uint32_t
az_accept_empty(int line, uint8_t row_colors)
{
    return ACCEPT_EMPTY[line][row_colors];
}

/* Which pattern lines accept which colour, packed: board._accepting_of. */
uint32_t
az_accepting_of(const az_board *b)
{
    uint32_t packed = 0;
    for (int line = 0; line < AZ_LINES; line++) {
        if (b->line_color[line] < 0) {
            packed |= az_accept_empty(line, b->row_colors[line]);
        } else if (b->line_count[line] < line + 1) {
            packed |= (uint32_t)1 << (5 * b->line_color[line] + line);
        }
    }
    return packed;
}

/* A board at the start of a game (S4). */
void
az_board_clear(az_board *b)
{
    memset(b, 0, sizeof(*b));
    memset(b->line_color, -1, sizeof(b->line_color));
    memset(b->cell, -1, sizeof(b->cell));
    b->accepting = az_accepting_of(b);
}

/* Puts ``color`` on an empty wall space (no points: for reading a position); -1 when
 * the space is taken. */
int
az_board_set_wall(az_board *b, int row, int column, int color)
{
    if (b->cell[row][column] >= 0) {
        return -1;
    }
    b->cell[row][column] = (int8_t)color;
    b->row_cells[row] |= (uint8_t)(1 << column);
    b->row_colors[row] |= (uint8_t)(1 << color);
    b->column_colors[column] |= (uint8_t)(1 << color);
    return 0;
}
