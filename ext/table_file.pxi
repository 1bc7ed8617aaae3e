# Table files: what the Syzygy probe, Pyrope's own tables and the opening book share in reading
# their files -- finding tables by name in directories, mapping a file read-only, remembering why
# a file cannot be used, byte-order readers, and opening a table on its first probe under one lock
# (so that search threads probe without the GIL and a file is opened once).

import os
import re

from libc.stdlib cimport malloc, free
from libc.string cimport memcpy, strerror
from libc.stdio cimport snprintf
from libc.errno cimport errno, ENOENT
from posix.fcntl cimport open as posix_open, O_RDONLY
from posix.unistd cimport close as posix_close
from posix.stat cimport fstat, struct_stat, S_ISDIR
from posix.mman cimport mmap, munmap, PROT_READ, MAP_SHARED, MAP_FAILED

cdef extern from *:
    """
    #include <pthread.h>
    /* One lock serialises the lazy opening of tables; probes of opened tables take no lock.
       A table's state is published with release/acquire so a thread that sees "ready" also
       sees everything the opening thread wrote before it. */
    static pthread_mutex_t pyrope_tb_lock = PTHREAD_MUTEX_INITIALIZER;
    static inline void pyrope_tb_lock_acquire(void) { pthread_mutex_lock(&pyrope_tb_lock); }
    static inline void pyrope_tb_lock_release(void) { pthread_mutex_unlock(&pyrope_tb_lock); }
    static inline int pyrope_load_acquire(const int* p) { return __atomic_load_n(p, __ATOMIC_ACQUIRE); }
    static inline void pyrope_store_release(int* p, int v) { __atomic_store_n(p, v, __ATOMIC_RELEASE); }
    """
    void tb_lock "pyrope_tb_lock_acquire"() noexcept nogil
    void tb_unlock "pyrope_tb_lock_release"() noexcept nogil
    int load_acquire "pyrope_load_acquire"(const int* p) noexcept nogil
    void store_release "pyrope_store_release"(int* p, int v) noexcept nogil

cdef enum:
    TABLE_FAULT_SIZE = 200

cdef enum:
    # TableFile.state
    TABLE_UNOPENED = 0
    TABLE_READY = 1
    TABLE_BROKEN = 2

# A table's file name: the men of each side, kings first (KQvKR); the extension says the kind.
TABLE_NAME = re.compile(r"^K[QRBNP]*vK[QRBNP]*$")


cdef struct TableFile:
    char* path                  # NULL when the set has no such file
    int state                   # TABLE_UNOPENED / TABLE_READY / TABLE_BROKEN, published with release
    char fault[TABLE_FAULT_SIZE]    # why the file cannot be used
    unsigned char* data         # the mapped file; NULL while unmapped, and for an empty file
    size_t size


# A format's check of a freshly mapped file (its magic number, header, sizes): True when the file
# is usable; otherwise it has called table_broken. `owner` is the format's own record of the table.
ctypedef bint (*TableCheck)(TableFile* f, void* owner) noexcept nogil


# ---------------------------------------------------------------------------------------------
# Byte order: Syzygy's and our tables are little-endian, Polyglot books and Syzygy's Huffman
# codes big-endian.

cdef inline unsigned read_le16(const unsigned char* p) noexcept nogil:
    return p[0] | (<unsigned>p[1] << 8)


cdef inline unsigned read_le32(const unsigned char* p) noexcept nogil:
    return p[0] | (<unsigned>p[1] << 8) | (<unsigned>p[2] << 16) | (<unsigned>p[3] << 24)


cdef inline u64 read_le64(const unsigned char* p) noexcept nogil:
    cdef u64 value = 0
    cdef int i
    for i in range(7, -1, -1):
        value = (value << 8) | p[i]
    return value


cdef inline unsigned read_be16(const unsigned char* p) noexcept nogil:
    return (<unsigned>p[0] << 8) | p[1]


cdef inline unsigned read_be32(const unsigned char* p) noexcept nogil:
    return (<unsigned>p[0] << 24) | (<unsigned>p[1] << 16) | (<unsigned>p[2] << 8) | p[3]


cdef inline u64 read_be64(const unsigned char* p) noexcept nogil:
    cdef u64 value = 0
    cdef int i
    for i in range(8):
        value = (value << 8) | p[i]
    return value


# ---------------------------------------------------------------------------------------------
# Mapping a file.

cdef char* c_string(str text) except NULL:
    """A malloc'ed copy of a path in the file system's encoding (the C side keeps it)."""
    cdef bytes encoded = os.fsencode(text)
    cdef char* copy = <char*>malloc(len(encoded) + 1)
    if copy == NULL:
        raise MemoryError()
    memcpy(copy, <const char*>encoded, len(encoded) + 1)
    return copy


cdef void table_broken(TableFile* f, const char* fault, const char* detail) noexcept nogil:
    """Record why the file cannot be used; every later probe of it fails with that message."""
    snprintf(f.fault, TABLE_FAULT_SIZE, "%s%s", fault, detail)
    store_release(&f.state, TABLE_BROKEN)


cdef bint table_map(TableFile* f) noexcept nogil:
    """Map f.path read-only into f.data and f.size (an empty file maps to nothing: the format's
    check says what is missing); False, with the file marked broken, when it cannot be."""
    cdef int fd
    cdef struct_stat st
    cdef void* mapped
    fd = posix_open(f.path, O_RDONLY)
    if fd < 0:
        if errno == ENOENT:
            table_broken(f, "no such file", "")
        else:
            table_broken(f, "cannot be opened: ", strerror(errno))
        return False
    if fstat(fd, &st) != 0:
        posix_close(fd)
        table_broken(f, "cannot be read: ", strerror(errno))
        return False
    if S_ISDIR(st.st_mode):
        posix_close(fd)
        table_broken(f, "is a directory, not a file", "")
        return False
    f.size = st.st_size
    if f.size == 0:
        posix_close(fd)
        return True
    mapped = mmap(NULL, f.size, PROT_READ, MAP_SHARED, fd, 0)
    posix_close(fd)
    if mapped == MAP_FAILED:
        table_broken(f, "cannot be memory-mapped: ", strerror(errno))
        return False
    f.data = <unsigned char*>mapped
    return True


cdef inline bint table_ready(TableFile* f, TableCheck check, void* owner) noexcept nogil:
    """Whether the table's file is mapped and checked. The first probe maps it and runs the
    format's check under the open lock; every later one only reads the published state."""
    if load_acquire(&f.state) == TABLE_UNOPENED:
        tb_lock()
        if load_acquire(&f.state) == TABLE_UNOPENED and table_map(f) and check(f, owner):
            store_release(&f.state, TABLE_READY)
        tb_unlock()
    return load_acquire(&f.state) == TABLE_READY


cdef void table_close(TableFile* f) noexcept nogil:
    if f.data != NULL:
        munmap(f.data, f.size)
    free(f.path)
    f.data = NULL
    f.path = NULL


# ---------------------------------------------------------------------------------------------
# Finding tables.

def find_table_files(str paths, str label, tuple extensions, int max_men, str what):
    """The table files in `paths` (directories separated by os.pathsep), in the order of the
    directories and then of their names: (name, extension, path) for each file named like an
    ending (KQvKR + one of `extensions`) of 3 to `max_men` men. Also the problems, each naming
    the directory ("LABEL DIRECTORY: ..."): one that cannot be read, or holds no such file."""
    found, problems = [], []
    for directory in paths.split(os.pathsep):
        if not directory:
            continue
        try:
            names = sorted(os.listdir(directory))
        except FileNotFoundError:
            problems.append(f"{label} {directory}: no such directory")
            continue
        except NotADirectoryError:
            problems.append(f"{label} {directory}: not a directory")
            continue
        except OSError as error:
            problems.append(f"{label} {directory}: cannot be read ({error.strerror or error})")
            continue
        tables = 0
        for filename in names:
            stem, extension = os.path.splitext(filename)
            path = os.path.join(directory, filename)
            if extension not in extensions or not TABLE_NAME.match(stem) or len(stem) - 1 > max_men \
                    or stem == "KvK" or not os.path.isfile(path):
                continue
            found.append((stem, extension, path))
            tables += 1
        if tables == 0:
            patterns = ", ".join("*" + extension for extension in extensions)
            problems.append(f"{label} {directory}: no {what} ({patterns}) in it")
    return found, problems
