/* The Connect Four solver's value function in C: the same algorithm as engine/connect_four/solver.py, line for line.
 *
 * Negamax fail-soft alpha-beta on bitboards (7 bits a column, the top one a sentinel), the exact threat rules,
 * score bounds, move ordering (the table's best move, then centre first and by threats created), and a transposition
 * table of bounds and best moves: an array of 2^table_bits slots chosen by Fibonacci hashing of the key and always
 * replaced, which the Python kernel's dict imitates slot for slot, so both kernels visit the same positions and count
 * the same states.
 *
 * A deadline (CLOCK_MONOTONIC seconds, Python's time.monotonic() on Linux; 0 for none) stops a search: the clock is
 * read every STOP_CHECK states, and once it has passed, every call returns at once without touching the table and
 * `stopped` is set, so the caller knows the value it got means nothing.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define WIDTH 7
#define HEIGHT 6
#define STRIDE (HEIGHT + 1)
#define CELLS (WIDTH * HEIGHT)
#define MULTIPLIER 0x9E3779B97F4A7C15ULL
#define STOP_CHECK 0x3FFF /* the clock is read when count & STOP_CHECK is 0: every 16,384 states */

static const int centre_first[WIDTH] = {3, 2, 4, 1, 5, 0, 6};

typedef struct {
    uint64_t key; /* position key + 1; 0 marks an empty slot */
    int8_t low;
    int8_t high;
    int8_t column; /* the best move's column, -1 for none */
} Entry;

typedef struct {
    PyObject_HEAD
    int hash_shift;
    size_t slots;
    Entry *table;
    long long count;
    double deadline;
    int stopped;
} Kernel;

static uint64_t bottom_mask, board_mask, column_masks[WIDTH];

static inline uint64_t threat_cells(uint64_t mine, uint64_t mask) {
    uint64_t cells = (mine << 1) & (mine << 2) & (mine << 3);
    static const int shifts[3] = {STRIDE, STRIDE - 1, STRIDE + 1};
    for (int i = 0; i < 3; i++) {
        int s = shifts[i];
        uint64_t pair = (mine << s) & (mine << (2 * s));
        cells |= pair & ((mine << (3 * s)) | (mine >> s));
        pair = (mine >> s) & (mine >> (2 * s));
        cells |= pair & ((mine << s) | (mine >> (3 * s)));
    }
    return cells & (board_mask ^ mask);
}

static double monotonic_seconds(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)now.tv_sec + (double)now.tv_nsec / 1e9;
}

static int value(Kernel *k, uint64_t cur, uint64_t mask, int n, int alpha, int beta) {
    if (k->stopped) return 0;
    k->count++;
    if (k->deadline > 0 && (k->count & STOP_CHECK) == 0 && monotonic_seconds() >= k->deadline) {
        k->stopped = 1;
        return 0;
    }
    uint64_t opp = cur ^ mask;
    uint64_t possible = (mask + bottom_mask) & board_mask;
    uint64_t opp_wins = threat_cells(opp, mask);
    uint64_t forced = possible & opp_wins;
    if (forced) {
        if (forced & (forced - 1)) return n - 41;
        possible = forced;
    }
    possible &= ~(opp_wins >> 1);
    if (!possible) return n - 41;
    if (n >= CELLS - 2) return 0;
    int low = n - 39, high = 40 - n;
    if (low >= beta) return low;
    if (high <= alpha) return high;
    if (low > alpha) alpha = low;
    if (high < beta) beta = high;
    uint64_t key = cur + mask;
    Entry *slot = &k->table[(key * MULTIPLIER) >> k->hash_shift];
    int stored_low = low, stored_high = high, hint = -1;
    if (slot->key == key + 1) {
        stored_low = slot->low;
        stored_high = slot->high;
        hint = slot->column;
        if (stored_low >= beta) return stored_low;
        if (stored_high <= alpha) return stored_high;
        if (stored_low > alpha) alpha = stored_low;
        if (stored_high < beta) beta = stored_high;
    }
    uint64_t moves[WIDTH];
    int threats[WIDTH], count = 0;
    for (int i = 0; i < WIDTH; i++) {
        uint64_t move = possible & column_masks[centre_first[i]];
        if (!move) continue;
        int t = __builtin_popcountll(threat_cells(cur | move, mask | move));
        int at = count;
        while (at && threats[at - 1] < t) {
            threats[at] = threats[at - 1];
            moves[at] = moves[at - 1];
            at--;
        }
        threats[at] = t;
        moves[at] = move;
        count++;
    }
    if (hint >= 0) { /* the best move of an earlier search of this position goes first */
        for (int i = 0; i < count; i++) {
            if (moves[i] & column_masks[hint]) {
                uint64_t first = moves[i];
                int first_threats = threats[i];
                for (; i > 0; i--) {
                    moves[i] = moves[i - 1];
                    threats[i] = threats[i - 1];
                }
                moves[0] = first;
                threats[0] = first_threats;
                break;
            }
        }
    }
    int alpha_in = alpha, best = -CELLS, best_column = -1;
    for (int i = 0; i < count; i++) {
        int v = -value(k, opp, mask | moves[i], n + 1, -beta, -alpha);
        if (k->stopped) return 0; /* a stopped search stores nothing */
        if (v > best) {
            best = v;
            best_column = __builtin_ctzll(moves[i]) / STRIDE;
            if (v > alpha) {
                alpha = v;
                if (v >= beta) break;
            }
        }
    }
    if (best <= alpha_in) {
        if (best < stored_high) stored_high = best;
    } else if (best >= beta) {
        if (best > stored_low) stored_low = best;
    } else {
        stored_low = stored_high = best;
    }
    /* the slot may hold another position now (the children's); this node replaces it, as in Python */
    slot->key = key + 1;
    slot->low = (int8_t)stored_low;
    slot->high = (int8_t)stored_high;
    slot->column = (int8_t)best_column;
    return best;
}

static void Kernel_dealloc(Kernel *self) {
    free(self->table);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* CKernel(table_bits=22) */
static int Kernel_init(Kernel *self, PyObject *args, PyObject *kwds) {
    static char *keywords[] = {"table_bits", NULL};
    int bits = 22;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "|i", keywords, &bits)) return -1;
    if (bits < 1 || bits > 30) {
        PyErr_Format(PyExc_ValueError, "table_bits %d: choose 1-30", bits);
        return -1;
    }
    self->hash_shift = 64 - bits;
    self->slots = (size_t)1 << bits;
    self->count = 0;
    self->deadline = 0;
    self->stopped = 0;
    free(self->table);
    self->table = calloc(self->slots, sizeof(Entry));
    if (!self->table) {
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

static PyObject *Kernel_value(Kernel *self, PyObject *args) {
    unsigned long long cur, mask;
    int n, alpha, beta;
    if (!PyArg_ParseTuple(args, "KKiii", &cur, &mask, &n, &alpha, &beta)) return NULL;
    if ((cur & ~mask) || (mask & ~board_mask) || n < 0 || n >= CELLS) {
        PyErr_SetString(PyExc_ValueError, "not a position the value function takes (see engine.connect_four.solver)");
        return NULL;
    }
    int v;
    Py_BEGIN_ALLOW_THREADS
    v = value(self, cur, mask, n, alpha, beta);
    Py_END_ALLOW_THREADS
    return PyLong_FromLong(v);
}

static PyObject *Kernel_clear(Kernel *self, PyObject *Py_UNUSED(ignored)) {
    memset(self->table, 0, self->slots * sizeof(Entry));
    Py_RETURN_NONE;
}

static PyObject *Kernel_get_count(Kernel *self, void *closure) { return PyLong_FromLongLong(self->count); }

static int Kernel_set_count(Kernel *self, PyObject *value, void *closure) {
    long long v = value ? PyLong_AsLongLong(value) : -1;
    if (v == -1 && PyErr_Occurred()) return -1;
    self->count = v;
    return 0;
}

static PyObject *Kernel_get_deadline(Kernel *self, void *closure) { return PyFloat_FromDouble(self->deadline); }

static int Kernel_set_deadline(Kernel *self, PyObject *value, void *closure) {
    double v = value ? PyFloat_AsDouble(value) : -1.0;
    if (v == -1.0 && PyErr_Occurred()) return -1;
    self->deadline = v;
    return 0;
}

static PyObject *Kernel_get_stopped(Kernel *self, void *closure) { return PyBool_FromLong(self->stopped); }

static int Kernel_set_stopped(Kernel *self, PyObject *value, void *closure) {
    int v = value ? PyObject_IsTrue(value) : -1;
    if (v == -1) return -1;
    self->stopped = v;
    return 0;
}

static PyMethodDef Kernel_methods[] = {
    {"value", (PyCFunction)Kernel_value, METH_VARARGS,
     "value(cur, mask, n, alpha, beta) -> score for the side to move (see engine.connect_four.solver)"},
    {"clear", (PyCFunction)Kernel_clear, METH_NOARGS, "empty the transposition table"},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef Kernel_getset[] = {
    {"count", (getter)Kernel_get_count, (setter)Kernel_set_count, "states evaluated so far", NULL},
    {"deadline", (getter)Kernel_get_deadline, (setter)Kernel_set_deadline,
     "time.monotonic() seconds at which a search stops (0: none)", NULL},
    {"stopped", (getter)Kernel_get_stopped, (setter)Kernel_set_stopped, "true once a search passed the deadline",
     NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject KernelType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "engine.connect_four._connect_four_c.CKernel",
    .tp_basicsize = sizeof(Kernel),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "CKernel(table_bits=22): the Connect Four value function in C",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Kernel_init,
    .tp_dealloc = (destructor)Kernel_dealloc,
    .tp_methods = Kernel_methods,
    .tp_getset = Kernel_getset,
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "engine.connect_four._connect_four_c",
    "The Connect Four solver's value function in C (see engine.connect_four.solver).", -1, NULL,
};

PyMODINIT_FUNC PyInit__connect_four_c(void) {
    for (int c = 0; c < WIDTH; c++) {
        bottom_mask |= 1ULL << (c * STRIDE);
        column_masks[c] = ((1ULL << HEIGHT) - 1) << (c * STRIDE);
    }
    board_mask = bottom_mask * ((1ULL << HEIGHT) - 1);
    if (PyType_Ready(&KernelType) < 0) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    Py_INCREF(&KernelType);
    if (PyModule_AddObject(m, "CKernel", (PyObject *)&KernelType) < 0) {
        Py_DECREF(&KernelType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
