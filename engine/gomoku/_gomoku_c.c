/* The Gomoku search board in C: the same steps as engine/gomoku/board.py (PyBoard), in the same order.
 *
 * 572 windows of five cells keep each side's stone count; a move updates the windows through its cell, the two
 * sides' sums of live-window weights (the pattern evaluation), the neighbourhood counts (move generation) and the
 * Zobrist key (splitmix64 seeded with 1, as in Python). The threat search (VCF) tries the same fours in the same
 * order and keeps the same table of failed positions (exact keys, never evicted), so both count the same states.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "_gomoku_board.h"

static PyObject *cell_list(const int *cells, int n) {
    PyObject *list = PyList_New(n);
    if (!list) return NULL;
    for (int i = 0; i < n; i++) PyList_SET_ITEM(list, i, PyLong_FromLong(cells[i]));
    return list;
}

static int Board_init(Board *self, PyObject *args, PyObject *kwds) {
    static char *kwlist[] = {NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "", kwlist)) return -1;
    memset(self->cells, -1, sizeof self->cells);
    memset(self->counts, 0, sizeof self->counts);
    memset(self->near, 0, sizeof self->near);
    self->totals[0] = self->totals[1] = 0;
    self->key = 0;
    self->stones = 0;
    self->count = 0;
    return 0;
}

static int cell_side(PyObject *args, int *cell, int *side) {
    if (!PyArg_ParseTuple(args, "ii", cell, side)) return -1;
    if (*cell < 0 || *cell >= CELLS || *side < 0 || *side > 1) {
        PyErr_SetString(PyExc_ValueError, "cell 0-224 and side 0-1");
        return -1;
    }
    return 0;
}

static PyObject *Board_place(Board *self, PyObject *args) {
    int cell, side;
    if (cell_side(args, &cell, &side) < 0) return NULL;
    if (self->cells[cell] >= 0) return PyErr_Format(PyExc_ValueError, "cell %d is taken", cell);
    place(self, cell, side);
    Py_RETURN_NONE;
}

static PyObject *Board_remove(Board *self, PyObject *arg) {
    int cell = (int)PyLong_AsLong(arg);
    if (cell == -1 && PyErr_Occurred()) return NULL;
    if (cell < 0 || cell >= CELLS || self->cells[cell] < 0) return PyErr_Format(PyExc_ValueError, "no stone on %d", cell);
    take_back(self, cell);
    Py_RETURN_NONE;
}

static int side_of(PyObject *arg) {
    long side = PyLong_AsLong(arg);
    if (side == -1 && PyErr_Occurred()) return -1;
    if (side < 0 || side > 1) {
        PyErr_SetString(PyExc_ValueError, "side 0-1");
        return -1;
    }
    return (int)side;
}

static PyObject *Board_evaluate(Board *self, PyObject *arg) {
    int side = side_of(arg);
    return side < 0 ? NULL : PyLong_FromLong(self->totals[side] - self->totals[1 - side]);
}

static PyObject *Board_five_cells(Board *self, PyObject *arg) {
    int side = side_of(arg), out[CELLS];
    return side < 0 ? NULL : cell_list(out, five_cells(self, side, out));
}

static PyObject *Board_four_moves(Board *self, PyObject *arg) {
    int side = side_of(arg), out[CELLS];
    return side < 0 ? NULL : cell_list(out, four_moves(self, side, out));
}

static PyObject *Board_move_score(Board *self, PyObject *args) {
    int cell, side;
    if (cell_side(args, &cell, &side) < 0) return NULL;
    return PyLong_FromLong(move_score(self, cell, side));
}

static PyObject *Board_candidates(Board *self, PyObject *arg) {
    int side = side_of(arg), out[CELLS];
    if (side < 0) return NULL;
    if (self->stones == 0) {
        out[0] = CELLS / 2;
        return cell_list(out, 1);
    }
    long pairs[CELLS][2];
    int n = 0;
    for (int c = 0; c < CELLS; c++)
        if (self->near[c] && self->cells[c] < 0) {
            pairs[n][0] = -move_score(self, c, side);
            pairs[n][1] = c;
            n++;
        }
    qsort(pairs, n, sizeof pairs[0], by_score);
    for (int i = 0; i < n; i++) out[i] = (int)pairs[i][1];
    return cell_list(out, n);
}

static PyObject *Board_vcf(Board *self, PyObject *args) {
    int side, moves, line[CELLS + 2], len = 0;
    if (!PyArg_ParseTuple(args, "ii", &side, &moves)) return NULL;
    if (side < 0 || side > 1) return PyErr_Format(PyExc_ValueError, "side 0-1");
    Failed failed = {calloc(1024, sizeof(uint64_t)), calloc(1024, sizeof(int)), 1024, 0};
    int won = failed.keys && failed.moves ? vcf(self, side, moves, line, &len, &failed) : -1;
    free(failed.keys);
    free(failed.moves);
    if (won < 0) return PyErr_NoMemory();
    if (!won) Py_RETURN_NONE;
    return cell_list(line, len);
}

static PyObject *Board_get_count(Board *self, void *c) { return PyLong_FromLongLong(self->count); }
static int Board_set_count(Board *self, PyObject *value, void *c) {
    long long v = value ? PyLong_AsLongLong(value) : -1;
    if (v == -1 && PyErr_Occurred()) return -1;
    self->count = v;
    return 0;
}
static PyObject *Board_get_key(Board *self, void *c) { return PyLong_FromUnsignedLongLong(self->key); }
static PyObject *Board_get_stones(Board *self, void *c) { return PyLong_FromLong(self->stones); }
static PyObject *Board_get_totals(Board *self, void *c) { return Py_BuildValue("[ll]", self->totals[0], self->totals[1]); }
static PyObject *Board_get_cells(Board *self, void *c) {
    PyObject *list = PyList_New(CELLS);
    if (!list) return NULL;
    for (int i = 0; i < CELLS; i++) PyList_SET_ITEM(list, i, PyLong_FromLong(self->cells[i]));
    return list;
}

static PyMethodDef Board_methods[] = {
    {"place", (PyCFunction)Board_place, METH_VARARGS, "place(cell, side): put a stone of side on the empty cell"},
    {"remove", (PyCFunction)Board_remove, METH_O, "remove(cell): take back the stone on cell"},
    {"evaluate", (PyCFunction)Board_evaluate, METH_O, "evaluate(side) -> the pattern evaluation for side"},
    {"five_cells", (PyCFunction)Board_five_cells, METH_O, "five_cells(side) -> cells completing five"},
    {"four_moves", (PyCFunction)Board_four_moves, METH_O, "four_moves(side) -> cells making a four"},
    {"move_score", (PyCFunction)Board_move_score, METH_VARARGS, "move_score(cell, side) -> ordering score"},
    {"candidates", (PyCFunction)Board_candidates, METH_O, "candidates(side) -> empty cells near stones, best first"},
    {"vcf", (PyCFunction)Board_vcf, METH_VARARGS, "vcf(side, moves) -> the winning line or None"},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef Board_getset[] = {
    {"count", (getter)Board_get_count, (setter)Board_set_count, "threat-search states evaluated", NULL},
    {"key", (getter)Board_get_key, NULL, "the Zobrist key", NULL},
    {"stones", (getter)Board_get_stones, NULL, "stones on the board", NULL},
    {"totals", (getter)Board_get_totals, NULL, "each side's sum of live-window weights", NULL},
    {"cells", (getter)Board_get_cells, NULL, "cell -> side (0, 1) or -1", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject BoardType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "engine.gomoku._gomoku_c.Board",
    .tp_basicsize = sizeof(Board),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Board(): the Gomoku search board in C (see engine.gomoku.board.PyBoard)",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Board_init,
    .tp_methods = Board_methods,
    .tp_getset = Board_getset,
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "engine.gomoku._gomoku_c", "The Gomoku search board in C (see engine.gomoku.board).", -1,
    NULL,
};

PyMODINIT_FUNC PyInit__gomoku_c(void) {
    build_tables();
    if (PyType_Ready(&BoardType) < 0) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    Py_INCREF(&BoardType);
    if (PyModule_AddObject(m, "Board", (PyObject *)&BoardType) < 0) {
        Py_DECREF(&BoardType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
