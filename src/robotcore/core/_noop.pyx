# cython: language_level=3
"""The call floor: no-op calls into a compiled extension, built with the same flags as the engines.

The bench table puts the per-call cost of the Python API next to these, so that "how close to the floor" is a
measured ratio on the same machine in the same run.
"""

cimport cython


# The same calling convention as State's methods (core/state.pyx: C method descriptors, binding=False), so that
# the floor is the cheapest call into an extension that the API's own calls also get, not a slower one.
@cython.final
@cython.binding(False)
cdef class Noop:
    cdef int acts[16]
    cdef int n

    def __cinit__(self):
        cdef int i
        self.n = 10
        for i in range(10):
            self.acts[i] = i

    def m(self):
        """No arguments, returns None."""
        pass

    def m1(self, a):
        """One argument, returned as is."""
        return a


def noop():
    pass


def collect(f):
    """Call ``f()`` and return what it returns: a C frame of its own around it, so that callgrind can count exactly
    the instructions of ``f`` (``--toggle-collect=*_noop*collect*``) without subtracting two runs."""
    return f()
