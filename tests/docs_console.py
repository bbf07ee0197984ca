"""Runs the ```` ```console ```` blocks of the docs in process, and checks what they print.

A block is a terminal session: ``$ command`` lines (a trailing ``\\`` continues a command),
each followed by what it prints, compared as doctest compares (``...`` stands for any text,
runs of whitespace are equal). The commands a page may use are the ones a reader of the
tutorial and how-to guides types, each run for real but without a subprocess or a socket:

- ``events-calendar ...``: ``cli.main`` itself; ``serve`` builds the app uvicorn would run
  (``uvicorn.run`` is replaced) and registers it at its host and port;
- ``./scripts/serve ...``: the ``events-calendar`` lines of that script, with its arguments;
- ``curl ...`` (``-s -i -u -H -X -d``): a request to an app ``serve`` registered, through
  httpx's ASGI transport, so the answer is the served app's own;
- ``| python3 -m json.tool``, ``| tail -n N``: the two filters the pages pipe into;
- ``NAME=$(...)`` and ``$NAME``: shell variables, e.g. a password a command printed.

Anything else is an error, so a page cannot show a command this runner silently skips.
"""

from __future__ import annotations

import asyncio
import contextlib
import doctest
import importlib
import io
import json
import re
import shlex
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest

from events_calendar import cli

ROOT = Path(__file__).resolve().parent.parent
BLOCK = re.compile(r"^```console\n(.*?)^```", re.DOTALL | re.MULTILINE)
_ASSIGN = re.compile(r"^(\w+)=\$\((.*)\)$")
_VARIABLE = re.compile(r"\$\{?(\w+)\}?")
_CHECKER = doctest.OutputChecker()
_OPTIONS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


def sessions(text: str) -> list[list[tuple[str, str]]]:
    """The ``(command, expected output)`` pairs of each console block of a page."""
    found = []
    for block in BLOCK.findall(text):
        steps: list[tuple[str, str]] = []
        command: str | None = None
        output: list[str] = []
        continued = False
        for line in block.splitlines():
            if continued:
                assert command is not None
                command += " " + line.strip()
            elif line.startswith("$ "):
                if command is not None:
                    steps.append((command, "\n".join(output)))
                command, output = line[2:], []
            else:
                output.append(line)
            continued = line.endswith("\\")
            if continued and command is not None:
                command = command[:-1].rstrip()
        if command is not None:
            steps.append((command, "\n".join(output)))
        found.append(steps)
    return found


class Console:
    """One reader's terminal: shell variables and the servers ``serve`` started."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.variables: dict[str, str] = {}
        self.servers: dict[tuple[str, int], Any] = {}
        monkeypatch.setattr("uvicorn.run", self._serve)

    def _serve(self, target: str, *, factory: bool, host: str, port: int, **_: Any) -> None:
        module, name = target.split(":")
        make = getattr(importlib.import_module(module), name)
        self.servers[(host, port)] = make() if factory else make

    def check(self, command: str, expected: str) -> None:
        """Run ``command`` and compare what it printed with the page's text."""
        printed = self.run(command)
        want = expected.strip() + "\n" if expected.strip() else ""
        if not _CHECKER.check_output(want, printed, _OPTIONS):
            raise AssertionError(f"$ {command}\nexpected:\n{want}\nprinted:\n{printed}")

    def run(self, command: str) -> str:
        assigned = _ASSIGN.match(command)
        if assigned:
            self.variables[assigned.group(1)] = self.run(assigned.group(2)).strip()
            return ""
        stages = [s.strip() for s in command.split(" | ")]
        text = self._program(self._words(stages[0]))
        for stage in stages[1:]:
            text = self._filter(shlex.split(stage))(text)
        return text

    def _words(self, command: str) -> list[str]:
        expanded = _VARIABLE.sub(lambda m: self.variables[m.group(1)], command)
        return shlex.split(expanded)

    def _program(self, words: list[str]) -> str:
        program, args = words[0], words[1:]
        if program == "events-calendar":
            return _cli(args)
        if program == "./scripts/serve":
            return "".join(_cli([*line, *args]) for line in _script_commands("scripts/serve"))
        if program == "curl":
            return self._curl(args)
        raise AssertionError(f"the docs' console runner does not run {program!r}")

    @staticmethod
    def _filter(words: list[str]) -> Callable[[str], str]:
        if words == ["python3", "-m", "json.tool"]:
            return lambda text: json.dumps(json.loads(text), indent=4) + "\n"
        if words[0] == "tail":
            count = int(words[-1].lstrip("-"))
            return lambda text: "".join(text.splitlines(keepends=True)[-count:])
        raise AssertionError(f"the docs' console runner has no filter {words!r}")

    def _curl(self, args: list[str]) -> str:
        method, headers, body, auth, show_headers, url = None, {}, None, None, False, None
        options = iter(args)
        for arg in options:
            if arg == "-s":
                continue
            if arg == "-i":
                show_headers = True
            elif arg == "-X":
                method = next(options)
            elif arg == "-H":
                name, value = next(options).split(":", 1)
                headers[name.strip()] = value.strip()
            elif arg == "-u":
                login, password = next(options).split(":", 1)
                auth = (login, password)
            elif arg == "-d":
                body = next(options)
                headers.setdefault("Content-Type", "application/x-www-form-urlencoded")
            else:
                url = arg
        assert url is not None, "curl without a URL"
        parts = urlsplit(url)
        assert parts.hostname is not None, url
        assert parts.port is not None, url
        transport = httpx.ASGITransport(app=self.servers[(parts.hostname, parts.port)])

        async def send() -> httpx.Response:
            async with httpx.AsyncClient(transport=transport) as client:
                return await client.request(
                    method or ("POST" if body is not None else "GET"),
                    url,
                    headers=headers,
                    content=body,
                    auth=auth,
                )

        answer = asyncio.run(send())
        if not show_headers:
            return answer.text
        head = [f"HTTP/1.1 {answer.status_code} {answer.reason_phrase}"]
        head += [f"{name}: {value}" for name, value in answer.headers.items()]
        return "\n".join(head) + "\n\n" + answer.text


def _cli(args: list[str]) -> str:
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        status = cli.main(args)
    assert status in (0, None), f"events-calendar {shlex.join(args)} exited {status}"
    return printed.getvalue()


def _script_commands(script: str) -> list[list[str]]:
    """The ``events-calendar`` commands a script runs, without the ``"$@"`` it passes on."""
    commands = []
    for line in (ROOT / script).read_text(encoding="utf-8").splitlines():
        words = shlex.split(line, comments=True)
        if words and words[0] == "exec":
            words = words[1:]
        if words and words[0].endswith("/events-calendar"):
            commands.append([w for w in words[1:] if w != "$@"])
    return commands
