/* The proof search of the Ultimate tic-tac-toe kernels (engine/ultimate/_ultimate_c.c), as engine/ultimate/mcts.py's prove does it.
 *
 * Included once, by engine/ultimate/_ultimate_c.c, after engine/ultimate/_ultimate_board.h.
 */

typedef struct {
    long long nodes, max_nodes;
    double deadline;
} Proof;

static int prove_and(Proof *pf, const Pos *p, int depth, int *move);

static int spent(Proof *pf) {
    pf->nodes++;
    return pf->nodes > pf->max_nodes || (pf->nodes % 4096 == 0 && now_ms() >= pf->deadline);
}

/* Does the side to move force a win within `depth` plies (odd)? 1 yes (*move: the first winning move), 0 no,
 * -1 out of budget. */
static int prove_or(Proof *pf, const Pos *p, int depth, int *move) {
    if (spent(pf)) return -1;
    int w = winning_move(p);
    if (w >= 0) {
        *move = w;
        return 1;
    }
    if (depth < 3) return 0;
    int boards = playable(p), reply;
    for (int b = 0; b < 9; b++) {
        if (!(boards >> b & 1)) continue;
        for (int empty = ~(p->c[0][b] | p->c[1][b]) & 511; empty; empty &= empty - 1) {
            Pos q = *p;
            int m = 9 * b + __builtin_ctz(empty);
            if (play(&q, m)) continue;
            int r = prove_and(pf, &q, depth - 1, &reply);
            if (r != 0) {
                *move = m;
                return r;
            }
        }
    }
    return 0;
}

/* Does the side to move lose within `depth` plies (even) whatever it plays? 1 yes, 0 no (*move: the first move
 * that escapes), -1 out of budget. */
static int prove_and(Proof *pf, const Pos *p, int depth, int *move) {
    if (spent(pf)) return -1;
    int w = winning_move(p);
    if (w >= 0) {
        *move = w;
        return 0;
    }
    int boards = playable(p), reply;
    for (int b = 0; b < 9; b++) {
        if (!(boards >> b & 1)) continue;
        for (int empty = ~(p->c[0][b] | p->c[1][b]) & 511; empty; empty &= empty - 1) {
            Pos q = *p;
            int m = 9 * b + __builtin_ctz(empty);
            int r = play(&q, m) ? 0 : prove_or(pf, &q, depth - 1, &reply);
            if (r != 1) {
                *move = m;
                return r;
            }
        }
    }
    *move = -1;
    return 1;
}

static PyObject *py_prove(PyObject *self, PyObject *args) {
    PyObject *mine, *theirs;
    int my_boards, opp_boards, closed, forced, depth;
    long long max_nodes;
    double budget_ms;
    if (!PyArg_ParseTuple(args, "OOiiiiiLd", &mine, &theirs, &my_boards, &opp_boards, &closed, &forced, &depth,
                          &max_nodes, &budget_ms))
        return NULL;
    Pos p;
    if (!read_position(mine, theirs, my_boards, opp_boards, closed, forced, &p)) return NULL;
    if (depth < 1 || depth > 81) {
        PyErr_SetString(PyExc_ValueError, "depth is 1-81 plies");
        return NULL;
    }
    Proof pf = {0, max_nodes, 0.0};
    int move = -1, r;
    Py_BEGIN_ALLOW_THREADS;
    pf.deadline = now_ms() + budget_ms;
    r = depth % 2 ? prove_or(&pf, &p, depth, &move) : prove_and(&pf, &p, depth, &move);
    Py_END_ALLOW_THREADS;
    if (r < 0) move = -1;
    return Py_BuildValue("(iiL)", r, move, pf.nodes);
}
