/* The Gomoku search board in C, without Python: the tables (windows, their owners, neighbourhoods, Zobrist keys),
 * the moves and their take-backs, five cells, four moves, the move ordering score and the VCF with its table of failed
 * positions. Included by _gomoku_c.c, which needs <Python.h> first (the board is a Python object).
 */
#ifndef GOMOKU_BOARD_H
#define GOMOKU_BOARD_H

#define SIZE 15
#define CELLS (SIZE * SIZE)
#define NWIN 572

static const long line_weights[6] = {0, 1, 12, 150, 2000, 0};
static const long attack[5] = {1, 6, 40, 800, 100000};
static const long defence[5] = {0, 3, 20, 400, 50000};

static int windows[NWIN][5];
static int owners[CELLS][20];
static int owner_count[CELLS];
static int near_cells[CELLS][24];
static int near_count[CELLS];
static uint64_t zobrist[2 * CELLS];

typedef struct {
    uint64_t *keys; /* key + 1; 0 marks an empty slot */
    int *moves;
    size_t slots, used;
} Failed;

typedef struct {
    PyObject_HEAD
    int8_t cells[CELLS];
    uint8_t counts[2][NWIN];
    int near[CELLS];
    long totals[2];
    uint64_t key;
    int stones;
    long long count;
} Board;

static void place(Board *b, int cell, int side) {
    uint8_t *mine = b->counts[side], *theirs = b->counts[1 - side];
    for (int i = 0; i < owner_count[cell]; i++) {
        int w = owners[cell][i], a = mine[w], t = theirs[w];
        if (t == 0) b->totals[side] += line_weights[a + 1] - line_weights[a];
        else if (a == 0) b->totals[1 - side] -= line_weights[t];
        mine[w] = a + 1;
    }
    for (int i = 0; i < near_count[cell]; i++) b->near[near_cells[cell][i]]++;
    b->cells[cell] = side;
    b->key ^= zobrist[2 * cell + side];
    b->stones++;
}

static void take_back(Board *b, int cell) {
    int side = b->cells[cell];
    uint8_t *mine = b->counts[side], *theirs = b->counts[1 - side];
    for (int i = 0; i < owner_count[cell]; i++) {
        int w = owners[cell][i], a = mine[w] - 1, t = theirs[w];
        if (t == 0) b->totals[side] -= line_weights[a + 1] - line_weights[a];
        else if (a == 0) b->totals[1 - side] += line_weights[t];
        mine[w] = a;
    }
    for (int i = 0; i < near_count[cell]; i++) b->near[near_cells[cell][i]]--;
    b->cells[cell] = -1;
    b->key ^= zobrist[2 * cell + side];
    b->stones--;
}

/* The empty cells (ascending) where side completes five; returns how many. */
static int five_cells(Board *b, int side, int *out) {
    uint8_t *mine = b->counts[side], *theirs = b->counts[1 - side];
    char seen[CELLS];
    memset(seen, 0, sizeof seen);
    for (int w = 0; w < NWIN; w++)
        if (mine[w] == 4 && theirs[w] == 0)
            for (int k = 0; k < 5; k++)
                if (b->cells[windows[w][k]] < 0) seen[windows[w][k]] = 1;
    int n = 0;
    for (int c = 0; c < CELLS; c++)
        if (seen[c]) out[n++] = c;
    return n;
}

static int by_score(const void *x, const void *y) {
    const long *a = x, *b = y; /* pairs (-score, cell) */
    if (a[0] != b[0]) return a[0] < b[0] ? -1 : 1;
    return a[1] < b[1] ? -1 : a[1] > b[1];
}

/* The four moves of side, in more windows first, then by cell; returns how many. */
static int four_moves(Board *b, int side, int *out) {
    uint8_t *mine = b->counts[side], *theirs = b->counts[1 - side];
    int hits[CELLS];
    memset(hits, 0, sizeof hits);
    for (int w = 0; w < NWIN; w++)
        if (mine[w] == 3 && theirs[w] == 0)
            for (int k = 0; k < 5; k++)
                if (b->cells[windows[w][k]] < 0) hits[windows[w][k]]++;
    long pairs[CELLS][2];
    int n = 0;
    for (int c = 0; c < CELLS; c++)
        if (hits[c]) {
            pairs[n][0] = -hits[c];
            pairs[n][1] = c;
            n++;
        }
    qsort(pairs, n, sizeof pairs[0], by_score);
    for (int i = 0; i < n; i++) out[i] = (int)pairs[i][1];
    return n;
}

static long move_score(Board *b, int cell, int side) {
    uint8_t *mine = b->counts[side], *theirs = b->counts[1 - side];
    long score = 0;
    for (int i = 0; i < owner_count[cell]; i++) {
        int w = owners[cell][i], a = mine[w], t = theirs[w];
        if (t == 0) score += attack[a];
        else if (a == 0) score += defence[t];
    }
    return score;
}

static int failed_get(Failed *f, uint64_t key) {
    size_t i = (size_t)((key * 0x9E3779B97F4A7C15ULL) >> 20) & (f->slots - 1);
    while (f->keys[i]) {
        if (f->keys[i] == key + 1) return f->moves[i];
        i = (i + 1) & (f->slots - 1);
    }
    return -1;
}

static int failed_put(Failed *f, uint64_t key, int moves) {
    if (2 * (f->used + 1) > f->slots) {
        Failed bigger = {calloc(2 * f->slots, sizeof(uint64_t)), calloc(2 * f->slots, sizeof(int)), 2 * f->slots, 0};
        if (!bigger.keys || !bigger.moves) {
            free(bigger.keys);
            free(bigger.moves);
            return -1;
        }
        for (size_t j = 0; j < f->slots; j++)
            if (f->keys[j]) failed_put(&bigger, f->keys[j] - 1, f->moves[j]);
        free(f->keys);
        free(f->moves);
        *f = bigger;
    }
    size_t i = (size_t)((key * 0x9E3779B97F4A7C15ULL) >> 20) & (f->slots - 1);
    while (f->keys[i] && f->keys[i] != key + 1) i = (i + 1) & (f->slots - 1);
    if (!f->keys[i]) f->used++;
    f->keys[i] = key + 1;
    f->moves[i] = moves;
    return 0;
}

/* 1 when side wins by continuous fours within moves, the line appended to line[*len]; 0 when not; -1 on no memory. */
static int vcf(Board *b, int side, int moves, int *line, int *len, Failed *failed) {
    int own[CELLS], threats[CELLS], tries[CELLS], fives[CELLS];
    b->count++;
    if (five_cells(b, side, own)) {
        line[(*len)++] = own[0];
        return 1;
    }
    if (moves < 2) return 0;
    uint64_t key = b->key ^ (uint64_t)side;
    if (failed_get(failed, key) >= moves) return 0;
    int nthreats = five_cells(b, 1 - side, threats), ntries = 0;
    if (nthreats <= 1) {
        ntries = four_moves(b, side, tries);
        if (nthreats == 1) {
            int kept = 0;
            for (int i = 0; i < ntries; i++)
                if (tries[i] == threats[0]) tries[kept++] = tries[i];
            ntries = kept;
        }
    }
    for (int i = 0; i < ntries; i++) {
        int cell = tries[i];
        place(b, cell, side);
        int nfives = five_cells(b, side, fives);
        if (nfives > 1) {
            take_back(b, cell);
            line[(*len)++] = cell;
            line[(*len)++] = fives[0];
            line[(*len)++] = fives[1];
            return 1;
        }
        int reply = fives[0];
        place(b, reply, 1 - side);
        line[(*len)++] = cell;
        line[(*len)++] = reply;
        int won = vcf(b, side, moves - 1, line, len, failed);
        take_back(b, reply);
        take_back(b, cell);
        if (won) return won;
        *len -= 2;
    }
    return failed_put(failed, key, moves) < 0 ? -1 : 0;
}

static void build_tables(void) {
    static const int steps[4][2] = {{0, 1}, {1, 0}, {1, 1}, {1, -1}};
    int n = 0;
    for (int d = 0; d < 4; d++)
        for (int r = 0; r < SIZE; r++)
            for (int c = 0; c < SIZE; c++) {
                int er = r + 4 * steps[d][0], ec = c + 4 * steps[d][1];
                if (er < 0 || er >= SIZE || ec < 0 || ec >= SIZE) continue;
                for (int k = 0; k < 5; k++) windows[n][k] = (r + k * steps[d][0]) * SIZE + c + k * steps[d][1];
                n++;
            }
    for (int w = 0; w < NWIN; w++)
        for (int k = 0; k < 5; k++) {
            int cell = windows[w][k];
            owners[cell][owner_count[cell]++] = w;
        }
    for (int cell = 0; cell < CELLS; cell++) {
        int r0 = cell / SIZE, c0 = cell % SIZE;
        for (int r = r0 - 2; r <= r0 + 2; r++)
            for (int c = c0 - 2; c <= c0 + 2; c++)
                if (r >= 0 && r < SIZE && c >= 0 && c < SIZE && r * SIZE + c != cell)
                    near_cells[cell][near_count[cell]++] = r * SIZE + c;
    }
    uint64_t state = 1;
    for (int i = 0; i < 2 * CELLS; i++) {
        state += 0x9E3779B97F4A7C15ULL;
        uint64_t z = state;
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
        zobrist[i] = z ^ (z >> 31);
    }
}

#endif
