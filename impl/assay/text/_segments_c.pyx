"""Compiled twin of :func:`assay.text.segments.has_missing`: a scan of the list's item pointers.

The pure path (``any(s is None for s in stream)``) takes a reference to every item, writing to each
object; on a corpus larger than the CPU caches that is a memory miss a segment. The twin compares
the pointers the list holds with ``None``'s and never touches the items.
"""
from cpython.object cimport PyObject


cdef extern from "Python.h":
    PyObject* PyList_GET_ITEM(object, Py_ssize_t)     # borrowed, no reference taken
    Py_ssize_t PyList_GET_SIZE(object)


def has_none(list items):
    """Whether ``items`` holds ``None``."""
    cdef Py_ssize_t i, n = PyList_GET_SIZE(items)
    cdef PyObject* none = <PyObject*>None
    for i in range(n):
        if PyList_GET_ITEM(items, i) == none:
            return True
    return False
