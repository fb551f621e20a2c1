/*
 * The rules engine: Azul in plain C, no CPython inside.
 *
 * A position is a small struct of counts and bit masks (az_game); the engine's
 * functions play moves on it, one file per part of the rules, as the Python modules
 * are split:
 *
 *   tables.c   the tables read from the Python definitions (floor penalties, the
 *              coloured wall, the end bonuses) and the accepting lines (P2-P4);
 *   takes.c    a take (T1-T4, P1-P6, F1-F4) and the legal takes (core/state.py);
 *   draws.c    the seeded filling of the factories (R2; core/rounds.py, core/rng.py);
 *   wall.c     a tile on the wall and its points (W1, W3), the floor (W4, W5), the end
 *              bonuses and the winners (E2, E4; core/scoring.py, core/rounds.py);
 *   grey.c     the grey wall's tiling (V1-V4) and R7 (core/grey.py);
 *   rounds.c   the end of the factory offer, of the round and of the game (W1-W5,
 *              R1-R7, E1-E4; core/state.py);
 *   observe.c  the action ids and the observation vector of azul_rules.actions.
 *
 * Two faces use it: the CPython adapter (adapter.c, frameworks.c: the referee's frozen
 * objects in, the engine, the same objects out) and the batch engine
 * (azul_rules/ai/_batch/: many games stepped with numpy arrays).  The Python code is
 * the reference: a rule changes there first, then here (azul_rules/core/_accelerate.py).
 */
#ifndef AZUL_ENGINE_H
#define AZUL_ENGINE_H

#include <stdint.h>
#include <stddef.h>

#define AZ_COLORS 5
#define AZ_LINES 5
#define AZ_FLOOR 7
#define AZ_MAX_PLAYERS 4
#define AZ_MAX_FACTORIES 9
#define AZ_MARKER 5          /* the marker on a floor line */
#define AZ_FLOOR_LINE 5      /* a take's destination: the floor line */
#define AZ_CENTER (-1)       /* a take's source: the centre */
#define AZ_CENTER_BIT 9      /* the centre's bit in az_game.holders */
#define AZ_NOBODY (-1)       /* marker_holder: the marker lies in the centre */
#define AZ_TAKES_PER_SOURCE 30
#define AZ_PLACEMENTS 25
#define AZ_MAX_ACTIONS ((AZ_MAX_FACTORIES + 1) * AZ_TAKES_PER_SOURCE + AZ_PLACEMENTS)
/* The most tiles a pool (factory, centre, bag, lid) holds in the engine: the seeded
 * draws multiply four bag sizes in 64 bits. */
#define AZ_MAX_POOL 65535
/* Scores stay well inside 64 bits. */
#define AZ_SCORE_LIMIT ((int64_t)1 << 60)

enum az_phase { AZ_OFFER = 0, AZ_TILING = 1, AZ_REFILL = 2, AZ_OVER = 3 };

/* 128-bit products (the draws' mixed radix, an index below n from 64 random bits). */
__extension__ typedef unsigned __int128 az_u128;

/* The tables the Python definitions give (azul_rules.core.colors, .scoring), filled
 * once by the face that loads the engine (az_tables_read). */
typedef struct {
    int floor_totals[AZ_FLOOR + 1];  /* colors.FLOOR_TOTALS */
    int8_t wall_color[5][5];         /* colors.wall_color(row, column), S5 */
    int8_t wall_column[5][AZ_COLORS];/* colors.wall_column(row, colour) */
    int row_bonus, column_bonus, color_bonus;  /* scoring's E2 */
    uint64_t gamma, mix_1, mix_2;    /* rng's SplitMix64 */
    int ready;
} az_tables;

extern az_tables AZ;

/* One player's board. */
typedef struct {
    int64_t score;
    uint32_t accepting;            /* bit 5 * colour + line: the line accepts it (P2-P4) */
    int8_t line_color[AZ_LINES];   /* -1: an empty line */
    uint8_t line_count[AZ_LINES];
    int8_t cell[5][5];             /* the colour on each wall space, -1 empty */
    uint8_t row_cells[5];          /* bit column: that wall space holds a tile */
    uint8_t row_colors[5];         /* bit colour: that colour is in the wall row */
    uint8_t column_colors[5];      /* bit colour: that colour is in the wall column */
    uint8_t floor_len;
    uint8_t floor[AZ_FLOOR];       /* left to right: a colour, or AZ_MARKER */
} az_board;

/* The name of a capsule holding a copy of an az_game (the batch engine's positions,
 * given to the referee's compiled core to build GameStates from). */
#define AZ_GAME_CAPSULE "azul_rules.engine.az_game"

/* A whole position. */
typedef struct {
    uint8_t players, factories, grey, phase;
    int8_t current, start, holder;    /* holder: AZ_NOBODY while the marker is in the centre */
    uint8_t seeded;                   /* the generator below is in use (not the table's draws) */
    int64_t round;
    uint64_t rng;
    uint32_t factory[AZ_MAX_FACTORIES][AZ_COLORS];
    uint32_t center[AZ_COLORS];
    /* holders[c], bit s: source s holds colour c (the factories, then the centre at bit
     * AZ_CENTER_BIT); kept with the counts (az_sync_holders after changing them) */
    uint16_t holders[AZ_COLORS];
    uint32_t bag[AZ_COLORS], lid[AZ_COLORS];
    az_board board[AZ_MAX_PLAYERS];
} az_game;

/* A tile placed on a wall during a tiling (W1, W3). */
typedef struct {
    int8_t row, column, color, horizontal, vertical, points;
} az_placement;

/* What one player's tiling did during one call of the engine, for the CPython face,
 * which adds it to the record it had (scoring.PlayerTiling): the tiles placed (with the
 * score after the last), the lines sent to the floor (V4), the floor settled (W4: its
 * penalty and the score after it; an empty floor of the grey wall changes nothing), the
 * end bonuses (E2, with the final score). */
typedef struct {
    uint8_t placed_count, floor_line_count, settled, has_bonuses;
    az_placement placed[AZ_LINES];
    int8_t floor_lines[AZ_LINES];
    int64_t placed_score, settled_score, final_score;
    int penalty;
    int rows, columns, colors;
} az_tiling;

/* What a move did beyond the position: for the CPython face's records. */
typedef struct {
    uint8_t tiled;                    /* a tiling ran: tiling[] says what it did */
    uint8_t fresh_records;            /* the tiling started here: records start afresh */
    uint8_t round_closed;             /* the round closed (floors settled) */
    uint8_t winners;                  /* at the end: bit p, player p wins (E4) */
    uint8_t took_marker;
    uint8_t board_changed;            /* bit p: player p's board changed */
    uint8_t factories_changed;        /* a new filling (or the round's end emptied them) */
    uint32_t to_lid;                  /* tiles the take sent to the lid (F2) */
    az_tiling tiling[AZ_MAX_PLAYERS];
} az_report;

/* P2-P4, F1: the destinations a take of ``color`` may go to on board ``b``: bit d, pattern
 * line d (0-4) accepts it, bit 5 the floor, always (the one rule behind both lists of
 * legal takes, az_legal_takes' ids and az_legal_mask's mask). */
static inline uint32_t
az_destinations(const az_board *b, int color)
{
    return (b->accepting >> (5 * color) & 31) | 32;
}

/* tables.c */
void az_tables_read(const int floor_totals[AZ_FLOOR + 1], const int8_t wall_color[5][5],
                    const int bonuses[3], const uint64_t split_mix[3]);
uint32_t az_accept_empty(int line, uint8_t row_colors);
uint32_t az_accepting_of(const az_board *b);
void az_board_clear(az_board *b);
int az_board_set_wall(az_board *b, int row, int column, int color);

/* takes.c */
extern uint8_t AZ_BITS[1 << 10];  /* the bits set in m < 2**10 (after az_takes_ready) */
void az_takes_ready(void);
void az_sync_holders(az_game *g);
int az_take(az_game *g, int source, int color, int line, az_report *report);
int az_take_legal(const az_game *g, int source, int color, int line);
int az_offer_over(const az_game *g);
int az_legal_takes(const az_game *g, uint16_t *ids);
int az_random_take(az_game *g, uint64_t z, az_report *report);

/* draws.c */
uint64_t az_split_mix(uint64_t *state);
void az_draw_factories(az_game *g);
uint64_t az_seed_state(uint64_t seed);

/* wall.c */
int az_runs(const az_board *b, int row, int column, int *horizontal, int *vertical);
void az_place_on_wall(az_board *b, int row, int column, uint32_t lid[AZ_COLORS],
                      az_placement *placed);
void az_tile_colored(az_board *b, uint32_t lid[AZ_COLORS], az_tiling *tiling);
int az_settle_floor(az_board *b, uint32_t lid[AZ_COLORS]);
int az_complete_rows(const az_board *b);
void az_bonuses(const az_board *b, int *rows, int *columns, int *colors);
uint8_t az_winners(const az_game *g);

/* grey.c */
int az_next_line(const az_board *b);
uint8_t az_legal_columns(const az_board *b, int row);
void az_line_to_floor(az_board *b, int row, uint32_t lid[AZ_COLORS]);
int az_walls_can_end(const az_game *g);
int az_place_legal(const az_game *g, int line, int column);
int az_grey_place(az_game *g, int line, int column, az_report *report);
#define AZ_TILING_WAITS (-1)  /* az_grey_tiling: a player has a placement to decide */
int az_grey_tiling(az_game *g, int player, az_report *report);

/* rounds.c */
int az_place_tile(az_game *g, int line, int column, az_report *report);
void az_end_offer(az_game *g, az_report *report);
void az_close_round(az_game *g, int ends, az_report *report);
void az_game_over(az_game *g, az_report *report);
void az_new_game(az_game *g, int players, int grey, uint64_t seed, int first_player);
int az_apply_action(az_game *g, int action, az_report *report);
int az_action_legal(const az_game *g, int action);

/* observe.c */
int az_num_actions(int players, int grey);
int az_observation_size(int players);
int az_legal_actions(const az_game *g, uint16_t *ids);
int az_legal_mask(const az_game *g, uint8_t *mask);
void az_observe(const az_game *g, int player, float *out);

#endif
