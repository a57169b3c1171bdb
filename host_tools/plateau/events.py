"""What the host takes in, from a board or from a log, and what it writes and shows.

Every payload and every log line goes through `parse`: bounded in size and nesting before
JSON sees it, then checked for the shape its type must have. What passes is safe for every
host tool (logger, index, live view, replay): they read the fields checked here and no
others. What fails is never a crash: the caller gets the reason, and a numbered event keeps
its number (`bad`), so the numbering has no silent hole.

Shapes are checked for the fields the host tools read; other fields are the board's business
(P7: more may be added) and pass as long as they are plain bounded JSON.
"""

from __future__ import annotations

import json
import re
import unicodedata
from typing import Any

from plateau.games import Merged

MAX_DEPTH = 8  # lists and objects inside each other (a Tock snapshot needs 4)
MAX_LINE = 16384  # bytes in a log line; the host's own lines are far shorter (a frame is 1 KB)
MAX_INT = 2**53  # larger numbers are not a count, a time or a seq
EXCERPT = 200  # characters of a bad payload kept in its `bad` record


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")  # Python's json takes NaN and Infinity; we do not


_decode = json.JSONDecoder(parse_constant=_no_constant).decode  # on str: json.loads(bytes)
# sniffs the encoding each time
_TYPE = re.compile(r"[a-z][a-z0-9_]{0,31}\Z")
_BOOT = re.compile(r"[0-9A-Za-z]{1,16}\Z")
_STRUCT = re.compile(rb'["\\\[\]{}]')
# The head the board writes before an event's own fields (link.Link._send): what a frame
# that is not good JSON still says about which numbered event it was.
_HEAD = re.compile(rb'\{"boot":"([0-9A-Za-z]{1,16})","seq":(\d{1,15}),')


def _depth(data: bytes) -> int:
    """The deepest nesting of lists and objects in JSON text, found without parsing it
    (brackets inside strings do not count)."""
    deepest = level = 0
    in_str = False
    i = 0
    n = len(data)
    while i < n:
        m = _STRUCT.search(data, i)
        if m is None:
            break
        c = m.group()
        i = m.end()
        if in_str:
            if c == b"\\":
                i += 1  # the escaped character, whatever it is
            elif c == b'"':
                in_str = False
        elif c == b'"':
            in_str = True
        elif c in b"[{":
            level += 1
            deepest = max(deepest, level)
        elif c in b"]}":
            level -= 1
    return deepest


def too_deep(data: bytes) -> bool:
    if data.count(b"[") + data.count(b"{") <= MAX_DEPTH:
        return False  # cannot be deeper than that: no scan (almost every event)
    return _depth(data) > MAX_DEPTH


# --- shapes ---------------------------------------------------------------------------------
# The checks a shape's fields use (a game's host module uses them for its own: plateau/games/)


def is_text(v: Any) -> bool:
    return isinstance(v, str) and len(v) <= 256


def is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and -MAX_INT < v < MAX_INT


def is_count(v: Any) -> bool:
    return is_int(v) and v >= 0


def is_texts(v: Any) -> bool:
    return isinstance(v, list) and len(v) <= 64 and all(is_text(x) for x in v)


def is_steps(v: Any) -> bool:
    return (
        isinstance(v, list)
        and len(v) <= 16
        and all(isinstance(s, list) and len(s) == 2 and is_text(s[0]) and is_text(s[1]) for s in v)
    )


def is_amounts(v: Any) -> bool:
    """seat -> chips (stacks, blinds), or side -> goals (a score)"""
    return (
        isinstance(v, dict) and len(v) <= 16 and all(is_text(k) and is_int(x) for k, x in v.items())
    )


def is_obj(v: Any) -> bool:
    return isinstance(v, dict)


_MAYBE: dict = {}


def maybe(check):
    """`check`, or None: one function for each check, so that two games' shapes that both
    say maybe(is_text) for a field say the same."""
    if check not in _MAYBE:
        _MAYBE[check] = lambda v: v is None or check(v)
    return _MAYBE[check]


# type -> {field: (check, required)}: the fields host tools read, nothing more, of the
# events every game's table sends (the link's, the table's, the logger's own); each game's
# host module adds its own events' (its SHAPES: plateau/games/<game>), merged into SHAPES. A
# field is required only where every game's event of that type has it; readers test the
# others.
LINK_SHAPES: dict[str, dict[str, tuple[Any, bool]]] = {
    "hello": {"fw": (maybe(is_text), False), "table": (maybe(is_text), False)},
    "heartbeat": {"up": (is_int, True)},
    "gap": {"from": (is_count, True), "to": (is_count, True), "why": (is_text, False)},
    # the logger's: lines before it held numbers the board never sent (hostlink._check_log)
    "retake": {"from": (is_count, True), "why": (is_text, False)},
    # the logger's: its log could not be written for a while (a full disk...); the events
    # it held in memory meanwhile follow (logger.Logger._note)
    "outage": {"why": (is_text, False), "held": (is_count, False)},
    "answer": {"ok": (lambda v: isinstance(v, bool), True), "why": (maybe(is_text), False)},
    "error": {"what": (maybe(is_text), False), "why": (maybe(is_text), False)},
    # a tag awaited (enrol) no longer: a new game started (docs/protocol.md, Enrolment)
    "enrol_ended": {"card": (is_text, True), "why": (is_text, False)},
    "bad": {"why": (is_text, True), "text": (is_text, False)},
}


def _merged_shapes(parts: list[dict]) -> dict[str, dict[str, tuple[Any, bool]]]:
    """LINK_SHAPES and every game's SHAPES as one: for each type, each field any of them
    names, with its check (the first one given: plateau.games.trouble says when two games
    give a field two checks), required when every one that names it requires it."""
    out: dict[str, dict[str, tuple[Any, bool]]] = {}
    for part in parts:
        for kind, fields in part.items():
            into = out.setdefault(kind, {})
            for key, (check, required) in fields.items():
                had = into.get(key)
                into[key] = (had[0], had[1] and required) if had else (check, required)
    return out


# SHAPES: LINK_SHAPES with every game's, merged on first use (plateau.games.Merged)
SHAPES = Merged("SHAPES", LINK_SHAPES, _merged_shapes)


def shape(ev: Any) -> str | None:
    """None when ev is an event the host tools can use; else why not."""
    if not isinstance(ev, dict):
        return "not a JSON object"
    kind = ev.get("type")
    if not isinstance(kind, str) or not _TYPE.match(kind):
        return 'no "type", or one that is not a short lower-case name'
    boot = ev.get("boot")
    if boot is not None and not (isinstance(boot, str) and _BOOT.match(boot)):
        return '"boot" is not a short id'
    for key in ("seq", "at"):
        if key in ev and not is_count(ev[key]):
            return f'"{key}" is not a whole number >= 0'
    if "seq" in ev and "at" in ev:
        return 'an event has "seq" (numbered) or "at" (a link message), not both'
    for key, (check, required) in SHAPES.table().get(kind, {}).items():
        if key not in ev:
            if required:
                return f"{kind} without {key}"
        elif not check(ev[key]):
            return f"{kind} with a bad {key}: {excerpt(json.dumps(ev[key]), 40)}"
    if kind == "gap" and ev["from"] > ev["to"]:
        return "gap that ends before it starts"
    if kind == "gap" and "at" in ev and ev["to"] > ev["at"]:
        return "gap past the board's newest event"
    return None


def parse(data: bytes) -> tuple[dict | None, str | None]:
    """A payload or a log line -> (event, None), or (None, why it is not one)."""
    if len(data) > MAX_LINE:
        return None, f"longer than {MAX_LINE} bytes"
    if too_deep(data):
        return None, f"nested deeper than {MAX_DEPTH}"
    try:
        ev = _decode(data.decode("utf-8"))
    except (ValueError, RecursionError):  # UnicodeDecodeError included
        return None, "not JSON"
    why = shape(ev)
    return (None, why) if why else (ev, None)


def plain_json(data: bytes) -> Any:
    """A user's JSON file (a Tock position, a tag map) as plain bounded JSON: UTF-8, no NaN
    or Infinity, at most MAX_DEPTH lists and objects deep (checked before JSON sees it, so
    100,000 nested brackets are a refusal, not a RecursionError). ValueError says why."""
    try:
        text = data.decode("utf-8-sig")  # a byte-order mark (some editors write one) is not text
    except UnicodeDecodeError as e:
        raise ValueError(f"not UTF-8 text (byte {e.start})") from None
    if too_deep(data):
        raise ValueError(f"nested deeper than {MAX_DEPTH} lists and objects")
    try:
        return _decode(text)
    except ValueError as e:
        raise ValueError(f"not JSON: {e}") from None


def numbered_head(data: bytes) -> tuple[str, int] | None:
    """(boot, seq) from the head of a frame the board numbered, even when the rest of it is
    not a good event; None when it does not start like one."""
    m = _HEAD.match(data)
    return (m.group(1).decode(), int(m.group(2))) if m else None


def bad(boot: str | None, seq: int | None, why: str, data: bytes) -> dict:
    """The record of a numbered event the host could not take: keeps its number."""
    text = excerpt(data.decode("utf-8", errors="replace"), EXCERPT)
    ev: dict[str, Any] = {"type": "bad", "why": why, "text": text}
    if boot is not None and seq is not None:
        ev.update(boot=boot, seq=seq)
    return ev


def dump(ev: dict) -> bytes:
    """One log line, written by the host (never the board's bytes): compact JSON, ASCII only,
    so no byte of it can end the line or be a terminal control."""
    return json.dumps(ev, separators=(",", ":"), ensure_ascii=True).encode() + b"\n"


# --- what people see ----------------------------------------------------------------------

_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")


def clean(text: str) -> str:
    """Text safe to print on a terminal: control characters (escape sequences included) and
    invisible format characters (bidirectional overrides) become '?'."""
    text = _CONTROL.sub("?", text)
    if text.isascii():
        return text
    return "".join("?" if unicodedata.category(c) in ("Cf", "Co", "Cs") else c for c in text)


def excerpt(text: str, n: int) -> str:
    return text if len(text) <= n else text[: n - 3] + "..."
