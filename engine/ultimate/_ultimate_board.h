/* The board of the Ultimate tic-tac-toe kernels (engine/ultimate/_ultimate_c.c): positions, moves, tables, random numbers.
 *
 * Included once, by engine/ultimate/_ultimate_c.c (a header only to keep each file to one job). Positions are side-relative:
 * side 0 is the player to move at the root; each side's marks are nine 9-bit masks (cell i of board b is bit i of
 * mask b) and a move is the number 9b + i, as in engine/ultimate/mcts.py.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

#define UNKNOWN 0
#define WIN 1
#define DRAW 2
#define LOSS 3
#define CHECK_EVERY 64
#define MAX_PLIES 82

typedef struct {
    uint16_t c[2][9];
    uint16_t won[2];
    uint16_t closed;
    int8_t forced;
    uint8_t side;
} Pos;

static uint8_t WON9[512];
static uint16_t WIN_CELLS[512]; /* cells completing a line for a side holding the mask (occupied ones too) */
static uint8_t NTH[512][9];     /* NTH[m][k]: the k-th set bit of m */

static void init_tables(void) {
    static const int lines[8][3] = {{0, 1, 2}, {3, 4, 5}, {6, 7, 8}, {0, 3, 6}, {1, 4, 7}, {2, 5, 8}, {0, 4, 8}, {2, 4, 6}};
    for (int m = 0; m < 512; m++) {
        WON9[m] = 0;
        for (int l = 0; l < 8; l++) {
            int mask = (1 << lines[l][0]) | (1 << lines[l][1]) | (1 << lines[l][2]);
            if ((m & mask) == mask) WON9[m] = 1;
        }
        int k = 0;
        for (int i = 0; i < 9; i++)
            if (m >> i & 1) NTH[m][k++] = (uint8_t)i;
    }
    for (int m = 0; m < 512; m++) {
        WIN_CELLS[m] = 0;
        for (int i = 0; i < 9; i++)
            if (!(m >> i & 1) && WON9[m | 1 << i]) WIN_CELLS[m] |= (uint16_t)(1 << i);
    }
}

static inline uint64_t next_random(uint64_t *state) {
    uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static inline uint32_t below(uint64_t *state, uint32_t n) { return (uint32_t)(((next_random(state) >> 32) * n) >> 32); }

static inline int playable(const Pos *p) { return p->forced >= 0 ? 1 << p->forced : 511 & ~p->closed; }

/* Marks move 9b + i for the side to move; returns 0 (the game goes on), 1 (the mover won) or 2 (a draw). */
static inline int play(Pos *p, int move) {
    int b = move / 9, i = move % 9, s = p->side;
    uint16_t mine = p->c[s][b] |= (uint16_t)(1 << i);
    if (WON9[mine]) {
        p->won[s] |= (uint16_t)(1 << b);
        p->closed |= (uint16_t)(1 << b);
    } else if ((mine | p->c[s ^ 1][b]) == 511) {
        p->closed |= (uint16_t)(1 << b);
    }
    p->forced = (int8_t)(p->closed >> i & 1 ? -1 : i);
    p->side ^= 1;
    if (WON9[p->won[s]]) return 1;
    return p->closed == 511 ? 2 : 0;
}

/* The first move (lowest number) that wins the game at once for the side to move, or -1. */
static inline int winning_move(const Pos *p) {
    int s = p->side, boards = playable(p);
    for (int b = 0; b < 9; b++) {
        if (!(boards >> b & 1) || !WON9[p->won[s] | 1 << b]) continue;
        int cells = WIN_CELLS[p->c[s][b]] & ~(p->c[0][b] | p->c[1][b]) & 511;
        if (cells) return 9 * b + __builtin_ctz(cells);
    }
    return -1;
}

static inline int random_move(const Pos *p, uint64_t *rng) {
    int boards = playable(p), total = 0;
    for (int b = 0; b < 9; b++)
        if (boards >> b & 1) total += __builtin_popcount(~(p->c[0][b] | p->c[1][b]) & 511);
    int k = (int)below(rng, (uint32_t)total);
    for (int b = 0; b < 9; b++) {
        if (!(boards >> b & 1)) continue;
        int empty = ~(p->c[0][b] | p->c[1][b]) & 511, n = __builtin_popcount(empty);
        if (k < n) return 9 * b + NTH[empty][k];
        k -= n;
    }
    return -1;
}

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1000.0 + ts.tv_nsec / 1e6;
}

static int read_position(PyObject *mine, PyObject *theirs, int my_boards, int opp_boards, int closed, int forced, Pos *p) {
    PyObject *sides[2] = {mine, theirs};
    for (int s = 0; s < 2; s++) {
        PyObject *seq = PySequence_Fast(sides[s], "the marks are a sequence of nine 9-bit masks");
        if (!seq) return 0;
        if (PySequence_Fast_GET_SIZE(seq) != 9) {
            Py_DECREF(seq);
            PyErr_SetString(PyExc_ValueError, "the marks are nine 9-bit masks");
            return 0;
        }
        for (int b = 0; b < 9; b++) {
            long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, b));
            if (v == -1 && PyErr_Occurred()) {
                Py_DECREF(seq);
                return 0;
            }
            p->c[s][b] = (uint16_t)(v & 511);
        }
        Py_DECREF(seq);
    }
    p->won[0] = (uint16_t)(my_boards & 511);
    p->won[1] = (uint16_t)(opp_boards & 511);
    p->closed = (uint16_t)(closed & 511);
    p->forced = (int8_t)forced;
    p->side = 0;
    return 1;
}
