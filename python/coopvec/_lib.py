"""ctypes bindings of libcoopvec: the MLIR C API calls and the execution
engine (include/coopvec-c/ExecutionEngine.h) that the package uses.

libcoopvec.so carries the whole MLIR C API besides coopvec's own, so this one
library is all that is loaded. It is found, in this order, at:

1. the path in the environment variable ``COOPVEC_LIBRARY``;
2. the path recorded in ``coopvec/_config.py``, which CMake generates for the
   build tree's copy of the package (``<build>/python``) and for the installed
   one (``<prefix>/lib/python3/dist-packages``);
3. ``libcoopvec.so.0`` through the system's dynamic loader
   (``LD_LIBRARY_PATH``, ``ldconfig``).

The library is loaded on first use, so ``import coopvec`` and ``help(coopvec)``
work without it.

Only plain C types cross the API. Structs passed by value are declared as
ctypes Structures; the one callback the package installs (an MLIR diagnostic
handler) takes its MlirDiagnostic, a struct of one pointer, as a ``void *``
and returns MlirLogicalResult, a struct of one int8_t, as an int8_t: both
are passed exactly like their only member on the ABIs MLIR supports (x86-64
SysV, AArch64 AAPCS). Strings that MLIR prints are collected with the
library's own ``coopvecBufferCallback`` into a ``CoopvecBuffer``, so no Python
callback runs for them.
"""

import ctypes
import os
import threading

__all__ = ["EngineError", "library_path", "load"]

# CoopvecStatus (ExecutionEngine.h).
STATUS_SUCCESS = 0
STATUS_NO_BACKEND = 2

# CoopvecDType (HostArray.h).
DTYPE_F16 = 0
DTYPE_F32 = 1

# CoopvecValueKind.
KIND_VEC = 0
KIND_MEMREF = 1
KIND_SCALAR = 2
KIND_UNSUPPORTED = 3


class EngineError(RuntimeError):
    """A call of libcoopvec's execution engine failed.

    ``status`` is the ``CoopvecStatus`` code, ``status_name`` its name in
    words (``"no backend"``, ``"compile error"``, ...) and ``message`` the
    engine's message (``coopvecEngineGetError``), which ``str()`` shows too.
    """

    __module__ = "coopvec"

    def __init__(self, status, status_name, message):
        self.status = status
        self.status_name = status_name
        self.message = message
        super().__init__(f"{status_name}: {message}" if message else status_name)


class _StringRef(ctypes.Structure):
    _fields_ = [("data", ctypes.c_char_p), ("length", ctypes.c_size_t)]


class _Handle(ctypes.Structure):
    """MlirContext, MlirModule, MlirOperation, ...: a struct of one pointer."""
    _fields_ = [("ptr", ctypes.c_void_p)]


class _LogicalResult(ctypes.Structure):
    _fields_ = [("value", ctypes.c_int8)]


class _Buffer(ctypes.Structure):  # CoopvecBuffer (Support.h)
    _fields_ = [("data", ctypes.c_char_p), ("size", ctypes.c_size_t),
                ("capacity", ctypes.c_size_t)]


class Array(ctypes.Structure):  # CoopvecArray (HostArray.h)
    _fields_ = [("data", ctypes.c_void_p), ("dtype", ctypes.c_int),
                ("size", ctypes.c_int64)]


class ValueInfo(ctypes.Structure):  # CoopvecValueInfo (ExecutionEngine.h)
    _fields_ = [("kind", ctypes.c_int), ("dtype", ctypes.c_int),
                ("length", ctypes.c_int64), ("written", ctypes.c_bool),
                ("type", ctypes.c_char_p)]


class EngineOptions(ctypes.Structure):  # CoopvecEngineOptions
    _fields_ = [("target", ctypes.c_int), ("pipeline", ctypes.c_char_p),
                ("loweredModule", _Handle),
                ("sharedLibPaths", ctypes.POINTER(ctypes.c_char_p)),
                ("numSharedLibPaths", ctypes.c_ssize_t),
                ("device", ctypes.c_int), ("pipelineOptions", ctypes.c_char_p)]


_DIAGNOSTIC_HANDLER = ctypes.CFUNCTYPE(ctypes.c_int8, ctypes.c_void_p,
                                       ctypes.c_void_p)
_STRING_CALLBACK = ctypes.c_void_p  # coopvecBufferCallback, passed as a pointer

_P = ctypes.c_void_p
_PROTOTYPES = {
    # name: (restype, argtypes)
    "coopvecGetVersion": (ctypes.c_char_p, []),
    "coopvecSetupContext": (_LogicalResult, [_Handle]),
    "coopvecParsePassPipeline": (_LogicalResult, [_Handle, _StringRef, ctypes.c_bool,
                                                  _STRING_CALLBACK, _P]),
    "coopvecVerify": (_LogicalResult, [_Handle]),
    "coopvecBufferFree": (None, [ctypes.POINTER(_Buffer)]),
    "coopvecBufferAppendStr": (None, [ctypes.POINTER(_Buffer), ctypes.c_char_p]),
    "coopvecSeverityName": (ctypes.c_char_p, [ctypes.c_int]),
    "coopvecStatusGetName": (ctypes.c_char_p, [ctypes.c_int]),
    "coopvecTargetFromName": (ctypes.c_bool, [ctypes.c_char_p, ctypes.POINTER(ctypes.c_int)]),
    "coopvecTargetGetName": (ctypes.c_char_p, [ctypes.c_int]),
    "coopvecEngineOptionsGetDefault": (EngineOptions, []),
    "coopvecEngineCreate": (ctypes.c_int, [_Handle, ctypes.POINTER(EngineOptions),
                                           ctypes.POINTER(_P)]),
    "coopvecEngineCompile": (ctypes.c_int, [_P]),
    "coopvecEngineGetCompileTimes": (None, [_P, ctypes.POINTER(ctypes.c_double),
                                            ctypes.POINTER(ctypes.c_double)]),
    "coopvecEngineGetError": (ctypes.c_char_p, [_P]),
    "coopvecEngineDestroy": (None, [_P]),
    "coopvecEngineLookup": (ctypes.c_int, [_P, ctypes.c_char_p, ctypes.POINTER(_P)]),
    "coopvecFunctionGetNumArgs": (ctypes.c_ssize_t, [_P]),
    "coopvecFunctionGetNumResults": (ctypes.c_ssize_t, [_P]),
    "coopvecFunctionGetArg": (ctypes.c_int, [_P, ctypes.c_ssize_t, ctypes.POINTER(ValueInfo)]),
    "coopvecFunctionGetResult": (ctypes.c_int, [_P, ctypes.c_ssize_t,
                                                ctypes.POINTER(ValueInfo)]),
    "coopvecFunctionRun": (ctypes.c_int, [_P, ctypes.c_int64, ctypes.POINTER(Array),
                                          ctypes.c_ssize_t, ctypes.POINTER(Array),
                                          ctypes.c_ssize_t, ctypes.c_int]),
    "coopvecGetDefaultNumThreads": (ctypes.c_int, []),
    "mlirContextCreate": (_Handle, []),
    "mlirContextDestroy": (None, [_Handle]),
    "mlirContextEnableMultithreading": (None, [_Handle, ctypes.c_bool]),
    "mlirContextAttachDiagnosticHandler": (ctypes.c_uint64, [_Handle, _DIAGNOSTIC_HANDLER,
                                                             _P, _P]),
    "mlirContextDetachDiagnosticHandler": (None, [_Handle, ctypes.c_uint64]),
    "mlirDiagnosticPrint": (None, [_Handle, _STRING_CALLBACK, _P]),
    "mlirDiagnosticGetLocation": (_Handle, [_Handle]),
    "mlirDiagnosticGetSeverity": (ctypes.c_int, [_Handle]),
    "mlirDiagnosticGetNumNotes": (ctypes.c_ssize_t, [_Handle]),
    "mlirDiagnosticGetNote": (_Handle, [_Handle, ctypes.c_ssize_t]),
    "mlirLocationPrint": (None, [_Handle, _STRING_CALLBACK, _P]),
    "mlirModuleCreateParse": (_Handle, [_Handle, _StringRef]),
    "mlirModuleGetOperation": (_Handle, [_Handle]),
    "mlirModuleDestroy": (None, [_Handle]),
    "mlirOperationPrint": (None, [_Handle, _STRING_CALLBACK, _P]),
    "mlirPassManagerCreateOnOperation": (_Handle, [_Handle, _StringRef]),
    "mlirPassManagerDestroy": (None, [_Handle]),
    "mlirPassManagerGetAsOpPassManager": (_Handle, [_Handle]),
    "mlirPassManagerRunOnOp": (_LogicalResult, [_Handle, _Handle]),
}


def library_path():
    """The libcoopvec path the package loads (see the module docstring), or
    the bare name ``libcoopvec.so.0`` when the dynamic loader is to find it."""
    env = os.environ.get("COOPVEC_LIBRARY")
    if env:
        return env
    try:
        from . import _config  # generated by CMake; absent in the source tree
    except ImportError:
        _config = None
    if _config is not None and getattr(_config, "LIBRARY", None):
        return _config.LIBRARY
    return "libcoopvec.so.0"


class _Library:
    """The loaded library: every prototype above as an attribute."""

    def __init__(self, path):
        try:
            self.cdll = ctypes.CDLL(path)
        except OSError as error:
            raise OSError(
                f"coopvec: cannot load the C library {path!r} ({error}). Set "
                "COOPVEC_LIBRARY to the path of libcoopvec.so (e.g. "
                "build/lib/libcoopvec.so), put <build>/python or an installed "
                "prefix's lib/python3/dist-packages on PYTHONPATH, or add the "
                "library's folder to LD_LIBRARY_PATH") from None
        self.path = path
        for name, (restype, argtypes) in _PROTOTYPES.items():
            function = getattr(self.cdll, name)
            function.restype = restype
            function.argtypes = argtypes
            setattr(self, name, function)
        self.buffer_callback = ctypes.cast(self.cdll.coopvecBufferCallback,
                                           ctypes.c_void_p).value

    def status_name(self, status):
        return self.coopvecStatusGetName(status).decode()


_library = None
_library_lock = threading.Lock()


def load():
    """Loads libcoopvec once and returns the bindings."""
    global _library
    with _library_lock:
        if _library is None:
            _library = _Library(library_path())
        return _library


def _string_ref(data):
    return _StringRef(data, len(data))


class _Text:
    """A CoopvecBuffer that MLIR prints into through coopvecBufferCallback."""

    def __init__(self, lib):
        self.lib = lib
        self.buffer = _Buffer()

    @property
    def pointer(self):
        return ctypes.cast(ctypes.pointer(self.buffer), ctypes.c_void_p)

    def take(self):
        """The text so far, and an empty buffer."""
        text = (ctypes.string_at(self.buffer.data, self.buffer.size).decode(
            errors="replace") if self.buffer.size else "")
        self.lib.coopvecBufferFree(ctypes.byref(self.buffer))
        self.buffer = _Buffer()
        return text

    def __del__(self):
        if self.buffer.data:
            self.lib.coopvecBufferFree(ctypes.byref(self.buffer))


class Context:
    """An MlirContext set up with coopvecSetupContext, whose diagnostics are
    collected (MLIR would print them to stderr) so that errors can carry
    them."""

    def __init__(self):
        self.lib = lib = load()
        self.handle = lib.mlirContextCreate()
        # One compile at a time per context; MLIR's thread pool would only
        # add threads to a process that runs its batches on every core.
        lib.mlirContextEnableMultithreading(self.handle, False)
        self.diagnostics = []
        self._handler = _DIAGNOSTIC_HANDLER(self._on_diagnostic)
        self._handler_id = lib.mlirContextAttachDiagnosticHandler(
            self.handle, self._handler, None, None)
        if not lib.coopvecSetupContext(self.handle).value:
            message = self.take_diagnostics()
            self.destroy()
            raise RuntimeError("coopvec: cannot load the coopvec dialect: " + message)

    def _format(self, diagnostic, text):
        lib = self.lib
        lib.mlirLocationPrint(lib.mlirDiagnosticGetLocation(diagnostic),
                              lib.buffer_callback, text.pointer)
        severity = lib.coopvecSeverityName(lib.mlirDiagnosticGetSeverity(diagnostic))
        lib.coopvecBufferAppendStr(ctypes.byref(text.buffer),
                                   b": " + severity + b": ")
        lib.mlirDiagnosticPrint(diagnostic, lib.buffer_callback, text.pointer)
        for i in range(lib.mlirDiagnosticGetNumNotes(diagnostic)):
            lib.coopvecBufferAppendStr(ctypes.byref(text.buffer), b"\n")
            self._format(lib.mlirDiagnosticGetNote(diagnostic, i), text)

    def _on_diagnostic(self, diagnostic, _user_data):
        text = _Text(self.lib)
        self._format(_Handle(diagnostic), text)
        self.diagnostics.append(text.take())
        return 1  # handled: nothing is printed

    def take_diagnostics(self):
        text = "\n".join(self.diagnostics)
        self.diagnostics = []
        return text

    def parse(self, source):
        """Parses a module; raises ValueError with MLIR's diagnostics."""
        module = self.lib.mlirModuleCreateParse(self.handle,
                                                _string_ref(source.encode()))
        if not module.ptr:
            raise ValueError("coopvec: the generated MLIR does not parse:\n" +
                             self.take_diagnostics())
        return module

    def run_pipeline(self, module, pipeline):
        """Runs a textual pipeline (coopvec and upstream passes) on a module."""
        lib = self.lib
        errors = _Text(lib)
        pm = lib.mlirPassManagerCreateOnOperation(self.handle,
                                                  _string_ref(b"builtin.module"))
        try:
            if not lib.coopvecParsePassPipeline(
                    lib.mlirPassManagerGetAsOpPassManager(pm),
                    _string_ref(pipeline.encode()), True, lib.buffer_callback,
                    errors.pointer).value:
                raise ValueError(f"coopvec: bad pass pipeline {pipeline!r}: " +
                                 errors.take())
            if not lib.mlirPassManagerRunOnOp(
                    pm, lib.mlirModuleGetOperation(module)).value:
                raise RuntimeError(f"coopvec: pipeline {pipeline!r} failed:\n" +
                                   self.take_diagnostics())
        finally:
            lib.mlirPassManagerDestroy(pm)

    def print(self, module):
        text = _Text(self.lib)
        self.lib.mlirOperationPrint(self.lib.mlirModuleGetOperation(module),
                                    self.lib.buffer_callback, text.pointer)
        return text.take()

    def destroy(self):
        if self.handle is not None and self.handle.ptr:
            self.lib.mlirContextDetachDiagnosticHandler(self.handle, self._handler_id)
            self.lib.mlirContextDestroy(self.handle)
        self.handle = None


def _destroy_engine(lib, engine, context):
    lib.coopvecEngineDestroy(engine)  # before its context
    context.destroy()


class Engine:
    """A coopvecEngine of `module`. Takes ownership of the module (freed at
    once: the engine keeps a verified clone) and of `context`, and frees the
    engine, then the context, when garbage-collected (or at exit), or at once
    when creation fails."""

    def __init__(self, context, module, target, pipeline_options=None):
        import weakref
        lib = self.lib = context.lib
        options = lib.coopvecEngineOptionsGetDefault()
        options.target = target
        # ctypes keeps the bytes alive with `options`; the engine copies them.
        options.pipelineOptions = (pipeline_options.encode()
                                   if pipeline_options is not None else None)
        handle = ctypes.c_void_p()
        status = lib.coopvecEngineCreate(lib.mlirModuleGetOperation(module),
                                         ctypes.byref(options), ctypes.byref(handle))
        lib.mlirModuleDestroy(module)
        self.handle = handle
        # One call at a time per engine (docs/execution-engine.md): ctypes
        # releases the GIL, so Python threads could otherwise overlap.
        self.lock = threading.Lock()
        self._finalizer = weakref.finalize(self, _destroy_engine, lib,
                                           handle, context)
        if status != STATUS_SUCCESS:
            message = (lib.coopvecEngineGetError(handle).decode(errors="replace")
                       if handle.value else "")
            self._finalizer()
            raise EngineError(status, lib.status_name(status), message)

    def close(self):
        with self.lock:
            self._finalizer()

    def _alive(self):
        if not self._finalizer.alive:
            raise RuntimeError("coopvec: the model was closed")

    def check(self, status):
        if status != STATUS_SUCCESS:
            message = (self.lib.coopvecEngineGetError(self.handle).decode(
                errors="replace") if self.handle.value else "")
            raise EngineError(status, self.lib.status_name(status), message)

    def compile(self):
        with self.lock:
            self._alive()
            self.check(self.lib.coopvecEngineCompile(self.handle))

    def compile_times(self):
        lowering, jit = ctypes.c_double(), ctypes.c_double()
        self.lib.coopvecEngineGetCompileTimes(self.handle, ctypes.byref(lowering),
                                              ctypes.byref(jit))
        return lowering.value, jit.value

    def lookup(self, name):
        """The function's handle and its signature: ([args], [results]) of
        ValueInfo."""
        lib = self.lib
        function = ctypes.c_void_p()
        with self.lock:
            self._alive()
            self.check(lib.coopvecEngineLookup(self.handle, name.encode(),
                                               ctypes.byref(function)))
        args, results = [], []
        for count, get, out in (
                (lib.coopvecFunctionGetNumArgs, lib.coopvecFunctionGetArg, args),
                (lib.coopvecFunctionGetNumResults, lib.coopvecFunctionGetResult,
                 results)):
            for i in range(count(function)):
                info = ValueInfo()
                self.check(get(function, i, ctypes.byref(info)))
                out.append(info)
        return function, args, results

    def run(self, function, batch, args, results, num_threads):
        """Runs `function`; args and results are lists of (pointer, dtype,
        size) whose memory the caller keeps alive."""
        arg_array = (Array * max(len(args), 1))(*[Array(*a) for a in args])
        result_array = (Array * max(len(results), 1))(*[Array(*r) for r in results])
        with self.lock:
            self._alive()
            self.check(self.lib.coopvecFunctionRun(function, batch, arg_array,
                                                   len(args), result_array,
                                                   len(results), num_threads))


def target_from_name(name):
    """The CoopvecTarget value of 'cpu', 'cuda' or 'vulkan'."""
    lib = load()
    value = ctypes.c_int()
    # A NUL would end the C string early: 'cpu\x00x' would be read as 'cpu'.
    if (not isinstance(name, str) or "\0" in name or
            not lib.coopvecTargetFromName(name.encode(), ctypes.byref(value))):
        raise ValueError(f"coopvec: unknown target {name!r} (expected 'cpu', "
                         "'cuda' or 'vulkan')")
    return value.value


def version():
    """The version of the loaded libcoopvec, "MAJOR.MINOR.PATCH"."""
    return load().coopvecGetVersion().decode()


def default_num_threads():
    return load().coopvecGetDefaultNumThreads()
