/* The m,n,k solver's value function in C: the same algorithm as engine/mnk/solver.py, line for line.
 *
 * Negamax fail-soft alpha-beta with depth-aware scores, the exact threat rules, mate-distance bounds and a
 * transposition table (keys reduced by symmetry near the root). The pure-Python kernel in
 * engine/mnk/solver.py is the readable version and the fallback; tests check that both give the same values.
 * The table here is a fixed array of 2^TABLE_BITS entries that always replaces, so node counts can differ
 * from the Python kernel's (whose table is a dict), never values.
 *
 * A deadline (CLOCK_MONOTONIC seconds, Python's time.monotonic() on Linux; 0 for none) stops a search: the clock is
 * read every STOP_CHECK + 1 states, and once it has passed, every call returns at once without touching the table and
 * `stopped` is set, so the caller knows the value it got means nothing (the count keeps every state evaluated).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_CELLS 32
#define MAX_THROUGH 32
#define MAX_SYM 8
#define TABLE_BITS 21
#define INF_SCORE 1000
#define EXACT 0
#define LOWER 1
#define UPPER 2
#define STOP_CHECK 0x3FFF /* the clock is read when count & STOP_CHECK is 0: every 16,384 states */

typedef struct {
    uint64_t key; /* position key + 1; 0 marks an empty slot */
    int16_t value;
    int8_t flag;
    int8_t cell;
} Entry;

typedef struct {
    PyObject_HEAD
    int cells;
    int sym_plies;
    int nsym;
    uint64_t full;
    int nthrough[MAX_CELLS];
    uint64_t through[MAX_CELLS][MAX_THROUGH];
    int order[MAX_CELLS];
    int sym[MAX_SYM][MAX_CELLS];
    Entry *table;
    long long count;
    double deadline;
    int stopped;
} Kernel;

static inline int popcount64(uint64_t m) { return __builtin_popcountll(m); }

static uint64_t canonical_key(const Kernel *k, uint64_t me, uint64_t opp) {
    uint64_t best = UINT64_MAX;
    for (int s = 0; s < k->nsym; s++) {
        uint64_t a = 0, b = 0, m;
        for (m = me; m; m &= m - 1) a |= 1ULL << k->sym[s][__builtin_ctzll(m)];
        for (m = opp; m; m &= m - 1) b |= 1ULL << k->sym[s][__builtin_ctzll(m)];
        uint64_t key = a << k->cells | b;
        if (key < best) best = key;
    }
    return best;
}

static inline uint64_t add_threats(const Kernel *k, uint64_t threats, uint64_t mine, int cell) {
    for (int i = 0; i < k->nthrough[cell]; i++) {
        uint64_t missing = k->through[cell][i] & ~mine;
        if (!(missing & (missing - 1))) threats |= missing;
    }
    return threats;
}

static double monotonic_seconds(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)now.tv_sec + (double)now.tv_nsec / 1e9;
}

static int value(Kernel *k, uint64_t me, uint64_t opp, int n, int alpha, int beta, uint64_t mine, uint64_t theirs) {
    if (k->stopped) return 0;
    k->count++;
    if (k->deadline > 0 && (k->count & STOP_CHECK) == 0 && monotonic_seconds() >= k->deadline) {
        k->stopped = 1;
        return 0;
    }
    const int cells = k->cells;
    uint64_t free_cells = k->full ^ (me | opp);
    if (mine & free_cells) return cells - n;
    int left = cells - n;
    if (left == 1) return 0;
    uint64_t forced = theirs & free_cells;
    if (forced) {
        if (forced & (forced - 1)) return n + 1 - cells;
        int cell = __builtin_ctzll(forced);
        me |= forced;
        mine = add_threats(k, mine, me, cell);
        return -value(k, opp, me, n + 1, -beta, -alpha, theirs, mine);
    }
    int high = left - 2;
    int low = left > 3 ? 3 - left : 0;
    if (high <= alpha) return high;
    if (low >= beta) return low;
    if (high < beta) beta = high;
    if (low > alpha) alpha = low;
    int symmetric = n <= k->sym_plies;
    uint64_t key = symmetric ? canonical_key(k, me, opp) : (me << cells | opp);
    Entry *slot = &k->table[(key * 0x9E3779B97F4A7C15ULL) >> (64 - TABLE_BITS)];
    int hint = -1;
    if (slot->key == key + 1) {
        int stored = slot->value;
        if (slot->flag == EXACT) return stored;
        if (slot->flag == LOWER) {
            if (stored >= beta) return stored;
            if (stored > alpha) alpha = stored;
        } else if (stored <= alpha) {
            return stored;
        } else if (stored < beta) {
            beta = stored;
        }
        hint = symmetric ? -1 : slot->cell;
    }
    int alpha_in = alpha;
    int best = -INF_SCORE, best_cell = -1;
    int moves[MAX_CELLS], count = 0;
    if (hint >= 0 && (free_cells >> hint & 1)) moves[count++] = hint;
    for (int i = 0; i < cells; i++) {
        int c = k->order[i];
        if ((free_cells >> c & 1) && c != hint) moves[count++] = c;
    }
    for (int i = 0; i < count; i++) {
        int cell = moves[i];
        uint64_t child = me | (1ULL << cell);
        uint64_t threats = add_threats(k, mine, child, cell);
        int v = -value(k, opp, child, n + 1, -beta, -alpha, theirs, threats);
        if (k->stopped) return 0; /* a stopped search stores nothing */
        if (v > best) {
            best = v;
            best_cell = cell;
            if (v > alpha) {
                alpha = v;
                if (v >= beta) break;
            }
        }
    }
    /* slot may have been overwritten by the children; store this node's result there anyway */
    slot->key = key + 1;
    slot->value = (int16_t)best;
    slot->flag = (int8_t)(best <= alpha_in ? UPPER : best >= beta ? LOWER : EXACT);
    slot->cell = (int8_t)best_cell;
    return best;
}

static void Kernel_dealloc(Kernel *self) {
    free(self->table);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int read_int_tuple(PyObject *seq, int *out, int max, int *length) {
    PyObject *fast = PySequence_Fast(seq, "expected a sequence of ints");
    if (!fast) return -1;
    Py_ssize_t size = PySequence_Fast_GET_SIZE(fast);
    if (size > max) {
        Py_DECREF(fast);
        PyErr_SetString(PyExc_ValueError, "sequence too long for the C kernel");
        return -1;
    }
    for (Py_ssize_t i = 0; i < size; i++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
        if (v == -1 && PyErr_Occurred()) {
            Py_DECREF(fast);
            return -1;
        }
        out[i] = (int)v;
    }
    *length = (int)size;
    Py_DECREF(fast);
    return 0;
}

/* Kernel(cells, lines_through, order, symmetries, sym_plies) */
static int Kernel_init(Kernel *self, PyObject *args, PyObject *kwds) {
    int cells, sym_plies;
    PyObject *through, *order, *syms;
    if (!PyArg_ParseTuple(args, "iOOOi", &cells, &through, &order, &syms, &sym_plies)) return -1;
    if (cells < 1 || cells > MAX_CELLS) {
        PyErr_SetString(PyExc_ValueError, "the C kernel supports 1-32 cells");
        return -1;
    }
    self->cells = cells;
    self->sym_plies = sym_plies;
    self->full = (cells == 64) ? UINT64_MAX : ((1ULL << cells) - 1);
    self->count = 0;
    self->deadline = 0;
    self->stopped = 0;
    int length;
    if (read_int_tuple(order, self->order, MAX_CELLS, &length) < 0) return -1;
    if (length != cells) {
        PyErr_SetString(PyExc_ValueError, "order must list every cell");
        return -1;
    }
    if (PySequence_Length(through) != cells || PySequence_Length(syms) > MAX_SYM) {
        PyErr_SetString(PyExc_ValueError, "lines_through needs one entry per cell; at most 8 symmetries");
        return -1;
    }
    for (int c = 0; c < cells; c++) {
        PyObject *lines = PySequence_GetItem(through, c);
        if (!lines) return -1;
        Py_ssize_t nl = PySequence_Length(lines);
        if (nl < 0 || nl > MAX_THROUGH) {
            Py_DECREF(lines);
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "too many lines through a cell");
            return -1;
        }
        for (Py_ssize_t i = 0; i < nl; i++) {
            PyObject *line = PySequence_GetItem(lines, i);
            if (!line) {
                Py_DECREF(lines);
                return -1;
            }
            self->through[c][i] = PyLong_AsUnsignedLongLong(line);
            Py_DECREF(line);
        }
        self->nthrough[c] = (int)nl;
        Py_DECREF(lines);
        if (PyErr_Occurred()) return -1;
    }
    self->nsym = (int)PySequence_Length(syms);
    for (int s = 0; s < self->nsym; s++) {
        PyObject *perm = PySequence_GetItem(syms, s);
        if (!perm) return -1;
        int ok = read_int_tuple(perm, self->sym[s], MAX_CELLS, &length);
        Py_DECREF(perm);
        if (ok < 0) return -1;
    }
    free(self->table);
    self->table = calloc((size_t)1 << TABLE_BITS, sizeof(Entry));
    if (!self->table) {
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

static PyObject *Kernel_value(Kernel *self, PyObject *args) {
    unsigned long long me, opp, mine, theirs;
    int n, alpha, beta;
    if (!PyArg_ParseTuple(args, "KKiiiKK", &me, &opp, &n, &alpha, &beta, &mine, &theirs)) return NULL;
    int v;
    Py_BEGIN_ALLOW_THREADS
    v = value(self, me, opp, n, alpha, beta, mine, theirs);
    Py_END_ALLOW_THREADS
    return PyLong_FromLong(v);
}

static PyObject *Kernel_clear(Kernel *self, PyObject *Py_UNUSED(ignored)) {
    memset(self->table, 0, ((size_t)1 << TABLE_BITS) * sizeof(Entry));
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
     "value(me, opp, n, alpha, beta, mine, theirs) -> score for the side to move (see engine.mnk.solver)"},
    {"clear", (PyCFunction)Kernel_clear, METH_NOARGS, "empty the transposition table"},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef Kernel_getset[] = {
    {"count", (getter)Kernel_get_count, (setter)Kernel_set_count, "nodes visited so far", NULL},
    {"deadline", (getter)Kernel_get_deadline, (setter)Kernel_set_deadline,
     "time.monotonic() seconds at which a search stops (0: none)", NULL},
    {"stopped", (getter)Kernel_get_stopped, (setter)Kernel_set_stopped, "true once a search passed the deadline",
     NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject KernelType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "engine.mnk._mnk_c.CKernel",
    .tp_basicsize = sizeof(Kernel),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "CKernel(cells, lines_through, order, symmetries, sym_plies): the m,n,k value function in C",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Kernel_init,
    .tp_dealloc = (destructor)Kernel_dealloc,
    .tp_methods = Kernel_methods,
    .tp_getset = Kernel_getset,
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "engine.mnk._mnk_c", "The m,n,k solver's value function in C (see engine.mnk.solver).", -1,
    NULL,
};

PyMODINIT_FUNC PyInit__mnk_c(void) {
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
