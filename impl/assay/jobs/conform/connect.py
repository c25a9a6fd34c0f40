"""Connectables: name an implementation under test the way bowtie does.

- ``direct:package.module:callable[,sentence_callable]`` — an in-process Python callable, called
  through a :mod:`~assay.jobs.conform.shapes` adapter (``--shape``).
- ``cmd:PROGRAM ARGS`` — any program speaking the JSON-lines protocol (:mod:`.protocol`) on
  stdin/stdout. The command line is split with :func:`shlex.split` and run without a shell.

Every subprocess exchange is bounded: a per-case timeout, a cap on the bytes of one reply, and a
start-up timeout. A crash, hang, non-JSON or oversized reply, or a reply for another case is an
error for that case (with the stderr tail); the process is killed and restarted for the next
case. After ``max_restarts`` consecutive failed start-ups the remaining cases error at once.
"""
from __future__ import annotations

import importlib
import os
import queue
import shlex
import signal
import subprocess
import sys
import threading
import time
from collections import deque
from typing import Any

from assay.core.errors import AssayError, InputError
from assay.jobs.conform import protocol
from assay.jobs.conform.judge import Answer
from assay.jobs.conform.shapes import SHAPES, DirectShape, ShapeSkip, finite

DEFAULT_TIMEOUT = 30.0
DEFAULT_MAX_OUTPUT = 16 * 1024 * 1024     # bytes of one reply line
STDERR_TAIL = 2000                         # characters of stderr kept for error context


class Implementation:
    """Base: ``open() -> metadata``, ``answer(case_message) -> Answer``, ``close()``."""

    name = "implementation"
    info: dict[str, Any]

    def open(self) -> dict[str, Any]:
        raise NotImplementedError

    def answer(self, message: dict[str, Any]) -> Answer:
        raise NotImplementedError

    def close(self) -> None:
        pass

    def __enter__(self) -> "Implementation":
        self.open()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


def connect(spec: str, shape: str | None = None, timeout: float = DEFAULT_TIMEOUT,
            max_output: int = DEFAULT_MAX_OUTPUT, validate: bool = True) -> Implementation:
    """An implementation from its connectable string."""
    kind, _, rest = spec.partition(":")
    if kind == "direct":
        return DirectImplementation(rest, shape or "protocol")
    if kind == "cmd":
        if shape not in (None, "protocol"):
            raise InputError("--shape applies to direct: implementations (cmd: always speaks the protocol)")
        return CommandImplementation(rest, timeout=timeout, max_output=max_output, validate=validate)
    raise InputError(f"cannot read implementation {spec!r}: use direct:package.module:callable or "
                     "cmd:PROGRAM ARGS")


# ----------------------------------------------------------------------------- direct:
def load_object(target: str) -> Any:
    """``package.module:attr.path`` -> the object (import errors become InputError)."""
    module_name, sep, attr = target.partition(":")
    if not sep or not module_name or not attr:
        raise InputError(f"direct: needs package.module:callable, got {target!r}")
    try:
        obj: Any = _import(module_name)
    except ImportError as exc:
        raise InputError(f"direct:{target}: cannot import {module_name} ({exc}; run from the folder that "
                         "holds it, or put that folder on PYTHONPATH)") from None
    attr, bracket, key = attr.partition("[")
    for part in attr.split("."):
        try:
            obj = getattr(obj, part)
        except AttributeError:
            raise InputError(f"direct:{target}: {module_name} has no attribute {attr!r}") from None
    if bracket:                      # name[key]: an item, e.g. profiles[bleu/nltk@3.5]
        try:
            obj = obj[key.rstrip("]")]
        except (KeyError, LookupError, AssayError) as exc:
            raise InputError(f"direct:{target}: {exc}") from None
    return obj


def _import(module_name: str) -> Any:
    """Import ``module_name``; when its top-level package is not found, once more with the current
    directory first on ``sys.path``, as ``python -m`` would have it (the ``assay`` and ``pytest``
    console scripts do not put it there, so ``direct:mypkg.bleu:f`` run from mypkg's folder failed)."""
    try:
        return importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        cwd = os.getcwd()
        if exc.name != module_name.split(".")[0] or cwd in sys.path or "" in sys.path:
            raise
        sys.path.insert(0, cwd)
        try:
            return importlib.import_module(module_name)
        except ModuleNotFoundError as again:
            if again.name == exc.name:
                sys.path.remove(cwd)
            raise


class DirectImplementation(Implementation):
    """A Python callable in this process (no timeout: it cannot be interrupted safely)."""

    def __init__(self, target: str, shape: str = "protocol"):
        if shape not in SHAPES:
            raise InputError(f"unknown --shape {shape!r}; known: {', '.join(SHAPES)}")
        corpus, _, sentence = target.partition(",") if "[" not in target else (target, "", "")
        self.target = target
        self.name = f"direct:{target}"
        module = corpus.partition(":")[0]
        corpus_obj = load_object(corpus)
        sentence_obj = load_object(sentence if ":" in sentence else f"{module}:{sentence}") if sentence else None
        self.call = DirectShape(shape, corpus_obj, sentence_obj)
        meta = getattr(corpus_obj, "assay_conform_info", None)
        self.info = dict(meta) if isinstance(meta, dict) else {}
        self.info.setdefault("name", target)
        self.info.setdefault("shape", shape)
        self.info.setdefault("language", "python")
        self.info.setdefault("knobs", shape == "protocol" and bool(self.info.get("knobs", False)))

    def open(self) -> dict[str, Any]:
        return self.info

    def answer(self, message: dict[str, Any]) -> Answer:
        start = time.perf_counter()
        try:
            score, components = self.call(message)
        except ShapeSkip as exc:
            return Answer("skipped", message=str(exc), seconds=time.perf_counter() - start)
        except Exception as exc:  # the implementation's own failure is data, never a runner crash
            return Answer("error", message=f"{type(exc).__name__}: {exc}"[:2000],
                          context={"exception": type(exc).__name__}, seconds=time.perf_counter() - start)
        seconds = time.perf_counter() - start
        if isinstance(score, list) != (message["level"] == "sentence"):
            want = "one score per segment" if message["level"] == "sentence" else "one number"
            return Answer("broken", message=f"expected {want}, got {score!r:.80}", seconds=seconds)
        return Answer("result", score, components or {}, seconds=seconds)


# ----------------------------------------------------------------------------- cmd:
class _Process:
    """One running implementation process with bounded line reading on a thread."""

    def __init__(self, argv: list[str], max_output: int):
        self.max_output = max_output
        try:
            self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=subprocess.PIPE, bufsize=0, start_new_session=True)
        except OSError as exc:
            raise _Broken(f"cannot start {argv[0]!r}: {exc.strerror or exc}") from None
        self.lines: queue.Queue[tuple[str, Any]] = queue.Queue()
        self.stderr: deque[str] = deque()
        self._stderr_chars = 0
        threading.Thread(target=self._read_stdout, daemon=True).start()
        threading.Thread(target=self._read_stderr, daemon=True).start()

    def _read_stdout(self) -> None:
        fd = self.proc.stdout.fileno()
        buf = bytearray()
        try:
            while True:
                chunk = os.read(fd, 65536)
                if not chunk:
                    if buf:
                        self.lines.put(("line", bytes(buf)))
                    self.lines.put(("eof", None))
                    return
                buf += chunk
                while True:
                    nl = buf.find(b"\n")
                    if nl < 0:
                        break
                    self.lines.put(("line", bytes(buf[:nl])))
                    del buf[:nl + 1]
                if len(buf) > self.max_output:
                    self.lines.put(("overflow", len(buf)))
                    return
        except (OSError, ValueError):
            self.lines.put(("eof", None))

    def _read_stderr(self) -> None:
        try:
            fd = self.proc.stderr.fileno()
            for raw in iter(lambda: os.read(fd, 4096), b""):
                text = raw.decode("utf-8", "replace")
                self.stderr.append(text)
                self._stderr_chars += len(text)
                while self._stderr_chars > STDERR_TAIL * 2 and len(self.stderr) > 1:
                    self._stderr_chars -= len(self.stderr.popleft())
        except (OSError, ValueError):
            pass

    def stderr_tail(self) -> str:
        return "".join(self.stderr)[-STDERR_TAIL:].strip()

    def send(self, message: dict[str, Any]) -> None:
        try:
            self.proc.stdin.write((protocol.dumps(message) + "\n").encode("utf-8"))
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            raise _Broken(self._exit_text("the implementation closed its input")) from None

    def receive(self, timeout: float, what: str) -> Any:
        """The next reply line as JSON, or _Broken naming what went wrong."""
        try:
            kind, payload = self.lines.get(timeout=timeout)
        except queue.Empty:
            raise _Broken(f"timed out after {timeout:g} s waiting for {what} (hang?)") from None
        if kind == "eof":
            raise _Broken(self._exit_text(f"the implementation exited before answering {what}"))
        if kind == "overflow":
            raise _Broken(f"output too large: more than {self.max_output} bytes without a newline "
                          f"while waiting for {what}")
        if len(payload) > self.max_output:
            raise _Broken(f"output too large: a {len(payload)}-byte line (limit {self.max_output})")
        return decode_reply(payload, what)

    def _exit_text(self, text: str) -> str:
        try:
            code = self.proc.wait(timeout=1.0)
        except subprocess.TimeoutExpired:
            code = None
        tail = self.stderr_tail()
        status = f"exit status {code}" if code is not None and code >= 0 else (
            f"killed by signal {-code}" if code is not None else "still running")
        return f"{text} (crash: {status})" + (f"; stderr: {tail}" if tail else "")

    def kill(self) -> None:
        if self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                self.proc.kill()
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pass
        for stream in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            try:
                stream.close()
            except OSError:
                pass

    def stop(self, grace: float = 2.0) -> None:
        try:
            self.send(protocol.stop_message())
            self.proc.stdin.close()
            self.proc.wait(timeout=grace)
        except (_Broken, OSError, ValueError, subprocess.TimeoutExpired):
            pass
        self.kill()


class _Broken(Exception):
    """The implementation process misbehaved (the message says how)."""


def decode_reply(payload: bytes, what: str) -> Any:
    """One reply line as JSON; anything else (not UTF-8, not strict JSON, too deep, a number no
    double holds) is :class:`_Broken` naming what was awaited."""
    try:
        payload.decode("utf-8")
    except UnicodeDecodeError:
        raise _Broken(f"reply to {what} is not UTF-8: {payload[:80]!r}") from None
    try:
        return protocol.loads(payload)
    except protocol.ProtocolError as exc:
        raise _Broken(f"garbage output in reply to {what}: {exc}: {payload[:120]!r}") from None


#: what the runner reads from a ``started`` reply, and the type each must have to be used
_INFO_LISTS = ("metrics", "levels")
_INFO_TEXT = ("name", "version", "language", "shape", "profile", "homepage")


def started_info(reply: Any) -> dict[str, Any]:
    """The implementation's metadata from its ``started`` reply. Without schema validation
    (``--no-validate``) a field of the wrong type is dropped, so the runner never trips on it:
    ``metrics``/``levels`` must be lists of strings, ``knobs`` a boolean, the text fields strings."""
    info = reply.get("implementation") if isinstance(reply, dict) else None
    if not isinstance(info, dict):
        return {}
    out = dict(info)
    for key in _INFO_LISTS:
        if key in out and not (isinstance(out[key], list) and all(isinstance(v, str) for v in out[key])):
            del out[key]
    for key in _INFO_TEXT:
        if key in out and not isinstance(out[key], str):
            del out[key]
    if "knobs" in out and not isinstance(out["knobs"], bool):
        del out["knobs"]
    return out


class CommandImplementation(Implementation):
    """A program speaking the protocol; restarted after any misbehaviour."""

    def __init__(self, command: str, timeout: float = DEFAULT_TIMEOUT, max_output: int = DEFAULT_MAX_OUTPUT,
                 validate: bool = True, start_timeout: float | None = None, max_restarts: int = 3):
        try:
            self.argv = shlex.split(command)
        except ValueError as exc:
            raise InputError(f"cmd:{command}: {exc}") from None
        if not self.argv:
            raise InputError("cmd: needs a program to run")
        if self.argv[0] == "python":            # the interpreter running assay, not whatever is on PATH
            self.argv[0] = sys.executable
        self.name = f"cmd:{command}"
        self.timeout, self.max_output, self.validate = timeout, max_output, validate
        self.start_timeout = start_timeout if start_timeout is not None else max(timeout, 10.0)
        self.max_restarts = max_restarts
        self.info: dict[str, Any] = {}
        self._proc: _Process | None = None
        self._failed_starts = 0
        self.restarts = 0

    def _start(self) -> _Process:
        proc = _Process(self.argv, self.max_output)
        try:
            proc.send(protocol.start_message())
            reply = proc.receive(self.start_timeout, "start")
            if self.validate:
                try:
                    protocol.validate(reply, "started")
                except protocol.ProtocolError as exc:
                    raise _Broken(f"bad start reply: {exc}") from None
        except _Broken:
            proc.kill()
            raise
        self.info = started_info(reply)
        return proc

    def open(self) -> dict[str, Any]:
        try:
            self._proc = self._start()
        except _Broken as exc:
            raise InputError(f"{self.name}: {exc}") from None
        return self.info

    def answer(self, message: dict[str, Any]) -> Answer:
        if self._failed_starts >= self.max_restarts:
            return Answer("broken", message=f"not run: the implementation failed to start {self._failed_starts} "
                          "times in a row")
        start = time.perf_counter()
        try:
            if self._proc is None:
                self.restarts += 1
                try:
                    self._proc = self._start()
                except _Broken as exc:
                    self._failed_starts += 1
                    raise _Broken(f"restart failed: {exc}") from None
                self._failed_starts = 0
            self._proc.send(message)
            reply = self._proc.receive(self.timeout, f"case {message['id']}")
            answer = self._read_reply(reply, message)
        except _Broken as exc:
            context = {"stderr": self._proc.stderr_tail()} if self._proc else {}
            if self._proc is not None:
                self._proc.kill()
                self._proc = None
            return Answer("broken", message=str(exc), context=context, seconds=time.perf_counter() - start)
        answer.seconds = time.perf_counter() - start
        return answer

    def _read_reply(self, reply: Any, message: dict[str, Any]) -> Answer:
        if self.validate:
            try:
                protocol.validate(reply, "reply")
            except protocol.ProtocolError as exc:
                raise _Broken(f"garbage output: {exc}") from None
        if not isinstance(reply, dict) or reply.get("id") != message["id"]:
            got = reply.get("id") if isinstance(reply, dict) else None
            raise _Broken(f"reply for case {got!r} while waiting for {message['id']!r}")
        if "error" in reply:
            context = reply.get("context")
            return Answer("error", message=str(reply["error"]), context=context if isinstance(context, dict) else {})
        if "skipped" in reply:
            return Answer("skipped", message=str(reply["skipped"]))
        score = reply.get("score")
        if isinstance(score, list) != (message["level"] == "sentence") or not finite(score):
            want = "one score per segment" if message["level"] == "sentence" else "one number"
            raise _Broken(f"garbage output: expected {want}, got {protocol.short(score)}")
        components = reply.get("components")
        return Answer("result", score, components if isinstance(components, dict) else {})

    def reply_answer(self, reply: Any, message: dict[str, Any]) -> Answer:
        """The answer a decoded reply to ``message`` stands for; a misbehaving reply is a
        ``broken`` answer (what :meth:`answer` returns for it)."""
        try:
            return self._read_reply(reply, message)
        except _Broken as exc:
            return Answer("broken", message=str(exc))

    def close(self) -> None:
        if self._proc is not None:
            self._proc.stop()
            self._proc = None
