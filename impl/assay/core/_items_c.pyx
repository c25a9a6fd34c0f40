"""Compiled twin of :mod:`assay.core.items`: scans of a list's item pointers.

The pure checks (``set(map(type, items))``) take a reference to every item through an iterator, one
item after another; on a corpus larger than the CPU caches each is a memory miss in a chain.
:func:`has_none` compares the pointers the list holds with ``None``'s and never touches an item;
:func:`only_strings` reads each item's type in a tight loop, whose misses overlap.
"""
from cpython.object cimport PyObject, PyTypeObject


cdef extern from "Python.h":
    PyObject* PyList_GET_ITEM(object, Py_ssize_t)     # borrowed, no reference taken
    Py_ssize_t PyList_GET_SIZE(object)
    PyTypeObject* Py_TYPE(PyObject*)
    PyTypeObject PyUnicode_Type


def has_none(list items):
    """Whether ``items`` holds ``None``."""
    cdef Py_ssize_t i, n = PyList_GET_SIZE(items)
    cdef PyObject* none = <PyObject*>None
    for i in range(n):
        if PyList_GET_ITEM(items, i) == none:
            return True
    return False


def only_strings(list items, bint none_ok):
    """Whether every item of ``items`` is exactly a ``str`` (or ``None``, when ``none_ok``)."""
    cdef Py_ssize_t i, n = PyList_GET_SIZE(items)
    cdef PyObject* none = <PyObject*>None
    cdef PyObject* item
    for i in range(n):
        item = PyList_GET_ITEM(items, i)
        if Py_TYPE(item) != &PyUnicode_Type and not (none_ok and item == none):
            return False
    return True
