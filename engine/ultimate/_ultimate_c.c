/* The Ultimate tic-tac-toe kernels in C: the same algorithms as engine/ultimate/mcts.py, line for line.
 *
 * mcts(): MCTS-Solver (UCT, Kocsis & Szepesvari 2006; proven wins, draws and losses backed up the tree,
 * Winands, Bjornsson & Saito 2008) with random rollouts that take an immediate game win.
 * prove(): a depth-bounded AND/OR search: does the side that moves on the last ply of `depth` force a win?
 *
 * Positions are side-relative: side 0 is the player to move at the root. Each side's marks are nine 9-bit
 * masks (one per small board, cell i of board b is bit i of mask b); a move is the number 9b + i. The random
 * numbers are splitmix64 (Steele, Lea & Flood 2014), drawn exactly as the Python kernel draws them, and the UCT
 * arithmetic is the same sequence of IEEE double operations, so both kernels make the same choices: the tests
 * compare them on the same positions with the same seed and a fixed number of iterations. The board (positions,
 * moves, tables, random numbers) is in _ultimate_board.h and the proof search in _ultimate_prove.h, both included
 * here: one translation unit, one module.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include "_ultimate_board.h"

typedef struct {
    uint32_t first;
    uint32_t visits;
    uint32_t score; /* 2 a win, 1 a draw, for the player who moved into this node */
    uint8_t move;
    uint8_t count;
    uint8_t proof; /* for the player who moved into this node */
    uint8_t dist;  /* plies to the end along the proof (an upper bound for a win or loss) */
} Node;

typedef struct {
    Node *nodes;
    uint32_t used, cap;
    Pos root;
    uint64_t rng;
    double c;
    long long states;
    int max_depth;
} Tree;

/* The winner's side (0 or 1) or 2 for a draw, playing random moves that take an immediate win. */
static int rollout(Tree *t, Pos p) {
    for (;;) {
        int s = p.side;
        if (winning_move(&p) >= 0) {
            t->states++;
            return s;
        }
        int r = play(&p, random_move(&p, &t->rng));
        t->states++;
        if (r) return r == 1 ? s : 2;
    }
}

static int expand(Tree *t, uint32_t n, const Pos *p) {
    int boards = playable(p), count = 0;
    for (int b = 0; b < 9; b++)
        if (boards >> b & 1) count += __builtin_popcount(~(p->c[0][b] | p->c[1][b]) & 511);
    if (t->used + (uint32_t)count > t->cap) return 0;
    Node *node = &t->nodes[n];
    node->first = t->used;
    node->count = (uint8_t)count;
    for (int b = 0; b < 9; b++) {
        if (!(boards >> b & 1)) continue;
        int empty = ~(p->c[0][b] | p->c[1][b]) & 511;
        for (; empty; empty &= empty - 1) {
            Node *child = &t->nodes[t->used++];
            Pos q = *p;
            int move = 9 * b + __builtin_ctz(empty), r = play(&q, move);
            child->first = 0;
            child->visits = child->score = 0;
            child->move = (uint8_t)move;
            child->count = 0;
            child->proof = r == 1 ? WIN : r == 2 ? DRAW : UNKNOWN;
            child->dist = 0;
        }
    }
    return 1;
}

static uint32_t select_child(const Tree *t, uint32_t n) {
    const Node *node = &t->nodes[n];
    uint32_t best = 0;
    double best_value = -1.0, logn = log((double)node->visits);
    for (uint32_t k = node->first; k < node->first + node->count; k++) {
        const Node *ch = &t->nodes[k];
        if (ch->proof == LOSS) continue;
        if (ch->visits == 0) return k;
        double v = (double)ch->score / (2.0 * ch->visits) + t->c * sqrt(logn / ch->visits);
        if (v > best_value) {
            best_value = v;
            best = k;
        }
    }
    return best;
}

/* Settles node n from its children when they prove it; returns 1 when it became proven. */
static int resolve(Tree *t, uint32_t n) {
    Node *node = &t->nodes[n];
    if (node->proof != UNKNOWN || node->count == 0) return 0;
    int win = 0, unknown = 0, draw = 0, min_win = 255, max_draw = 0, max_loss = 0;
    for (uint32_t k = node->first; k < node->first + node->count; k++) {
        const Node *ch = &t->nodes[k];
        if (ch->proof == WIN) {
            win = 1;
            if (ch->dist < min_win) min_win = ch->dist;
        } else if (ch->proof == DRAW) {
            draw = 1;
            if (ch->dist > max_draw) max_draw = ch->dist;
        } else if (ch->proof == LOSS) {
            if (ch->dist > max_loss) max_loss = ch->dist;
        } else {
            unknown = 1;
        }
    }
    if (win) {
        node->proof = LOSS;
        node->dist = (uint8_t)(1 + min_win);
    } else if (unknown) {
        return 0;
    } else if (draw) {
        node->proof = DRAW;
        node->dist = (uint8_t)(1 + max_draw);
    } else {
        node->proof = WIN;
        node->dist = (uint8_t)(1 + max_loss);
    }
    return 1;
}

static void iterate(Tree *t) {
    Pos p = t->root;
    uint32_t path[MAX_PLIES + 1];
    int len = 0, outcome;
    uint32_t n = 0;
    path[len++] = 0;
    for (;;) {
        Node *node = &t->nodes[n];
        if (node->proof != UNKNOWN) {
            int into = p.side ^ 1;
            outcome = node->proof == WIN ? into : node->proof == LOSS ? (into ^ 1) : 2;
            break;
        }
        if (node->count == 0) {
            if ((node->visits == 0 && len > 1) || !expand(t, n, &p)) {
                outcome = rollout(t, p);
                break;
            }
            if (resolve(t, n)) continue;
        }
        n = select_child(t, n);
        play(&p, t->nodes[n].move);
        t->states++;
        path[len++] = n;
    }
    if (len - 1 > t->max_depth) t->max_depth = len - 1;
    for (int i = 0; i < len; i++) {
        Node *node = &t->nodes[path[i]];
        int into = (i + 1) & 1;
        node->visits++;
        node->score += outcome == 2 ? 1 : outcome == into ? 2 : 0;
    }
    for (int i = len - 2; i >= 0; i--)
        if (!resolve(t, path[i])) break;
}

static PyObject *py_mcts(PyObject *self, PyObject *args) {
    PyObject *mine, *theirs;
    int my_boards, opp_boards, closed, forced;
    long long iterations;
    double budget_ms, c;
    unsigned long long seed;
    unsigned long cap;
    if (!PyArg_ParseTuple(args, "OOiiiiLdKdk", &mine, &theirs, &my_boards, &opp_boards, &closed, &forced,
                          &iterations, &budget_ms, &seed, &c, &cap))
        return NULL;
    Tree t = {0};
    if (!read_position(mine, theirs, my_boards, opp_boards, closed, forced, &t.root)) return NULL;
    if (cap < 82) cap = 82;
    t.cap = (uint32_t)cap;
    t.nodes = malloc(sizeof(Node) * t.cap);
    if (!t.nodes) return PyErr_NoMemory();
    t.nodes[0] = (Node){0, 0, 0, 0, 0, UNKNOWN, 0};
    t.used = 1;
    t.rng = seed;
    t.c = c;
    long long done = 0;
    Py_BEGIN_ALLOW_THREADS;
    double deadline = now_ms() + budget_ms;
    while (t.nodes[0].proof == UNKNOWN && (iterations < 0 || done < iterations)) {
        iterate(&t);
        done++;
        if (done % CHECK_EVERY == 0 && now_ms() >= deadline) break;
    }
    Py_END_ALLOW_THREADS;
    const Node *root = &t.nodes[0];
    PyObject *children = PyTuple_New(root->count);
    for (int k = 0; children && k < root->count; k++) {
        const Node *ch = &t.nodes[root->first + k];
        PyTuple_SET_ITEM(children, k,
                         Py_BuildValue("(iIIii)", ch->move, ch->visits, ch->score, ch->proof, ch->dist));
    }
    PyObject *pv = PyList_New(0);
    for (const Node *node = root; pv && node->count;) {
        const Node *best = &t.nodes[node->first];
        for (uint32_t k = node->first + 1; k < node->first + node->count; k++)
            if (t.nodes[k].visits > best->visits) best = &t.nodes[k];
        if (best->visits == 0) break;
        PyObject *move = PyLong_FromLong(best->move);
        PyList_Append(pv, move);
        Py_XDECREF(move);
        node = best;
    }
    int proof = root->proof == WIN ? LOSS : root->proof == LOSS ? WIN : root->proof;
    PyObject *result = NULL;
    if (children && pv)
        result = Py_BuildValue("(LLIiiiOO)", done, t.states, t.used, t.max_depth, proof, root->dist, children, pv);
    Py_XDECREF(children);
    Py_XDECREF(pv);
    free(t.nodes);
    return result;
}

#include "_ultimate_prove.h"

static PyMethodDef methods[] = {
    {"mcts", py_mcts, METH_VARARGS,
     "mcts(mine, theirs, my_boards, opp_boards, closed, forced, iterations, budget_ms, seed, c, max_nodes) -> "
     "(iterations, states, nodes, max_depth, proof, dist, children, pv) (see engine.ultimate.mcts)"},
    {"prove", py_prove, METH_VARARGS,
     "prove(mine, theirs, my_boards, opp_boards, closed, forced, depth, max_nodes, budget_ms) -> "
     "(result, move, nodes) (see engine.ultimate.mcts)"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "engine.ultimate._ultimate_c", "The Ultimate tic-tac-toe kernels in C (see engine.ultimate.mcts).",
    -1, methods,
};

PyMODINIT_FUNC PyInit__ultimate_c(void) {
    init_tables();
    return PyModule_Create(&module);
}
